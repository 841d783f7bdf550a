package views

import (
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
)

// Fit truncates s (which may carry style sequences) to width w with an
// ellipsis and pads it with spaces to exactly w columns.
func Fit(s string, w int) string {
	if w <= 0 {
		return ""
	}
	sw := ansi.StringWidth(s)
	if sw > w {
		s = ansi.Truncate(s, w, "…")
		sw = ansi.StringWidth(s)
	}
	if sw < w {
		s += strings.Repeat(" ", w-sw)
	}
	return s
}

// Trunc truncates s to at most w columns with an ellipsis, without padding.
func Trunc(s string, w int) string {
	if w <= 0 {
		return ""
	}
	if ansi.StringWidth(s) <= w {
		return s
	}
	return ansi.Truncate(s, w, "…")
}

// Width is the display width of s, ignoring style sequences.
func Width(s string) int { return ansi.StringWidth(s) }

// Box draws a rounded frame of exactly w×h cells around body (inner width
// w-3: one column of padding on the left), with title
// (already styled, see PaneTitle) in the top border. Body lines are cut or padded to the inner width; extra
// lines are dropped, missing ones are blank.
func Box(th Theme, title string, w, h int, body []string, focused bool) string {
	if w < 2 || h < 2 {
		return ""
	}
	border := th.Border
	if focused {
		border = th.BorderFocused
	}
	inner := w - 2
	var b strings.Builder
	// top: ╭ title ───╮
	top := ""
	if title != "" && inner >= 4 {
		t := Trunc(title, inner-3)
		top = border.Render("╭ ") + t + border.Render(" "+strings.Repeat("─", max(0, inner-2-Width(t)))+"╮")
	} else {
		top = border.Render("╭" + strings.Repeat("─", inner) + "╮")
	}
	b.WriteString(top)
	side := border.Render("│")
	for i := 0; i < h-2; i++ {
		b.WriteByte('\n')
		line := ""
		if i < len(body) {
			line = body[i]
		}
		b.WriteString(side + " " + Fit(line, inner-1) + side)
	}
	b.WriteByte('\n')
	b.WriteString(border.Render("╰" + strings.Repeat("─", inner) + "╯"))
	return b.String()
}

// JoinH places blocks of lines side by side (each block's lines must already
// have equal widths).
func JoinH(blocks ...string) string {
	var split [][]string
	n := 0
	for _, bl := range blocks {
		ls := strings.Split(bl, "\n")
		split = append(split, ls)
		n = max(n, len(ls))
	}
	var b strings.Builder
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte('\n')
		}
		for _, ls := range split {
			if i < len(ls) {
				b.WriteString(ls[i])
			}
		}
	}
	return b.String()
}

// clampScroll keeps a cursor visible in a window of h rows starting at off.
func clampScroll(cursor, off, h, n int) int {
	if h <= 0 {
		return 0
	}
	if cursor < off {
		off = cursor
	}
	if cursor >= off+h {
		off = cursor - h + 1
	}
	if off > n-h {
		off = n - h
	}
	if off < 0 {
		off = 0
	}
	return off
}

// PaneTitle styles a plain pane title.
func (th Theme) PaneTitle(s string, focused bool) string {
	if focused {
		return th.TitleFocused.Render(s)
	}
	return th.Title.Render(s)
}

// TruncLeft drops the first n columns of s.
func TruncLeft(s string, n int) string { return ansi.TruncateLeft(s, n, "") }

func ansiWrap(s string, w int) string {
	if w <= 0 {
		return s
	}
	return ansi.Wrap(s, w, " ")
}

// cutMargin is how many cells past the width cutBeyond keeps: more than
// the widest grapheme cluster (2 cells) that a cut through it could
// narrow, and the tail Fit puts in its place (1 cell).
const cutMargin = 8

// cutBeyond is s, presented text (no escape sequences), cut at a rune
// boundary at least w+cutMargin cells in, or s when it is narrower: a
// line that ends in s, cut by Fit or Trunc to at most w cells, is cut to
// the same bytes, since what Fit keeps ends before the cut and what it
// drops after the cut is printable text only (Fit keeps the escape
// sequences it passes, and s has none). The cost is that of the cells
// kept, not of s.
func cutBeyond(s string, w int) string {
	need := max(0, w) + cutMargin
	for n := 4 * need; n < len(s); n *= 2 {
		for n > 0 && !utf8.RuneStart(s[n]) {
			n--
		}
		if ansi.StringWidth(s[:n]) >= need {
			return s[:n]
		}
	}
	return s
}

// wrapHead is the first n lines of ansi.Wrap(s, w, " ") and whether it
// has more, wrapping no more of s than those lines need. Wrap writes its
// output as it reads s, and only appends (at the end it flushes the
// pending word and spaces, never a line break): the wrap of a prefix of
// s cut at a rune boundary has written what the wrap of s writes up to
// the cluster the cut may split, which writes at most one line break.
// So when the prefix's wrap has n+2 line breaks, n+1 of them were
// written before that cluster, and its first n lines and the fact that
// there are more are those of s. Otherwise the prefix doubles, up to s.
func wrapHead(s string, w, n int) (lines []string, more bool) {
	for l := 8 * (max(1, w) + cutMargin) * n; l < len(s); l *= 2 {
		for l > 0 && !utf8.RuneStart(s[l]) {
			l--
		}
		if out := ansi.Wrap(s[:l], w, " "); strings.Count(out, "\n") >= n+2 {
			return strings.SplitN(out, "\n", n+1)[:n], true
		}
	}
	lines = strings.Split(ansi.Wrap(s, w, " "), "\n")
	if len(lines) > n {
		return lines[:n], true
	}
	return lines, false
}
