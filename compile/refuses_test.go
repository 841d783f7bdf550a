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
// document finds (RefID), in source order, each with its innermost Flow,
// as does a Model written by hand.
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
	nodes := func(refs []RefSite) (ns []*Node, around []string) {
		for _, r := range refs {
			ns = append(ns, r.Node)
			f := "none"
			if r.Flow != nil {
				f = "/" + r.Flow.Pointer
			}
			if id, _ := RefID(r.Node); id != r.ID {
				t.Errorf("use at %s: id %q, RefID says %q", PointerOf(r.Node), r.ID, id)
			}
			around = append(around, PointerOf(r.Node)+" in "+f)
		}
		return ns, around
	}
	wantAround := []string{"/nodes/0 in /", "/nodes/1/0 in /", "/$referenced_components/f in //$referenced_components/f",
		"/$referenced_components/f/nodes/0 in //$referenced_components/f", "/$referenced_components/b/z in /"}
	m := (&Agent{Flow: doc}).Model()
	built := &Model{root: doc.Root, byNode: m.byNode} // written by hand: RefNodes walks
	for name, model := range map[string]*Model{"the model": m, "a model written by hand": built} {
		got, around := nodes(model.RefNodes())
		if len(want) != 5 || !slices.Equal(got, want) {
			t.Errorf("%s: %d uses, want the walk's %d (5)", name, len(got), len(want))
		}
		if !slices.Equal(around, wantAround) {
			t.Errorf("%s: flows around the uses %q, want %q", name, around, wantAround)
		}
	}
	outside := ParseDocFile("agent.json", []byte(`{"x": {"$component_ref": "a"}}`))
	if _, around := nodes((&Agent{Flow: outside}).Model().RefNodes()); !slices.Equal(around, []string{"/x in none"}) {
		t.Errorf("a use outside every Flow: %q", around)
	}
}
