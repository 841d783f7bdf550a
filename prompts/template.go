package prompts

import (
	"strings"

	"github.com/oastui/oastui/compile"
)

// SegmentKind says what a piece of a template is.
type SegmentKind string

const (
	SegText        SegmentKind = "text"        // literal text, sent as written
	SegPlaceholder SegmentKind = "placeholder" // {{ name }}: replaced by a value at run time
	SegEnv         SegmentKind = "env"         // {{ ALL_CAPS }}: an environment variable of the platform, not a flow value
	SegExpression  SegmentKind = "expression"  // {{ a.b }}, {{ x | f }}, {% … %}: not a placeholder for Agent Spec; sent as written
)

// Segment is one piece of a template.
type Segment struct {
	Kind SegmentKind `json:"kind"`
	Text string      `json:"text"`           // the text as written (for a placeholder: "{{ name }}")
	Name string      `json:"name,omitempty"` // the placeholder's or variable's name
}

// Split cuts a template into literal text and placeholders. Placeholders
// are the Agent Spec form the rules already parse, `{{\s*(\w+)\s*}}`
// (pyagentspec templating.py, reference/agentspec.md §4.3; the runtime
// invariant OAS-RUNTIME-001 uses the same regex and leaves ALL-CAPS names
// to the environment). Other `{{ … }}` and `{% … %}` constructs (Jinja
// attribute access, filters, statements) are not placeholders there: they
// are kept as expression segments and sent as written.
func Split(s string) []Segment {
	var out []Segment
	lit := strings.Builder{}
	flush := func() {
		if lit.Len() > 0 {
			out = append(out, Segment{Kind: SegText, Text: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(s); {
		if i+1 < len(s) && s[i] == '{' && (s[i+1] == '{' || s[i+1] == '%') {
			if name, end, ok := compile.MatchPlaceholder(s, i, compile.TemplateSpace); ok {
				flush()
				kind := SegPlaceholder
				if isEnvName(name) {
					kind = SegEnv
				}
				out = append(out, Segment{Kind: kind, Text: s[i:end], Name: name})
				i = end
				continue
			}
			closer := "}}"
			if s[i+1] == '%' {
				closer = "%}"
			}
			if k := strings.Index(s[i+2:], closer); k >= 0 && !strings.Contains(s[i+2:i+2+k], "\n\n") {
				end := i + 2 + k + 2
				flush()
				out = append(out, Segment{Kind: SegExpression, Text: s[i:end]})
				i = end
				continue
			}
		}
		lit.WriteByte(s[i])
		i++
	}
	flush()
	return out
}

// isEnvName: ALL-CAPS names are the platform's environment variables
// (CINATRA_BASE_URL), as OAS-RUNTIME-001 treats them (^[A-Z_][A-Z0-9_]*$).
func isEnvName(s string) bool {
	if s == "" || !(s[0] == '_' || s[0] >= 'A' && s[0] <= 'Z') {
		return false
	}
	for i := 1; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// Static is the literal part of a template: what is sent whatever the
// values (text, environment variables and expressions as written, no
// placeholder).
func Static(segs []Segment) string {
	var b strings.Builder
	for _, s := range segs {
		if s.Kind != SegPlaceholder {
			b.WriteString(s.Text)
		}
	}
	return b.String()
}

// Names lists the placeholder names of segs in order of first use.
func Names(segs []Segment) []string {
	var out []string
	seen := map[string]bool{}
	for _, s := range segs {
		if s.Kind == SegPlaceholder && !seen[s.Name] {
			seen[s.Name] = true
			out = append(out, s.Name)
		}
	}
	return out
}
