package flowgraph

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// outEdgesSharedSame rebuilds each flow's graph and walks it again with
// each walk grouping the edges on its own (as order and markBackEdges did
// before Build grouped them once for both): the step order, reachability
// and back edges must be those Build found.
func outEdgesSharedSame(t *testing.T, a *compile.Agent) int {
	t.Helper()
	walked := 0
	for _, f := range a.Flows() {
		g := BuildFlow(a, f)
		again := BuildFlow(a, f)
		for i := range again.Edges {
			again.Edges[i].Back = false
		}
		for _, n := range again.Nodes {
			n.BFS, n.Reachable = -1, false
		}
		again.order(again.edgesBySource())
		again.markBackEdges(again.edgesBySource())
		for i, n := range g.Nodes {
			if m := again.Nodes[i]; n.BFS != m.BFS || n.Reachable != m.Reachable {
				t.Errorf("flow %q, node %s: BFS %d reachable %v, each walk grouping its own edges %d %v", f.Pointer, n.ID, n.BFS, n.Reachable, m.BFS, m.Reachable)
			}
		}
		var back, backAgain []int
		for i := range g.Edges {
			if g.Edges[i].Back {
				back = append(back, i)
			}
			if again.Edges[i].Back {
				backAgain = append(backAgain, i)
			}
		}
		if !reflect.DeepEqual(back, backAgain) {
			t.Errorf("flow %q: back edges %v, each walk grouping its own edges %v", f.Pointer, back, backAgain)
		}
		walked += len(g.Edges)
	}
	return walked
}

// TestOutEdgesShared: Build groups the edges by source once for the BFS
// and the back-edge walks; both find what they found grouping them each
// on their own, on a flow with loops, self-loops, repeated edges and an
// unreached part, and on the corpus.
func TestOutEdgesShared(t *testing.T) {
	src := `{"component_type": "Flow", "id": "f", "name": "F", "start_node": {"$component_ref": "s"},
  "nodes": [{"$component_ref": "s"}, {"$component_ref": "a"}, {"$component_ref": "b"}, {"$component_ref": "c"}, {"$component_ref": "d"}],
  "control_flow_connections": [
    {"component_type": "ControlFlowEdge", "id": "e1", "name": "e1", "from_node": {"$component_ref": "s"}, "to_node": {"$component_ref": "a"}},
    {"component_type": "ControlFlowEdge", "id": "e2", "name": "e2", "from_node": {"$component_ref": "a"}, "to_node": {"$component_ref": "b"}},
    {"component_type": "ControlFlowEdge", "id": "e3", "name": "e3", "from_node": {"$component_ref": "b"}, "to_node": {"$component_ref": "a"}},
    {"component_type": "ControlFlowEdge", "id": "e4", "name": "e4", "from_node": {"$component_ref": "b"}, "to_node": {"$component_ref": "b"}},
    {"component_type": "ControlFlowEdge", "id": "e5", "name": "e5", "from_node": {"$component_ref": "s"}, "to_node": {"$component_ref": "a"}},
    {"component_type": "ControlFlowEdge", "id": "e6", "name": "e6", "from_node": {"$component_ref": "d"}, "to_node": {"$component_ref": "c"}},
    {"component_type": "ControlFlowEdge", "id": "e7", "name": "e7", "from_node": {"$component_ref": "c"}, "to_node": {"$component_ref": "d"}}],
  "$referenced_components": {
    "s": {"component_type": "StartNode", "id": "s", "name": "S"}, "a": {"component_type": "ApiNode", "id": "a", "name": "A"},
    "b": {"component_type": "ApiNode", "id": "b", "name": "B"}, "c": {"component_type": "ApiNode", "id": "c", "name": "C"},
    "d": {"component_type": "EndNode", "id": "d", "name": "D"}}}`
	a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src))}
	if n := outEdgesSharedSame(t, a); n < 7 {
		t.Fatalf("only %d edges walked", n)
	}
	outEdgesSharedSame(t, testAgent(t))
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			a, err := compile.Load(filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			outEdgesSharedSame(t, a)
		}
	})
}
