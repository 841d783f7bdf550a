package diff

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testgit"
)

// TestHistoryAndStep: History lists the working tree then the agent's
// commits newest first; Step diffs each against its parent (the first
// commit against nothing); outside git History says so.
func TestHistoryAndStep(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	s := Analyze(dir, nil, nil)
	if s.Agent == nil {
		t.Fatalf("agent: %v", s.LoadErr)
	}
	entries, err := History(s)
	if err != nil {
		t.Fatal(err)
	}
	var subjects []string
	for _, e := range entries {
		subjects = append(subjects, e.Subject)
	}
	want := "uncommitted changes|add a polish step|reword the summary prompt|add the topic summariser"
	if got := strings.Join(subjects, "|"); got != want {
		t.Fatalf("history = %s, want %s", got, want)
	}
	checksOf := func(e Entry) string {
		r, err := Step(dir, e, &s.Config)
		if err != nil {
			t.Fatalf("%s: %v", e.Subject, err)
		}
		var ids []string
		for _, c := range r.Changes {
			ids = append(ids, c.Check+"("+c.Node+")")
		}
		return strings.Join(ids, " ")
	}
	if got := checksOf(entries[0]); got != "" {
		t.Errorf("working tree: %s, want no change", got)
	}
	if got := checksOf(entries[1]); !strings.Contains(got, "diff_node_added(polish)") {
		t.Errorf("polish step: %s", got)
	}
	if got := checksOf(entries[2]); !strings.Contains(got, "diff_prompt_changed") || strings.Contains(got, "diff_node_added") {
		t.Errorf("reword: %s", got)
	}
	if got := checksOf(entries[3]); got != "diff_agent_added()" { // the agent is new there
		t.Errorf("first commit: %s", got)
	}

	outside := t.TempDir()
	testgit.CopyTree(t, filepath.Join("..", "testdata", "agents"), filepath.Join(outside, "agents"))
	o := analysis.Run(filepath.Join(outside, "agents", "oastui", "leaf-agent"), analysis.Options{})
	if _, err := History(o); !errors.Is(err, compile.ErrNotGitWorkTree) {
		t.Errorf("outside git: %v", err)
	}
}

// TestAgentRemovedLevel: a removed agent is breaking when an agent of the
// tree calls it (listed as a caller), warn when none does.
func TestAgentRemovedLevel(t *testing.T) {
	dir := filepath.Join("testdata", "checks", "diff_agent_removed")
	cfg := &analysis.ConfigResult{}
	old, gone := Analyze(filepath.Join(dir, "old"), nil, cfg), Analyze(filepath.Join(dir, "new"), nil, cfg)
	r := Diff(old, gone, Options{Tree: true, Callers: []CallerAgent{{Package: "@oastui/orchestrator", Via: "package.json dependencies"}}})
	if len(r.Changes) != 1 || r.Changes[0].Level != Breaking || len(r.Changes[0].Callers) != 1 || r.Agent != "Topic Summariser" {
		t.Fatalf("with a caller: %+v", r)
	}
	r = Diff(old, gone, Options{Tree: true})
	if c := r.Changes[0]; c.Level != Warn || c.Reason != "no agent of the tree calls it" {
		t.Fatalf("without callers: %+v", c)
	}
	if r := Diff(gone, old, Options{}); len(r.Changes) != 1 || r.Changes[0].Check != "diff_agent_added" {
		t.Fatalf("added: %+v", r.Changes)
	}
}

// TestRunGateEveryFace (issue 35, point 3, through diff.Run): the History
// tab's Step, like oastui diff and agent_diff, reads the gate's levels as
// the old revision had them: a diff: section the working tree adds that
// lowers a check is diff_gate_relaxed, and one that lowers an
// approval-safety check without a reason is refused.
func TestRunGateEveryFace(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	top := strings.TrimSpace(testgit.Git(t, dir, "", "rev-parse", "--show-toplevel"))
	cfgPath := filepath.Join(top, ".oastui.yaml")
	step := func(yaml string) (*Result, error) {
		t.Helper()
		if err := os.WriteFile(cfgPath, []byte(yaml), 0o644); err != nil {
			t.Fatal(err)
		}
		return Step(dir, Entry{Short: "working tree", Parent: "HEAD"}, nil)
	}
	r, err := step("diff:\n  diff_node_renamed: off\n")
	if err != nil {
		t.Fatal(err)
	}
	if len(r.Changes) != 1 || r.Changes[0].Check != CheckGateRelaxed.ID || r.Changes[0].Subject != "diff: diff_node_renamed" ||
		r.Changes[0].Before != "info" || r.Changes[0].After != "off" {
		t.Errorf("lowered in the working tree: %+v", r.Changes)
	}
	if r, err := step("diff:\n  diff_node_renamed: breaking\n"); err != nil || len(r.Changes) != 0 {
		t.Errorf("raised: %v %+v", err, r)
	}
	if _, err := step("diff:\n  diff_approval_removed: off\n"); err == nil || !strings.Contains(err.Error(), "needs a reason") {
		t.Errorf("a safety check lowered without a reason: %v", err)
	}
}

// TestRunTreeOK: a face that may not read a tree (an MCP call whose roots
// do not hold it) gets no callers searched there.
func TestRunTreeOK(t *testing.T) {
	leaf := filepath.Join("..", "testdata", "agents", "oastui", "leaf-agent")
	for _, ok := range []bool{true, false} {
		var asked []string
		r, err := Run(Request{OldPath: leaf, OldLabel: "a", NewLabel: "b", TreeOK: func(root string) bool {
			asked = append(asked, root)
			return ok
		}})
		if err != nil {
			t.Fatal(err)
		}
		if len(asked) != 1 || r.Tree != ok {
			t.Errorf("TreeOK %v: asked %v, tree searched %v", ok, asked, r.Tree)
		}
	}
}
