package lint

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/race"
)

// copyFixture copies a fixture (a directory, or one file) into a fresh
// temporary directory and returns the path to load there.
func copyFixture(t *testing.T, path string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), filepath.Base(path))
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if !st.IsDir() {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	err = filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(path, p)
		to := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(to, 0o755)
		}
		if !d.Type().IsRegular() {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// loadedSources maps each file an agent read to its bytes.
func loadedSources(a *compile.Agent) map[string][]byte {
	m := map[string][]byte{}
	for _, d := range a.Docs() {
		m[d.Path] = d.Src
	}
	return m
}

// codeCounts counts the deterministic findings by code (the advisory
// dispatch notes appear once the last blocker is gone: not a new problem).
func codeCounts(fs []Finding) map[string]int {
	m := map[string]int{}
	for _, f := range fs {
		if f.Source == compile.SourceDeterministic {
			m[f.Code]++
		}
	}
	return m
}

// applyAndRelint applies fx to the files of a (written to disk) and
// reviews the fixture again.
func applyAndRelint(t *testing.T, fx ruleFixture, a *compile.Agent, x edit.Fix) []Finding {
	t.Helper()
	b := edit.Plan([]edit.Candidate{{ID: "x", Fixes: []edit.Fix{x}}})
	if len(b.Chosen) != 1 {
		t.Fatalf("fix %q not chosen: %+v", x.Title, b.Skipped)
	}
	src := loadedSources(a)
	if _, err := b.Write(src); err != nil {
		t.Fatalf("fix %q: %v", x.Title, err)
	}
	// Outside the edited spans the bytes are the original ones.
	for _, p := range b.Files() {
		got, _ := os.ReadFile(p)
		assertOutsideSpans(t, p, src[p], got, edit.EditsOf(b.Edits(), p))
	}
	return reviewFixture(t, fx)
}

// assertOutsideSpans checks that new is old with only the edits' spans
// replaced: every byte outside them is identical and in place.
func assertOutsideSpans(t *testing.T, path string, old, new []byte, edits []edit.Edit) {
	t.Helper()
	want, err := edit.Apply(old, edits)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != string(new) {
		t.Fatalf("%s: the file differs from the source with the edits applied", path)
	}
	// And each gap between edits is a verbatim copy.
	shift, last := 0, 0
	for _, e := range sortedEdits(edits) {
		if string(old[last:e.Start]) != string(new[last+shift:e.Start+shift]) {
			t.Fatalf("%s: bytes %d-%d changed", path, last, e.Start)
		}
		shift += len(e.New) - (e.End - e.Start)
		last = e.End
	}
	if string(old[last:]) != string(new[last+shift:]) {
		t.Fatalf("%s: the tail changed", path)
	}
}

func sortedEdits(es []edit.Edit) []edit.Edit {
	out := append([]edit.Edit(nil), es...)
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && out[j].Start < out[j-1].Start; j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}

// TestFixesOnErrFixtures: for every fixable rule, each fix of each of its
// findings in its err fixtures, applied to a copy, makes that finding go
// away without any new finding (no code is reported more often than
// before), and leaves every byte outside the edited spans as it was.
func TestFixesOnErrFixtures(t *testing.T) {
	t.Parallel() // a long table of independent reviews: the package's tail, where one core would idle
	fixable := 0
	for _, r := range All {
		if !r.Fixable() {
			continue
		}
		// Under -race every third fixable rule; all in CI's run without it.
		if fixable++; fixable%race.Stride(3) != 0 {
			continue
		}
		t.Run(r.Code, func(t *testing.T) {
			_, errs := fixturesOf(t, r)
			tried := 0
			for _, fx := range errs {
				before := reviewFixture(t, fx)
				for i, f := range before {
					if f.Code != r.Code {
						continue
					}
					for k, x := range f.Fixes {
						if !slicesHasPrefixTitle(r.AutoFixes, k) {
							t.Errorf("%s: fix %d (%q) beyond the rule's AutoFixes %q", fx.path, k, x.Title, r.AutoFixes)
						}
						tried++
						cp := ruleFixture{path: copyFixture(t, fx.path), profile: fx.profile}
						again := reviewFixture(t, cp)
						if len(again) != len(before) || len(again[i].Fixes) <= k {
							t.Fatalf("%s: the copy reviews differently", fx.path)
						}
						a, err := compile.Load(cp.path, compile.LoadOptions{Profile: cp.profile})
						if err != nil {
							t.Fatal(err)
						}
						after := applyAndRelint(t, cp, a, again[i].Fixes[k])
						cb, ca := codeCounts(before), codeCounts(after)
						if ca[r.Code] >= cb[r.Code] {
							t.Errorf("%s: after %q, %s is still reported %d times:\n%s", fx.path, x.Title, r.Code, ca[r.Code], renderRuleFindings(after, r.Code))
						}
						for code, n := range ca {
							if n > cb[code] {
								t.Errorf("%s: after %q, a new %s finding appears:\n%s", fx.path, x.Title, code, renderRuleFindings(after, code))
							}
						}
					}
				}
			}
			if tried == 0 {
				t.Errorf("no err fixture of %s carries a fix", r.Code)
			}
		})
	}
}

func slicesHasPrefixTitle(titles []string, k int) bool { return k < len(titles) }

// TestFixableRulesSaySo: a rule lists AutoFixes iff its findings carry
// fixes somewhere in the fixtures (checked above), and the docs of a rule
// without one say there is none.
func TestFixableRulesSaySo(t *testing.T) {
	for _, r := range All {
		if !r.Fixable() && !strings.Contains(r.FixText(), NoFixText) {
			t.Errorf("%s: no automatic fix, and its doc does not say %q: %q", r.Code, NoFixText, r.FixText())
		}
		if r.Fixable() && strings.TrimSpace(strings.Join(r.AutoFixes, "")) == "" {
			t.Errorf("%s: empty fix titles", r.Code)
		}
	}
}

// TestGateResponseHasNoFixes: the review_blocked response keeps the
// platform's shape: fixes are oastui's, not part of it.
func TestGateResponseHasNoFixes(t *testing.T) {
	a, err := compile.Load(ruleCase("err", "package_version_oas_pkg_drift", "package-drift-license-name"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	r := review(a, Options{Config: &Config{}})
	withFix := 0
	for _, f := range r.Blockers {
		if len(f.Fixes) > 0 {
			withFix++
		}
	}
	out, blocked := gateJSON(a, &Config{})
	if !blocked || withFix == 0 {
		t.Fatalf("fixture: blocked %v, %d blockers with fixes", blocked, withFix)
	}
	if strings.Contains(string(out), `"fixes"`) {
		t.Errorf("review_blocked carries fixes: %s", out)
	}
}

// TestFixGivesOKFixture: where the ok fixture of a rule is its err fixture
// repaired (branch_unconnected), --fix's first fixes give it byte for byte.
func TestFixGivesOKFixture(t *testing.T) {
	for _, code := range []string{"branch_unconnected"} {
		cp := copyFixture(t, ruleCase("err", code, "agent"))
		a, found := reviewDir(t, cp)
		var cands []edit.Candidate
		for _, f := range found {
			cands = append(cands, edit.Candidate{ID: f.Code, Fixes: f.Fixes})
		}
		if _, err := edit.Plan(cands).Write(loadedSources(a)); err != nil {
			t.Fatal(err)
		}
		got, _ := os.ReadFile(filepath.Join(cp, "cinatra", "oas.json"))
		want, _ := os.ReadFile(filepath.Join(ruleCase("ok", code, "agent"), "cinatra", "oas.json"))
		if string(got) != string(want) {
			t.Errorf("%s: the fixed err fixture differs from the ok fixture:\n%s", code, unifiedDiff("oas.json", want, got))
		}
	}
}
