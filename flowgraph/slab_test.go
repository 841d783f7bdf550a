package flowgraph

import (
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestBuildListsOwnEach: the nodes' Subflows and Steps, which Build hands
// out of shared arrays, are each the node's own: appending to one node's
// list leaves the others' as they were.
func TestBuildListsOwnEach(t *testing.T) {
	src := `{"component_type": "Flow", "id": "f", "name": "F", "start_node": {"$component_ref": "s"},
	  "nodes": [{"$component_ref": "s"}, {"$component_ref": "a"}, {"$component_ref": "b"}, {"$component_ref": "c"}, {"$component_ref": "e"}],
	  "control_flow_connections": [
	    {"component_type": "ControlFlowEdge", "id": "1", "from_node": {"$component_ref": "s"}, "to_node": {"$component_ref": "a"}},
	    {"component_type": "ControlFlowEdge", "id": "2", "from_node": {"$component_ref": "a"}, "to_node": {"$component_ref": "b"}},
	    {"component_type": "ControlFlowEdge", "id": "3", "from_node": {"$component_ref": "b"}, "to_node": {"$component_ref": "c"}},
	    {"component_type": "ControlFlowEdge", "id": "4", "from_node": {"$component_ref": "c"}, "to_node": {"$component_ref": "e"}}],
	  "$referenced_components": {
	    "s": {"component_type": "StartNode", "id": "s", "name": "S"},
	    "a": {"component_type": "FlowNode", "id": "a", "name": "A", "subflow": {"$component_ref": "sub"}},
	    "b": {"component_type": "FlowNode", "id": "b", "name": "B", "subflow": {"$component_ref": "sub2"}},
	    "c": {"component_type": "FlowNode", "id": "c", "name": "C", "subflow": {"$component_ref": "sub"}},
	    "e": {"component_type": "EndNode", "id": "e", "name": "E"},
	    "sub": {"component_type": "Flow", "id": "sub", "name": "Sub", "start_node": {"$component_ref": "s0"}, "nodes": [{"$component_ref": "s0"}],
	      "control_flow_connections": [], "$referenced_components": {"s0": {"component_type": "StartNode", "id": "s0", "name": "S0"}}},
	    "sub2": {"component_type": "Flow", "id": "sub2", "name": "Sub2", "start_node": {"$component_ref": "t0"}, "nodes": [{"$component_ref": "t0"}],
	      "control_flow_connections": [], "$referenced_components": {"t0": {"component_type": "StartNode", "id": "t0", "name": "T0"}}}}}`
	a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src)), Profile: compile.ProfileCinatra}
	g, err := Build(a, "")
	if err != nil {
		t.Fatal(err)
	}
	var subs [][]string
	var withSteps []*Node
	for _, n := range g.Nodes {
		if len(n.Steps) > 0 {
			withSteps = append(withSteps, n)
		}
	}
	flows := []*Node{g.Nodes[1], g.Nodes[2], g.Nodes[3]}
	for _, n := range flows {
		if len(n.Subflows) != 1 {
			t.Fatalf("node %s: subflows %q", n.ID, n.Subflows)
		}
		subs = append(subs, slices.Clone(n.Subflows))
	}
	if len(withSteps) < 3 {
		t.Fatalf("%d nodes with steps, want 3 or more", len(withSteps))
	}
	before := make([][]int, len(withSteps))
	for i, n := range withSteps {
		before[i] = slices.Clone(n.Steps)
	}
	for _, n := range flows {
		n.Subflows = append(n.Subflows, "/appended")
	}
	for _, n := range withSteps {
		n.Steps = append(n.Steps, -1)
	}
	for i, n := range flows {
		if len(n.Subflows) != 2 || n.Subflows[0] != subs[i][0] {
			t.Errorf("node %s: subflows %q after an append (was %q): another node's append wrote into its list", n.ID, n.Subflows, subs[i])
		}
	}
	for i, n := range withSteps {
		if !slices.Equal(n.Steps[:len(n.Steps)-1], before[i]) || n.Steps[len(n.Steps)-1] != -1 {
			t.Errorf("node %s: steps %v after an append (was %v): another node's append wrote into its list", n.ID, n.Steps, before[i])
		}
	}
}
