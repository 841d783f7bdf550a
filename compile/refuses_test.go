package compile

import (
	"slices"
	"testing"
)

func TestModelUses(t *testing.T) {
	doc := ParseDocFile("agent.json", []byte(`{"component_type": "Flow", "start_node": {"$component_ref": "a"},
	  "$referenced_components": {
	    "a": {"component_type": "LlmNode", "llm_config": {"$component_ref": "llm"},
	          "$referenced_components": {"inner": {"x": {"$component_ref": "deep"}}}},
	    "llm": {"component_type": "OpenAiCompatibleConfig"}}}`))
	if doc.Root == nil {
		t.Fatal("fixture does not parse")
	}
	a := &Agent{Flow: doc}
	u := a.Model().Uses()
	var all []string
	for _, r := range u.All {
		all = append(all, r.ID+"@"+r.Ptr)
		if PointerOf(r.Node) != r.Ptr {
			t.Errorf("use %s: node is at %s", r.Ptr, PointerOf(r.Node))
		}
	}
	want := []string{"a@/start_node", "llm@/$referenced_components/a/llm_config", "deep@/$referenced_components/a/$referenced_components/inner/x"}
	if !slices.Equal(all, want) {
		t.Errorf("uses %q, want %q", all, want)
	}
	var deps []string
	for _, r := range u.Deps["a"] {
		deps = append(deps, r.ID)
	}
	if !slices.Equal(deps, []string{"llm"}) { // the nested block's use is inner's, not a's
		t.Errorf("a's deps %q, want [llm]", deps)
	}
	if got := u.Deps["inner"]; len(got) != 1 || got[0].ID != "deep" {
		t.Errorf("inner's deps %v, want [deep]", got)
	}
	if len(u.Deps["llm"]) != 0 {
		t.Errorf("llm's deps %v, want none", u.Deps["llm"])
	}
	if n := (*Agent)(nil).Model().Uses(); len(n.All) != 0 || len(n.Order) != 0 {
		t.Errorf("empty model's uses %+v", n)
	}
}

// Load's agents share one index.
func TestModelUsesBuiltOnce(t *testing.T) {
	doc := ParseDocFile("agent.json", []byte(`{"component_type": "Flow", "x": {"$component_ref": "a"}}`))
	m := &Model{Defs: newDefinitions(), root: doc.Root, uses: &usesCache{}}
	if m.Uses() != m.Uses() {
		t.Error("Uses builds a new index on every call")
	}
}

// TestModelRefNodes: the model's walk lists the uses a walk of the whole
// document finds (RefID), in source order, as does a Model written by
// hand; FlowAround is a use's innermost Flow.
func TestModelRefNodes(t *testing.T) {
	doc := ParseDocFile("agent.json", []byte(`{"component_type": "Flow", "id": "r", "nodes": [{"$component_ref": "a"}, [{"$component_ref": "b"}]],
	  "$referenced_components": {"f": {"component_type": "Flow", "$component_ref": "f", "nodes": [{"$component_ref": "b"}]},
	    "b": {"x": {"$component_ref": 1}, "y": {"$component_ref": "c", "$component_ref": 2}, "z": {"$component_ref": 2, "$component_ref": "d"}}}}`))
	if doc.Root == nil {
		t.Fatal("fixture does not parse")
	}
	var want []*Node
	WalkNodes(doc.Root, func(n *Node) bool {
		if _, ok := RefID(n); ok {
			want = append(want, n)
		}
		return true
	})
	m := (&Agent{Flow: doc}).Model()
	if got := m.RefNodes(); len(want) != 5 || !slices.Equal(got, want) {
		t.Errorf("model's uses %d, want the walk's %d (5)", len(got), len(want))
	}
	hand := &Model{root: doc.Root}
	if got := hand.RefNodes(); !slices.Equal(got, want) {
		t.Errorf("hand-written model's uses %d, want %d", len(got), len(want))
	}
	var around []string
	for _, n := range want {
		f := m.FlowAround(n)
		around = append(around, PointerOf(n)+" in "+f.Pointer)
	}
	wantAround := []string{"/nodes/0 in ", "/nodes/1/0 in ", "/$referenced_components/f in /$referenced_components/f",
		"/$referenced_components/f/nodes/0 in /$referenced_components/f", "/$referenced_components/b/z in "}
	if !slices.Equal(around, wantAround) {
		t.Errorf("flows around the uses %q, want %q", around, wantAround)
	}
	if f := m.FlowAround(nil); f != nil {
		t.Errorf("FlowAround(nil) = %v", f.Pointer)
	}
}
