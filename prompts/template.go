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
	segs, _ := split(s)
	return segs
}

// split is Split, and the number of bytes its searches read (tests hold
// it linear). Each search for a closer ("}}", "%}") or a blank line
// remembers where it found the next one, so the searches never read the
// same bytes twice: a template of many "{{" without a closer is read
// once, not once per "{{".
func split(s string) ([]Segment, int) {
	work := 0
	braces, percent, blank := nextOf{s: s, sub: "}}", at: -2, read: &work}, nextOf{s: s, sub: "%}", at: -2, read: &work}, nextOf{s: s, sub: "\n\n", at: -2, read: &work}
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
				work += end - i
				i = end
				continue
			}
			closer := &braces
			if s[i+1] == '%' {
				closer = &percent
			}
			// an expression runs to the next closer, unless a blank line
			// comes first
			if c := closer.from(i + 2); c >= 0 {
				if bl := blank.from(i + 2); bl < 0 || bl+2 > c {
					end := c + 2
					flush()
					out = append(out, Segment{Kind: SegExpression, Text: s[i:end]})
					i = end
					continue
				}
			}
		}
		lit.WriteByte(s[i])
		i++
	}
	flush()
	return out, work
}

// nextOf finds the next occurrence of sub in s at or after a position
// that never decreases from call to call, remembering the last answer.
type nextOf struct {
	s, sub string
	at     int // -2: not searched yet; -1: none left
	read   *int
}

func (f *nextOf) from(p int) int {
	if f.at == -1 || f.at >= p {
		return f.at
	}
	if p > len(f.s) {
		f.at = -1
		return -1
	}
	k := strings.Index(f.s[p:], f.sub)
	if k < 0 {
		*f.read += len(f.s) - p
		f.at = -1
	} else {
		*f.read += k + len(f.sub)
		f.at = p + k
	}
	return f.at
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
