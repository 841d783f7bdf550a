package flowgraph

import (
	"strings"
	"testing"
)

// TestMarked: a mark lands on the marked box's top border in a copy; the
// canvas drawn is unchanged.
func TestMarked(t *testing.T) {
	g := &Graph{Nodes: []*Node{{ID: "a", Name: "Alpha"}, {ID: "b", Name: "Beta"}}, Edges: []Edge{{From: "a", To: "b"}}, Start: "a"}
	for _, dense := range []bool{true, false} {
		c, l := Render(g, Options{})
		if !dense && c.Cells != nil {
			continue // Render chose a dense canvas; the sparse path is covered by big graphs
		}
		before := c.String()
		m := c.Marked(l, map[int]Cell{1: {R: '+', Class: ClassStart}})
		if c.String() != before {
			t.Fatal("Marked changed the canvas it was given")
		}
		b := l.Box(1)
		if got := m.At(b.X+1, b.Y); got.R != '+' || got.Class != ClassStart || got.Node != 2 {
			t.Errorf("mark cell = %+v\n%s", got, m.String())
		}
		if strings.Count(m.String(), "+") != 1 {
			t.Errorf("one mark expected:\n%s", m.String())
		}
		if c.Marked(l, nil) != c {
			t.Error("no marks: not the same canvas")
		}
	}
}
