package flowgraph

import (
	"fmt"
	"strconv"
	"strings"
)

// DOT writes the graph in Graphviz DOT: exactly one node statement per flow
// node and one edge statement per control edge (duplicates and self-loops
// included), so Graphviz draws the same graph. Back edges (loops) are
// dashed; dot breaks the cycles itself.
func DOT(g *Graph) string {
	var b strings.Builder
	fmt.Fprintf(&b, "digraph %s {\n", dotQuote(g.FlowID))
	b.WriteString("  rankdir=TB;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n  edge [fontname=\"Helvetica\", fontsize=10];\n")
	for _, n := range g.Nodes {
		label := n.Name
		if b := stepBadge(n.Steps, &unicodeGlyphs); b != "" {
			label = b + " " + label
		}
		if n.Approval {
			label += " ✋"
		}
		attrs := []string{"label=" + dotQuote(label)}
		switch n.Kind {
		case KindStart, KindEnd:
			attrs = append(attrs, "shape=oval")
		case KindBranch:
			attrs = append(attrs, "shape=diamond", "style=\"\"")
		case KindFlow, KindMap, KindParallel:
			attrs = append(attrs, "peripheries=2")
		}
		if n.ComponentType != "" {
			attrs = append(attrs, "tooltip="+dotQuote(n.ComponentType))
		}
		if n.Injected { // added by the loader at mount, not in the file
			attrs = append(attrs, "style=\"rounded,dashed\"")
		}
		fmt.Fprintf(&b, "  %s [%s];\n", dotQuote(n.ID), strings.Join(attrs, ", "))
	}
	for _, e := range g.Edges {
		var attrs []string
		if e.Branch != "" {
			attrs = append(attrs, "label="+dotQuote(e.Branch))
		}
		if e.Back {
			attrs = append(attrs, "style=dashed")
		}
		a := ""
		if len(attrs) > 0 {
			a = " [" + strings.Join(attrs, ", ") + "]"
		}
		fmt.Fprintf(&b, "  %s -> %s%s;\n", dotQuote(e.From), dotQuote(e.To), a)
	}
	b.WriteString("}\n")
	return b.String()
}

// dotQuote quotes s as a DOT string.
func dotQuote(s string) string {
	s = strings.ReplaceAll(s, `\`, `\\`)
	s = strings.ReplaceAll(s, `"`, `\"`)
	return `"` + s + `"`
}

// Mermaid writes the graph as a Mermaid flowchart: one node per flow node
// (ids n0, n1, … in node order, the name as label) and one link per control
// edge.
func Mermaid(g *Graph) string {
	var b strings.Builder
	b.WriteString("flowchart TD\n")
	ids := make(map[string]string, len(g.Nodes))
	for i, n := range g.Nodes {
		id := "n" + strconv.Itoa(i)
		if _, dup := ids[n.ID]; !dup {
			ids[n.ID] = id
		}
		label := n.Name
		if s := stepBadge(n.Steps, &unicodeGlyphs); s != "" {
			label = s + " " + label
		}
		if n.Approval {
			label += " ✋"
		}
		q := mermaidQuote(label)
		switch n.Kind {
		case KindStart, KindEnd:
			fmt.Fprintf(&b, "  %s([%s])\n", id, q)
		case KindBranch:
			fmt.Fprintf(&b, "  %s{%s}\n", id, q)
		case KindFlow, KindMap, KindParallel:
			fmt.Fprintf(&b, "  %s[[%s]]\n", id, q)
		default:
			fmt.Fprintf(&b, "  %s[%s]\n", id, q)
		}
	}
	for _, e := range g.Edges {
		from, to := ids[e.From], ids[e.To]
		if from == "" || to == "" {
			continue
		}
		arrow := "-->"
		if e.Back {
			arrow = "-.->"
		}
		if e.Branch != "" {
			fmt.Fprintf(&b, "  %s %s|%s| %s\n", from, arrow, mermaidQuote(e.Branch), to)
		} else {
			fmt.Fprintf(&b, "  %s %s %s\n", from, arrow, to)
		}
	}
	return b.String()
}

// mermaidQuote makes a quoted Mermaid label; quotes and the characters
// Mermaid parses inside labels are written as entity codes.
func mermaidQuote(s string) string {
	r := strings.NewReplacer(`"`, "#quot;", "|", "#124;", "<", "#lt;", ">", "#gt;", "#", "#35;")
	return `"` + r.Replace(s) + `"`
}
