package flowgraph

import (
	"fmt"
	"reflect"
	"testing"
)

// TestAdjacencyAndBackEdges holds the successors (edge order, a target
// listed twice kept once) and the back edges (a self-loop, the edge that
// closes a cycle, an edge into a finished branch is not one) of a graph
// whose edges are out of source order, so the grouping of edges by source
// must keep each source's edge order.
func TestAdjacencyAndBackEdges(t *testing.T) {
	ids := []string{"s", "a", "b", "c", "d", "x"}
	var nodes []*Node
	for _, id := range ids {
		nodes = append(nodes, &Node{ID: id})
	}
	edges := []Edge{
		{From: "s", To: "b"}, // 0
		{From: "a", To: "c"}, // 1
		{From: "s", To: "a"}, // 2
		{From: "b", To: "c"}, // 3
		{From: "s", To: "b"}, // 4: again
		{From: "c", To: "a"}, // 5: closes a→c→a
		{From: "c", To: "c"}, // 6: self-loop
		{From: "d", To: "s"}, // 7: d is not reached from s; s is finished when d is visited
		{From: "x", To: "x"}, // 8
	}
	g := New("f", "F", "s", nodes, edges)
	adj := g.adjacency(g.edgesBySource())
	got := map[string][]string{}
	for i, succ := range adj {
		for _, t := range succ {
			got[ids[i]] = append(got[ids[i]], ids[t])
		}
	}
	want := map[string][]string{"s": {"b", "a"}, "a": {"c"}, "b": {"c"}, "c": {"a", "c"}, "d": {"s"}, "x": {"x"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("adjacency %v, want %v", got, want)
	}
	var back []int
	for i, e := range g.Edges {
		if e.Back {
			back = append(back, i)
		}
	}
	// DFS from s: s→b→c, c→a (a white: tree edge), a→c (c grey: back),
	// c→c (back); s→a (a black); d, then x as roots.
	if fmt.Sprint(back) != "[1 6 8]" {
		t.Errorf("back edges %v, want [1 6 8]", back)
	}
}
