package analysis

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// childTree is an agents/ tree with orchestrator-agent, whose brief_flow
// FlowNode names no subflow of its own document, so the dry run runs the
// child agent @oastui/gate-agent; withChild puts that child in the tree.
func childTree(t *testing.T, withChild bool) (tree, parent string) {
	t.Helper()
	root, parent := copyAgent(t, "orchestrator-agent")
	tree = filepath.Join(root, "agents")
	if withChild {
		_, gate := copyAgent(t, "gate-agent")
		if err := os.Rename(gate, filepath.Join(tree, "acme", "gate-agent")); err != nil {
			t.Fatal(err)
		}
	}
	flow := filepath.Join(parent, "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	out := strings.Replace(string(src), `"$component_ref": "brief-subflow"`, `"$component_ref": "gone"`, 1)
	if out == string(src) {
		t.Fatal("fixture changed: no brief-subflow reference to replace")
	}
	if err := os.WriteFile(flow, []byte(out), 0o644); err != nil {
		t.Fatal(err)
	}
	return tree, parent
}

// TestWatchSetHasDryRunChildren: the files the dry run's child look-ups
// read are in the snapshot's watch set (Agent.Files records them), so a
// live face re-runs the parent's dry run when the child is edited; a
// look-up that found nothing watches where the child would be, so adding
// it re-runs it too.
func TestWatchSetHasDryRunChildren(t *testing.T) {
	t.Run("found", func(t *testing.T) {
		tree, parent := childTree(t, true)
		s := Run(parent, Options{Stages: StageDryRun})
		if s.DryRun == nil {
			t.Fatal("no dry run")
		}
		ran := false
		for _, p := range s.DryRun.Paths {
			for _, st := range p.Steps {
				ran = ran || strings.Contains(st.File, "gate-agent")
			}
		}
		if !ran {
			t.Fatal("the dry run did not descend into gate-agent")
		}
		ws := s.WatchSet()
		child := filepath.Join(tree, "acme", "gate-agent")
		for _, f := range []string{filepath.Join(child, "cinatra", "oas.json"), filepath.Join(child, "package.json")} {
			if !slices.Contains(ws.Files, f) {
				t.Errorf("watch set lacks the child's %s:\n%s", f, strings.Join(ws.Files, "\n"))
			}
		}
		if !slices.Contains(ws.Dirs, filepath.Join(child, "cinatra")) {
			t.Errorf("watch set lacks the child's flow directory: %v", ws.Dirs)
		}
	})
	t.Run("missing", func(t *testing.T) {
		tree, parent := childTree(t, false)
		s := Run(parent, Options{Stages: StageDryRun})
		ws := s.WatchSet()
		for _, f := range []string{
			filepath.Join(tree, "cinatra-ai", "gate-agent", "package.json"),
			filepath.Join(tree, "gate-agent", "cinatra", "oas.json"),
		} {
			if !slices.Contains(ws.Files, f) {
				t.Errorf("watch set lacks %s, where the missing child would load from:\n%s", f, strings.Join(ws.Files, "\n"))
			}
		}
		// the child appears where the look-up looked: the next analysis runs it
		_, gate := copyAgent(t, "gate-agent")
		if err := os.Rename(gate, filepath.Join(tree, "gate-agent")); err != nil {
			t.Fatal(err)
		}
		s = Run(parent, Options{Stages: StageDryRun})
		if !slices.Contains(s.WatchSet().Files, filepath.Join(tree, "gate-agent", "cinatra", "oas.json")) {
			t.Error("the child, once there, is watched as a loaded child")
		}
	})
}
