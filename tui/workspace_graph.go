package tui

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"runtime"
	"sort"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/views"
)

func numCPU() int { return runtime.GOMAXPROCS(0) }

// drawGraph lays out the call graph (once per index) and the reading
// order of its agent nodes (top to bottom, left to right).
func (m *wsModel) drawGraph() {
	if m.canvas != nil {
		return
	}
	if m.cg == nil {
		m.cg = m.ix.CallGraph()
	}
	sel := 0
	for i, a := range m.cg.Agent {
		if a >= 0 && m.ix.Agents[a].Dir == m.selDir {
			sel = i + 1
		}
	}
	m.tooLarge = ""
	m.canvas, m.layout = flowgraph.Render(m.cg.Graph, flowgraph.Options{Selected: sel, TooLarge: func(nodes, edges int) string {
		m.tooLarge = m.tooLargeNote(nodes, edges)
		return m.tooLarge
	}})
	m.gorder = m.gorder[:0]
	for i, a := range m.cg.Agent {
		if a >= 0 {
			m.gorder = append(m.gorder, i)
		}
	}
	sort.SliceStable(m.gorder, func(i, j int) bool {
		a, b := m.layout.Box(m.gorder[i]), m.layout.Box(m.gorder[j])
		if a.Y != b.Y {
			return a.Y < b.Y
		}
		return a.X < b.X
	})
	m.gsel = -1
	for k, i := range m.gorder {
		if sel == i+1 {
			m.gsel = k
		}
	}
	if !m.gplaced { // first drawing: the tree's root node in the middle
		m.gplaced = true
		b := m.layout.Box(0)
		m.goffX = max(0, b.X+b.W/2-max(1, m.w-3)/2)
	}
}

// graphSelect makes the graph's selected node the selected agent.
func (m *wsModel) graphSelect() {
	m.drawGraph()
	if m.gsel >= 0 && m.gsel < len(m.gorder) {
		m.selDir = m.ix.Agents[m.cg.Agent[m.gorder[m.gsel]]].Dir
	}
}

func (m *wsModel) graphKey(k tea.KeyPressMsg) {
	km := &m.keys
	m.drawGraph()
	moveSel := func(d int) {
		if len(m.gorder) == 0 {
			return
		}
		if m.gsel < 0 {
			m.gsel = 0
		} else {
			m.gsel = max(0, min(len(m.gorder)-1, m.gsel+d))
		}
		m.selDir = m.ix.Agents[m.cg.Agent[m.gorder[m.gsel]]].Dir
		m.moved = true
		m.canvas = nil // redraw with the new selection
		m.drawGraph()
		m.scrollToSel()
	}
	switch {
	case key.Matches(k, km.Down):
		moveSel(1)
	case key.Matches(k, km.Up):
		moveSel(-1)
	case key.Matches(k, km.Top):
		moveSel(-len(m.gorder))
	case key.Matches(k, km.Bottom):
		moveSel(len(m.gorder))
	case key.Matches(k, km.Left):
		m.goffX -= 8
	case key.Matches(k, km.Right):
		m.goffX += 8
	case key.Matches(k, km.PageDown):
		m.goffY += max(1, m.h-6)
	case key.Matches(k, km.PageUp):
		m.goffY -= max(1, m.h-6)
	}
}

func (m *wsModel) scrollToSel() {
	if m.gsel < 0 || m.layout == nil {
		return
	}
	b := m.layout.Box(m.gorder[m.gsel])
	w, h := max(1, m.w-3), max(1, m.h-6)
	if b.X+b.W > m.goffX+w {
		m.goffX = b.X + b.W - w
	}
	if b.X < m.goffX {
		m.goffX = b.X
	}
	if b.Y+b.H > m.goffY+h {
		m.goffY = b.Y + b.H - h
	}
	if b.Y < m.goffY {
		m.goffY = b.Y
	}
}

// graphLines draws the visible window of the call graph, then the
// agents standing alone and the workspace findings below it.
func (m *wsModel) graphLines(w, h int) []string {
	m.drawGraph()
	if m.tooLarge != "" {
		var out []string
		for _, l := range strings.Split(m.tooLarge, "\n") {
			out = append(out, strings.Split(ansi.Wrap(present.Text(l), max(1, w), " "), "\n")...)
		}
		return out
	}
	c := m.canvas
	if c.W > w {
		return m.treeLines(w, h)
	}
	var out []string
	m.goffX = max(0, min(m.goffX, c.W-w))
	m.goffY = max(0, min(m.goffY, c.H-1))
	pad := ""
	if c.W < w {
		pad = strings.Repeat(" ", (w-c.W)/2)
	}
	for y := m.goffY; y < c.H && len(out) < h; y++ {
		var b, run strings.Builder
		b.WriteString(pad)
		cur := flowgraph.Class(255)
		flush := func() {
			if run.Len() > 0 {
				b.WriteString(m.th.ClassStyle(cur).Render(run.String()))
				run.Reset()
			}
		}
		for x := m.goffX; x < c.W && x < m.goffX+w; x++ {
			cell := c.At(x, y)
			if cell.R == 0 {
				continue
			}
			cl := cell.Class
			if cell.R == ' ' {
				cl = flowgraph.ClassNone
			}
			if cl != cur {
				flush()
				cur = cl
			}
			run.WriteRune(cell.R)
		}
		flush()
		out = append(out, b.String())
	}
	if m.cg.Alone > 0 && len(out) < h {
		out = append(out, "", m.th.Dim.Render(plural(m.cg.Alone, "agent")+" call no other agent and no agent calls them (not drawn; see the Agents tab)"))
	}
	return out
}

// treeLines is the Graph tab when the drawing is wider than the pane: a
// note saying so, then the call graph as an indented tree (what `oastui
// graph --workspace` prints when the drawing does not fit), scrolled with
// the page keys and to the selected agent, whose lines are highlighted.
func (m *wsModel) treeLines(w, h int) []string {
	if m.tree == nil || m.treeW != w {
		m.tree = strings.Split(strings.TrimRight(m.ix.CallTree(false, w), "\n"), "\n")
		m.treeW = w
		m.treeSel = -1
	}
	note := m.th.Dim.Render(views.Trunc(fmt.Sprintf("calls as a tree: the drawing is %d columns wide (--format dot draws it)", m.canvas.W), w))
	body := max(1, h-2)
	name := ""
	if m.gsel >= 0 && m.gsel < len(m.gorder) {
		name = m.cg.Graph.Nodes[m.gorder[m.gsel]].Name
	}
	isSel := func(l string) bool {
		return name != "" && (strings.HasPrefix(l, name+"  ") || strings.Contains(l, "→ "+name+"  "))
	}
	if m.gsel != m.treeSel { // the selection moved: its first line in view
		m.treeSel = m.gsel
		for i, l := range m.tree {
			if isSel(l) {
				if i < m.goffY || i >= m.goffY+body {
					m.goffY = max(0, i-body/2)
				}
				break
			}
		}
	}
	m.goffY = max(0, min(m.goffY, len(m.tree)-body))
	out := []string{note, ""}
	for _, l := range m.tree[m.goffY:min(len(m.tree), m.goffY+body)] {
		l = present.Text(l)
		if isSel(l) {
			l = m.th.Selected.Render(views.Fit(l, w))
		}
		out = append(out, l)
	}
	if m.cg.Alone > 0 && len(out) < h {
		out = append(out, "", m.th.Dim.Render(plural(m.cg.Alone, "agent")+" call no other agent and no agent calls them (not drawn; see the Agents tab)"))
	}
	return out
}

// tooLargeNote is what the Graph tab says of a call graph too large to
// draw: the command that draws it.
func (m *wsModel) tooLargeNote(nodes, edges int) string {
	return fmt.Sprintf("The call graph is too large to draw here (%d agents, %d calls). Draw it with:\n"+
		"  oastui graph %s --workspace --format dot | dot -Tsvg > calls.svg\n"+
		"(or --format mermaid); the Agents tab lists every agent.", nodes, edges, shellArg(m.shown()))
}

// shellArg is p as a shell word: quoted when it holds anything but
// plain path characters.
func shellArg(p string) string {
	for _, r := range p {
		if !(r == '/' || r == '.' || r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
		}
	}
	return p
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return itoa(n) + " " + w + "s"
}

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b []byte
	for n > 0 {
		b = append([]byte{byte('0' + n%10)}, b...)
		n /= 10
	}
	return string(b)
}
