package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	"charm.land/lipgloss/v2"
)

// HeaderData is what the header line shows.
type HeaderData struct {
	Agent    string // agent name
	Package  string // name@version, or ""
	Path     string
	Blockers int
	Warnings int
	Stale    bool // the graph and steps are from an older, good version
	Loading  bool // no analysis has finished yet
	Mode     string
	At       time.Time     // when the last analysis finished
	Took     time.Duration // how long it took
	Note     string        // watcher trouble etc.
}

// Header renders the one-line header, cut to width. The left part (names
// and path) gives way first; the status part stays whole.
func Header(th Theme, w int, d HeaderData) string {
	left := []string{th.AppName.Render("oastui")}
	if d.Agent != "" {
		left = append(left, th.AgentName.Render(present.Text(d.Agent)))
	}
	if d.Package != "" {
		left = append(left, th.Text.Render(present.Text(d.Package)))
	}
	if d.Path != "" {
		left = append(left, th.Dim.Render(present.Text(d.Path)))
	}
	sep := th.Dim.Render(" · ")
	var status string
	switch {
	case d.Loading:
		status = th.Status.Render("analysing…")
	case d.Stale:
		status = th.StatusStale.Render(fmt.Sprintf("◌ stale · %d blocker%s", d.Blockers, plural(d.Blockers)))
	case d.Blockers > 0:
		status = th.StatusBlocked.Render(fmt.Sprintf("✖ %d blocker%s", d.Blockers, plural(d.Blockers)))
	case d.Warnings > 0:
		status = th.Warning.Render(fmt.Sprintf("⚠ %d warning%s", d.Warnings, plural(d.Warnings)))
	default:
		status = th.StatusClean.Render("● clean")
	}
	if !d.Loading && d.Warnings > 0 && (d.Stale || d.Blockers > 0) {
		status += th.Warning.Render(fmt.Sprintf("  %d warning%s", d.Warnings, plural(d.Warnings)))
	}
	if d.Mode != "" {
		status += th.Dim.Render(" · " + d.Mode)
	}
	if !d.At.IsZero() {
		status += th.Dim.Render(" · " + d.At.Format("15:04:05") + " " + fmtDur(d.Took))
	}
	if d.Note != "" {
		status = th.Warning.Render(present.Text(d.Note)) + " " + status
	}
	status += " "
	sw := Width(status)
	if sw >= w {
		return Fit(status, w)
	}
	l := " " + strings.Join(left, sep)
	l = Trunc(l, w-sw-1)
	return l + strings.Repeat(" ", w-sw-Width(l)) + status
}

// MessageLine renders a message (editor failure, watcher trouble, picker
// result, config problem) on its own line under the panes, cut to width:
// the header keeps the agent's name.
func MessageLine(th Theme, w int, msg string) string {
	return Fit(" "+th.Warning.Render(present.Text(msg)), w)
}

// Count is "1 blocker", "2 blockers": n and the word, plural when n != 1.
func Count(n int, word string) string { return fmt.Sprintf("%d %s%s", n, word, plural(n)) }

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// Duration is d as the header shows it (850µs, 12ms, 1.2s).
func Duration(d time.Duration) string { return fmtDur(d) }

func fmtDur(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%dµs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%dms", d.Milliseconds())
	}
	return fmt.Sprintf("%.1fs", d.Seconds())
}

// HelpLine renders the help of bindings on one line. When they do not all
// fit, the last two (help and quit, by convention) are kept and the ones
// before them are dropped from the end.
func HelpLine(th Theme, w int, bs []key.Binding) string {
	item := func(k key.Binding) string {
		return th.HelpKey.Render(k.Help().Key) + " " + th.HelpDesc.Render(k.Help().Desc)
	}
	sep := th.HelpSep.Render(" · ")
	total := func(list []key.Binding) int {
		n := 1
		for i, k := range list {
			if i > 0 {
				n += 3
			}
			n += Width(item(k))
		}
		return n
	}
	keep := bs
	if total(keep) > w && len(bs) > 2 {
		tail := bs[len(bs)-2:]
		head := bs[:len(bs)-2]
		for len(head) > 0 && total(append(append([]key.Binding{}, head...), tail...)) > w {
			head = head[:len(head)-1]
		}
		keep = append(append([]key.Binding{}, head...), tail...)
	}
	parts := make([]string, len(keep))
	for i, k := range keep {
		parts[i] = item(k)
	}
	return Fit(" "+strings.Join(parts, sep), w)
}

// HelpGroup is one group of the help overlay: a title and its bindings,
// and an optional note (dim lines) under them.
type HelpGroup struct {
	Title    string
	Bindings []key.Binding
	Note     []string
}

// helpLines renders groups as lines, keys aligned within them.
func helpLines(th Theme, groups []HelpGroup) []string {
	keyW := 0
	for _, g := range groups {
		for _, b := range g.Bindings {
			keyW = max(keyW, Width(b.Help().Key))
		}
	}
	var lines []string
	for i, g := range groups {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, th.Bold.Render(g.Title))
		for _, b := range g.Bindings {
			h := b.Help()
			lines = append(lines, "  "+th.HelpKey.Render(h.Key)+strings.Repeat(" ", keyW-Width(h.Key)+2)+th.HelpDesc.Render(h.Desc))
		}
		for _, n := range g.Note {
			lines = append(lines, "  "+th.Dim.Render(n))
		}
	}
	return lines
}

func linesWidth(lines []string) int {
	w := 0
	for _, l := range lines {
		w = max(w, Width(l))
	}
	return w
}

// helpLayout lays the help out for a w×h box: one column, or, when one
// is taller than the box and two fit its width, two columns split between
// groups where the taller column is shortest. Nothing is cut: lines past
// the box's height are reached by scrolling (HelpOverlay's top).
func helpLayout(th Theme, w, h int, groups []HelpGroup) []string {
	lines := helpLines(th, groups)
	if len(lines)+2 <= h {
		return lines
	}
	best, bestH := -1, 0
	for s := 1; s < len(groups); s++ {
		l, r := helpLines(th, groups[:s]), helpLines(th, groups[s:])
		if 2*1+linesWidth(l)+3+linesWidth(r)+2 > w {
			continue
		}
		if hh := max(len(l), len(r)); best < 0 || hh < bestH {
			best, bestH = s, hh
		}
	}
	if best < 0 {
		return lines
	}
	l, r := helpLines(th, groups[:best]), helpLines(th, groups[best:])
	lw := linesWidth(l)
	merged := make([]string, 0, max(len(l), len(r)))
	for i := 0; i < max(len(l), len(r)); i++ {
		a, b := "", ""
		if i < len(l) {
			a = l[i]
		}
		if i < len(r) {
			b = r[i]
		}
		merged = append(merged, Fit(a, lw)+"   "+b)
	}
	return merged
}

// HelpScrollMax is the largest top HelpOverlay shows for this size: 0 when
// the whole help fits.
func HelpScrollMax(th Theme, w, h int, groups []HelpGroup) int {
	return max(0, len(helpLayout(th, w, h, groups))-max(1, h-2))
}

// HelpOverlay renders the full help as a framed box no larger than w×h,
// from line top of its layout (clamped). When it does not fit, the title
// says which lines show and that ↑↓ scroll: no key is ever left out.
func HelpOverlay(th Theme, w, h int, groups []HelpGroup, top int) string {
	title := "help · press ? or esc to close"
	lines := helpLayout(th, w, h, groups)
	if rows := max(1, h-2); len(lines) > rows {
		top = min(max(0, top), len(lines)-rows)
		title = fmt.Sprintf("help · ↑↓ lines %d–%d of %d · press ? or esc to close", top+1, top+rows, len(lines))
		lines = lines[top : top+rows]
	}
	bw := min(max(linesWidth(lines), Width(title)+4)+4, w)
	bh := min(len(lines)+2, h)
	body := make([]string, len(lines))
	for i, l := range lines {
		body[i] = " " + l
	}
	return Box(th, th.TitleFocused.Render(title), bw, bh, body, true)
}

// Overlay draws box centred over screen (both w×h blocks of lines).
func Overlay(screen, box string, w, h int) string {
	bw, bh := lipgloss.Width(box), lipgloss.Height(box)
	x, y := max(0, (w-bw)/2), max(0, (h-bh)/2)
	return lipgloss.NewCompositor(
		lipgloss.NewLayer(screen),
		lipgloss.NewLayer(box).X(x).Y(y).Z(1),
	).Render()
}
