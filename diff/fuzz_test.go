package diff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
)

// family folds the checks one change may raise in either direction (an
// input added required or not is the inverse of the same input removed).
func family(id string) string { return strings.TrimSuffix(id, "_required") }

// checkInverse: diff(A, A) is empty, and every change of diff(A, B) has its
// inverse in diff(B, A): the inverse check, the same subject, the values
// swapped.
func checkInverse(t *testing.T, a, b *analysis.Snapshot) {
	t.Helper()
	if r := Diff(a, a, Options{}); len(r.Changes) != 0 {
		t.Fatalf("diff(A, A) has %d change(s): %+v", len(r.Changes), r.Changes[0])
	}
	ab, ba := Diff(a, b, Options{}), Diff(b, a, Options{})
	for _, c := range ab.Changes {
		chk := byID[c.Check]
		if chk.Inverse == "" {
			continue // derived (diff_version_not_bumped)
		}
		found := false
		for _, x := range ba.Changes {
			if family(x.Check) != family(chk.Inverse) || x.Subject != c.Subject {
				continue
			}
			if c.Check == "diff_node_moved" || (x.Before == c.After && x.After == c.Before) {
				found = true
				break
			}
		}
		if !found {
			t.Errorf("%s %q (%q → %q) has no inverse %s in diff(B, A)", c.Check, c.Subject, c.Before, c.After, chk.Inverse)
		}
	}
}

// overlaySnapshot analyses flow as the leaf fixture's flow file.
func overlaySnapshot(dir string, flow []byte) *analysis.Snapshot {
	path := filepath.Join(dir, "cinatra", "oas.json")
	return analysis.Run(path, analysis.Options{Load: compile.LoadOptions{Overlay: map[string][]byte{path: flow}},
		Stages: Stages, Config: &analysis.ConfigResult{}})
}

// FuzzDiff mutates pairs of flow files: the diff never panics, diff(A,
// A) is empty and every change has its inverse. The seeds are small
// (issue 35: seeded with every fixture pair of the leaf agent, 7 KB each,
// it made 60 executions in 3 minutes): tiny flows of a few nodes with
// names, descriptions and edges to mutate, and one fixture pair; inputs
// past maxFuzzFlow are skipped, as a mutation that only grows them tests
// the budget (TestWordDiffBudget), not the diff.
func FuzzDiff(f *testing.F) {
	f.Add(hostile.Flow(3, true), hostile.RenamedFlow(3))
	f.Add(hostile.Flow(2, true), hostile.Flow(3, false))
	f.Add(hostile.DescribedFlow(3, 4, 0), hostile.DescribedFlow(3, 4, 1))
	f.Add([]byte(`{"component_type":"Flow"}`), []byte(`{}`))
	a, err1 := os.ReadFile(filepath.Join("testdata", "checks", "diff_approval_removed", "old", "cinatra", "oas.json"))
	b, err2 := os.ReadFile(filepath.Join("testdata", "checks", "diff_approval_removed", "new", "cinatra", "oas.json"))
	if err1 != nil || err2 != nil {
		f.Fatal(err1, err2)
	}
	f.Add(a, b)
	pkg, err := os.ReadFile(filepath.Join("testdata", "checks", "diff_node_added", "old", "package.json"))
	if err != nil {
		f.Fatal(err)
	}
	dir := f.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		f.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), pkg, 0o644); err != nil {
		f.Fatal(err)
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		if len(a) > maxFuzzFlow || len(b) > maxFuzzFlow {
			return // past the bound: the budget's, not the diff's, concern
		}
		checkInverse(t, overlaySnapshot(dir, a), overlaySnapshot(dir, b))
	})
}

// maxFuzzFlow bounds a FuzzDiff input.
const maxFuzzFlow = 16 << 10

// TestInverseFixtures runs the inverse property over every check's
// fixture pair with its own package.json on each side.
func TestInverseFixtures(t *testing.T) {
	ents, err := os.ReadDir(filepath.Join("testdata", "checks"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &analysis.ConfigResult{}
	for _, e := range ents {
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join("testdata", "checks", e.Name())
			checkInverse(t, Analyze(filepath.Join(dir, "old"), nil, cfg), Analyze(filepath.Join(dir, "new"), nil, cfg))
		})
	}
}
