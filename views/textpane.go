package views

import (
	"fmt"
	"strings"
)

// Text is a scrollable block of lines (the Compiled and Node tabs). Lines
// are drawn as given: callers pass text already presented with present.Text.
type Text struct {
	lines  []string
	off    int
	left   int
	w, h   int
	number bool
}

// SetLines replaces the content, keeping the scroll position when possible.
func (t *Text) SetLines(lines []string) {
	t.lines = lines
	t.clamp()
}

// SetNumbered turns line numbers on.
func (t *Text) SetNumbered(on bool) { t.number = on }

// SetSize sets the inner size.
func (t *Text) SetSize(w, h int) { t.w, t.h = w, h; t.clamp() }

// Scroll moves the view by d lines; ScrollH by d columns.
func (t *Text) Scroll(d int)  { t.off += d; t.clamp() }
func (t *Text) ScrollH(d int) { t.left = max(0, t.left+d) }

// Home and End jump to the top and bottom.
func (t *Text) Home() { t.off = 0 }
func (t *Text) End()  { t.off = len(t.lines); t.clamp() }

// Offset is the first visible line.
func (t *Text) Offset() int { return t.off }

// Len is the number of lines.
func (t *Text) Len() int { return len(t.lines) }

func (t *Text) clamp() {
	t.off = max(0, min(t.off, len(t.lines)-t.h))
}

// View renders the visible window.
func (t *Text) View(th Theme) string {
	out := make([]string, 0, t.h)
	num := len(fmt.Sprint(len(t.lines)))
	for i := t.off; i < len(t.lines) && len(out) < t.h; i++ {
		l := t.lines[i]
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
