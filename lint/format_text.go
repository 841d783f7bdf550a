package lint

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/oastui/oastui/compile"
)

// Docs maps a finding's File to the parsed file, so that renderers can show
// the source line of a finding.
type Docs map[string]*compile.Doc

// AddAgent adds every file of a loaded agent under its Path.
func (d Docs) AddAgent(a *compile.Agent) {
	for _, doc := range []*compile.Doc{a.Flow, a.Package, a.CinatraJSON, a.Registry} {
		if doc != nil && doc.Path != "" {
			d[doc.Path] = doc
		}
	}
}

// Summary counts findings by severity, and the files that were linted.
type Summary struct {
	Blockers    int `json:"blockers"`
	Warnings    int `json:"warnings"`
	Suggestions int `json:"suggestions"`
	Files       int `json:"files"`
}

// Summarize counts fs; files is the number of agent files linted.
func Summarize(fs []Finding, files int) Summary {
	s := Summary{Files: files}
	for _, f := range fs {
		switch f.Severity {
		case compile.Blocker:
			s.Blockers++
		case compile.Warning:
			s.Warnings++
		default:
			s.Suggestions++
		}
	}
	return s
}

// TextOptions tune WriteText.
type TextOptions struct {
	Color bool // ANSI colours (the CLI sets it only for a terminal without NO_COLOR)
	Files int  // files linted, for the summary line
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

// WriteText renders findings like actionlint: one
// `file:line:col: severity: message [code]` line, then the source line and
// a caret under the column (when the file is in docs), then a summary line.
// Text from the agent is stripped of control characters.
func WriteText(w io.Writer, fs []Finding, docs Docs, opts TextOptions) error {
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
			paint(txtBold, fmt.Sprintf("%s:%d:%d", txtClean(f.File), f.Line, f.Column)),
			paint(style, string(f.Severity)), txtClean(f.Message), paint(txtDim, "["+f.Code+"]"))
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
// value's first token underlined.
func txtSnippet(b *strings.Builder, doc *compile.Doc, f Finding, paint func(string, string) string) {
	ls, le := doc.LineSpan(f.Line)
	if ls == le && f.Column <= 1 {
		return
	}
	// Byte offset of the column (columns count characters), from the
	// doc's position index rather than a walk along the line.
	bcol, col := min(max(doc.Offset(f.Line, f.Column)-ls, 0), le-ls), 0
	// A long line (minified JSON) is cut in bytes around the column first,
	// so that a huge line is never copied, converted or scanned whole; the
	// margin keeps any credential that reaches into the shown part whole
	// for txtRedact.
	cutLeft, cutRight := false, false
	lo, hi := ls, le
	if le-ls > 4*txtMaxSnippet {
		lo, hi = max(ls+bcol-4*txtMaxSnippet, ls), min(ls+bcol+6*txtMaxSnippet, le)
		for lo > ls && !utf8.RuneStart(doc.Src[lo]) {
			lo--
		}
		for hi < le && !utf8.RuneStart(doc.Src[hi]) {
			hi++
		}
		cutLeft, cutRight = lo > ls, hi < le
	}
	line := string(doc.Src[lo:hi])
	bcol -= lo - ls
	line, bcol = txtRedact(line, bcol, f)
	width := max(txtTokenWidth([]byte(line), bcol), 1)
	runes := []rune(line)
	col = utf8.RuneCountInString(line[:bcol])
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
	runes = runes[start:end]
	width = max(min(width, len(runes)-(col-start)), 1)
	num := fmt.Sprintf("%d", f.Line)
	gutter := strings.Repeat(" ", len(num))
	var pad strings.Builder
	if prefix != "" {
		pad.WriteByte(' ')
	}
	for _, r := range runes[:col-start] {
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
	fmt.Fprintf(b, "%s |\n%s | %s%s%s\n%s | %s%s\n",
		paint(txtDim, gutter), paint(txtDim, num), prefix, txtCleanLine(string(runes)), suffix,
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
// any other credential on the line is masked by the secret scanner's
// RedactSecrets. It returns the line to show and the byte offset of the
// finding's column in it.
func txtRedact(line string, bcol int, f Finding) (string, int) {
	if r := LookupRule(f.Code); r != nil && slices.Contains(r.Tags, "security") && strings.Contains(f.Code, "credential") {
		if end := txtTokenEnd([]byte(line), bcol); end-bcol >= 2 && line[bcol] == '"' && line[end-1] == '"' {
			line = line[:bcol] + `"` + Mask(line[bcol+1:end-1]) + `"` + line[end:]
		}
	}
	red := RedactSecrets(line)
	if red == line {
		return line, bcol
	}
	d := 0
	for d < len(line) && d < len(red) && line[d] == red[d] {
		d++
	}
	if d < bcol {
		bcol = min(len(RedactSecrets(line[:bcol])), len(red))
		for bcol > 0 && bcol < len(red) && !utf8.RuneStart(red[bcol]) {
			bcol--
		}
	}
	return red, bcol
}

// txtClean replaces control characters (terminal escapes included) by
// their \u escapes, so agent text cannot drive the terminal.
func txtClean(s string) string {
	if !strings.ContainsFunc(s, txtIsControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if txtIsControl(r) {
			fmt.Fprintf(&b, `\u%04x`, r)
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// txtCleanLine is txtClean for a source line, keeping tabs.
func txtCleanLine(s string) string {
	if !strings.ContainsFunc(s, func(r rune) bool { return r != '\t' && txtIsControl(r) }) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if r != '\t' && txtIsControl(r) {
			b.WriteRune('�')
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func txtIsControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError
}
