package prompts

import (
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/internal/testshared"
)

// nodeComponentsSame checks, for each node of each flow of a, that
// nodeComponent is the object the node's Pointer names in the flow file
// (what collect looked up for each node), and counts the nodes that have
// one.
func nodeComponentsSame(t *testing.T, a *compile.Agent) int {
	t.Helper()
	found := 0
	for _, f := range a.Flows() {
		for _, gn := range flowgraph.BuildFlow(a, f).Nodes {
			want := a.Flow.Lookup(gn.Pointer)
			if gn.Pointer == "" {
				want = nil
			}
			if got := nodeComponent(a, gn); got != want {
				t.Errorf("flow %q, node %s (%q): nodeComponent is not the object its Pointer names", f.Pointer, gn.ID, gn.Pointer)
			}
			if want != nil {
				found++
			}
			// a node the graph did not resolve: looked up by its pointer
			bare := &flowgraph.Node{ID: gn.ID, Pointer: gn.Pointer}
			if got := nodeComponent(a, bare); got != want {
				t.Errorf("flow %q, node %s (%q): without the graph's component, not the object its Pointer names", f.Pointer, gn.ID, gn.Pointer)
			}
		}
	}
	return found
}

// TestNodeComponentIsLookup: the component collect hands each node is the
// one it looked up by pointer before: on a flow with escaped and repeated
// keys, inline nodes, a reference to nothing and a subflow, and on the
// corpus.
func TestNodeComponentIsLookup(t *testing.T) {
	src := `{"component_type": "Flow", "id": "f", "name": "F", "start_node": {"$component_ref": "s"},
  "nodes": [{"$component_ref": "s"}, {"$component_ref": "a/b~c"}, {"$component_ref": "dup"}, {"$component_ref": "sub"},
    {"component_type": "LlmNode", "id": "inline", "name": "Inline", "prompt_template": "hi"}, {"$component_ref": "nowhere"}],
  "$referenced_components": {
    "s": {"component_type": "StartNode", "id": "s", "name": "Start"},
    "a/b~c": {"component_type": "LlmNode", "id": "a/b~c", "name": "Escaped", "prompt_template": "x"},
    "dup": {"component_type": "LlmNode", "id": "dup", "name": "First"},
    "dup": {"component_type": "LlmNode", "id": "dup", "name": "Kept"},
    "sub": {"component_type": "FlowNode", "id": "sub", "name": "Sub", "subflow": {"component_type": "Flow", "id": "inner",
      "start_node": {"$component_ref": "is"}, "nodes": [{"$component_ref": "is"}, {"$component_ref": "s"}],
      "$referenced_components": {"is": {"component_type": "StartNode", "id": "is", "name": "Inner start"}}}}
  }}`
	a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src))}
	if n := nodeComponentsSame(t, a); n < 5 {
		t.Fatalf("only %d nodes with a component", n)
	}
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			nodeComponentsSame(t, load(t, filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{}))
		}
	})
}

// TestMayBearKeepsEveryBearer: mayBear says no only for a node whose
// component's type is none of the three addNode reads, for every type the
// graph knows (and the Plugin and Extended forms of each) and for a
// component that is not the graph's own.
func TestMayBearKeepsEveryBearer(t *testing.T) {
	types := []string{"StartNode", "EndNode", "AgentNode", "ApiNode", "LlmNode", "InputMessageNode", "OutputMessageNode",
		"BranchingNode", "FlowNode", "MapNode", "ParallelMapNode", "ParallelFlowNode", "ToolNode", "Flow", "Agent", "", "apinode"}
	no := 0
	for _, base := range types {
		for _, ct := range []string{base, "Plugin" + base, "Extended" + base} {
			src := `{"component_type": "Flow", "id": "f", "name": "F", "start_node": {"$component_ref": "n"}, "nodes": [{"$component_ref": "n"}],
  "$referenced_components": {"n": {"component_type": "` + ct + `", "id": "n", "name": "N"}}}`
			a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src))}
			for _, f := range a.Flows() {
				for _, gn := range flowgraph.BuildFlow(a, f).Nodes {
					comp := nodeComponent(a, gn)
					if comp == nil {
						continue
					}
					bears := false
					switch compile.ComponentType(comp) {
					case "ApiNode", "LlmNode", "AgentNode":
						bears = true
					}
					if bears && !mayBear(gn, comp) {
						t.Errorf("%s: mayBear says no to a %s", ct, compile.ComponentType(comp))
					}
					if !mayBear(gn, comp) {
						no++
					}
					if other := (&compile.Node{Kind: compile.Object}); !mayBear(gn, other) {
						t.Errorf("%s: mayBear says no for a component not the graph's", ct)
					}
				}
			}
		}
	}
	if no < 20 {
		t.Fatalf("mayBear said no only %d times", no)
	}
}
