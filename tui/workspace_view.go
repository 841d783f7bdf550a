package tui

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
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
	rows := m.ix.Rows()
	broken, blocked, warned := 0, 0, 0
	for _, r := range rows {
		switch {
		case r.Problem != "":
			broken++
		case r.Blockers > 0:
			blocked++
		case r.Warnings > 0:
			warned++
		}
	}
	parts := []string{m.th.AppName.Render("oastui"), m.th.AgentName.Render("workspace " + views.Clean(displayDir(m.shown()))), views.Count(len(rows), "agent")}
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
		title += m.th.Dim.Render(fmt.Sprintf(" · filter %q: %d of %d", views.Clean(m.filter), len(m.rows), len(m.ix.Agents)))
	}
	box := views.Box(m.th, title, w, h-2, body, true)
	var foot string
	switch {
	case m.filtering:
		foot = views.Fit(" "+m.th.HelpKey.Render("/")+" "+views.Clean(m.filter)+"█  "+m.th.HelpDesc.Render("enter keep · esc clear"), w)
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

// The table's columns: fixed widths but for agent and title.
const (
	wsStatusW  = 24
	wsKindW    = 12
	wsVersionW = 8
	wsNumW     = 5
	wsKidsW    = 8
	wsChangedW = 9
)

func (m *wsModel) tableLines(w int) []string {
	fixed := 2 + (wsStatusW + 1) + (wsKindW + 1) + (wsVersionW + 1) + 2*(wsNumW+1) + (wsKidsW + 1) + (wsChangedW + 1) + 2
	flex := max(10, w-fixed)
	agentW := max(8, flex*55/100)
	titleW := max(2, flex-agentW)
	cell := func(s string, n int) string { return views.Fit(s, n) + " " }
	head := "  " + cell("status", wsStatusW) + cell("agent", agentW) + cell("title", titleW) + cell("kind", wsKindW) +
		cell("version", wsVersionW) + cell("steps", wsNumW) + cell("slots", wsNumW) + cell("children", wsKidsW) + cell("changed", wsChangedW)
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
	now := m.now()
	for i := m.off; i < len(m.rows) && len(lines) <= listH; i++ {
		r := &m.rows[i]
		status := m.statusCell(r)
		steps, slots := "—", "—"
		if r.Steps >= 0 {
			steps = fmt.Sprint(r.Steps)
		}
		if r.Parsed || r.Stale {
			slots = fmt.Sprint(r.Slots)
		}
		kids := "—"
		if r.Children > 0 {
			kids = fmt.Sprint(r.Children)
			if r.Missing > 0 {
				kids += m.th.Warning.Render(fmt.Sprintf(" (%d?)", r.Missing))
			}
		}
		changed := ago(now, r.MTime)
		dim := func(s string) string {
			if r.Stale {
				return m.th.Dim.Render(s)
			}
			return s
		}
		line := cell(status, wsStatusW) + cell(views.Clean(r.ID()), agentW) + cell(dim(views.Clean(r.Title)), titleW) +
			cell(dim(views.Clean(r.Kind())), wsKindW) + cell(views.Clean(r.Version), wsVersionW) + cell(dim(steps), wsNumW) +
			cell(dim(slots), wsNumW) + cell(dim(kids), wsKidsW) + cell(changed, wsChangedW)
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

// detailLines are a rule and the selected agent's worst findings (the
// workspace's first), so that the table says where the problems are
// without opening the agent.
func (m *wsModel) detailLines(w int) []string {
	const n = 3
	out := []string{m.th.Border.Render(strings.Repeat("─", max(0, w)))}
	if len(m.rows) == 0 {
		return append(out, "", "", "")
	}
	r := m.rows[m.cursor]
	fs := m.ix.Worst(r.Index, n)
	if len(fs) == 0 {
		msg := views.Clean(r.ID()) + ": no findings"
		if m.queued[r.Dir] {
			msg = views.Clean(r.ID()) + ": reviewing…"
		}
		out = append(out, m.th.Dim.Render(views.Fit(msg, w)))
	}
	for _, f := range fs {
		mark, st := "· ", m.th.Suggestion
		switch f.Severity {
		case compile.Blocker:
			mark, st = "✖ ", m.th.Blocker
		case compile.Warning:
			mark, st = "⚠ ", m.th.Warning
		}
		where := relOf(m.root, f.File)
		if strings.HasPrefix(where, "..") {
			where = f.File
		}
		text := st.Render(mark) + m.th.Dim.Render(fmt.Sprintf("%s:%d:%d ", views.Clean(where), f.Line, f.Column)) +
			views.Clean(f.Message) + m.th.Dim.Render(" ["+f.Code+"]")
		out = append(out, views.Fit(text, w))
	}
	for len(out) < n+1 {
		out = append(out, "")
	}
	return out
}

// statusCell: the status with its mark and colour; "stale" while a
// review of the row is pending or its flow no longer parses.
func (m *wsModel) statusCell(r *workspace.Row) string {
	queued := m.queued[r.Dir]
	if queued && r.Parsed == false && r.Problem == "" {
		return m.th.Dim.Render("… reviewing")
	}
	s := ""
	switch {
	case r.Problem != "":
		s = m.th.Blocker.Render("✖ " + r.Problem)
	case r.Blockers > 0:
		s = m.th.StatusBlocked.Render("✖ " + r.Status())
	case r.Warnings > 0:
		s = m.th.Warning.Render("⚠ " + r.Status())
	case r.Suggestions > 0:
		s = m.th.Suggestion.Render("· " + r.Status())
	default:
		s = m.th.StatusClean.Render("● clean")
	}
	if queued {
		s += m.th.StatusStale.Render(" stale")
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
