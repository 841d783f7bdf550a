package flowgraph

import (
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestBuildInFlowScopes: the graph reads the agent's flow model, whose
// resolution goes beyond the Flow's scopes as the Agent Spec SDKs do (a
// definition elsewhere in the document); the graph still takes a
// component only from the Flow's own and enclosing scopes and the
// registry: a node defined only elsewhere is drawn unresolved, and an edge
// defined only elsewhere is not drawn. The linter, reading the same model,
// sees both.
func TestBuildInFlowScopes(t *testing.T) {
	src := `{"component_type": "Flow", "id": "root", "start_node": {"$component_ref": "start"},
  "nodes": [{"$component_ref": "start"}, {"$component_ref": "sib"}, {"$component_ref": "end"}],
  "control_flow_connections": [{"$component_ref": "e1"}, {"$component_ref": "e2"}],
  "$referenced_components": {
    "start": {"component_type": "StartNode", "id": "start", "name": "Start"},
    "e1": {"component_type": "ControlFlowEdge", "name": "e1", "from_node": {"$component_ref": "start"}, "to_node": {"$component_ref": "sib"}},
    "end": {"component_type": "EndNode", "id": "end", "name": "End", "$referenced_components": {
      "sib": {"component_type": "LlmNode", "id": "sib", "name": "Sibling"},
      "e2": {"component_type": "ControlFlowEdge", "name": "e2", "from_node": {"$component_ref": "sib"}, "to_node": {"$component_ref": "end"}}}}
  }}`
	a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src))}
	m := a.Model()
	fm := m.Flows[0]
	if len(fm.Nodes) != 3 || len(fm.Control) != 2 || fm.Control[1].Scope != compile.RefDocument {
		t.Fatalf("the model resolves %d nodes and %d edges, want 3 and 2 (the second from elsewhere in the document)", len(fm.Nodes), len(fm.Control))
	}
	g := BuildFlow(a, m.Flows[0].Flow)
	sib := g.Nodes[g.NodeIndex("sib")]
	if sib.Kind != KindOther || sib.Name != "sib" || sib.Pointer != "" || g.view.Nodes[1].Resolved.Node != nil {
		t.Errorf("a node defined outside the Flow's scopes is drawn as %+v", sib)
	}
	if len(g.Edges) != 1 || g.Edges[0].To != "sib" {
		t.Errorf("edges %+v: want only e1 (e2 is defined outside the Flow's scopes)", g.Edges)
	}
}
