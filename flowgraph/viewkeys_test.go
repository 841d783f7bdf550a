package flowgraph

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// TestBuildIDsAreViewKeys: a graph node's id is its view node's key (the id
// as shown, present.Text, once, in the view), not the key presented again,
// and each id finds its node through the graph's index (the view's). One id
// carries more secrets than a redaction masks in a pass, so presenting its
// key again changes it: a Build that labels the key again fails here.
func TestBuildIDsAreViewKeys(t *testing.T) {
	var many strings.Builder
	for i := range 300 { // more tokens than one pass masks
		if i > 0 {
			many.WriteByte(' ')
		}
		many.WriteString("ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4b")
	}
	ids := []string{"start", "a\x1b[31mred\x1b[0m", many.String(), "end"}
	if k := present.Text(ids[2]); present.Text(k) == k {
		t.Fatal("the test's id is presented alike twice: it no longer tells one presentation from two")
	}
	nodes := []any{}
	comps := map[string]any{}
	var edges []any
	for i, id := range ids {
		typ := "ApiNode"
		switch i {
		case 0:
			typ = "StartNode"
		case len(ids) - 1:
			typ = "EndNode"
		}
		nodes = append(nodes, map[string]any{"$component_ref": id})
		comps[id] = map[string]any{"component_type": typ, "id": id, "name": "n"}
		if i > 0 {
			edges = append(edges, map[string]any{"component_type": "ControlFlowEdge", "id": "e" + string(rune('0'+i)),
				"from_node": map[string]any{"$component_ref": ids[i-1]}, "to_node": map[string]any{"$component_ref": id}})
		}
	}
	src, err := json.Marshal(map[string]any{"component_type": "Flow", "id": "f", "name": "F",
		"start_node": map[string]any{"$component_ref": "start"}, "nodes": nodes, "control_flow_connections": edges,
		"$referenced_components": comps})
	if err != nil {
		t.Fatal(err)
	}
	a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", src)}
	g, err := Build(a, "")
	if err != nil {
		t.Fatal(err)
	}
	v := a.Model().FlowOf(a.Flows()[0]).View()
	if len(g.Nodes) != len(v.Nodes) || len(g.Nodes) != len(ids) {
		t.Fatalf("%d graph nodes, %d view nodes, want %d", len(g.Nodes), len(v.Nodes), len(ids))
	}
	for i, n := range g.Nodes {
		if n.ID != v.Nodes[i].Key || n.ID != present.Text(ids[i]) {
			t.Errorf("node %d: graph id %.40q, view key %.40q, want the id presented once", i, n.ID, v.Nodes[i].Key)
		}
		if j := g.NodeIndex(n.ID); j != i {
			t.Errorf("node %d: NodeIndex of its id is %d", i, j)
		}
	}
	for i, e := range g.Edges {
		if e.From != g.Nodes[i].ID || e.To != g.Nodes[i+1].ID {
			t.Errorf("edge %d: %.40q → %.40q", i, e.From, e.To)
		}
	}
}

// TestBuildKindOfComponent: a node's Kind, which approvalOf takes instead
// of reading the component's type again, is KindOf its resolved
// component's type, for every node (unresolved ones, components that are
// no object, and prefixed types included).
func TestBuildKindOfComponent(t *testing.T) {
	srcs := []string{testFlow,
		`{"component_type":"Flow","nodes":[1,null,{"$component_ref":5},{"$component_ref":"a"},{"$component_ref":"b"},{"$component_ref":"c"}],"$referenced_components":{"a":"x","b":{"component_type":"PluginInputMessageNode"},"c":{"component_type":"FlowNode","subflow":{"$component_ref":"a"}}}}`}
	for _, src := range srcs {
		a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src)), Profile: compile.ProfileCinatra}
		g, err := Build(a, "")
		if err != nil {
			t.Fatal(err)
		}
		v := a.Model().FlowOf(a.Flows()[0]).View()
		for i, n := range g.Nodes {
			if want := KindOf(compile.ComponentType(v.Nodes[i].Resolved.Node)); n.Kind != want {
				t.Errorf("node %q: kind %v, KindOf its component's type %v", n.ID, n.Kind, want)
			}
		}
	}
}
