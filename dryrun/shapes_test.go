package dryrun

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// flowNodeChain is a flow start → m0 → … → m(n-1) → end of FlowNodes whose
// subflow (one Flow, referenced) ends at one EndNode or, with fork, branches to two (every
// FlowNode then doubles the paths).
func flowNodeChain(n int, fork bool) map[string]any {
	sub := flowSpec{nodes: map[string]map[string]any{
		"s0": {"component_type": "StartNode"},
		"s1": {"component_type": "EndNode"},
	}, order: []string{"s0", "s1"}, edges: []string{"s0>s1"}}
	if fork {
		sub = flowSpec{nodes: map[string]map[string]any{
			"s0": {"component_type": "StartNode", "inputs": props("k"), "outputs": props("k")},
			"g":  {"component_type": "BranchingNode", "inputs": props("k"), "outputs": []any{}, "branches": []any{"default", "x"}, "mapping": map[string]any{"v": "x"}},
			"e1": {"component_type": "EndNode"},
			"e2": {"component_type": "EndNode"},
		}, order: []string{"s0", "g", "e1", "e2"}, edges: []string{"s0>g", "g>e1:default", "g>e2:x"}}
	}
	sd := sub.doc()
	sd["id"], sd["name"] = "sub", "sub"
	spec := flowSpec{nodes: map[string]map[string]any{
		"s": {"component_type": "StartNode"},
		"e": {"component_type": "EndNode"},
	}, order: []string{"s"}}
	prev := "s"
	for i := 0; i < n; i++ {
		m := fmt.Sprintf("m%d", i)
		spec.nodes[m] = map[string]any{"component_type": "FlowNode", "subflow": map[string]any{"$component_ref": "sub"}}
		spec.order = append(spec.order, m)
		spec.edges = append(spec.edges, prev+">"+m)
		prev = m
	}
	spec.order = append(spec.order, "e")
	spec.edges = append(spec.edges, prev+">e")
	doc := spec.doc()
	doc["$referenced_components"].(map[string]any)["sub"] = sd // one Flow all call
	return doc
}

// TestSubOutcomesSameAsCopies: a nested flow's last outcome taking the
// path's own steps explores the same paths as copying it for every
// outcome (copyEverySubOutcome, the old way), on chains of FlowNodes whose
// subflows end once or fork, and on every corpus agent.
func TestSubOutcomesSameAsCopies(t *testing.T) {
	t.Cleanup(func() { copyEverySubOutcome = false })
	same := func(name string, a *compile.Agent, opts Options) {
		t.Helper()
		copyEverySubOutcome = true
		want := Explore(a, opts)
		copyEverySubOutcome = false
		got := Explore(a, opts)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the paths differ from the copying walk's:\n%+v\n%+v", name, got.Paths, want.Paths)
		}
	}
	for _, n := range []int{1, 2, 5} {
		for _, fork := range []bool{false, true} {
			same(fmt.Sprintf("chain %d fork %v", n, fork), agentOf(t, flowNodeChain(n, fork)), Options{})
		}
	}
	same("fork chain under the state cap", agentOf(t, flowNodeChain(6, true)), Options{MaxStates: 40})
	dir := testshared.Corpus(t)
	agents, err := filepath.Glob(filepath.Join(dir, "agents", "*", "*"))
	if err != nil || len(agents) == 0 {
		t.Fatalf("no corpus agents: %v", err)
	}
	explored := 0
	for i := 0; i < len(agents); i += race.Stride(5) {
		a, err := compile.Load(agents[i], compile.LoadOptions{})
		if err != nil || a.Flow == nil {
			continue
		}
		same(agents[i], a, Options{Children: a.FindAgent})
		explored++
	}
	if explored == 0 {
		t.Fatal("no corpus agent explored")
	}
}

// BenchmarkExploreFlowNodeChain: the dry run of a chain of n FlowNodes.
// Per node it should stay flat as the chain grows: the path was copied at
// every FlowNode (5,000: 19 s and 9 GB).
func BenchmarkExploreFlowNodeChain(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		a := agentOf(b, flowNodeChain(n, false))
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Explore(a, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/node")
		})
	}
}
