package views

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/compile"
)

// Bucket names, in display order.
var bucketNames = [3]string{"Blockers", "Warnings", "Suggestions"}

func bucketOf(s compile.Severity) int {
	switch s {
	case compile.Blocker:
		return 0
	case compile.Warning:
		return 1
	}
	return 2
}

// Findings is the findings tab: three buckets with counts, one row per
// finding (`line:col code message`), a cursor, a filter, and below the list
// the selected finding's full message and source excerpt with a caret.
type Findings struct {
	all      []compile.Finding
	shown    []compile.Finding // after the filter, in bucket order
	counts   [3]int            // shown per bucket
	docs     map[string]*compile.Doc
	mainFile string
	filter   string
	cursor   int
	off      int
	w, h     int
}

// SetFindings replaces the findings. docs maps a finding's File to its
// document (for the excerpt); mainFile is shown as bare line:col. The
// cursor stays on the same finding (code and location) when it still exists.
func (f *Findings) SetFindings(fs []compile.Finding, docs map[string]*compile.Doc, mainFile string) {
	prev, had := f.Selected()
	f.all = fs
	f.docs = docs
	f.mainFile = mainFile
	f.apply()
	if had {
		for i, x := range f.shown {
			if x.Code == prev.Code && x.Location == prev.Location && x.File == prev.File {
				f.cursor = i
				return
			}
		}
	}
	f.cursor = min(f.cursor, max(0, len(f.shown)-1))
}

// SetFilter keeps only findings whose code, message or location contains s
// (case-insensitive).
func (f *Findings) SetFilter(s string) {
	f.filter = s
	f.apply()
	f.cursor = 0
	f.off = 0
}

// Filter is the current filter.
func (f *Findings) Filter() string { return f.filter }

func (f *Findings) apply() {
	var b [3][]compile.Finding
	q := strings.ToLower(f.filter)
	for _, x := range f.all {
		if q != "" && !strings.Contains(strings.ToLower(x.Code+" "+x.Message+" "+x.Location), q) {
			continue
		}
		i := bucketOf(x.Severity)
		b[i] = append(b[i], x)
	}
	f.shown = f.shown[:0]
	for i := range b {
		f.counts[i] = len(b[i])
		f.shown = append(f.shown, b[i]...)
	}
}

// Counts is the number of findings shown per bucket (blockers, warnings,
// suggestions).
func (f *Findings) Counts() [3]int { return f.counts }

// SetSize sets the inner size of the tab.
func (f *Findings) SetSize(w, h int) { f.w, f.h = w, h }

// Move moves the cursor by d rows (clamped).
func (f *Findings) Move(d int) {
	if len(f.shown) == 0 {
		return
	}
	f.cursor = max(0, min(len(f.shown)-1, f.cursor+d))
}

// Home and End jump to the first and last finding.
func (f *Findings) Home() { f.cursor = 0 }
func (f *Findings) End()  { f.cursor = max(0, len(f.shown)-1) }

// Selected is the finding under the cursor.
func (f *Findings) Selected() (compile.Finding, bool) {
	if f.cursor < 0 || f.cursor >= len(f.shown) {
		return compile.Finding{}, false
	}
	return f.shown[f.cursor], true
}

// Len is the number of findings shown.
func (f *Findings) Len() int { return len(f.shown) }

func (f *Findings) place(x compile.Finding) string {
	if x.File == "" || x.File == f.mainFile {
		return fmt.Sprintf("%d:%d", x.Line, x.Column)
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(x.File), x.Line, x.Column)
}

// View renders the tab at its size.
func (f *Findings) View(th Theme) string {
	detail := f.detail(th)
	listH := f.h - len(detail)
	if listH < 4 { // too small for both: the list wins
		detail = nil
		listH = f.h
	}
	// Lines of the list: a header per bucket, then its rows.
	type line struct {
		text string
		item int // index in shown, -1 for a header
	}
	var lines []line
	cursorLine := 0
	idx := 0
	styles := [3]lipgloss.Style{th.Blocker, th.Warning, th.Suggestion}
	for b := 0; b < 3; b++ {
		mark := "▾"
		if f.counts[b] == 0 {
			mark = "▸"
		}
		lines = append(lines, line{styles[b].Render(fmt.Sprintf("%s %s (%d)", mark, bucketNames[b], f.counts[b])), -1})
		for i := 0; i < f.counts[b]; i++ {
			x := f.shown[idx]
			if idx == f.cursor {
				cursorLine = len(lines)
			}
			lines = append(lines, line{f.row(th, x, idx == f.cursor), idx})
			idx++
		}
	}
	f.off = clampScroll(cursorLine, f.off, listH, len(lines))
	if cursorLine < listH && f.off <= 1 {
		f.off = 0 // keep the first header in view when near the top
	}
	out := make([]string, 0, f.h)
	for i := f.off; i < len(lines) && len(out) < listH; i++ {
		out = append(out, Fit(lines[i].text, f.w))
	}
	for len(out) < listH {
		out = append(out, "")
	}
	out = append(out, detail...)
	return fill(out, f.w, f.h)
}

func (f *Findings) row(th Theme, x compile.Finding, sel bool) string {
	mark := "  "
	if sel {
		mark = th.Cursor.Render("› ")
	}
	text := fmt.Sprintf("%-7s %s %s", f.place(x), th.Code.Render(Clean(x.Code)), Clean(x.Message))
	if x.Source != "" && x.Source != compile.SourceDeterministic {
		text += th.Dim.Render(" [" + Clean(x.Source) + "]")
	}
	s := mark + text
	if sel {
		return th.Selected.Render(Fit(s, f.w))
	}
	return s
}

// detail is the block under the list: a rule, the selected finding's full
// message (wrapped, at most 3 lines) and a 3-line source excerpt with a caret.
func (f *Findings) detail(th Theme) []string {
	x, ok := f.Selected()
	if !ok || f.h < 12 || f.w < 20 {
		return nil
	}
	out := []string{th.Border.Render(strings.Repeat("─", f.w))}
	msg := ansi.Wrap(Clean(x.Message), f.w, " ")
	ml := strings.Split(msg, "\n")
	if len(ml) > 3 {
		ml = ml[:3]
		ml[2] = Trunc(ml[2]+" …", f.w)
	}
	out = append(out, ml...)
	if loc := Clean(x.Location); loc != "" {
		out = append(out, th.Dim.Render(Trunc(loc, f.w)))
	}
	out = append(out, Excerpt(th, f.docs[x.File], x.Line, x.Column, f.w)...)
	return out
}

// Excerpt renders lines line-1..line of doc with numbers, then a caret under
// column col. Nil when the document or line is unknown.
func Excerpt(th Theme, doc *compile.Doc, line, col, w int) []string {
	if doc == nil || line < 1 || len(doc.Src) == 0 {
		return nil
	}
	num := len(fmt.Sprint(line + 1))
	gutter := func(n int) string {
		if n == 0 {
			return th.LineNo.Render(strings.Repeat(" ", num) + " │ ")
		}
		return th.LineNo.Render(fmt.Sprintf("%*d │ ", num, n))
	}
	gw := num + 3
	var out []string
	for n := max(1, line-1); n <= line; n++ {
		text := strings.ReplaceAll(doc.Line(n), "\t", "    ")
		out = append(out, gutter(n)+Trunc(Clean(text), w-gw))
	}
	// Caret under the column (counted in characters on the raw line).
	raw := []rune(strings.ReplaceAll(doc.Line(line), "\t", "    "))
	tabs := strings.Count(string([]rune(doc.Line(line))[:max(0, min(col-1, len([]rune(doc.Line(line)))))]), "\t")
	c := min(max(0, col-1+3*tabs), len(raw))
	pad := Width(Clean(string(raw[:c])))
	if pad < w-gw {
		out = append(out, gutter(0)+strings.Repeat(" ", pad)+th.Caret.Render("^"))
	}
	return out
}

// Name is the tab's title.
func (f *Findings) Name() string { return "Findings" }

// Badge is the number of findings shown ("" for none).
func (f *Findings) Badge() string {
	if n := f.counts[0] + f.counts[1] + f.counts[2]; n > 0 {
		return itoa(n)
	}
	return ""
}

// Show takes the findings of the newest analysis (a broken save's parse
// error included).
func (f *Findings) Show(sh Shown) {
	f.SetFindings(sh.Cur.Review.Findings, sh.Cur.Docs(), sh.Cur.FlowFile())
}

// Nav moves the cursor.
func (f *Findings) Nav(n Nav, page int) { listNav(f, n, page) }

// Target is where the selected finding is.
func (f *Findings) Target() (Target, bool) {
	x, ok := f.Selected()
	if !ok {
		return Target{}, false
	}
	return Target{File: x.File, Pointer: x.Location, Line: x.Line, Col: x.Column}, true
}

// JumpsOnEnter: enter on a finding selects its node in the graph.
func (f *Findings) JumpsOnEnter() {}
