package compile

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// nodeType and docType are the types modelHoldsOnly stops at.
var nodeType, docType = reflect.TypeOf((*Node)(nil)), reflect.TypeOf((*Doc)(nil))

// modelDiff names the first place where a and b differ ("" when none
// found): for the message of sameModel.
func modelDiff(a, b reflect.Value, where string, seen map[[2]uintptr]bool) string {
	if a.Kind() != b.Kind() {
		return where
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() != b.IsNil() {
			return where + " (nil)"
		}
		if a.IsNil() || a.Pointer() == b.Pointer() || seen[[2]uintptr{a.Pointer(), b.Pointer()}] {
			return ""
		}
		seen[[2]uintptr{a.Pointer(), b.Pointer()}] = true
		return modelDiff(a.Elem(), b.Elem(), where, seen)
	case reflect.Struct:
		for i := range a.NumField() {
			if d := modelDiff(a.Field(i), b.Field(i), where+"."+a.Type().Field(i).Name, seen); d != "" {
				return d
			}
		}
	case reflect.Slice, reflect.Array:
		if a.Kind() == reflect.Slice && a.IsNil() != b.IsNil() {
			return where + " (nil)"
		}
		if a.Len() != b.Len() {
			return where + " (length)"
		}
		for i := range a.Len() {
			if d := modelDiff(a.Index(i), b.Index(i), where+"[]", seen); d != "" {
				return d
			}
		}
	case reflect.Map:
		if a.Len() != b.Len() {
			return where + " (length)"
		}
		it := a.MapRange()
		for it.Next() {
			bv := b.MapIndex(it.Key())
			if !bv.IsValid() {
				return where + " (key)"
			}
			if d := modelDiff(it.Value(), bv, where+"{}", seen); d != "" {
				return d
			}
		}
	case reflect.String:
		if a.String() != b.String() {
			return where
		}
	case reflect.Bool:
		if a.Bool() != b.Bool() {
			return where
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if a.Int() != b.Int() {
			return where
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if a.Uint() != b.Uint() {
			return where
		}
	}
	return ""
}

// modelHoldsOnly fails when m reaches a node that is none of docs' (a node
// of an agent built before into the same blocks), or when a slice of m
// holds anything but zero values beyond its length: it follows every
// pointer, map and slice of m (up to the slices' capacities), stopping at
// nodes.
func modelHoldsOnly(t *testing.T, name string, m *Model, docs ...*Node) {
	t.Helper()
	own := map[uintptr]bool{}
	for _, root := range docs {
		WalkNodes(root, func(n *Node) bool {
			own[reflect.ValueOf(n).Pointer()] = true
			return true
		})
	}
	seen := map[uintptr]bool{}
	var walk func(v reflect.Value, where string)
	walk = func(v reflect.Value, where string) {
		switch v.Kind() {
		case reflect.Pointer:
			if v.IsNil() {
				return
			}
			p := v.Pointer()
			if v.Type() == nodeType {
				if !own[p] {
					t.Fatalf("%s: %s holds a node of none of the agent's documents", name, where)
				}
				return
			}
			if v.Type() == docType {
				if r := v.Elem().FieldByName("Root"); !r.IsNil() && !own[r.Pointer()] {
					t.Fatalf("%s: %s holds a document that is not the agent's", name, where)
				}
				return
			}
			if seen[p] {
				return
			}
			seen[p] = true
			walk(v.Elem(), where)
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), where+"."+v.Type().Field(i).Name)
			}
		case reflect.Slice:
			all := v.Slice(0, v.Cap())
			for i := range all.Len() {
				if i >= v.Len() && !all.Index(i).IsZero() {
					t.Fatalf("%s: %s[%d], beyond its length %d, is not cleared", name, where, i, v.Len())
				}
				walk(all.Index(i), where+"[]")
			}
		case reflect.Array:
			for i := range v.Len() {
				walk(v.Index(i), where+"[]")
			}
		case reflect.Map:
			it := v.MapRange()
			for it.Next() {
				walk(it.Key(), where+"{}")
				walk(it.Value(), where+"{}")
			}
		case reflect.Interface:
			if !v.IsNil() {
				walk(v.Elem(), where)
			}
		}
	}
	walk(reflect.ValueOf(m), "Model")
}

// agentRoots are the documents a model of a may point into.
func agentRoots(a *Agent) []*Node {
	var roots []*Node
	for _, d := range []*Doc{a.Flow, a.Registry, a.Package} {
		if d != nil && d.Root != nil {
			roots = append(roots, d.Root)
		}
	}
	if r := a.RegistryComponents(); r != nil {
		roots = append(roots, r)
	}
	return roots
}

// sameModel fails unless got, a model built into lent blocks, is want, the
// model of the same documents built into new memory: every field, deeply
// (the lists at the same lengths, the definitions' tables alike), and the
// lists' capacities.
func sameModel(t *testing.T, name string, got, want *Model) {
	t.Helper()
	if got.Defs != nil && want.Defs != nil {
		want.Defs.lent = got.Defs.lent // the one field that says where the table is from
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("%s: the model built into reused blocks differs from a fresh one at %s", name, modelDiff(reflect.ValueOf(got), reflect.ValueOf(want), "Model", map[[2]uintptr]bool{}))
	}
	if len(got.Flows) != len(want.Flows) {
		t.Fatalf("%s: %d Flows, want %d", name, len(got.Flows), len(want.Flows))
	}
	for i, g := range got.Flows {
		w := want.Flows[i]
		if cap(g.Entries) != cap(w.Entries) || cap(g.Nodes) != cap(w.Nodes) || cap(g.Control) != cap(w.Control) || cap(g.Data) != cap(w.Data) {
			t.Fatalf("%s, Flow %s: capacities differ from a fresh model's", name, g.Flow.Pointer)
		}
		for k := range g.Nodes {
			if cap(g.Nodes[k].Out) != len(g.Nodes[k].Out) || cap(g.Nodes[k].In) != len(g.Nodes[k].In) {
				t.Fatalf("%s, Flow %s: a node's Out or In has spare capacity", name, g.Flow.Pointer)
			}
		}
	}
	if cap(got.typed) != len(got.typed) || cap(got.typedIDs) != len(got.typedIDs) || cap(got.refNodes) != len(got.refNodes) {
		t.Fatalf("%s: the walk's lists have spare capacity", name)
	}
	if got.blocks != nil {
		t.Fatalf("%s: the model still holds the blocks once built", name)
	}
}

// randomFlowAgent is an agent holding a random Flow (randomFlowSrc).
func randomFlowAgent(rng *rand.Rand) *Agent {
	src := randomFlowSrc(rng)
	return &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", []byte(src))}
}

// randomFlowSrc is a random Flow (flowSrc: missing, inline, null and
// repeated references, subflows, unresolved edges), its nodes LlmNodes
// and FlowNodes over five ids.
func randomFlowSrc(rng *rand.Rand) string {
	ids := []string{"a", "b", "c", "d", "x"}
	ref := func() string {
		switch rng.Intn(8) {
		case 0:
			return `{"component_type":"EndNode","name":"inline"}`
		case 1:
			return `{"component_type":"LlmNode","id":"` + ids[rng.Intn(len(ids))] + `"}`
		case 2:
			return `null`
		}
		return `{"$component_ref":"` + ids[rng.Intn(len(ids))] + `"}`
	}
	def := func() string {
		if rng.Intn(5) == 0 {
			return `{"component_type":"FlowNode","id":"` + ids[rng.Intn(len(ids))] + `","subflow":` + flowSrc(rng, ids, ref, nil) + `}`
		}
		return `{"component_type":"LlmNode","id":"` + ids[rng.Intn(len(ids))] + `"}`
	}
	return flowSrc(rng, ids, ref, def)
}

// TestModelInReusedBlocks: random Flows modelled one after another into
// the same blocks, lent again after each (Reuse), give the models fresh
// memory gives, and hold nothing of the Flows modelled before (no node of
// another document, every slice cleared beyond its length).
func TestModelInReusedBlocks(t *testing.T) {
	var b Blocks
	rng := rand.New(rand.NewSource(39))
	built := 0
	for i := 0; i < 2000/race.Stride(8); i++ {
		a := randomFlowAgent(rng)
		if a.Flow.Root == nil {
			continue
		}
		got := buildModelIn(a, b.forModel())
		sameModel(t, string(a.Flow.Src), got, buildModel(a))
		modelHoldsOnly(t, string(a.Flow.Src), got, agentRoots(a)...)
		built++
		if rng.Intn(4) > 0 { // else two models share the blocks until the next
			b.Reuse()
		}
	}
	if built == 0 || len(b.model.data.blocks) == 0 || len(b.model.control.blocks) == 0 || len(b.model.tables) == 0 {
		t.Fatalf("%d models built, none into the blocks", built)
	}
	if len(b.model.data.blocks) > 1 || len(b.model.control.blocks) > 1 || len(b.model.tables) > 10 { // (up to a few models between two Reuse)
		t.Errorf("%d data and %d control blocks, %d definitions' tables for flows of a few edges: the blocks were not lent again",
			len(b.model.data.blocks), len(b.model.control.blocks), len(b.model.tables))
	}
}

// TestAgentModelInLoadBlocks: the agents of the repository, the corpus
// and the history, loaded one after another with the same Blocks (the
// batch lint), have the model a build into new memory gives, holding no
// node of the agents before; a model whose agent is kept (Keep) stays as
// it was while later agents reuse the blocks.
func TestAgentModelInLoadBlocks(t *testing.T) {
	var b Blocks
	check := func(t *testing.T, dir string) {
		a, err := Load(dir, LoadOptions{Blocks: &b})
		if err != nil {
			t.Fatal(err)
		}
		got := a.Model()
		sameModel(t, dir, got, buildModel(a))
		modelHoldsOnly(t, dir, got, agentRoots(a)...)
		b.Reuse()
	}
	kept, err := Load(bundledAgent("orchestrator-agent"), LoadOptions{Blocks: &b})
	if err != nil {
		t.Fatal(err)
	}
	keptModel := kept.Model()
	b.Keep()
	for range 2 {
		for _, name := range bundledAgents {
			check(t, bundledAgent(name))
		}
	}
	sameModel(t, "the kept orchestrator-agent", keptModel, buildModel(kept))
	testshared.RunSharedAgents(t, 3, 8, check)
}

// TestModelWithoutBlocks: every face but the batch lint (no Blocks) builds
// its models into new memory, the models of FlowOf included.
func TestModelWithoutBlocks(t *testing.T) {
	a, err := Load(bundledAgent("orchestrator-agent"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := a.Model()
	if m.blocks != nil || a.ov.blocks != nil {
		t.Fatal("a load without Blocks has blocks")
	}
	for _, f := range a.Flows() {
		if fm := m.FlowOf(f); fm == nil {
			t.Fatal("no model of a Flow")
		}
	}
}
