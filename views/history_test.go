package views

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/diff"
	"github.com/oastui/oastui/internal/testgit"
)

// historyPane is the History tab over an agent, with the commands it starts
// run to completion (the root model runs them in the background).
func historyPane(t *testing.T, dir string, w, h int) *History {
	t.Helper()
	s := analysis.Run(dir, analysis.Options{Stages: diff.Stages})
	if s.Agent == nil {
		t.Fatalf("%s: %v", dir, s.LoadErr)
	}
	p := &History{}
	p.SetSize(w, h)
	p.Show(Shown{Cur: s, LastParsed: s, Theme: th})
	settle(p)
	return p
}

// settle runs the pane's commands until it starts none.
func settle(p *History) {
	var msg tea.Msg
	for range 20 {
		cmd := p.Receive(msg, true)
		if cmd == nil {
			return
		}
		msg = cmd()
	}
}

// stableRevs replaces the commits' abbreviated hashes (which change with
// the bundled fixture's bytes) by commitN labels (hashes are 7 wide here).
func stableRevs(p *History, s string) string {
	for i, e := range p.rows {
		if e.Short != "" && !e.WorkingTree() {
			s = strings.ReplaceAll(s, e.Short, fmt.Sprintf("commit%d", len(p.rows)-i))
		}
	}
	return s
}

// TestHistoryGolden: the leaf agent's history (three commits) with the
// prompt rewording chosen, at three sizes, and that change's before and
// after (go test ./views -run TestHistoryGolden -update).
func TestHistoryGolden(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {140, 40}} {
		w, h := sz[0], sz[1]
		p := historyPane(t, dir, w, h)
		if len(p.rows) != 4 {
			t.Fatalf("%d entries", len(p.rows))
		}
		p.Nav(NavDown, 1)
		settle(p) // the polish step's diff
		p.Nav(NavDown, 1)
		settle(p) // the rewording's diff
		out := p.View(th)
		checkBox(t, out, w, h)
		t.Run(fmt.Sprintf("reword_%dx%d", w, h), func(t *testing.T) { golden.RequireEqual(t, stableRevs(p, ansi.Strip(out))) })
	}
	p := historyPane(t, dir, 80, 24)
	p.Nav(NavDown, 1)
	settle(p)
	out := ansi.Strip(p.View(th))
	for _, want := range []string{`+ info     AgentNode "Polish summary" (polish) added`, "~ warn     the control edge from summarize"} {
		if !strings.Contains(out, want) {
			t.Errorf("polish step: no %q:\n%s", want, out)
		}
	}
	t.Run("polish_80x24", func(t *testing.T) { golden.RequireEqual(t, stableRevs(p, out)) })
}

// TestHistoryBeforeAfter: enter on a commit moves into its changes, enter
// on the prompt change shows its before and after as word diffs, esc goes
// back; the graph's target is the change's node.
func TestHistoryBeforeAfter(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	p := historyPane(t, dir, 80, 24)
	p.Nav(NavDown, 1)
	settle(p)
	p.Nav(NavDown, 1)
	settle(p)
	if !p.Open() || p.level != 1 {
		t.Fatal("enter did not move into the changes")
	}
	r := p.result()
	i := -1
	for j, c := range r.Changes {
		if c.Check == "diff_prompt_changed" {
			i = j
		}
	}
	if i < 0 {
		t.Fatalf("no prompt change: %+v", r.Changes)
	}
	for range i {
		p.Nav(NavDown, 1)
	}
	if !p.Open() || p.level != 2 {
		t.Fatal("enter did not open the change")
	}
	out := p.View(th)
	checkBox(t, out, 80, 24)
	plain := ansi.Strip(out)
	for _, want := range []string{"before", "after", "five sentences.", "three sentences", "for a busy reader.", "Cite the sources", "Cite every source"} {
		if !strings.Contains(plain, want) {
			t.Errorf("before/after: no %q:\n%s", want, plain)
		}
	}
	if !strings.Contains(out, th.DiffAdd.Render("three")) && !strings.Contains(out, th.DiffAdd.Render("three ")) {
		t.Errorf("added words are not marked:\n%q", out)
	}
	t.Run("prompt_before_after_80x24", func(t *testing.T) { golden.RequireEqual(t, plain) })
	if !p.Close() || p.level != 1 || !p.Close() || p.level != 0 || p.Close() {
		t.Error("esc does not go back level by level")
	}
}

// TestHistoryOutsideGit: an agent outside a git work tree says so.
func TestHistoryOutsideGit(t *testing.T) {
	testgit.Have(t)
	root := t.TempDir()
	testgit.CopyTree(t, filepath.Join("..", "testdata", "agents"), filepath.Join(root, "agents"))
	p := historyPane(t, filepath.Join(root, "agents", "oastui", "leaf-agent"), 60, 8)
	out := ansi.Strip(p.View(th))
	checkBox(t, p.View(th), 60, 8)
	if !strings.Contains(strings.Join(strings.Fields(out), " "), "not in a git work tree") {
		t.Errorf("outside git:\n%s", out)
	}
}

// TestHistorySafetyNotice (issue 35, point 3): the History tab says, above
// the changes, which approval-safety check the config turns off and why
// (diff.Run's notices), and how many changes the cap left out.
func TestHistorySafetyNotice(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	cfg := "diff:\n  diff_risk_lowered: {level: off, reason: \"the gateway reviews risk\"}\n"
	if err := os.WriteFile(filepath.Join(dir, ".oastui.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	p := historyPane(t, dir, 400, 40)
	r := p.result()
	if r == nil || len(r.Notices) != 1 {
		t.Fatalf("the step's result has no notice: %+v", r)
	}
	out := ansi.Strip(p.View(th))
	for _, want := range []string{"notice: approval-safety check diff_risk_lowered is set to off", "the gateway reviews risk"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q:\n%s", want, out)
		}
	}
	if strings.Contains(out, "more changes") {
		t.Errorf("a note of changes left out, none were:\n%s", out)
	}
	r.Truncated = 7
	if out := ansi.Strip(p.View(th)); !strings.Contains(out, "7 more changes (oastui diff --format json --max-changes 0 lists them all)") {
		t.Errorf("no note of the changes the cap left out:\n%s", out)
	}
}
