package report

import (
	"fmt"
	"io"
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
	// Agents is how many agents were linted and Flagged how many of them
	// have a finding or did not load (the summary line says "in N of M
	// agents"); with no agents (a report without targets) it counts files.
	Agents, Flagged int
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
const txtMaxSnippet = compile.ExcerptWidth

// textFormat: actionlint-like lines with source excerpts (--format text).
type textFormat struct{}

func (textFormat) UsesSource() bool  { return true }
func (textFormat) UsesTargets() bool { return true } // the "in N of M agents" line

func (textFormat) Format(w io.Writer, r Report) error {
	opts := TextOptions{Color: r.Color, Files: r.Files, Baselined: r.Baselined}
	for _, t := range r.Targets {
		if t.NotAgent {
			continue
		}
		opts.Agents++
		if t.Problem != "" || t.Blockers+t.Warnings+t.Suggestions > 0 {
			opts.Flagged++
		}
	}
	return writeText(w, r.Findings, r.Docs, opts)
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
	if opts.Agents > 0 {
		files = txtPlural(opts.Agents, "agent", "agents")
		if len(fs) > 0 {
			files = fmt.Sprintf("%d of %s", opts.Flagged, files)
		}
	}
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

// txtSnippet writes the finding's source line and a caret line under the
// text the finding is about: the engine's excerpt (lint.Excerpt), which
// the TUI shows too: a window of at most compile.ExcerptWidth characters
// around the column, presented once, with its span to underline.
func txtSnippet(b *strings.Builder, doc *compile.Doc, f lint.Finding, paint func(string, string) string) {
	ex := lint.Excerpt(doc, f)
	l := ex.Line()
	if ex.Empty() || l.Text == "" && !l.CutLeft && !l.CutRight {
		return
	}
	prefix, suffix := "", ""
	if l.CutLeft {
		prefix = "…"
	}
	if l.CutRight {
		suffix = "…"
	}
	num := fmt.Sprintf("%d", f.Line)
	gutter := strings.Repeat(" ", len(num))
	var pad strings.Builder
	if prefix != "" {
		pad.WriteByte(' ')
	}
	for _, r := range l.Text[:ex.Caret] {
		if r == '\t' {
			pad.WriteByte('\t')
		} else {
			pad.WriteByte(' ')
		}
	}
	caret := "^"
	if width := utf8.RuneCountInString(l.Text[ex.Caret:ex.CaretEnd]); width > 1 {
		caret += strings.Repeat("~", width-1)
	}
	fmt.Fprintf(b, "%s |\n%s | %s%s%s\n%s | %s%s\n",
		paint(txtDim, gutter), paint(txtDim, num), prefix, l.Text, suffix,
		paint(txtDim, gutter), pad.String(), paint(txtGreen, caret))
}
