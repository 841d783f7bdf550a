package report

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
)

// TextOptions tune writeText.
type TextOptions struct {
	Color bool // ANSI colours (the CLI sets it only for a terminal without NO_COLOR)
	Files int  // files linted, for the summary line
	// Baselined is how many findings a baseline left out (said in the summary line).
	Baselined int
}

const (
	txtReset  = "\x1b[0m"
	txtBold   = "\x1b[1m"
	txtDim    = "\x1b[2m"
	txtRed    = "\x1b[31m"
	txtYellow = "\x1b[33m"
	txtCyan   = "\x1b[36m"
	txtGreen  = "\x1b[32m"
)

// txtMaxSnippet is the widest source excerpt shown; longer lines (minified
// JSON) are cut around the column.
const txtMaxSnippet = 120

// textFormat: actionlint-like lines with source excerpts (--format text).
type textFormat struct{}

func (textFormat) UsesSource() bool { return true }

func (textFormat) Format(w io.Writer, r Report) error {
	return writeText(w, r.Findings, r.Docs, TextOptions{Color: r.Color, Files: r.Files, Baselined: r.Baselined})
}

// writeText renders findings like actionlint: one
// `file:line:col: severity: message [code]` line, then the source line and
// a caret under the column (when the file is in docs), then a summary line.
// Text from the agent goes through present (sanitised, then masked); source
// excerpts are a window of at most txtMaxSnippet characters around the
// column, with every credential in them masked.
func writeText(w io.Writer, fs []lint.Finding, docs Docs, opts TextOptions) error {
	var b strings.Builder
	paint := func(style, s string) string {
		if !opts.Color || style == "" {
			return s
		}
		return style + s + txtReset
	}
	for _, f := range fs {
		style := txtCyan
		switch f.Severity {
		case compile.Blocker:
			style = txtBold + txtRed
		case compile.Warning:
			style = txtYellow
		}
		fmt.Fprintf(&b, "%s: %s: %s %s\n",
			paint(txtBold, fmt.Sprintf("%s:%d:%d", present.Clean(f.File), f.Line, f.Column)),
			paint(style, string(f.Severity)), present.Clean(f.Message), paint(txtDim, "["+present.Clean(f.Code)+"]"))
		if doc := docs[f.File]; doc != nil && f.Line > 0 {
			txtSnippet(&b, doc, f, paint)
		}
	}
	s := Summarize(fs, opts.Files)
	files := txtPlural(s.Files, "file", "files")
	if len(fs) == 0 {
		b.WriteString(paint(txtGreen, "no findings in "+files) + "\n")
	} else {
		fmt.Fprintf(&b, "%s (%s, %s, %s) in %s\n", txtPlural(len(fs), "finding", "findings"),
			paint(txtBold+txtRed, txtPlural(s.Blockers, "blocker", "blockers")),
			paint(txtYellow, txtPlural(s.Warnings, "warning", "warnings")),
			paint(txtCyan, txtPlural(s.Suggestions, "suggestion", "suggestions")), files)
	}
	if opts.Baselined > 0 {
		fmt.Fprintf(&b, "%s in the baseline not shown\n", txtPlural(opts.Baselined, "finding", "findings"))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func txtPlural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// txtSnippet writes the finding's source line and a caret line, with the
// value's first token underlined. Only a window around the column is
// looked at: a minified file's megabyte line is never copied or scanned
// whole per finding.
func txtSnippet(b *strings.Builder, doc *compile.Doc, f lint.Finding, paint func(string, string) string) {
	lo, hi := doc.LineSpan(f.Line) // no copy of the line
	if lo == hi {
		return
	}
	src := doc.Src
	// Byte offset of the column (columns count characters), from the
	// document's position index: O(log n), not a walk along the line.
	bcol := min(max(doc.Offset(f.Line, f.Column), lo), hi)
	// A long line (minified JSON) is cut in bytes around the column first,
	// so that a huge line is never converted or scanned whole; the margin
	// keeps any credential that reaches into the shown part whole for
	// txtRedact.
	cutLeft, cutRight := false, false
	if hi-lo > 4*txtMaxSnippet {
		wlo, whi := max(bcol-4*txtMaxSnippet, lo), min(bcol+6*txtMaxSnippet, hi)
		for wlo > lo && !utf8.RuneStart(src[wlo]) {
			wlo--
		}
		for whi < hi && !utf8.RuneStart(src[whi]) {
			whi++
		}
		cutLeft, cutRight = wlo > lo, whi < hi
		lo, hi = wlo, whi
	}
	line := string(src[lo:hi])
	bcol = min(bcol-lo, len(line))
	// The one presentation order (present.Line): sanitised, then masked.
	// The parts before the column and from it are sanitised apart, so that
	// the caret stays under the column when the sanitiser drops characters.
	pre := present.CleanLine(line[:bcol])
	line, bcol = pre+present.CleanLine(line[bcol:]), len(pre)
	line, bcol = txtRedact(line, bcol, f)
	width := max(txtTokenWidth([]byte(line), bcol), 1)
	runes := []rune(line)
	col := utf8.RuneCountInString(line[:bcol])
	start, end := 0, len(runes)
	if len(runes) > txtMaxSnippet {
		start = max(col-txtMaxSnippet/2, 0)
		end = min(start+txtMaxSnippet, len(runes))
	}
	prefix, suffix := "", ""
	if start > 0 || cutLeft {
		prefix = "…"
	}
	if end < len(runes) || cutRight {
		suffix = "…"
	}
	before, after := string(runes[start:col]), string(runes[col:end])
	width = max(min(width, utf8.RuneCountInString(after)), 1)
	num := fmt.Sprintf("%d", f.Line)
	gutter := strings.Repeat(" ", len(num))
	var pad strings.Builder
	if prefix != "" {
		pad.WriteByte(' ')
	}
	for _, r := range before {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	caret := "^"
	if width > 1 {
		caret += strings.Repeat("~", width-1)
	}
	fmt.Fprintf(b, "%s |\n%s | %s%s%s%s\n%s | %s%s\n",
		paint(txtDim, gutter), paint(txtDim, num), prefix, before, after, suffix,
		paint(txtDim, gutter), pad.String(), paint(txtGreen, caret))
}

// txtTokenWidth is the width in characters of the JSON scalar starting at
// byte off (a string with its quotes, a number, true/false/null), or 1.
func txtTokenWidth(src []byte, off int) int {
	end := txtTokenEnd(src, off)
	if end <= off {
		return 1
	}
	return utf8.RuneCount(src[off:end])
}

// txtTokenEnd is the byte offset just past the JSON scalar starting at
// off, or off when none starts there.
func txtTokenEnd(src []byte, off int) int {
	if off < 0 || off >= len(src) {
		return off
	}
	end := off
	switch c := src[off]; {
	case c == '"':
		end = off + 1
		for end < len(src) && src[end] != '"' && src[end] != '\n' {
			if src[end] == '\\' {
				end++
			}
			end++
		}
		end++
	case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
		for end < len(src) && !strings.ContainsRune(",]} \t\r\n:", rune(src[end])) {
			end++
		}
	}
	return min(end, len(src))
}

// txtRedact keeps credentials out of a source excerpt (SPEC §2: never a
// raw secret): the value under a credential finding is shown masked, and
// any other credential on the line is masked by present.Redact. line is
// sanitised already (present.Line's order). It returns the line to show
// and the byte offset of the finding's column in it.
func txtRedact(line string, bcol int, f lint.Finding) (string, int) {
	if r := lint.LookupRule(f.Code); r != nil && slices.Contains(r.Tags, "security") && strings.Contains(f.Code, "credential") {
		if end := txtTokenEnd([]byte(line), bcol); end-bcol >= 2 && line[bcol] == '"' && line[end-1] == '"' {
			line = line[:bcol] + `"` + present.Mask(line[bcol+1:end-1]) + `"` + line[end:]
		}
	}
	red := present.Redact(line)
	if red == line {
		return line, bcol
	}
	d := 0
	for d < len(line) && d < len(red) && line[d] == red[d] {
		d++
	}
	if d < bcol {
		bcol = min(len(present.Redact(line[:bcol])), len(red))
		for bcol > 0 && bcol < len(red) && !utf8.RuneStart(red[bcol]) {
			bcol--
		}
	}
	return red, bcol
}
