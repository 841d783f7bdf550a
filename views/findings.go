package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"path/filepath"
	"slices"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
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
	hay      []string // per finding of all, what the filter searches, lowercased (built on the first filter of a snapshot)
	msgs     []string // per finding of all, its message presented (present.Text), once per snapshot when first shown
	msgDone  []bool   // msgs[i] is built
	shown    []int    // the findings after the filter (indexes in all), in bucket order
	counts   [3]int   // shown per bucket
	docs     map[string]*compile.Doc
	mainFile string
	filter   string
	cursor   int // index in rows
	off      int
	w, h     int
	folded   [3]bool // buckets folded with enter/space on their header
	rows     []fRow  // the visible rows: bucket headers and the findings of unfolded buckets
	onHeader bool    // the user moved the cursor onto a bucket header (it stays there on refresh)

	detailOpen bool // the selected finding is shown in full (enter; esc closes)
	detail     Text

	// fullBuild makes View build every row of the list, not only those
	// in the window: the path before windowing, kept as the tests' oracle.
	fullBuild bool
}

// fRow is one visible row of the list: a bucket header (item -1) or a
// finding (item = index in shown).
type fRow struct {
	bucket int
	item   int
}

// SetFindings replaces the findings. docs maps a finding's File to its
// document (for the excerpt); mainFile is shown as bare line:col. The
// cursor stays on the same finding (code and location) when it still exists.
func (f *Findings) SetFindings(fs []compile.Finding, docs map[string]*compile.Doc, mainFile string) {
	prev, had := f.Selected()
	header := -1 // the bucket whose header the user put the cursor on
	if !had && f.onHeader && f.cursor < len(f.rows) {
		header = f.rows[f.cursor].bucket
	}
	f.all, f.hay, f.msgs, f.msgDone = fs, nil, nil, nil
	f.docs = docs
	f.mainFile = mainFile
	f.apply()
	for i, r := range f.rows {
		if x := f.item(r); had && x != nil && x.Code == prev.Code && x.Location == prev.Location && x.File == prev.File {
			f.cursor = i
			return
		}
		if r.item < 0 && r.bucket == header {
			f.cursor = i
			return
		}
	}
	f.detailOpen = false // the finding read in full is gone
	// Nothing selected, or the selected finding is gone (the file broke
	// and one invalid_json is left): the worst finding is selected.
	f.cursor = f.firstFinding()
	f.cursor = max(0, min(f.cursor, len(f.rows)-1))
}

// item is the finding of row r, nil for a header.
func (f *Findings) item(r fRow) *compile.Finding {
	if r.item < 0 || r.item >= len(f.shown) {
		return nil
	}
	return &f.all[f.shown[r.item]]
}

// firstFinding is the row of the first finding shown (0 when none).
func (f *Findings) firstFinding() int {
	for i, r := range f.rows {
		if r.item >= 0 {
			return i
		}
	}
	return 0
}

// SetFilter keeps only findings whose code, message or location contains s
// (case-insensitive).
func (f *Findings) SetFilter(s string) {
	f.filter = s
	f.apply()
	f.cursor = f.firstFinding()
	f.off = 0
	f.detailOpen = false
}

// Filter is the current filter.
func (f *Findings) Filter() string { return f.filter }

func (f *Findings) apply() {
	q := strings.ToLower(f.filter)
	if q != "" && f.hay == nil {
		f.hay = make([]string, len(f.all))
		for i, x := range f.all {
			f.hay[i] = strings.ToLower(x.Code + " " + x.Message + " " + x.Location)
		}
	}
	var b [3][]int
	for i, x := range f.all {
		if q != "" && !strings.Contains(f.hay[i], q) {
			continue
		}
		j := bucketOf(x.Severity)
		b[j] = append(b[j], i)
	}
	f.shown = f.shown[:0]
	f.rows = f.rows[:0]
	for i := range b {
		f.counts[i] = len(b[i])
		f.rows = append(f.rows, fRow{bucket: i, item: -1})
		if !f.folded[i] {
			for j := range b[i] {
				f.rows = append(f.rows, fRow{bucket: i, item: len(f.shown) + j})
			}
		}
		f.shown = append(f.shown, b[i]...)
	}
}

// Toggle folds or unfolds the bucket whose header is under the cursor;
// false when the cursor is on a finding.
func (f *Findings) Toggle() bool {
	if f.cursor >= len(f.rows) || f.rows[f.cursor].item >= 0 {
		return false
	}
	b := f.rows[f.cursor].bucket
	f.folded[b] = !f.folded[b]
	f.onHeader = true
	f.apply()
	for i, r := range f.rows {
		if r.item < 0 && r.bucket == b {
			f.cursor = i
		}
	}
	return true
}

// Folded says whether bucket b (0 blockers, 1 warnings, 2 suggestions) is folded.
func (f *Findings) Folded(b int) bool { return f.folded[b] }

// Counts is the number of findings shown per bucket (blockers, warnings,
// suggestions).
func (f *Findings) Counts() [3]int { return f.counts }

// SetSize sets the inner size of the tab.
func (f *Findings) SetSize(w, h int) { f.w, f.h = w, h }

// Move moves the cursor by d rows (clamped); bucket headers are rows too
// (enter or space on one folds it).
func (f *Findings) Move(d int) {
	if len(f.rows) == 0 {
		return
	}
	f.cursor = max(0, min(len(f.rows)-1, f.cursor+d))
	f.noteHeader()
}

// Home and End jump to the first and last row.
func (f *Findings) Home() { f.cursor = 0; f.noteHeader() }
func (f *Findings) End()  { f.cursor = max(0, len(f.rows)-1); f.noteHeader() }

// noteHeader records whether the user left the cursor on a bucket header.
func (f *Findings) noteHeader() {
	_, onFinding := f.Selected()
	f.onHeader = !onFinding && len(f.rows) > 0
}

// Selected is the finding under the cursor (false on a bucket header).
func (f *Findings) Selected() (compile.Finding, bool) {
	if f.cursor < 0 || f.cursor >= len(f.rows) {
		return compile.Finding{}, false
	}
	if x := f.item(f.rows[f.cursor]); x != nil {
		return *x, true
	}
	return compile.Finding{}, false
}

// Len is the number of findings shown.
func (f *Findings) Len() int { return len(f.shown) }

func (f *Findings) place(x compile.Finding) string {
	if x.File == "" || x.File == f.mainFile {
		return fmt.Sprintf("%d:%d", x.Line, x.Column)
	}
	return fmt.Sprintf("%s:%d:%d", filepath.Base(x.File), x.Line, x.Column)
}

// View renders the tab at its size: the finding read in full when one is
// open, else the list and the selected finding's summary under it.
func (f *Findings) View(th Theme) string {
	if f.detailOpen {
		if x, ok := f.Selected(); ok {
			f.detail.SetSize(f.w, f.h)
			place := f.place(x)
			if x.File != "" {
				place = fmt.Sprintf("%s:%d:%d", filepath.Base(x.File), x.Line, x.Column)
			}
			f.detail.SetLines(FindingDetail(th, x, f.docs[x.File], place, f.w))
			return f.detail.View(th)
		}
		f.detailOpen = false
	}
	detail := f.summary(th)
	listH := f.h - len(detail)
	if listH < 4 { // too small for both: the list wins
		detail = nil
		listH = f.h
	}
	f.off = clampScroll(f.cursor, f.off, listH, len(f.rows))
	if f.cursor < listH && f.off <= 1 {
		f.off = 0 // keep the first header in view when near the top
	}
	// Only the rows in the window are built (formatted, presented,
	// styled): a keypress costs what the screen shows, not the review.
	lo, hi := f.off, min(len(f.rows), f.off+max(0, listH))
	if f.fullBuild { // the test's oracle: every row built, as before
		lo, hi = 0, len(f.rows)
	}
	lines := make([]string, 0, hi-lo)
	for i := lo; i < hi; i++ {
		lines = append(lines, f.line(th, i))
	}
	out := make([]string, 0, f.h)
	for i := f.off; i-lo < len(lines) && len(out) < listH; i++ {
		out = append(out, Fit(lines[i-lo], f.w))
	}
	for len(out) < listH {
		out = append(out, "")
	}
	out = append(out, detail...)
	return fill(out, f.w, f.h)
}

// line is row i of the list: a finding, or a bucket header with its count.
func (f *Findings) line(th Theme, i int) string {
	r, sel := f.rows[i], i == f.cursor
	if r.item >= 0 && r.item < len(f.shown) {
		return f.row(th, f.shown[r.item], sel)
	}
	styles := [3]lipgloss.Style{th.Blocker, th.Warning, th.Suggestion}
	mark := "▾"
	if f.counts[r.bucket] == 0 || f.folded[r.bucket] {
		mark = "▸"
	}
	text := styles[r.bucket].Render(fmt.Sprintf("%s %s (%d)", mark, bucketNames[r.bucket], f.counts[r.bucket]))
	if sel {
		text = th.Selected.Render(Fit(text, f.w))
	}
	return text
}

// message is finding i's message presented (present.Text), built once
// per snapshot, the first time it is shown.
func (f *Findings) message(i int) string {
	if f.msgDone == nil {
		f.msgs, f.msgDone = make([]string, len(f.all)), make([]bool, len(f.all))
	}
	if !f.msgDone[i] {
		f.msgs[i], f.msgDone[i] = present.Text(f.all[i].Message), true
	}
	return f.msgs[i]
}

// row is finding i of all as a row of the list (cut to the pane's width
// by Fit, here when selected, else by View).
func (f *Findings) row(th Theme, i int, sel bool) string {
	x := f.all[i]
	msg := ""
	if f.fullBuild { // the oracle: presented whole on every frame
		msg = present.Text(x.Message)
	} else {
		// The whole message is presented (once), then cut where Fit
		// cannot reach: a secret across the cut is masked as before,
		// and a message of thousands of names costs a row's width.
		msg = cutBeyond(f.message(i), f.w)
	}
	mark := "  "
	if sel {
		mark = th.Cursor.Render("› ")
	}
	fix := ""
	if len(x.Fixes) > 0 {
		fix = th.DiffAdd.Render(FixMark) + " "
	}
	text := fmt.Sprintf("%-7s %s%s %s", f.place(x), fix, th.Code.Render(present.Text(x.Code)), msg)
	if x.Source != "" && x.Source != compile.SourceDeterministic {
		text += th.Dim.Render(" [" + present.Text(x.Source) + "]")
	}
	s := mark + text
	if sel {
		return th.Selected.Render(Fit(s, f.w))
	}
	return s
}

// detail is the block under the list: a rule, the selected finding's full
// message (wrapped, at most 3 lines) and a 3-line source excerpt with a caret.
func (f *Findings) summary(th Theme) []string {
	x, ok := f.Selected()
	if !ok || f.h < 12 || f.w < 20 {
		return nil
	}
	out := []string{th.Border.Render(strings.Repeat("─", f.w))}
	text := ""
	if f.fullBuild {
		text = present.Text(x.Message)
	} else {
		text = f.message(f.shown[f.rows[f.cursor].item])
	}
	var ml []string
	more := false
	if f.fullBuild { // the oracle: the whole message wrapped
		ml = strings.Split(ansi.Wrap(text, f.w, " "), "\n")
		if more = len(ml) > 3; more {
			ml = ml[:3]
		}
	} else {
		ml, more = wrapHead(text, f.w, 3)
	}
	if more {
		ml[2] = Trunc(ml[2]+" … (enter)", f.w)
	}
	out = append(out, ml...)
	if loc := present.Text(x.Location); loc != "" {
		out = append(out, th.Dim.Render(Trunc(loc, f.w)))
	}
	out = append(out, Excerpt(th, f.docs[x.File], x, f.w)...)
	return out
}

// Excerpt renders the lines up to finding x's in doc with numbers, then a
// caret under its column. Nil when the document or line is unknown.
func Excerpt(th Theme, doc *compile.Doc, x compile.Finding, w int) []string {
	return ExcerptAround(th, doc, x, w, 1, 0)
}

// ExcerptAround renders `before` lines before finding x's line, the line,
// a caret line underlining what the finding is about, then `after` lines
// after it, numbered: the engine's excerpt (lint.Excerpt, the one the
// CLI's text format shows), windowed around the column and presented
// already, so a minified file's megabyte line costs no more than a short
// one. Nil when the document or line is unknown.
func ExcerptAround(th Theme, doc *compile.Doc, x compile.Finding, w, before, after int) []string {
	ex := lint.Excerpt(doc, x)
	if ex.Empty() {
		return nil
	}
	line := x.Line
	num := len(fmt.Sprint(line + after + 1))
	gutter := func(n int) string {
		if n == 0 {
			return th.LineNo.Render(strings.Repeat(" ", num) + " │ ")
		}
		return th.LineNo.Render(fmt.Sprintf("%*d │ ", num, n))
	}
	gw := num + 3
	expand := func(s string) string { return strings.ReplaceAll(s, "\t", "    ") }
	text := func(l compile.ExcerptLine) string {
		if l.CutLeft {
			return "…" + expand(l.Text)
		}
		return expand(l.Text)
	}
	var shown []compile.ExcerptLine
	for _, l := range ex.Lines {
		if l.N >= line-before && l.N <= line+after {
			shown = append(shown, l)
		}
	}
	fl := ex.Line()
	pad := Width(text(compile.ExcerptLine{Text: fl.Text[:ex.Caret], CutLeft: fl.CutLeft}))
	// When the caret would fall off the right edge, the indentation the
	// lines share is dropped, and then, if need be, as many cells more
	// from the left of every line (marked …).
	cut, extra := 0, 0
	if pad >= w-gw {
		cut = pad
		for _, l := range shown {
			if t := text(l); strings.TrimSpace(t) != "" {
				cut = min(cut, len(t)-len(strings.TrimLeft(t, " ")))
			}
		}
		pad -= cut
		if pad >= w-gw && w-gw > 2 {
			extra = pad - (w-gw)/2
			pad -= extra
		}
	}
	src := func(l compile.ExcerptLine) string {
		t := text(l)
		t = t[min(cut, len(t)-len(strings.TrimLeft(t, " "))):]
		if extra > 0 {
			t = "…" + TruncLeft(t, extra+1)
		}
		if l.CutRight {
			t += "…"
		}
		return gutter(l.N) + Trunc(t, w-gw)
	}
	var out []string
	for _, l := range shown {
		if l.N > line {
			break
		}
		out = append(out, src(l))
	}
	if pad < w-gw {
		caret := "^"
		if n := min(Width(expand(fl.Text[ex.Caret:ex.CaretEnd])), w-gw-pad); n > 1 {
			caret += strings.Repeat("~", n-1)
		}
		out = append(out, gutter(0)+strings.Repeat(" ", pad)+th.Caret.Render(caret))
	}
	for _, l := range shown {
		if l.N > line {
			out = append(out, src(l))
		}
	}
	return out
}

// FindingDetail is a finding in full, for a pane of width w: severity and
// code, the whole message, the rule's documentation, where it is (place
// and JSON Pointer) and the source around it with a caret. Agent text goes
// through present.Text.
func FindingDetail(th Theme, x compile.Finding, doc *compile.Doc, place string, w int) []string {
	sevStyle, sev := th.Suggestion, "suggestion"
	switch x.Severity {
	case compile.Blocker:
		sevStyle, sev = th.Blocker, "✖ blocker"
	case compile.Warning:
		sevStyle, sev = th.Warning, "⚠ warning"
	}
	wrap := func(s string, indent int) []string {
		return strings.Split(ansi.Wrap(s, max(1, w-indent), " "), "\n")
	}
	head := th.Code.Render(present.Text(x.Code))
	if x.Source != "" && x.Source != compile.SourceDeterministic {
		head += th.Dim.Render(" [" + present.Text(x.Source) + "]")
	}
	out := []string{sevStyle.Render(sev) + "  " + head}
	if Width(out[0]) > w { // the code on its own line(s)
		out = append([]string{sevStyle.Render(sev)}, wrap(head, 0)...)
	}
	out = append(out, "")
	out = append(out, wrap(present.Text(x.Message), 0)...)
	field := func(label, text string) {
		if text == "" {
			return
		}
		out = append(out, "", th.Bold.Render(label))
		for _, l := range wrap(text, 2) {
			out = append(out, "  "+l)
		}
	}
	if r := lint.LookupRule(x.Code); r != nil && r.Doc != "" {
		field("rule", present.Text(r.Doc))
	}
	field("where", present.Text(place))
	field("pointer", present.Text(x.Location))
	if len(x.Fixes) > 0 {
		out = append(out, "", th.Bold.Render(FixMark+" fixes")+th.Dim.Render(" (f previews)"))
		for i, fx := range x.Fixes {
			for j, l := range wrap(fmt.Sprintf("%d. %s", i+1, present.Text(fx.Title)), 5) {
				if j > 0 {
					l = "   " + l
				}
				out = append(out, "  "+l)
			}
		}
	}
	if ex := ExcerptAround(th, doc, x, w-2, 3, 3); len(ex) > 0 {
		out = append(out, "", th.Bold.Render("source"))
		for _, l := range ex {
			out = append(out, "  "+l)
		}
	}
	foot := "esc back to the list · ↑↓ scroll · e edit here"
	if len(x.Fixes) > 0 {
		foot += " · f fix"
	}
	out = append(out, "", th.Dim.Render(foot))
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
// error included) and those raised outside it (the workspace's).
func (f *Findings) Show(sh Shown) {
	fs := sh.Cur.Review.Findings
	if len(sh.Outside) > 0 {
		fs = compile.SortFindings(append(slices.Clone(fs), sh.Outside...))
	}
	f.SetFindings(fs, sh.Cur.Docs(), sh.Cur.FlowFile())
}

// Nav moves the cursor, or scrolls the finding read in full; space on a
// bucket header folds it.
func (f *Findings) Nav(n Nav, page int) {
	if f.detailOpen {
		f.detail.Nav(n, page)
		return
	}
	if n == NavSpace {
		f.Toggle()
		return
	}
	listNav(f, n, page)
}

// Open (enter) folds or unfolds the bucket under the cursor, or opens the
// selected finding in full.
func (f *Findings) Open() bool {
	if f.detailOpen || f.Toggle() {
		return true
	}
	if _, ok := f.Selected(); ok {
		f.detailOpen = true
		f.detail.Home()
		return true
	}
	return false
}

// Close (esc, backspace) closes the finding read in full; false when none
// is open.
func (f *Findings) Close() bool {
	if !f.detailOpen {
		return false
	}
	f.detailOpen = false
	return true
}

// DetailOpen says whether a finding is shown in full.
func (f *Findings) DetailOpen() bool { return f.detailOpen }

// Target is where the selected finding is.
func (f *Findings) Target() (Target, bool) {
	x, ok := f.Selected()
	if !ok {
		return Target{}, false
	}
	return Target{File: x.File, Pointer: x.Location, Line: x.Line, Col: x.Column}, true
}
