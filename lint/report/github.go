package report

import (
	"bufio"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// githubFormat: GitHub Actions workflow commands (--format github).
type githubFormat struct{}

func (githubFormat) Format(w io.Writer, r Report) error { return writeGitHub(w, r.Findings, r.BaseDir) }

// writeGitHub writes findings as GitHub Actions workflow commands, one a
// line: ::error file=F,line=L,col=C,title=CODE::MESSAGE (warning for
// warnings, notice for suggestions), escaped as the runner expects; with
// root set, file paths are made relative to it (the runner resolves them
// against the repository root). The log is shown in terminals and web
// pages: every string is sanitised (present.Clean) before it is escaped,
// so no escape sequence reaches them.
func writeGitHub(w io.Writer, findings []lint.Finding, root string) error {
	bw := bufio.NewWriter(w)
	ps := workPaths()
	for _, f := range findings {
		bw.WriteString("::")
		bw.WriteString(githubCommand(f.Severity))
		bw.WriteString(" ")
		var props []string
		if f.File != "" {
			file := filepath.ToSlash(f.File)
			if root != "" && !strings.HasPrefix(f.File, "<") {
				file = ps.rel(f.File, root)
			}
			props = append(props, "file="+githubProperty(file))
		}
		if f.Line > 0 {
			props = append(props, "line="+strconv.Itoa(f.Line))
			if f.Column > 0 {
				props = append(props, "col="+strconv.Itoa(f.Column))
			}
		}
		props = append(props, "title="+githubProperty(f.Code))
		bw.WriteString(strings.Join(props, ","))
		bw.WriteString("::")
		bw.WriteString(githubData(f.Message))
		bw.WriteString("\n")
	}
	return bw.Flush()
}

func githubCommand(s compile.Severity) string {
	switch s {
	case compile.Blocker:
		return "error"
	case compile.Warning:
		return "warning"
	}
	return "notice"
}

// githubData sanitises a command's message and escapes it (the runner's
// escapeData); line breaks survive as %0A.
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(cleanLines(s))
}

// githubProperty sanitises a property value and escapes it (the runner's
// escapeProperty).
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(cleanLines(s))
}
