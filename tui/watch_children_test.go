package tui

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/tui/watch"
)

// TestRewatchDryRunChildren: the watcher is told to watch where the dry
// run looked for a child agent it did not find (so its appearance re-runs
// the parent's dry run), and, once the child is there, the child's files.
func TestRewatchDryRunChildren(t *testing.T) {
	parent := copyDir(t, filepath.Join("..", "testdata", "agents", "oastui", "orchestrator-agent"))
	tree := filepath.Dir(filepath.Dir(parent)) // …/agents
	flow := filepath.Join(parent, "cinatra", "oas.json")
	src, _ := os.ReadFile(flow)
	os.WriteFile(flow, []byte(strings.Replace(string(src), `"$component_ref": "brief-subflow"`, `"$component_ref": "gone"`, 1)), 0o644)

	var got watch.Config
	m := New(Config{Path: parent, Rewatch: func(c watch.Config) { got = c }})
	m.Update(analysisMsg{analyze(t, parent, 1)})
	want := filepath.Join(tree, "gate-agent", "cinatra", "oas.json")
	if !slices.Contains(got.Files, want) {
		t.Fatalf("the missing child's place is not watched (%s):\n%s", want, strings.Join(got.Files, "\n"))
	}

	child := copyDir(t, filepath.Join("..", "testdata", "agents", "oastui", "gate-agent"))
	if err := os.Rename(child, filepath.Join(tree, "gate-agent")); err != nil {
		t.Fatal(err)
	}
	m.Update(analysisMsg{analyze(t, parent, 2)})
	if !slices.Contains(got.Files, filepath.Join(tree, "gate-agent", "package.json")) {
		t.Errorf("the child, once found, is watched:\n%s", strings.Join(got.Files, "\n"))
	}
	if r := m.good.DryRun; r == nil || len(r.Paths) == 0 || len(r.Paths[0].Steps) != 16 {
		t.Errorf("the dry run does not descend into the child now")
	}
}
