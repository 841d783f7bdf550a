package lint

import (
	"bufio"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
)

// WriteGitHub writes findings as GitHub Actions workflow commands, one a
// line: ::error file=F,line=L,col=C,title=CODE::MESSAGE (warning for
// warnings, notice for suggestions), escaped as the runner expects.
func WriteGitHub(w io.Writer, findings []Finding) error {
	bw := bufio.NewWriter(w)
	for _, f := range findings {
		bw.WriteString("::")
		bw.WriteString(githubCommand(f.Severity))
		bw.WriteString(" ")
		var props []string
		if f.File != "" {
			props = append(props, "file="+githubProperty(filepath.ToSlash(f.File)))
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

// githubData escapes a command's message (the runner's escapeData).
func githubData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// githubProperty escapes a property value (the runner's escapeProperty).
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
