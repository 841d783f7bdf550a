package tui

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/views"
	"github.com/oastui/oastui/workspace"
)

// screenSize is the size the screen is laid out at: the terminal's, but no
// smaller than 40×8.
func (m *wsModel) screenSize() (w, h int) { return max(m.w, 40), max(m.h, 8) }

func (m *wsModel) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

func (m *wsModel) listH() int { return max(1, m.h-5) }

// counts over the rows (all, unfiltered).
func (m *wsModel) header(w int) string {
	broken, blocked, warned := m.counts.broken, m.counts.blocked, m.counts.warned
	parts := []string{m.th.AppName.Render("oastui"), m.th.AgentName.Render("workspace " + present.Text(displayDir(m.shown()))), views.Count(len(m.all), "agent")}
	st := ""
	if broken > 0 {
		st += m.th.Blocker.Render(fmt.Sprintf("✖ %d broken ", broken))
	}
	if blocked > 0 {
		st += m.th.StatusBlocked.Render(fmt.Sprintf("✖ %d blocked ", blocked))
	}
	if warned > 0 {
		st += m.th.Warning.Render(fmt.Sprintf("⚠ %d with warnings ", warned))
	}
	if st == "" && m.done >= m.total {
		st = m.th.StatusClean.Render("● all clean ")
	}
	line := " " + strings.Join(parts, m.th.Dim.Render(" · ")) + "   " + st
	if m.done < m.total {
		line += " " + progressBar(m.th, m.done, m.total, 20)
	} else if n := len(m.queued); n > 0 {
		line += m.th.Dim.Render(fmt.Sprintf(" re-reviewing %d…", n))
	}
	return views.Fit(line, w)
}

// shown is the root as the screen names it.
func (m *wsModel) shown() string {
	if m.display != "" {
		return m.display
	}
	return m.root
}

func displayDir(d string) string {
	d = filepath.ToSlash(filepath.Clean(d))
	if !strings.HasSuffix(d, "/") {
		d += "/"
	}
	return d
}

// progressBar is "reviewing 12/25 ████░░░░".
func progressBar(th views.Theme, done, total, width int) string {
	fill := 0
	if total > 0 {
		fill = done * width / total
	}
	return th.Dim.Render(fmt.Sprintf("reviewing %d/%d ", done, total)) + th.TitleFocused.Render(strings.Repeat("█", fill)) + th.Dim.Render(strings.Repeat("░", width-fill))
}

func (m *wsModel) render() string {
	w, h := m.screenSize()
	var body []string
	title := ""
	tabs := []string{"Agents", "Graph"}
	for i, t := range tabs {
		if i > 0 {
			title += m.th.Dim.Render(" │ ")
		}
		if i == m.tab {
			title += m.th.TabActive.Render(t)
		} else {
			title += m.th.TabInactive.Render(t)
		}
	}
	if m.tab == 0 {
		body = m.tableLines(w - 3)
		title += m.th.Dim.Render(fmt.Sprintf(" · sorted by %s%s", m.sortCol, map[bool]string{true: " (reversed)"}[m.reverse]))
	} else {
		body = m.graphLines(w-3, h-4)
	}
	if m.filter != "" || m.filtering {
		title += m.th.Dim.Render(fmt.Sprintf(" · filter %q: %d of %d", present.Text(m.filter), len(m.rows), len(m.ix.Agents)))
	}
	box := views.Box(m.th, title, w, h-2, body, true)
	var foot string
	switch {
	case m.filtering:
		foot = views.Fit(" "+m.th.HelpKey.Render("/")+" "+present.Text(m.filter)+"█  "+m.th.HelpDesc.Render("enter keep · esc clear"), w)
	case m.note != "":
		foot = views.MessageLine(m.th, w, m.note)
	default:
		foot = views.HelpLine(m.th, w, m.keys.shortHelp(m.tab == 1))
	}
	screen := strings.Join([]string{m.header(w), box, foot}, "\n")
	if m.showHelp {
		screen = views.Overlay(screen, views.HelpOverlay(m.th, w-2, h-2, m.keys.fullHelp(), m.helpTop), w, h)
	}
	return screen
}

// wsColumn is one column of the table: what it shows of a row, how wide
// it is, and its priority (a narrow screen drops the columns of least
// value first; the agent and its status always show).
type wsColumn struct {
	head string
	w    int
	cell func(r *workspace.Row) string
}

// wsLayout is the table's columns at a width: the status as compact
// counts and the agent's name first; then, as room allows, steps,
// children, version, slots, kind, changed and title.
func (m *wsModel) wsLayout(w int) []wsColumn {
	now := m.now()
	dim := func(r *workspace.Row, s string) string {
		if r.Stale {
			return m.th.Dim.Render(s)
		}
		return s
	}
	names, agentWant := m.nameOf, m.nameW
	status := wsColumn{"status", wsStatusW, m.statusCell}
	agent := wsColumn{"agent", 0, func(r *workspace.Row) string { return names[r.Dir] }}
	optional := []wsColumn{
		{"steps", 5, func(r *workspace.Row) string {
			if r.Steps < 0 {
				return dim(r, "—")
			}
			return dim(r, fmt.Sprint(r.Steps))
		}},
		{"children", 8, func(r *workspace.Row) string {
			if r.Children == 0 {
				return dim(r, "—")
			}
			kids := fmt.Sprint(r.Children)
			if r.Missing > 0 {
				kids += m.th.Warning.Render(fmt.Sprintf(" (%d?)", r.Missing))
			}
			return dim(r, kids)
		}},
		{"version", 8, func(r *workspace.Row) string { return present.Text(r.Version) }},
		{"slots", 5, func(r *workspace.Row) string {
			if r.Parsed || r.Stale {
				return dim(r, fmt.Sprint(r.Slots))
			}
			return "—"
		}},
		{"kind", 12, func(r *workspace.Row) string { return dim(r, present.Text(r.Kind())) }},
		{"changed", 8, func(r *workspace.Row) string { return ago(now, r.MTime) }},
	}
	title := wsColumn{"title", 0, func(r *workspace.Row) string { return dim(r, present.Text(r.Title)) }}
	const titleMin = 16
	room := w - 2 - (status.w + 1) // the cursor, the status
	agent.w = min(agentWant, max(12, room-1))
	room -= agent.w + 1
	cols := []wsColumn{status, agent}
	for _, c := range optional {
		if c.w+1 <= room {
			cols = append(cols, c)
			room -= c.w + 1
		}
	}
	if room >= titleMin+1 {
		title.w = room - 1
		cols = append(cols, title)
	} else if room > 0 && agent.w < agentWant {
		cols[1].w += min(room, agentWant-agent.w)
	}
	return cols
}

// names are the agent column's text by package directory: the slug
// (the package name without a vendor every row shares, else vendor/slug);
// agents whose package names are equal (copies of a tree) add where
// they live, their directory relative to the root.
func names(ix *workspace.Index) map[string]string {
	vendors := map[string]bool{}
	count := map[string]int{}
	for i := range ix.Agents {
		a := &ix.Agents[i]
		id := a.ID()
		count[id]++
		if a.Package != "" {
			v, _, ok := strings.Cut(id, "/")
			if !ok {
				v = ""
			}
			vendors[v] = true
		}
	}
	out := make(map[string]string, len(ix.Agents))
	for i := range ix.Agents {
		a := &ix.Agents[i]
		id := a.ID()
		name := id
		if a.Package != "" && len(vendors) == 1 {
			if _, slug, ok := strings.Cut(id, "/"); ok {
				name = slug
			}
		}
		if count[id] > 1 {
			where := a.Rel
			if where == "" {
				where = a.Dir
			}
			name += " @ " + filepath.ToSlash(filepath.Dir(where))
		}
		out[a.Dir] = present.Text(name)
	}
	return out
}

// fitName fits an agent's name in n cells keeping its end (what tells
// copies and siblings apart): "…-outreach-agent @ v001".
func fitName(s string, n int) string {
	if ansi.StringWidth(s) <= n {
		return s
	}
	if n <= 1 {
		return views.Fit(s, n)
	}
	return "…" + views.TruncLeft(s, ansi.StringWidth(s)-n+1)
}

func (m *wsModel) tableLines(w int) []string {
	cols := m.wsLayout(w)
	cell := func(s string, n int) string { return views.Fit(s, n) + " " }
	head := "  "
	for _, c := range cols {
		head += cell(c.head, c.w)
	}
	lines := []string{m.th.Bold.Render(views.Fit(head, w))}
	listH := m.listH() // rows under the column heads
	detail := m.detailLines(w)
	if m.h >= 16 {
		listH -= len(detail) // the selected agent's worst findings under the table
	} else {
		detail = nil
	}
	if m.cursor < m.off {
		m.off = m.cursor
	}
	if m.cursor >= m.off+listH {
		m.off = m.cursor - listH + 1
	}
	m.off = max(0, min(m.off, max(0, len(m.rows)-listH)))
	if len(m.rows) == 0 {
		msg := "no agent matches the filter"
		if len(m.ix.Agents) == 0 {
			msg = "no agent package in this tree"
		}
		return append(lines, m.th.Dim.Render(msg))
	}
	for i := m.off; i < len(m.rows) && len(lines) <= listH; i++ {
		r := &m.rows[i]
		line := ""
		for k, c := range cols {
			if k == 1 {
				line += fitName(c.cell(r), c.w) + strings.Repeat(" ", max(0, c.w-ansi.StringWidth(fitName(c.cell(r), c.w)))) + " "
				continue
			}
			line += cell(c.cell(r), c.w)
		}
		if i == m.cursor {
			line = m.th.Selected.Render(views.Fit(m.th.Cursor.Render("› ")+line, w))
		} else {
			line = "  " + line
		}
		lines = append(lines, line)
	}
	for len(lines) < listH+1 && detail != nil {
		lines = append(lines, "")
	}
	return append(lines, detail...)
}

// wsDetailLines is how many lines the selected agent's findings take
// under the table.
const wsDetailLines = 4

// detailLines are a rule and the selected agent's worst findings (the
// workspace's first), wrapped, so that the table says where the problems
// are without opening the agent; what does not fit is counted.
func (m *wsModel) detailLines(w int) []string {
	out := []string{m.th.Border.Render(strings.Repeat("─", max(0, w)))}
	pad := func() []string {
		for len(out) < wsDetailLines+1 {
			out = append(out, "")
		}
		return out
	}
	if len(m.rows) == 0 {
		return pad()
	}
	r := m.rows[m.cursor]
	name := m.nameOf[r.Dir]
	fs := m.ix.Worst(r.Index, wsDetailLines)
	if len(fs) == 0 {
		msg := name + ": no findings"
		if m.queued[r.Dir] {
			msg = name + ": reviewing…"
		}
		out = append(out, m.th.Dim.Render(views.Fit(msg, w)))
		return pad()
	}
	total := r.Blockers + r.Warnings + r.Suggestions
	type line struct {
		text string
		k    int // the finding's index in fs
		last bool
	}
	var lines []line
	for k, f := range fs {
		mark, st := "· ", m.th.Suggestion
		switch f.Severity {
		case compile.Blocker:
			mark, st = "✖ ", m.th.Blocker
		case compile.Warning:
			mark, st = "⚠ ", m.th.Warning
		}
		// Where, relative to the agent (its own files), else to the root.
		where := relOf(r.Dir, f.File)
		if strings.HasPrefix(where, "..") {
			if where = relOf(m.root, f.File); strings.HasPrefix(where, "..") {
				where = f.File
			}
		}
		text := st.Render(mark) + m.th.Dim.Render(fmt.Sprintf("%s:%d:%d ", present.Text(where), f.Line, f.Column)) +
			present.Text(f.Message) + m.th.Dim.Render(" ["+f.Code+"]")
		wrapped := strings.Split(ansi.Wrap(text, max(1, w-2), " "), "\n")
		for i, l := range wrapped {
			if i > 0 {
				l = "  " + l
			}
			lines = append(lines, line{l, k, i == len(wrapped)-1})
		}
	}
	cut := func(l line) string { return views.Trunc(l.text, w-1) + "…" }
	if len(lines) <= wsDetailLines && total <= len(fs) {
		for _, l := range lines {
			out = append(out, views.Fit(l.text, w))
		}
		return pad()
	}
	// Not all of it fits: the last line counts the findings not shown.
	shown := lines[:min(len(lines), wsDetailLines-1)]
	full := 0 // findings shown in full
	for _, l := range shown {
		if l.last {
			full++
		}
	}
	partial := len(shown) > 0 && !shown[len(shown)-1].last
	rest := total - full
	if partial {
		rest--
	}
	if rest == 0 {
		// Only the cut finding is left: its next line, cut, instead.
		shown = lines[:wsDetailLines]
	}
	for i, l := range shown {
		if i == len(shown)-1 && !l.last {
			out = append(out, views.Fit(cut(l), w))
			continue
		}
		out = append(out, views.Fit(l.text, w))
	}
	if rest > 0 {
		out = append(out, m.th.Dim.Render(views.Fit(fmt.Sprintf("  … %s: enter opens the agent", views.Count(rest, "more finding")), w)))
	}
	return pad()
}

// wsStatusW is the status column's width.
const wsStatusW = 13

// statusCell: the status as compact counts with marks and colours
// (✖ blockers ⚠ warnings · suggestions); "…" while a first review is
// pending; "stale" (or "~" when the counts leave no room) while a
// review of the row is pending or its flow no longer parses.
func (m *wsModel) statusCell(r *workspace.Row) string {
	queued := m.queued[r.Dir]
	if !r.Parsed && r.Problem == workspace.Readable { // the placeholder of an agent never reviewed yet

		return m.th.Dim.Render("… reviewing")
	}
	var s string
	switch {
	case r.Problem != workspace.Readable:
		s = m.th.Blocker.Render("✖ " + r.Problem.Short())
	case r.Blockers+r.Warnings+r.Suggestions == 0:
		s = m.th.StatusClean.Render("● clean")
	default:
		var parts []string
		if r.Blockers > 0 {
			parts = append(parts, m.th.StatusBlocked.Render(fmt.Sprintf("✖%d", r.Blockers)))
		}
		if r.Warnings > 0 {
			parts = append(parts, m.th.Warning.Render(fmt.Sprintf("⚠%d", r.Warnings)))
		}
		if r.Suggestions > 0 {
			parts = append(parts, m.th.Suggestion.Render(fmt.Sprintf("·%d", r.Suggestions)))
		}
		s = strings.Join(parts, " ")
	}
	if queued || r.Stale {
		if ansi.StringWidth(s)+len(" stale") <= wsStatusW {
			s += m.th.StatusStale.Render(" stale")
		} else {
			s += m.th.StatusStale.Render("~") // the help overlay says what it means
		}
	}
	return s
}

// ago is a short age: "12s", "5m", "3h", "4d", else the date.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Format("2006-01-02")
}
