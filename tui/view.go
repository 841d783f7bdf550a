package tui

import (
	"github.com/oastui/oastui/present"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/views"
)

// Minimum terminal size; below it the screen says so.
const (
	minW = 40
	minH = 10
)

// geometry of the body (between the header and the help line).
type geometry struct {
	stacked        bool
	graphW, graphH int // outer sizes, 0 when hidden
	sideW, sideH   int
}

func (m *Model) geometry() geometry {
	bodyH := m.h - 2
	if m.message() != "" {
		bodyH-- // the message line
	}
	var g geometry
	switch {
	case m.zoom && m.focus == focusGraph:
		g.graphW, g.graphH = m.w, bodyH
	case m.zoom:
		g.sideW, g.sideH = m.w, bodyH
	case m.w >= 70:
		// The graph gets the larger share on narrow terminals (44 of 80),
		// 45% from 100 columns on.
		g.graphW = max(m.w*45/100, min(44, m.w-36))
		g.sideW = m.w - g.graphW
		g.graphH, g.sideH = bodyH, bodyH
	default:
		g.stacked = true
		g.graphW, g.sideW = m.w, m.w
		g.graphH = bodyH / 2
		g.sideH = bodyH - g.graphH
	}
	return g
}

func (m *Model) filterShown() bool {
	return m.curTab() == m.findings && (m.filtering || m.findings.Filter() != "")
}

func (m *Model) sideInnerW() int { return max(0, m.geometry().sideW-3) }
func (m *Model) sideInnerH() int {
	h := max(0, m.geometry().sideH-2)
	if m.filterShown() {
		h--
	}
	if m.staleTab() {
		h--
	}
	return max(0, h)
}

// staleTab says the tab shown holds the last good analysis while the
// newest one is broken: it says so on its first line.
func (m *Model) staleTab() bool {
	_, lg := m.curTab().(views.LastParsed)
	return lg && m.Stale() && m.good != nil
}

// message is the message line's text: the last note (editor, watcher,
// picker), else a config problem; "" hides the line.
func (m *Model) message() string {
	if m.note != "" {
		return m.note
	}
	if m.cur != nil && m.cur.Config.Err != nil {
		return "config ignored: " + m.cur.Config.Err.Error()
	}
	return ""
}

// layout pushes sizes into the panes.
func (m *Model) layout() {
	g := m.geometry()
	w, h := m.sideInnerW(), m.sideInnerH()
	for _, p := range m.tabs {
		p.SetSize(w, h)
	}
	m.graph.SetSize(max(0, g.graphW-3), max(0, g.graphH-2))
}

// View renders the frame.
func (m *Model) View() tea.View {
	v := tea.NewView(m.Render())
	v.AltScreen = true
	if m.cur != nil {
		v.WindowTitle = "oastui · " + present.Text(m.headerSource().AgentName())
		m.cfg.Tracer.frame(m.cur.Seq)
	}
	return v
}

func (m *Model) headerSource() *Analysis {
	if m.good != nil {
		return m.good
	}
	return m.cur
}

// Render is the frame's content (tests compare it with goldens).
func (m *Model) Render() string {
	if m.w < minW || m.h < minH {
		return views.Fit("terminal too small for oastui", m.w) + strings.Repeat("\n", max(0, m.h-1))
	}
	m.layout()
	lines := []string{views.Header(m.th, m.w, m.headerData())}
	g := m.geometry()
	var body string
	graph := ""
	if g.graphW > 0 {
		body := m.graph.Lines(m.th) // before the title: it tells whether the drawing overflows
		graph = views.Box(m.th, m.th.PaneTitle(m.graphTitle(g.graphW-4), m.focus == focusGraph), g.graphW, g.graphH,
			body, m.focus == focusGraph)
	}
	side := ""
	if g.sideW > 0 {
		side = views.Box(m.th, m.tabTitle(g.sideW-5), g.sideW, g.sideH, m.sideBody(), m.focus == focusSide)
	}
	switch {
	case graph == "":
		body = side
	case side == "":
		body = graph
	case g.stacked:
		body = graph + "\n" + side
	default:
		body = views.JoinH(graph, side)
	}
	lines = append(lines, body)
	if msg := m.message(); msg != "" {
		lines = append(lines, views.MessageLine(m.th, m.w, msg))
	}
	lines = append(lines, views.HelpLine(m.th, m.w, m.shortHelp()))
	screen := strings.Join(lines, "\n")
	if m.fixOpen() {
		screen = views.Overlay(screen, m.fix.preview.View(m.th, m.w-2, m.h-2), m.w, m.h)
	} else if m.pick.open {
		screen = views.Overlay(screen, m.pick.picker.View(m.th), m.w, m.h)
	} else if m.showHelp {
		screen = views.Overlay(screen, views.HelpOverlay(m.th, m.w-2, m.h-2, m.keys.fullHelp(m.cfg.FromList), m.helpTop), m.w, m.h)
	}
	return screen
}

func (m *Model) headerData() views.HeaderData {
	d := views.HeaderData{Path: m.cfg.DisplayPath, Mode: string(m.cfg.Options.Mode)}
	if d.Path == "" {
		d.Path = m.cfg.Path
	}
	src := m.headerSource()
	if src == nil {
		d.Loading = true
		return d
	}
	d.Agent = src.AgentName()
	d.Package = src.PackageVersion()
	d.Blockers = len(m.cur.Review.Blockers)
	d.Warnings = len(m.cur.Review.Warnings)
	for _, f := range m.outside { // the workspace's findings count as the review's
		switch f.Severity {
		case compile.Blocker:
			d.Blockers++
		case compile.Warning:
			d.Warnings++
		}
	}
	d.Stale = m.Stale()
	d.At = m.cur.Started.Add(m.cur.Took)
	d.Took = m.cur.Took
	if m.cfg.Options.Mode == lint.ModeDeterministic {
		d.Mode = ""
	}
	return d
}

func (m *Model) graphTitle(w int) string {
	t := "graph: " + m.graph.Breadcrumb()
	if m.Stale() {
		t += " (stale)"
	}
	// A drawing wider than the pane scrolls: say so, and which way.
	hint := ""
	switch l, r := m.graph.Overflow(); {
	case l && r:
		hint = " ◂▸ H L"
	case l:
		hint = " ◂ H"
	case r:
		hint = " ▸ L"
	}
	if hint != "" && views.Width(t)+views.Width(hint) > w {
		t = views.Trunc(t, max(0, w-views.Width(hint)))
	}
	return views.Trunc(t+hint, w)
}

func (m *Model) tabTitle(w int) string {
	label := func(i int, badge bool) string {
		n := m.tabs[i].Name()
		if b, ok := m.tabs[i].(views.Badger); ok && badge && b.Badge() != "" {
			n += " " + b.Badge()
		}
		return n
	}
	style := func(i int, s string) string {
		if i == m.tab {
			return m.th.TabActive.Render(s)
		}
		return m.th.TabInactive.Render(s)
	}
	// Every name whole, with badges, when they fit; else whole names
	// without badges; else a window of whole names around the active tab,
	// ‹ and › saying more tabs lie either way (tab and 1…7 reach them).
	for _, f := range []struct {
		badge bool
		sep   string
	}{{true, " │ "}, {false, " │ "}, {false, "│"}} {
		var parts []string
		width := 0
		for i := range m.tabs {
			l := label(i, f.badge)
			width += views.Width(l)
			parts = append(parts, style(i, l))
		}
		if width+views.Width(f.sep)*(len(parts)-1) <= w {
			return strings.Join(parts, m.th.Dim.Render(f.sep))
		}
	}
	sep := "│"
	lo, hi := m.tab, m.tab // the window, inclusive
	used := views.Width(label(m.tab, true))
	if used > w-4 {
		used = views.Width(label(m.tab, false))
	}
	badge := used == views.Width(label(m.tab, true))
	for grew := true; grew; {
		grew = false
		if hi+1 < len(m.tabs) {
			more := 2 // the markers' room: ‹ and ›
			if n := views.Width(label(hi+1, false)) + 1; used+n+more <= w {
				hi, used, grew = hi+1, used+n, true
			}
		}
		if lo > 0 {
			if n := views.Width(label(lo-1, false)) + 1; used+n+2 <= w {
				lo, used, grew = lo-1, used+n, true
			}
		}
	}
	var parts []string
	for i := lo; i <= hi; i++ {
		parts = append(parts, style(i, label(i, badge && i == m.tab)))
	}
	t := strings.Join(parts, m.th.Dim.Render(sep))
	if lo > 0 {
		t = m.th.Dim.Render("‹") + t
	}
	if hi < len(m.tabs)-1 {
		t += m.th.Dim.Render("›")
	}
	return views.Trunc(t, w)
}

func (m *Model) sideBody() []string {
	lines := strings.Split(m.curTab().View(m.th), "\n")
	if m.staleTab() {
		lines = append([]string{m.th.StatusStale.Render("◌ stale: the flow file is broken; this is the last version that parsed")}, lines...)
	}
	if m.filterShown() {
		f := m.th.HelpKey.Render("/") + present.Text(m.filterBuf)
		if !m.filtering {
			f = m.th.HelpKey.Render("/") + present.Text(m.findings.Filter()) + m.th.Dim.Render("  (/ edit · esc in / clears)")
		} else {
			f += m.th.Cursor.Render("█")
		}
		lines = append(lines, f)
	}
	return lines
}

// shortHelp is the help line for the current focus and tab.
func (m *Model) shortHelp() []key.Binding {
	if m.filtering {
		return m.keys.filterHelp()
	}
	if m.fixOpen() {
		return m.keys.fixHelp(m.fix.preview.Len() > 1)
	}
	_, slotTab := m.curTab().(views.SlotSelector)
	op := openerNone
	if m.curTab() == m.findings {
		op = openerList
		if m.findings.DetailOpen() {
			op = openerDetail
		}
	}
	if p, ok := m.curTab().(*views.Prompt); ok {
		op = openerPrompt
		if _, back := p.BackTo(); back {
			op = openerPromptBack
		} else if p.StepList() {
			op = openerPromptStep
		}
	}
	b := m.keys.shortHelp(m.focus == focusGraph, slotTab, m.project, m.cfg.Options.Mode, op)
	// f and u, when they have something to do, before e edit.
	var extra []key.Binding
	if x, ok := m.findings.Selected(); ok && m.curTab() == m.findings && len(x.Fixes) > 0 {
		extra = append(extra, short(m.keys.Fix, "fix"))
	}
	if len(m.fix.undo) > 0 {
		extra = append(extra, short(m.keys.Undo, "undo fix"))
	}
	i := len(b) - 6 // e edit · / filter · r reload · m mode · ? help · q quit
	return append(b[:i:i], append(extra, b[i:]...)...)
}
