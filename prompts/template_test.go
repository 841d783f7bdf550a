package prompts

import (
	"reflect"
	"strings"
	"testing"
)

func TestSplit(t *testing.T) {
	got := Split("Hi {{ name }}, at {{CINATRA_BASE_URL}}: {{ a.b }} {% if x %}y{% endif %} {{x|f}} {{}} {{ name}}{")
	want := []Segment{
		{SegText, "Hi ", ""}, {SegPlaceholder, "{{ name }}", "name"}, {SegText, ", at ", ""},
		{SegEnv, "{{CINATRA_BASE_URL}}", "CINATRA_BASE_URL"}, {SegText, ": ", ""},
		{SegExpression, "{{ a.b }}", ""}, {SegText, " ", ""}, {SegExpression, "{% if x %}", ""}, {SegText, "y", ""},
		{SegExpression, "{% endif %}", ""}, {SegText, " ", ""}, {SegExpression, "{{x|f}}", ""}, {SegText, " ", ""},
		{SegExpression, "{{}}", ""}, {SegText, " ", ""}, {SegPlaceholder, "{{ name}}", "name"}, {SegText, "{", ""},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("Split:\n got %#v\nwant %#v", got, want)
	}
	if s := Static(got); s != "Hi , at {{CINATRA_BASE_URL}}: {{ a.b }} {% if x %}y{% endif %} {{x|f}} {{}} {" {
		t.Errorf("Static = %q", s)
	}
	if n := Names(got); !reflect.DeepEqual(n, []string{"name"}) {
		t.Errorf("Names = %v", n)
	}
	if got := Split("{{ unclosed"); len(got) != 1 || got[0].Kind != SegText {
		t.Errorf("unclosed: %#v", got)
	}
}

// TestSplitLinear: Split reads each byte of a hostile template a bounded
// number of times (issue 26 item 14). Before, every "{{" searched the rest
// of the template for its closer, so "{{"×N without one, or expressions
// cut by blank lines, took time quadratic in N (200k: a hang). The
// measure is the bytes Split's searches read, not time.
func TestSplitLinear(t *testing.T) {
	const n = 50000
	for name, s := range map[string]string{
		"no closer":        strings.Repeat("{{", n),
		"open then close":  strings.Repeat("{{", n) + strings.Repeat("}}", n),
		"blank-line break": strings.Repeat("{{a.b\n\n", n) + "}}",
		"statements":       strings.Repeat("{%", n),
		"spaces":           strings.Repeat("{{ ", n) + "}}",
		"placeholders":     strings.Repeat("{{ p }} ", n),
	} {
		segs, work := split(s)
		if work > 8*len(s)+64 {
			t.Errorf("%s: %d bytes read for a %d-byte template", name, work, len(s))
		}
		var b strings.Builder
		for _, sg := range segs {
			b.WriteString(sg.Text)
		}
		if b.String() != s {
			t.Errorf("%s: the segments do not add up to the template", name)
		}
	}
}
