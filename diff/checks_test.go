package diff

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
)

// diffDirs diffs two agent directories on disk with the default config.
func diffDirs(t testing.TB, old, new string) *Result {
	t.Helper()
	cfg := &analysis.ConfigResult{}
	opts := Options{OldRev: "old", NewRev: "new"}
	// callers.json beside the pair: the callers a tree would hold
	if b, err := os.ReadFile(filepath.Join(filepath.Dir(old), "callers.json")); err == nil {
		if err := json.Unmarshal(b, &opts.Callers); err != nil {
			t.Fatal(err)
		}
		opts.Tree = true
	}
	// A fixture with a config on either side: its diff: section is the
	// gate's, as each side has it (diff_gate_relaxed).
	sideLevels := func(dir string) (map[string]string, bool) {
		c := analysis.ResolveConfig(filepath.Join(dir, ".oastui.yaml"), "")
		if c.Err != nil {
			if _, err := os.Stat(filepath.Join(dir, ".oastui.yaml")); err == nil {
				t.Fatal(c.Err)
			}
			return map[string]string{}, false
		}
		if c.Config.Diff == nil {
			return map[string]string{}, true
		}
		return c.Config.Diff, true
	}
	ol, okOld := sideLevels(old)
	nl, okNew := sideLevels(new)
	if okOld || okNew {
		opts.BaseLevels, opts.Levels = ol, nl
	}
	return Diff(Analyze(old, nil, cfg), Analyze(new, nil, cfg), opts)
}

// TestCheckFixtures: every check has a fixture pair under
// testdata/checks/<check>/{old,new} whose diff raises it, with the
// expected text output beside them.
func TestCheckFixtures(t *testing.T) {
	for _, c := range Checks() {
		t.Run(c.ID, func(t *testing.T) {
			dir := filepath.Join("testdata", "checks", c.ID)
			if _, err := os.Stat(dir); err != nil {
				t.Fatalf("no fixture for %s: %v", c.ID, err)
			}
			r := diffDirs(t, filepath.Join(dir, "old"), filepath.Join(dir, "new"))
			found := false
			for _, ch := range r.Changes {
				if ch.Check == c.ID {
					found = true
				}
			}
			if !found {
				var b bytes.Buffer
				_ = Text(&b, r, dir, false)
				t.Errorf("the fixture of %s does not raise it:\n%s", c.ID, b.String())
			}
			var b bytes.Buffer
			if err := Text(&b, r, dir, false); err != nil {
				t.Fatal(err)
			}
			golden(t, filepath.Join(dir, "expected"), b.Bytes())
			validateResult(t, r)
		})
	}
	ents, _ := os.ReadDir(filepath.Join("testdata", "checks"))
	for _, e := range ents {
		if _, ok := byID[e.Name()]; !ok {
			t.Errorf("testdata/checks/%s names no check", e.Name())
		}
	}
}

// TestChecksDoc: docs/diff-checks.md is what --checks --format markdown
// generates.
func TestChecksDoc(t *testing.T) {
	got := ChecksMarkdown()
	path := filepath.Join("..", "docs", "diff-checks.md")
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s is stale: regenerate it with go test ./diff -run TestChecksDoc -update", path)
	}
	for _, c := range checks {
		if !strings.Contains(got, "`"+c.ID+"`") {
			t.Errorf("%s missing from the doc", c.ID)
		}
		if c.Inverse != "" {
			if _, ok := byID[c.Inverse]; !ok {
				t.Errorf("%s: inverse %s is no check", c.ID, c.Inverse)
			}
		}
	}
}
