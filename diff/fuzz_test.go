package diff

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
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
// it made 60 executions in 3 minutes): flows of two nodes, about 300
// bytes, with names, a description and an edge to mutate (TestInverseFixtures runs the
// property over every fixture pair). Inputs past maxFuzzFlow return at
// once: a mutation that only grows them tests the budget
// (TestWordDiffBudget), not the diff, and every new input the fuzzer
// keeps is minimised byte by byte, which stalled it for a minute each on
// the 7 KB fixtures.
func FuzzDiff(f *testing.F) {
	for _, p := range [][2]string{
		{tinyFlow("A", "B", ""), tinyFlow("A", "C", "")},
		{tinyFlow("A", "B", ""), tinyFlow("A", "B", `,"description":"x y"`)},
		{tinyFlow("A", "B", `,"description":"a b c"`), tinyFlow("X", "B", `,"description":"a d c"`)},
		{`{"component_type":"Flow"}`, `{}`},
	} {
		f.Add([]byte(p[0]), []byte(p[1]))
	}
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
const maxFuzzFlow = 1 << 10

// tinyFlow is a start and an end node named a and b (extra: more members
// of the end node), joined by one control edge: about 300 bytes.
func tinyFlow(a, b, extra string) string {
	return `{"component_type":"Flow","id":"f","name":"F","start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"e"}],` +
		`"control_flow_connections":[{"component_type":"ControlFlowEdge","id":"c","name":"c","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"e"}}],` +
		`"$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"` + a + `"},"e":{"component_type":"EndNode","id":"e","name":"` + b + `"` + extra + `}}}`
}

// TestInverseFixtures runs the inverse property over every check's
// fixture pair with its own package.json on each side.
func TestInverseFixtures(t *testing.T) {
	ents, err := os.ReadDir(filepath.Join("testdata", "checks"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := &analysis.ConfigResult{}
	for i, e := range ents {
		// Under -race every third pair (TestCheckFixtures diffs every one
		// there; the property is single-goroutine work); all of them in
		// CI's run without -race (.ci/run).
		if i%race.Stride(3) != 0 {
			continue
		}
		t.Run(e.Name(), func(t *testing.T) {
			dir := filepath.Join("testdata", "checks", e.Name())
			checkInverse(t, Analyze(filepath.Join(dir, "old"), nil, cfg), Analyze(filepath.Join(dir, "new"), nil, cfg))
		})
	}
}
