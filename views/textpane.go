package views

import (
	"fmt"
	"strings"

	"github.com/oastui/oastui/present"
)

// Text is a scrollable block of lines (the Compiled and Node tabs). Lines
// are drawn as given: callers pass text already presented with
// present.Text, or mark the lines still to present (setRawLines), which
// View presents when they come into its window.
type Text struct {
	lines  []string
	raw    []bool // raw[i]: lines[i] is agent text View passes through present.Text
	off    int
	left   int
	w, h   int
	number bool

	// pending builds the content when it is first needed (setLinesLater):
	// a tab not shown costs nothing per snapshot.
	pending func() (lines []string, raw []bool)
}

// SetLines replaces the content, keeping the scroll position when possible.
func (t *Text) SetLines(lines []string) { t.setRawLines(lines, nil) }

// setRawLines is SetLines with the lines marked raw left to present:
// View presents those of its window, each as present.Text would have.
func (t *Text) setRawLines(lines []string, raw []bool) {
	t.pending = nil
	t.lines, t.raw = lines, raw
	t.clamp()
}

// setLinesLater replaces the content with what build returns, built when
// the content is first read (View, a scroll, Len), at most once. The
// pane at the top stays at the top whatever the content's length, so
// only then is the build put off: a scrolled pane builds now and keeps
// its position as SetLines does.
func (t *Text) setLinesLater(build func() ([]string, []bool)) {
	if t.off != 0 {
		t.setRawLines(build())
		return
	}
	t.pending = build
}

// resolve builds the content set with setLinesLater, if it is pending.
func (t *Text) resolve() {
	if t.pending != nil {
		t.setRawLines(t.pending())
	}
}

// SetNumbered turns line numbers on.
func (t *Text) SetNumbered(on bool) { t.number = on }

// SetSize sets the inner size.
// While content is pending the pane is at its top (setLinesLater), where
// a clamp leaves it: nothing is built.
func (t *Text) SetSize(w, h int) {
	t.w, t.h = w, h
	if t.pending == nil {
		t.clamp()
	}
}

// Scroll moves the view by d lines; ScrollH by d columns.
func (t *Text) Scroll(d int)  { t.resolve(); t.off += d; t.clamp() }
func (t *Text) ScrollH(d int) { t.left = max(0, t.left+d) }

// Home and End jump to the top and bottom.
func (t *Text) Home() { t.off = 0 }
func (t *Text) End()  { t.resolve(); t.off = len(t.lines); t.clamp() }

// Offset is the first visible line.
func (t *Text) Offset() int { return t.off }

// Len is the number of lines.
func (t *Text) Len() int { t.resolve(); return len(t.lines) }

func (t *Text) clamp() {
	t.off = max(0, min(t.off, len(t.lines)-t.h))
}

// View renders the visible window.
func (t *Text) View(th Theme) string {
	t.resolve()
	out := make([]string, 0, t.h)
	num := len(fmt.Sprint(len(t.lines)))
	for i := t.off; i < len(t.lines) && len(out) < t.h; i++ {
		l := t.lines[i]
		if t.raw != nil && t.raw[i] {
			l = present.Text(l)
		}
		if t.left > 0 {
			l = cutLeft(l, t.left)
		}
		if t.number {
			l = th.LineNo.Render(fmt.Sprintf("%*d ", num, i+1)) + l
		}
		out = append(out, Fit(l, t.w))
	}
	for len(out) < t.h {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

func cutLeft(s string, n int) string {
	w := Width(s)
	if n >= w {
		return ""
	}
	return TruncLeft(s, n)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fill(lines []string, w, h int) string {
	out := make([]string, 0, h)
	for i := 0; i < len(lines) && i < h; i++ {
		out = append(out, Fit(lines[i], w))
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", max(0, w)))
	}
	return strings.Join(out, "\n")
}

// Nav scrolls: a line, a page (pgup/pgdn, space), to the top or bottom,
// or sideways.
func (t *Text) Nav(n Nav, page int) {
	switch n {
	case NavUp:
		t.Scroll(-1)
	case NavDown:
		t.Scroll(1)
	case NavPageUp:
		t.Scroll(-page)
	case NavPageDown, NavSpace:
		t.Scroll(page)
	case NavTop:
		t.Home()
	case NavBottom:
		t.End()
	case NavLeft:
		t.ScrollH(-4)
	case NavRight:
		t.ScrollH(4)
	}
}
