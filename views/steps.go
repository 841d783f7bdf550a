package views

import (
	"fmt"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/present"
	"strings"
)

// StepRow is one compiled approval step (Steps tab).
type StepRow struct {
	Number      int
	Name        string
	NodeType    string
	Approval    bool
	HitlOwnedBy string
	Risk        string
	Renderer    string
	Child       string
	SkipLLM     bool
	NodeID      string // graph node of the step, for selection
	NodeName    string // that node's name in the graph (a FlowNode's step is named from inside its subflow)
	// NotInGraph: the graph has no such node (the flow's nodes list lacks
	// it while edges still reach it): the step says so, as the graph
	// does not draw it.
	NotInGraph bool
	// Injected: not a compiled step but the context step the WayFlow
	// loader adds at mount for a slim context slot (flowgraph.Node.Injected).
	Injected bool
}

// Steps is the steps tab: the compiled approval steps in BFS order.
type Steps struct {
	cursorList[StepRow]
	errText string
}

// SetSteps replaces the rows; errText is shown instead when compiling failed
// (the rows may still be the last good ones).
func (s *Steps) SetSteps(rows []StepRow, errText string) {
	s.setRows(rows)
	s.errText = errText
}

// stepCol is one column of the steps table.
type stepCol struct {
	head   string
	cells  []string
	shrink bool // a name column: it gives way when the table is too wide
	w      int
}

// View renders the table. Columns that are empty in every row are left
// out; when the table is too wide the name columns give way, never risk
// or renderer.
func (s *Steps) View(th Theme) string {
	var out []string
	if s.errText != "" {
		for _, l := range strings.Split(ansiWrap(present.Text(s.errText), s.w), "\n") {
			out = append(out, th.Blocker.Render(l))
		}
	}
	if len(s.rows) == 0 {
		if s.errText == "" {
			out = append(out, th.Dim.Render("no compiled steps"))
		}
		return fill(out, s.w, s.h)
	}
	n := len(s.rows)
	cols := []*stepCol{
		{head: "#", cells: make([]string, n)},
		{head: "step", cells: make([]string, n), shrink: true},
		{head: "node", cells: make([]string, n), shrink: true},
		{head: "type", cells: make([]string, n)},
		{head: "approval", cells: make([]string, n)},
		{head: "risk", cells: make([]string, n)},
		{head: "renderer", cells: make([]string, n)},
		{head: "child agent", cells: make([]string, n), shrink: true},
	}
	for i, r := range s.rows {
		appr := ""
		if r.Approval {
			appr = "✋ " + orDash(present.Text(r.HitlOwnedBy))
		}
		node := present.Text(r.NodeName)
		if node == "" {
			node = present.Text(r.NodeID)
		}
		if r.NotInGraph {
			node += " (not in the graph: missing from the flow's nodes)"
		}
		num, typ := fmt.Sprint(r.Number), present.Text(r.NodeType)
		if r.Injected {
			num = "+"
			node += " (added by the loader at mount, not in the file)"
			typ += " at mount" // the type column never shrinks: the mark shows in a table too
		}
		for j, v := range []string{num, present.Text(r.Name), node, typ, appr,
			present.Text(r.Risk), present.Text(r.Renderer), present.Text(r.Child)} {
			cols[j].cells[i] = v
		}
	}
	var shown []*stepCol
	for j, c := range cols {
		empty := j > 2 // #, step and node always show
		for _, v := range c.cells {
			if v != "" {
				empty = false
			}
		}
		if empty {
			continue
		}
		c.w = Width(c.head)
		for _, v := range c.cells {
			c.w = max(c.w, Width(v))
		}
		shown = append(shown, c)
	}
	// Too wide: the widest name column gives a column at a time, down to
	// 12; if that is not enough, each step takes two lines instead.
	total := func() int {
		t := 1 // the cursor column
		for _, c := range shown {
			t += c.w + 2
		}
		return t
	}
	for total() > s.w {
		var widest *stepCol
		for _, c := range shown {
			if c.shrink && c.w > 12 && (widest == nil || c.w > widest.w) {
				widest = c
			}
		}
		if widest == nil {
			return s.twoLines(th, out, cols)
		}
		widest.w--
	}
	row := func(cell func(c *stepCol) string) string {
		parts := make([]string, len(shown))
		for j, c := range shown {
			v := cell(c)
			if j == len(shown)-1 {
				parts[j] = Trunc(v, c.w)
			} else {
				parts[j] = Fit(v, c.w)
			}
		}
		return " " + strings.Join(parts, "  ")
	}
	out = append(out, th.Bold.Render(Trunc(row(func(c *stepCol) string { return c.head }), s.w)))
	listH := s.h - len(out)
	s.off = clampScroll(s.cursor, s.off, listH, len(s.rows))
	for i := s.off; i < len(s.rows) && i < s.off+listH; i++ {
		line := row(func(c *stepCol) string {
			if c.cells[i] == "" && c.head != "step" && c.head != "node" {
				return "-"
			}
			return c.cells[i]
		})
		if i == s.cursor {
			line = th.Selected.Render(Fit(th.Cursor.Render("›")+line[1:], s.w))
		}
		out = append(out, line)
	}
	return fill(out, s.w, s.h)
}

// twoLines lays the steps out on two lines or more each, for a pane too
// narrow for the table: the number and the step's name, then its graph
// node and the attributes it has (type, approval, risk, renderer, child
// agent), wrapped, so that nothing is cut but the end of a long name.
func (s *Steps) twoLines(th Theme, out []string, cols []*stepCol) string {
	listH := s.h - len(out)
	blocks := make([][]string, len(s.rows))
	for i := range s.rows {
		l1 := fmt.Sprintf(" %s  %s", cols[0].cells[i], cols[1].cells[i])
		if i == s.cursor {
			l1 = th.Selected.Render(Fit(th.Cursor.Render("›")+l1[1:], s.w))
		}
		attrs := []string{"node " + cols[2].cells[i]}
		for _, c := range cols[3:] {
			if v := c.cells[i]; v != "" {
				attrs = append(attrs, v)
			}
		}
		blocks[i] = []string{l1}
		for _, l := range strings.Split(ansiWrap(strings.Join(attrs, " · "), max(1, s.w-4)), "\n") {
			blocks[i] = append(blocks[i], "    "+th.Dim.Render(l))
		}
	}
	// Scroll so that the cursor's block is in view.
	s.off = max(0, min(s.off, s.cursor))
	height := func(from, to int) int {
		n := 0
		for i := from; i <= to && i < len(blocks); i++ {
			n += len(blocks[i])
		}
		return n
	}
	for s.off < s.cursor && height(s.off, s.cursor) > listH {
		s.off++
	}
	for i := s.off; i < len(blocks) && len(out) < s.h; i++ {
		out = append(out, blocks[i]...)
	}
	return fill(out, s.w, s.h)
}

// Name is the tab's title.
func (s *Steps) Name() string { return "Steps" }

// Show takes the compiled steps of the newest good analysis.
func (s *Steps) Show(sh Shown) {
	if sh.LastParsed == nil {
		s.SetSteps(nil, "not compiled: the flow file does not parse")
		return
	}
	rows := StepRows(sh.LastParsed.Compiled)
	if _, names := stepsNotDrawn(sh.LastParsed); names != nil { // the graph pane's model: both say the same
		for i := range rows {
			name, ok := names[rows[i].NodeID]
			rows[i].NodeName = name
			rows[i].NotInGraph = !ok && rows[i].NodeID != ""
		}
	}
	rows = withInjectedSteps(sh.LastParsed, rows)
	s.SetSteps(rows, errText(sh.LastParsed.CompileErr))
}

// Nav moves the cursor.
func (s *Steps) Nav(n Nav, page int) { listNav(s, n, page) }

// Target is the graph node of the selected step.
func (s *Steps) Target() (Target, bool) {
	r, ok := s.Selected()
	if !ok || r.NodeID == "" {
		return Target{}, false
	}
	return Target{NodeID: r.NodeID}, true
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// ShowsLastParsed: the steps are those of the newest good analysis.
func (s *Steps) ShowsLastParsed() {}

// withInjectedSteps puts the context steps the WayFlow loader adds at
// mount (the graph model's Injected nodes of the top-level flow) after the
// setup step, where they run: they are in no compiled output, since the
// loader adds them to the mounted graph, not to the file.
func withInjectedSteps(s *analysis.Snapshot, rows []StepRow) []StepRow {
	if s == nil || s.Compiled == nil {
		return rows
	}
	model, err := topModel(s)
	if err != nil || model == nil {
		return rows
	}
	var add []StepRow
	for _, n := range model.Nodes {
		if n.Injected {
			add = append(add, StepRow{Name: n.Name, NodeType: n.ComponentType, NodeID: n.ID, NodeName: n.Name, Injected: true})
		}
	}
	if len(add) == 0 {
		return rows
	}
	at := 0
	for at < len(rows) && rows[at].Number == 0 {
		at++
	}
	return append(append(append([]StepRow{}, rows[:at]...), add...), rows[at:]...)
}
