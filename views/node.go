package views

import (
	"github.com/oastui/oastui/present"
	"strings"
)

// NodeInfo is what the Node tab shows about the selected graph node. The tui
// package fills it from the snapshot; strings are raw agent text (cleaned
// here when drawn).
type NodeInfo struct {
	Name     string
	Pointer  string      // the node's component in the flow file ("" for the registry)
	Fields   [][2]string // label, value (id, type, pointer, line, step, approval, subflow, findings, …)
	Inputs   []string    // "name: type"
	Outputs  []string
	DataIn   []string // "producer.output → input"
	DataOut  []string // "output → consumer.input"
	Findings []string // "code message" of findings on this node
}

// NodeLines lays a NodeInfo out as lines for a Text pane of width w.
func NodeLines(th Theme, n *NodeInfo, w int) []string {
	if n == nil {
		return []string{th.Dim.Render("no node selected (focus the graph and move with ↑↓)")}
	}
	out := []string{th.Bold.Render(Trunc(present.Text(n.Name), w))}
	lw := 0
	for _, f := range n.Fields {
		lw = max(lw, Width(f[0]))
	}
	for _, f := range n.Fields {
		out = append(out, th.Dim.Render(f[0]+strings.Repeat(" ", lw-Width(f[0])+1))+present.Text(f[1]))
	}
	section := func(title string, items []string) {
		out = append(out, "", th.Bold.Render(title)+th.Dim.Render(" ("+itoa(len(items))+")"))
		if len(items) == 0 {
			out = append(out, th.Dim.Render("  none"))
		}
		for _, it := range items {
			out = append(out, "  "+present.Text(it))
		}
	}
	section("inputs", n.Inputs)
	section("outputs", n.Outputs)
	section("data in", n.DataIn)
	section("data out", n.DataOut)
	if len(n.Findings) > 0 {
		out = append(out, "", th.Bold.Render("findings"))
		for _, f := range n.Findings {
			out = append(out, "  "+present.Text(f))
		}
	}
	return out
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	neg := n < 0
	if neg {
		n = -n
	}
	var b [20]byte
	i := len(b)
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}

// NodeText is the Node tab: what the graph's selected node is.
type NodeText struct {
	Text

	// fullBuild makes SetNode lay the lines out at once, as it did before
	// they were laid out when first shown: the tests' oracle.
	fullBuild bool
}

// Name is the tab's title.
func (t *NodeText) Name() string { return "Node" }

// Show does nothing: the tab follows the graph's selection (SetNode).
func (t *NodeText) Show(Shown) {}

// SetNode lays out the selected node (nil: none) for the current width.
// The lines are laid out when the tab first needs them (setLinesLater):
// every move in the graph or the Findings tab selects a node, and a node
// of thousands of ports costs nothing while the tab is not shown.
func (t *NodeText) SetNode(th Theme, info *NodeInfo) {
	if t.fullBuild {
		t.SetLines(NodeLines(th, info, t.w))
		return
	}
	w := t.w
	t.setLinesLater(func() ([]string, []bool) { return NodeLines(th, info, w), nil })
}

// ShowsLastParsed: the node is drawn from the newest good analysis.
func (t *NodeText) ShowsLastParsed() {}
