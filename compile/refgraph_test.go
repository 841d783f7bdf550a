package compile

import (
	"fmt"
	"testing"
)

// TestRefGraphCycles: one cycle per group of definitions that reach
// themselves, the shortest through the group's smallest definition, from
// it; a self edge is a cycle of one; definitions that only lead to a cycle
// are in none; an edge added twice keeps its first payload.
func TestRefGraphCycles(t *testing.T) {
	for _, c := range []struct {
		name  string
		n     int
		edges [][2]int
		want  string
	}{
		{"none", 3, [][2]int{{0, 1}, {1, 2}}, "[]"},
		{"empty", 2, nil, "[]"},
		{"self", 2, [][2]int{{1, 1}}, "[[1]]"},
		{"two", 2, [][2]int{{1, 0}, {0, 1}}, "[[0 1]]"},
		{"lead-in", 4, [][2]int{{0, 2}, {2, 3}, {3, 2}}, "[[2 3]]"},
		// 0 → 1 → 2 → 0 and 0 → 2 → 0: one group, its shortest cycle
		{"shortest", 3, [][2]int{{0, 1}, {1, 2}, {2, 0}, {0, 2}}, "[[0 2]]"},
		{"ties take the smaller", 4, [][2]int{{0, 2}, {0, 1}, {1, 0}, {2, 0}}, "[[0 1]]"},
		{"two groups", 5, [][2]int{{4, 3}, {3, 4}, {0, 1}, {1, 0}}, "[[0 1] [3 4]]"},
	} {
		g := NewRefGraph[string]()
		for i, e := range c.edges {
			g.Add(e[0], e[1], fmt.Sprint(i))
		}
		if got := fmt.Sprint(g.Cycles(c.n)); got != c.want {
			t.Errorf("%s: cycles %s, want %s", c.name, got, c.want)
		}
	}
	g := NewRefGraph[string]()
	g.Add(0, 1, "first")
	g.Add(0, 1, "second")
	if g.Via(0, 1) != "first" || g.Via(1, 0) != "" {
		t.Errorf("via %q %q", g.Via(0, 1), g.Via(1, 0))
	}
}
