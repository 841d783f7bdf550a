package flowgraph

import (
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestRelatedOnFindings: BuildFlow gathers no finding pointers (a diff or
// a prompt report never counts findings); SetFindings gathers them, on a
// copy of the graph as on the graph, to the same counts.
func TestRelatedOnFindings(t *testing.T) {
	g, err := Build(testAgent(t), "")
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range g.Nodes {
		if n.related != nil {
			t.Fatalf("%s: related gathered by BuildFlow: %q", n.ID, n.related)
		}
	}
	cp := *g
	cp.Nodes = make([]*Node, len(g.Nodes))
	for i, n := range g.Nodes {
		c := *n
		cp.Nodes[i] = &c
	}
	fs := []compile.Finding{{File: "flow.json", Location: "/$referenced_components/worker/metadata", Severity: compile.Warning}}
	cp.SetFindings(fs)
	g.SetFindings(fs)
	counts := func(g *Graph) map[string]int {
		out := map[string]int{}
		for _, n := range g.Nodes {
			if n.Warnings > 0 {
				out[n.ID] = n.Warnings
			}
		}
		return out
	}
	if got, want := counts(&cp), map[string]int{"work": 1}; !reflect.DeepEqual(got, want) || !reflect.DeepEqual(counts(g), want) {
		t.Errorf("copy %v, graph %v, want %v", got, counts(g), want)
	}
	if len(g.Nodes[0].related) == 0 {
		t.Errorf("SetFindings gathered nothing")
	}
}

// TestComponent: a node's Component is the object its Pointer names in
// the flow file (looked up as a reader would), in every Flow, nested and
// inline ones included, with keys that need escaping and a repeated key;
// a node without a Pointer has none.
func TestComponent(t *testing.T) {
	src := `{"component_type": "Flow", "id": "root", "start_node": {"$component_ref": "s"},
  "nodes": [{"$component_ref": "s"}, {"$component_ref": "a/b~c"}, {"$component_ref": "dup"}, {"$component_ref": "sub"},
    {"component_type": "LlmNode", "id": "inline", "name": "Inline"}, {"$component_ref": "nowhere"}],
  "$referenced_components": {
    "s": {"component_type": "StartNode", "id": "s", "name": "Start"},
    "a/b~c": {"component_type": "LlmNode", "id": "a/b~c", "name": "Escaped"},
    "dup": {"component_type": "LlmNode", "id": "dup", "name": "First"},
    "dup": {"component_type": "LlmNode", "id": "dup", "name": "Kept"},
    "sub": {"component_type": "FlowNode", "id": "sub", "name": "Sub", "subflow": {"component_type": "Flow", "id": "inner",
      "start_node": {"$component_ref": "is"}, "nodes": [{"$component_ref": "is"}, {"$component_ref": "s"}],
      "$referenced_components": {"is": {"component_type": "StartNode", "id": "is", "name": "Inner start"}}}}
  }}`
	graphs := 0
	for _, a := range []*compile.Agent{testAgent(t), {FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src))}} {
		for _, f := range a.Flows() {
			g := BuildFlow(a, f)
			graphs++
			for _, n := range g.Nodes {
				want := (*compile.Node)(nil)
				if n.Pointer != "" {
					want = a.Flow.Lookup(n.Pointer)
					if want == nil {
						t.Fatalf("%s: the pointer %q names nothing", n.ID, n.Pointer)
					}
				}
				if n.Component() != want {
					t.Errorf("flow %q, node %s (%q): Component is not the object its Pointer names", f.Pointer, n.ID, n.Pointer)
				}
			}
		}
	}
	if graphs < 4 {
		t.Fatalf("%d graphs built, want at least 4", graphs)
	}
}
