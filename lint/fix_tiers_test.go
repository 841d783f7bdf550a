package lint

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/race"
)

// TestFixTiersDeclared: every fixable rule gives each of its automatic
// fixes a tier, in the order of AutoFixes, and a rule without fixes none.
func TestFixTiersDeclared(t *testing.T) {
	for _, r := range All {
		if len(r.FixTiers) != len(r.AutoFixes) {
			t.Errorf("%s: %d automatic fixes, %d tiers (FixTiers)", r.Code, len(r.AutoFixes), len(r.FixTiers))
		}
		for _, tier := range r.FixTiers {
			if !tier.Valid() {
				t.Errorf("%s: fix tier %q is not safe, unsafe or dangerous", r.Code, tier)
			}
		}
	}
}

// compiledBytes is what the compiler makes of the agent at path: the
// compiled output's JSON, or its error's text.
func compiledBytes(t *testing.T, path string) []byte {
	t.Helper()
	a, err := compile.Load(path, compile.LoadOptions{})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	out, err := compile.Compile(a)
	if err != nil {
		return []byte("error: " + err.Error())
	}
	b, err := json.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestFixTierProof proves the tier of every fix the rules' err fixtures
// give: each carries a declared tier, one its rule lists; and each safe
// fix, written to a copy of its fixture, leaves the compiled output (the
// compiler's JSON, or its error) byte-identical. Every rule that lists a
// safe fix has one proved here.
func TestFixTierProof(t *testing.T) {
	t.Parallel()
	proved := map[string]int{}
	fixable, sampledOut := 0, map[string]bool{}
	for _, r := range All {
		if !r.Fixable() || r.Group == groupWorkspace {
			continue
		}
		// Under -race every third fixable rule; all in CI's run without it.
		if fixable++; fixable%race.Stride(3) != 0 {
			sampledOut[r.Code] = true
			continue
		}
		_, errs := fixturesOf(t, r)
		for _, fx := range errs {
			src := copyFixture(t, fx.path)
			a, err := compile.Load(src, compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range Run(a, Options{Config: &Config{}, Mode: fx.mode}).Findings {
				if f.Code != r.Code {
					continue
				}
				for i, x := range f.Fixes {
					if !x.Tier.Valid() || !slices.Contains(r.FixTiers, x.Tier) {
						t.Errorf("%s: %s: fix %q has tier %q, not one of the rule's %v", r.Code, fx.path, x.Title, x.Tier, r.FixTiers)
						continue
					}
					if x.Tier != edit.Safe {
						continue
					}
					// A fresh copy per fix: the alternatives are applied one at a time.
					dir := copyFixture(t, fx.path)
					rel, _ := filepath.Rel(src, a.FlowPath)
					b2, err := compile.Load(dir, compile.LoadOptions{})
					if err != nil {
						t.Fatal(err)
					}
					fs2 := Run(b2, Options{Config: &Config{}, Mode: fx.mode}).Findings
					var same *edit.Fix
					for _, g := range fs2 {
						if g.Code == f.Code && g.Line == f.Line && g.Column == f.Column && len(g.Fixes) > i {
							same = &g.Fixes[i]
							break
						}
					}
					if same == nil {
						t.Fatalf("%s: the copy of %s does not give the fix %q again", r.Code, fx.path, x.Title)
					}
					before := compiledBytes(t, dir)
					batch := edit.Plan([]edit.Candidate{{ID: f.Code, Fixes: []edit.Fix{*same}}})
					if _, err := batch.Write(loadedSources(b2)); err != nil {
						t.Fatalf("%s: %s: %v", r.Code, x.Title, err)
					}
					after := compiledBytes(t, dir)
					if !bytes.Equal(before, after) {
						t.Errorf("%s: the safe fix %q on %s (%s) changes the compiled output:\nbefore %s\nafter  %s", r.Code, x.Title, fx.path, rel, before, after)
					}
					proved[r.Code]++
				}
			}
		}
	}
	for _, r := range All {
		if slices.Contains(r.FixTiers, edit.Safe) && proved[r.Code] == 0 && !sampledOut[r.Code] {
			t.Errorf("%s: declares a safe fix, but no err fixture's safe fix was proved to leave the compiled output unchanged", r.Code)
		}
	}
	t.Logf("safe fixes proved per rule: %v", proved)
}
