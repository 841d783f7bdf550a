package lint

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestArtifactBindingRefusedIsTheCompilers: on every fixture whose
// compile fails in its artifact checks (steps 10b/10c), the findings of
// artifact_binding_refused carry exactly the compiler's error lines, and
// the compile gate (`lint --gate compile`) reports them as blockers; on
// every fixture that compiles, the rule is silent. One grammar: the rule
// and the compiler read compile.ArtifactRefusals.
func TestArtifactBindingRefusedIsTheCompilers(t *testing.T) {
	var dirs []string
	for _, code := range []string{RuleArtifactBindingRefused.Code, RuleOASRuntime009.Code, RuleProducesWithoutRoad.Code} {
		for _, kind := range []string{"ok", "err"} {
			dirs = append(dirs, fixtureCases(filepath.Join(rulesFixtureDir, kind, code))...)
		}
	}
	refusing := 0
	for _, dir := range dirs {
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", dir, err)
		}
		fs := review(a, Options{Mode: ModeDeterministic, Config: &Config{}}).Findings
		var got []string
		for _, f := range fs {
			if f.Code == RuleArtifactBindingRefused.Code {
				_, line, ok := strings.Cut(f.Message, "so the agent does not compile or publish: ")
				if !ok {
					t.Errorf("%s: message %q", dir, f.Message)
				}
				got = append(got, line)
			}
		}
		_, cerr := compile.Compile(a)
		var want []string
		if cerr != nil {
			msg := cerr.Error()
			if strings.HasPrefix(msg, "artifact output-binding validation failed") || strings.HasPrefix(msg, "artifact_materialize node validation failed") {
				want = strings.Split(msg, "\n")[1:]
			}
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Errorf("%s: the rule says\n%s\nthe compiler\n%s", dir, strings.Join(got, "\n"), strings.Join(want, "\n"))
		}
		gated := 0
		for _, f := range LookupGate("compile").Apply(fs) {
			if f.Code == RuleArtifactBindingRefused.Code && f.Severity == compile.Blocker {
				gated++
			}
		}
		if gated != len(want) {
			t.Errorf("%s: --gate compile reports %d of the compiler's %d refusals", dir, gated, len(want))
		}
		if len(want) > 0 {
			refusing++
		}
	}
	if refusing < 2 {
		t.Errorf("only %d fixtures refuse: the test proves nothing", refusing)
	}
}
