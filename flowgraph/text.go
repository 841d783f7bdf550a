package flowgraph

import (
	"fmt"
	"strings"
)

// Text is the graph as `oastui graph` prints it (and the MCP agent_graph
// tool returns it): the title line, the drawing (Render) and a legend of
// the marks used.
func Text(g *Graph, opts Options) string {
	c, _ := Render(g, opts)
	return TextOf(g, c, opts)
}

// TextOf is Text over a drawing already made: c is Render(g, opts)'s
// canvas (a snapshot's flow is drawn once; its text needs no second
// layout).
func TextOf(g *Graph, c *Canvas, opts Options) string {
	var b strings.Builder
	title := "flow " + g.FlowID
	if g.FlowName != "" && g.FlowName != g.FlowID {
		title += " · " + g.FlowName
	}
	if opts.ASCII {
		title = strings.ReplaceAll(title, "·", "-")
	}
	fmt.Fprintf(&b, "%s  (%d nodes, %d control edges)\n\n", title, len(g.Nodes), len(g.Edges))
	b.WriteString(c.String())
	if l := legend(g, opts.ASCII); l != "" {
		b.WriteString("\n" + l + "\n")
	}
	return b.String()
}

func legend(g *Graph, ascii bool) string {
	var steps, appr, sub, blk, warn, loop, self bool
	for _, n := range g.Nodes {
		steps = steps || len(n.Steps) > 0
		appr = appr || n.Approval
		sub = sub || len(n.Subflows) > 0
		blk = blk || n.Blockers > 0
		warn = warn || n.Warnings > 0
		self = self || n.SelfLoop
	}
	for _, e := range g.Edges {
		loop = loop || (e.Back && e.From != e.To)
	}
	type item struct {
		on          bool
		uni, asc, s string
	}
	items := []item{
		{steps, "1", "1", "step number"},
		{appr, "✋", "(A)", "approval"},
		{sub, "⊞", "[+]", "has a subflow (--flow ID)"},
		{blk, "✖n", "xn", "blockers"},
		{warn, "⚠n", "!n", "warnings"},
		{loop, "▲", "^", "loop back"},
		{self, "↺", "(loop)", "self-loop"},
	}
	var parts []string
	for _, it := range items {
		if !it.on {
			continue
		}
		mark := it.uni
		if ascii {
			mark = it.asc
		}
		parts = append(parts, mark+" "+it.s)
	}
	sep := " · "
	if ascii {
		sep = "; "
	}
	return strings.Join(parts, sep)
}
