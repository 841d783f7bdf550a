package lint

import (
	"fmt"
	"maps"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// scratchDocs are documents with definitions under several
// $referenced_components, references between them (a cycle) and data
// edges naming real and unknown ports: read one after another, each with
// the scratch the one before released.
var scratchDocs = []string{
	`{"component_type": "Flow", "id": "r", "name": "r", "nodes": [{"$component_ref": "a"}, {"$component_ref": "b"}],
	  "data_flow_connections": [{"component_type": "DataFlowEdge", "name": "e", "source_node": {"$component_ref": "a"}, "source_output": "x",
	    "destination_node": {"$component_ref": "b"}, "destination_input": "nope"}],
	  "$referenced_components": {"a": {"component_type": "StartNode", "id": "a", "name": "a", "outputs": [{"title": "x", "type": "string"}]},
	    "b": {"component_type": "EndNode", "id": "b", "name": "b", "inputs": [{"title": "y", "type": "string"}]},
	    "c": {"component_type": "Flow", "id": "c", "name": "c", "nodes": [{"$component_ref": "d"}],
	      "$referenced_components": {"d": {"component_type": "Flow", "id": "d", "name": "d", "nodes": [{"$component_ref": "c"}]}}}}}`,
	`{"component_type": "Flow", "id": "s", "name": "s", "nodes": [{"$component_ref": "p"}],
	  "$referenced_components": {"p": {"component_type": "StartNode", "id": "p", "name": "p", "outputs": [{"title": "x"}, {"title": "x"}]}}}`,
}

// freshDefs walks a with the definitions made anew, as before the pool.
func freshDefs(a *compile.Agent) ([]valDef, map[*compile.Node]int, []compile.Finding) {
	p := &Pass{Agent: a, Config: &Config{}}
	w := newValWalker(&valCtx{p: p, doc: a.Flow, root: a.Flow.Root, reg: a.RegistryComponents()})
	if w.lent != nil {
		valDefsPool.Put(w.lent) // untouched: the next walk gets it
	}
	w.lent, w.defs, w.byDef = nil, nil, map[*compile.Node]int{}
	w.run()
	w.checkCycles()
	return w.defs, w.byDef, p.found
}

// The validator's definitions from valDefsPool are those made anew, in
// the same order, with the same findings, after any document before; a
// released scratch holds nothing of its document.
func TestValDefsLentSameAsFresh(t *testing.T) {
	check := func(name string, a *compile.Agent) {
		t.Helper()
		wantDefs, wantBy, wantFound := freshDefs(a)
		p := &Pass{Agent: a, Config: &Config{}}
		w := newValWalker(&valCtx{p: p, doc: a.Flow, root: a.Flow.Root, reg: a.RegistryComponents()})
		sc := w.lent
		w.run()
		w.checkCycles()
		if len(w.defs) != len(wantDefs) || (len(wantDefs) > 0 && !reflect.DeepEqual(w.defs, wantDefs)) ||
			!maps.Equal(w.byDef, wantBy) || !reflect.DeepEqual(p.found, wantFound) {
			t.Fatalf("%s: lent %v %v %d findings, made anew %v %v %d", name, w.defs, w.byDef, len(p.found), wantDefs, wantBy, len(wantFound))
		}
		w.releaseDefs()
		if w.defs != nil || w.byDef != nil || w.lent != nil {
			t.Fatalf("%s: the walk keeps its definitions after release", name)
		}
		if len(sc.byDef) != 0 {
			t.Fatalf("%s: a released map holds %d nodes", name, len(sc.byDef))
		}
		for _, d := range sc.defs[:cap(sc.defs)] {
			if d != (valDef{}) {
				t.Fatalf("%s: a released list holds %+v", name, d)
			}
		}
	}
	for round := range 3 {
		for i, src := range scratchDocs {
			check(fmt.Sprintf("round %d doc %d", round, i), rvWriteFlow(t, src))
		}
	}
	t.Run("corpus", func(t *testing.T) {
		corpus, slugs := testshared.CorpusAgents(t)
		for i, slug := range slugs {
			if i%race.Stride(8) == 0 {
				check(slug, rvLoad(t, filepath.Join(corpus, "agents", "cinatra-ai", slug)))
			}
		}
	})
}

// dataFlowFindings runs dataFlowRules on every Flow of a, with the pool
// of port scratches or (fresh) a new scratch for every Flow, which makes
// the lists anew as before the pool.
func dataFlowFindings(a *compile.Agent, fresh bool) []compile.Finding {
	p := &Pass{Agent: a, Config: &Config{}}
	for _, m := range p.model().Flows {
		if !fresh {
			dataFlowRules(p, m)
			continue
		}
		var sc *portScratch
		if len(m.Data) > 0 {
			sc = new(portScratch)
		}
		dataFlowRulesWith(p, m, sc)
	}
	return p.found
}

// dataFlowRules with port lists lent from portScratchPool finds what it
// finds with lists made anew, after any document before; a released
// scratch holds no node and no port.
func TestPortScratchSameAsFresh(t *testing.T) {
	check := func(name string, a *compile.Agent) {
		t.Helper()
		want := dataFlowFindings(a, true)
		if got := dataFlowFindings(a, false); !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: with the pool %v\nmade anew %v", name, got, want)
		}
		sc := new(portScratch)
		var outs, ins portIndex
		outs.of, ins.of = outputsOf, inputsOf
		for _, fm := range (&Pass{Agent: a, Config: &Config{}}).model().Flows {
			for i := range fm.Nodes {
				outs.get(&fm.Nodes[i]).find("x")
				ins.get(&fm.Nodes[i]).find("y")
			}
		}
		sc.release(&outs, &ins)
		if outs.all != nil || ins.keys != nil {
			t.Fatalf("%s: the index keeps its lists after release", name)
		}
		if max(cap(sc.outs), cap(sc.ins)) <= portScratchKeep {
			for _, l := range [][]ports{sc.outs[:cap(sc.outs)], sc.ins[:cap(sc.ins)]} {
				for _, ps := range l {
					if ps.list != nil || ps.byTitle != nil || ps.ok {
						t.Fatalf("%s: a released scratch holds %+v", name, ps)
					}
				}
			}
			for _, l := range [][]*compile.FlowNode{sc.outKeys[:cap(sc.outKeys)], sc.inKeys[:cap(sc.inKeys)]} {
				for _, n := range l {
					if n != nil {
						t.Fatalf("%s: a released scratch holds node %s", name, n.Label())
					}
				}
			}
		}
	}
	for round := range 3 {
		for i, src := range scratchDocs {
			check(fmt.Sprintf("round %d doc %d", round, i), rvWriteFlow(t, src))
		}
	}
	t.Run("corpus", func(t *testing.T) {
		corpus, slugs := testshared.CorpusAgents(t)
		for i, slug := range slugs {
			if i%race.Stride(8) == 0 {
				check(slug, rvLoad(t, filepath.Join(corpus, "agents", "cinatra-ai", slug)))
			}
		}
	})
}
