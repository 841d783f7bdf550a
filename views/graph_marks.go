package views

import (
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/flowgraph"
)

// Marker tabs mark nodes of the graph (History: + added, − removed, ~
// changed in the chosen revision), by node id; nil for none.
type Marker interface{ Marks() map[string]rune }

// SetMarks sets the marks drawn on the graph's nodes (nil: none).
func (g *Graph) SetMarks(m map[string]rune) {
	g.marks = m
}

// marked is c with the marks of the nodes of fg on their boxes.
func (g *Graph) marked(fg *analysis.Flow, c *flowgraph.Canvas, l *flowgraph.Layout) *flowgraph.Canvas {
	if len(g.marks) == 0 || fg == nil || fg.Graph == nil {
		return c
	}
	at := map[int]flowgraph.Cell{}
	for i, n := range fg.Graph.Nodes {
		r, ok := g.marks[n.ID]
		if !ok {
			continue
		}
		cl := flowgraph.ClassWarning
		switch r {
		case '+':
			cl = flowgraph.ClassStart
		case '−':
			cl = flowgraph.ClassBlocker
		}
		at[i] = flowgraph.Cell{R: r, Class: cl}
	}
	return c.Marked(l, at)
}

// Marks are the chosen entry's node changes: + a node added, − removed,
// ~ changed (the graph shown is the newest analysis's, so a node removed
// since shows only in the list).
func (h *History) Marks() map[string]rune {
	r := h.result()
	if r == nil || h.notGit != "" {
		return nil
	}
	out := map[string]rune{}
	for _, c := range r.Changes {
		if c.Node == "" {
			continue
		}
		m := []rune(Mark(c))[0]
		if prev, ok := out[c.Node]; ok && prev != '~' {
			continue // added/removed says more than changed
		}
		out[c.Node] = m
	}
	return out
}
