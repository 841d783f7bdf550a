package views

import (
	"fmt"
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
		left = append(left, th.AgentName.Render(Clean(d.Agent)))
	}
	if d.Package != "" {
		left = append(left, th.Text.Render(Clean(d.Package)))
	}
	if d.Path != "" {
		left = append(left, th.Dim.Render(Clean(d.Path)))
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
	default:
		status = th.StatusClean.Render("● clean")
	}
	if !d.Loading && d.Warnings > 0 {
		status += th.Warning.Render(fmt.Sprintf("  %d warning%s", d.Warnings, plural(d.Warnings)))
	}
	if d.Mode != "" {
		status += th.Dim.Render(" · " + d.Mode)
	}
	if !d.At.IsZero() {
		status += th.Dim.Render(" · " + d.At.Format("15:04:05") + " " + fmtDur(d.Took))
	}
	if d.Note != "" {
		status = th.Warning.Render(Clean(d.Note)) + " " + status
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

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

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

// HelpGroup is one column of the help overlay.
type HelpGroup struct {
	Title    string
	Bindings []key.Binding
}

// HelpOverlay renders the full help as a framed box no larger than w×h.
func HelpOverlay(th Theme, w, h int, groups []HelpGroup) string {
	var lines []string
	keyW := 0
	for _, g := range groups {
		for _, b := range g.Bindings {
			keyW = max(keyW, Width(b.Help().Key))
		}
	}
	for i, g := range groups {
		if i > 0 {
			lines = append(lines, "")
		}
		lines = append(lines, th.Bold.Render(g.Title))
		for _, b := range g.Bindings {
			h := b.Help()
			lines = append(lines, "  "+th.HelpKey.Render(h.Key)+strings.Repeat(" ", keyW-Width(h.Key)+2)+th.HelpDesc.Render(h.Desc))
		}
	}
	lines = append(lines, "", th.Dim.Render("press ? or esc to close"))
	// Two columns when it does not fit in one.
	bw := 0
	for _, l := range lines {
		bw = max(bw, Width(l))
	}
	if len(lines)+2 > h && 2*bw+5 <= w {
		half := (len(lines) + 1) / 2
		left, right := lines[:half], lines[half:]
		var merged []string
		for i := 0; i < half; i++ {
			r := ""
			if i < len(right) {
				r = right[i]
			}
			merged = append(merged, Fit(left[i], bw)+"   "+r)
		}
		lines = merged
		bw = 2*bw + 3
	}
	bw = min(bw+4, w)
	bh := min(len(lines)+2, h)
	body := make([]string, len(lines))
	for i, l := range lines {
		body[i] = " " + l
	}
	return Box(th, th.TitleFocused.Render("help"), bw, bh, body, true)
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
