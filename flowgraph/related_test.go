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
