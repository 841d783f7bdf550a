package lint

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// TestJinjaOnlyIsTheRegexp: jinjaOnly says what removing every Jinja
// placeholder with the platform's pattern and trimming white space says
// (an empty rest), on awkward strings and on every string of every corpus
// agent's flow file.
func TestJinjaOnlyIsTheRegexp(t *testing.T) {
	re := regexp.MustCompile(`(?s)\{\{.*?\}\}`)
	want := func(s string) bool { return strings.TrimSpace(re.ReplaceAllString(s, "")) == "" }
	cases := []string{"", " ", "{{ a }}", " {{ a }}\n{{b}} ", "{{ a }} x", "x", "{{", "{{ a", "}}", "{{}}", "{{{}}", "{{ a }}}}",
		"{{ a\n b }}", "\u00a0{{a}}\u2003", "{{a}}\ufeff", "{{a}}\u0085", "{{ {{ }} }}", "{{a}}{{", "\xff", "{{\xff}}", "{ {a}}"}
	corpus, slugs := testshared.CorpusAgents(t)
	for _, slug := range slugs {
		p := filepath.Join(corpus, "agents", "cinatra-ai", slug, "cinatra", "oas.json")
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		compile.WalkNodes(compile.ParseDoc(p, src).Root, func(n *compile.Node) bool {
			if n.Kind == compile.String {
				cases = append(cases, n.Text)
			}
			return true
		})
	}
	only := 0
	for _, s := range cases {
		if got := jinjaOnly(s); got != want(s) {
			t.Errorf("jinjaOnly(%q) = %v, the regexp says %v", s, got, !got)
		} else if got {
			only++
		}
	}
	if only < 5 || only == len(cases) {
		t.Errorf("%d of %d strings are placeholders only: the table does not tell the answers apart", only, len(cases))
	}
}
