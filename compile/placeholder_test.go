package compile

import (
	"reflect"
	"regexp"
	"testing"
)

func TestEachPlaceholder(t *testing.T) {
	type hit struct {
		Name       string
		Start, End int
	}
	cases := []struct {
		in          string
		space       func(byte) bool
		want        []hit
		description string
	}{
		{"Hi {{ name }}!", TemplateSpace, []hit{{"name", 3, 13}}, "spaces inside the braces"},
		{"{{a}}{{b}}", TemplateSpace, []hit{{"a", 0, 5}, {"b", 5, 10}}, "adjacent"},
		{"{{{a}}}", TemplateSpace, []hit{{"a", 1, 6}}, "a third brace: the match starts one later, as FindAll's"},
		{"{{\ta\n}}", TemplateSpace, []hit{{"a", 0, 7}}, "Python's \\s takes tab and newline"},
		{"{{\ta\n}}", StringifiedSpace, nil, "JSON.stringify escapes them: no placeholder"},
		{"{{ a.b }} {{ x | f }} {{}} {{ é }}", TemplateSpace, nil, "expressions, empty, non-ASCII"},
		{"{{ a }", TemplateSpace, nil, "unclosed"},
		{"{", TemplateSpace, nil, "short"},
	}
	for _, c := range cases {
		var got []hit
		EachPlaceholder(c.in, c.space, func(name string, start, end int) { got = append(got, hit{name, start, end}) })
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s: %q → %+v, want %+v", c.description, c.in, got, c.want)
		}
	}
}

// TestPlaceholderMatchesRegexp: with TemplateSpace, the matcher finds what
// Go's regexp \{\{\s*(\w+)\s*\}\} finds, \v aside (Go's \s lacks it,
// Python's has it).
func TestPlaceholderMatchesRegexp(t *testing.T) {
	re := regexp.MustCompile(`{{\s*(\w+)\s*}}`)
	for _, s := range []string{"", "{{a}} {{ b }} {{c", "x{{{{ d }}}}y", "{{ e}}{{f }}", "{{\n g \r\n}}", "{{ h }} {% i %} {{ j.k }}"} {
		var got []string
		EachPlaceholder(s, TemplateSpace, func(name string, _, _ int) { got = append(got, name) })
		var want []string
		for _, m := range re.FindAllStringSubmatch(s, -1) {
			want = append(want, m[1])
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %v, regexp %v", s, got, want)
		}
	}
}
