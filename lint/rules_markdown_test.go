package lint

import (
	"fmt"
	"io"
	"strings"
)

//go:generate go test -run TestRulesDoc|TestParityDoc -update .

// RuleExample is an excerpt of a file that shows a rule: the file (a path
// relative to the repository), the line the excerpt starts at, the lines,
// and the line of the finding (0 for an ok example).
type RuleExample struct {
	File  string
	Start int
	Lines []string
	Mark  int
	Note  string // said instead of an excerpt when there is none
}

// WriteRulesMarkdown writes docs/rules.md: one section per rule of All, in
// list order under its group, with what and why (the Doc), the fix (or
// NoFixText) and an ok and an err example (examples gives them; the test
// that generates the file takes them from the rule fixtures, or from the
// Rule's OK and Err fields when set). Every section's heading is the code,
// so Rule.HelpURI lands on it.
func WriteRulesMarkdown(w io.Writer, examples func(r *Rule) (ok, bad RuleExample)) error {
	var b strings.Builder
	b.WriteString("# oastui rules\n\n")
	b.WriteString("<!-- Generated from lint.All by `go generate ./lint` (go test ./lint -run TestRulesDoc -update); do not edit. -->\n\n")
	b.WriteString("Every finding code oastui reports, in the order of its rule list. The severity is the default\n")
	b.WriteString("(`.oastui.yaml` may change it; see [configuration.md](configuration.md)). Rules tagged `security`\n")
	b.WriteString("carry a `security-severity` in SARIF and need a reason to be turned off. Examples are excerpts of\n")
	b.WriteString("the rule fixtures the tests run, `lint/testdata/rules/{ok,err}/<code>` (credentials in them are masked here).\n\n")
	group := ""
	for _, r := range All {
		if r.Group != group {
			group = r.Group
			fmt.Fprintf(&b, "## Group `%s`\n\n", group)
			for _, x := range All {
				if x.Group == group {
					fmt.Fprintf(&b, "- [%s](#%s)\n", x.Code, x.Anchor())
				}
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "### %s\n\n", r.Code)
		fmt.Fprintf(&b, "**%s** · group `%s` · profiles %s", r.Severity, r.Group, strings.Join(r.ProfileNames(), ", "))
		if len(r.Tags) > 0 {
			fmt.Fprintf(&b, " · tags %s", strings.Join(r.Tags, ", "))
		}
		b.WriteString("\n\n")
		fmt.Fprintf(&b, "**What and why:** %s\n\n", r.Doc)
		fmt.Fprintf(&b, "**Fix:** %s\n\n", r.FixText())
		ok, bad := examples(r)
		writeRuleExample(&b, "Reported", r.Err, bad)
		writeRuleExample(&b, "Not reported", r.OK, ok)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func writeRuleExample(b *strings.Builder, title, literal string, ex RuleExample) {
	switch {
	case literal != "":
		fmt.Fprintf(b, "**%s:**\n\n```json\n%s\n```\n\n", title, strings.TrimRight(literal, "\n"))
	case len(ex.Lines) > 0:
		lang := "json"
		switch {
		case strings.HasSuffix(ex.File, ".yaml"), strings.HasSuffix(ex.File, ".yml"):
			lang = "yaml"
		case !strings.HasSuffix(ex.File, ".json"):
			lang = "text"
		}
		where := ex.File
		if ex.Mark > 0 {
			where = fmt.Sprintf("%s:%d", ex.File, ex.Mark)
		}
		fmt.Fprintf(b, "**%s** (`%s`):\n\n```%s\n", title, where, lang)
		for _, l := range ex.Lines {
			b.WriteString(l + "\n")
		}
		b.WriteString("```\n\n")
	case ex.Note != "":
		fmt.Fprintf(b, "**%s:** %s\n\n", title, ex.Note)
	}
}
