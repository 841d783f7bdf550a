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

// TestLegacyTokenInIsContains: legacyTokenIn names the first of
// parityLegacyTokens that strings.Contains finds, on strings that hold
// them at the edges, overlapping, in either order or not at all, and on
// every string of every corpus agent's flow file.
func TestLegacyTokenInIsContains(t *testing.T) {
	want := func(s string) string {
		for _, tok := range parityLegacyTokens {
			if strings.Contains(s, tok) {
				return tok
			}
		}
		return ""
	}
	cases := []string{"", "_", "objects_save", "artifact_authoring_emit", "call objects_save then artifact_authoring_emit",
		"artifact_authoring_emit and objects_save", "xobjects_savex", "objects_sav", "bjects_save", "artifact_authoring_emi",
		"__objects__save", "objects_objects_save", "artifact_artifact_authoring_emit_", "a_b_c_d objects_save"}
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
	hits := 0
	for _, s := range cases {
		if got := legacyTokenIn(s); got != want(s) {
			t.Errorf("legacyTokenIn(%.80q) = %q, want %q", s, got, want(s))
		} else if got != "" {
			hits++
		}
	}
	if hits < 8 {
		t.Errorf("only %d strings name a legacy token", hits)
	}
	for j, tok := range parityLegacyTokens {
		if legacyTokenUnderscore[j] < 0 {
			t.Errorf("%q has no \"_\": legacyTokenIn cannot find it", tok)
		}
	}
}
