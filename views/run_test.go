package views

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/oastui/oastui/analysis"
)

// runPane is the Run tab over the real engine's dry run of an agent.
func runPane(t *testing.T, path string, w, h int) (*Run, *analysis.Snapshot) {
	t.Helper()
	s := analysis.Run(path, analysis.Options{Stages: analysis.StageDryRun})
	if s.DryRun == nil {
		t.Fatalf("%s: no dry run: %v", path, s.LoadErr)
	}
	r := &Run{}
	r.SetSize(w, h)
	r.Show(Shown{Cur: s, LastParsed: s, Theme: th})
	return r, s
}

// TestRunGolden: the example agent's first path, two steps in, then the
// last path at its end (go test ./views -run TestRunGolden -update).
func TestRunGolden(t *testing.T) {
	r, _ := runPane(t, filepath.Join("..", "testdata", "agents", "oastui", "example-agent"), 64, 18)
	r.Nav(NavRight, 1)
	r.Nav(NavRight, 1)
	out := r.View(th)
	checkBox(t, out, 64, 18)
	t.Run("step3", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(out)) })
	r.Nav(NavBottom, 1)
	for range 40 {
		r.Nav(NavRight, 1)
	}
	out = r.View(th)
	checkBox(t, out, 64, 18)
	t.Run("last_end", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(out)) })
}

// TestRunNavAndTarget: ←→ step and stop at the ends, ↑↓ pick a path and
// start it from its first step; the target is the step's node pointer.
func TestRunNavAndTarget(t *testing.T) {
	r, s := runPane(t, filepath.Join("..", "lint", "testdata", "rules", "err", "dryrun_input_unavailable"), 80, 20)
	if len(r.rows) != 2 {
		t.Fatalf("%d paths", len(r.rows))
	}
	r.Nav(NavLeft, 1)
	if r.step != 0 {
		t.Errorf("step %d after ← at the start", r.step)
	}
	for range 10 {
		r.Nav(NavRight, 1)
	}
	p, _ := r.Selected()
	if r.step != len(p.Steps)-1 {
		t.Errorf("step %d, want the last (%d)", r.step, len(p.Steps)-1)
	}
	tg, ok := r.Target()
	if !ok || tg.Pointer != "/$referenced_components/end" || tg.File != s.FlowFile() {
		t.Errorf("target %+v", tg)
	}
	r.Nav(NavDown, 1)
	if r.step != 0 || r.cursor != 1 {
		t.Errorf("path %d step %d after ↓", r.cursor, r.step)
	}
	r.Nav(NavRight, 1)
	r.Nav(NavRight, 1)
	out := ansi.Strip(r.View(th))
	if !strings.Contains(out, "x: string ✗ no value") || !strings.Contains(out, "3. consume (ApiNode)") {
		t.Errorf("path 2 step 3:\n%s", out)
	}
	var empty Run
	empty.SetSize(30, 3)
	empty.Show(Shown{})
	if out := ansi.Strip(empty.View(th)); !strings.Contains(out, "no dry run") {
		t.Errorf("empty:\n%s", out)
	}
	if _, ok := empty.Target(); ok {
		t.Error("empty pane has a target")
	}
}
