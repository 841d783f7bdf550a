package prompts

import (
	"reflect"
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
