package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/testshared"
)

// TestTabTitleNamesWhole: at every width the side pane's title shows
// whole tab names only (a window around the active tab, ‹ › saying more
// lie either way), the active one always (issue 28: not Fin│Ste│Nod).
func TestTabTitleNamesWhole(t *testing.T) {
	m := newModel(t, findingsFixture, 80, 24, analyze(t, findingsFixture, 1))
	names := map[string]bool{}
	for _, p := range m.tabs {
		names[p.Name()] = true
	}
	for w := 16; w <= 80; w++ {
		for tab := range m.tabs {
			m.tab = tab
			title := ansi.Strip(m.tabTitle(w))
			if ansi.StringWidth(title) > w {
				t.Errorf("width %d: title %q is wider", w, title)
			}
			if !strings.Contains(title, m.tabs[tab].Name()) {
				t.Errorf("width %d: the active tab %s is not in %q", w, m.tabs[tab].Name(), title)
			}
			for _, part := range strings.FieldsFunc(strings.Trim(title, "‹›"), func(r rune) bool { return r == '│' }) {
				name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
				if !names[name] {
					t.Errorf("width %d, tab %d: %q is no whole tab name (title %q)", w, tab, name, title)
				}
			}
		}
	}
}

// promptTab shows the Prompt tab, focused, on the node id.
func promptTab(t *testing.T, m *Model, id string) {
	t.Helper()
	m.graph.SelectID(id)
	m.refreshNode()
	for i, tab := range m.tabs {
		if tab.Name() == "Prompt" {
			press(m, fmt.Sprint(i+1))
		}
	}
	m.focus = focusSide
}

// TestPromptTabFromNonLLMNode: on a node that sends no prompt the tab
// lists the agent's LLM steps with a cursor; enter (offered as "go to LLM
// step") selects the one under the cursor in the graph.
func TestPromptTabFromNonLLMNode(t *testing.T) {
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	steps := m.cur.Snapshot.Prompts.Nodes
	if len(steps) == 0 {
		t.Fatal("the example has no LLM step")
	}
	promptTab(t, m, "publish")
	if s := ansi.Strip(m.Render()); !strings.Contains(s, "LLM steps") || !strings.Contains(s, "enter go to LLM step") {
		t.Fatalf("on a non-LLM node:\n%s", s)
	}
	press(m, "down", "enter")
	want := steps[min(1, len(steps)-1)].Pointer
	if _, n := m.graph.SelectedNode(); n == nil || n.Pointer != want {
		t.Errorf("enter selects %+v, want the LLM step at %s", n, want)
	}
}

// TestPromptBudgetScrolls: a budget table wider than the pane keeps the
// step and node columns and scrolls the buckets with ←/→; wide enough, no
// node name is cut.
func TestPromptBudgetScrolls(t *testing.T) {
	dir := testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "email-outreach-agent")
	m := newModel(t, dir, 100, 30, analyze(t, dir, 1))
	promptTab(t, m, "")
	s := ansi.Strip(m.Render())
	if !strings.Contains(s, "←/→ scroll") || strings.Contains(s, " sess ") {
		t.Fatalf("100 columns: the budget table does not scroll:\n%s", s)
	}
	press(m, "right", "right", "right", "right", "right")
	if s := ansi.Strip(m.Render()); !strings.Contains(s, "sess") || !strings.Contains(s, "◂") {
		t.Errorf("→: the last buckets do not show:\n%s", s)
	}
	m = newModel(t, dir, 140, 40, analyze(t, dir, 1))
	promptTab(t, m, "")
	for _, st := range m.cur.Snapshot.Prompts.Steps {
		if s := ansi.Strip(m.Render()); !strings.Contains(s, " "+st.Node+" ") {
			t.Errorf("140 columns: the budget table cuts %q:\n%s", st.Node, s)
		}
	}
}

// TestBrokenJSONSelectsItsFinding: with a finding selected further down
// the list, the flow file breaking leaves one invalid_json finding: it is
// selected (cursor and detail), not a bucket header.
func TestBrokenJSONSelectsItsFinding(t *testing.T) {
	dir := copyDir(t, findingsFixture)
	m := newModel(t, dir, 100, 30, analyze(t, dir, 1))
	press(m, "tab")
	for range 12 {
		if x, ok := m.findings.Selected(); ok && x.Severity != compile.Blocker {
			break
		}
		press(m, "down")
	}
	if x, ok := m.findings.Selected(); !ok || x.Severity == compile.Blocker {
		t.Fatalf("no warning is selected: %+v %v", x, ok)
	}
	flow := filepath.Join(dir, "cinatra", "oas.json")
	if err := os.WriteFile(flow, []byte("{ broken"), 0o644); err != nil {
		t.Fatal(err)
	}
	m.Update(analysisMsg{analyze(t, dir, 2)})
	if x, ok := m.findings.Selected(); !ok || x.Code != "invalid_json" {
		t.Errorf("after the break: selected %+v %v, want invalid_json\n%s", x, ok, ansi.Strip(m.Render()))
	}
}

// TestCallGraphTooLargeNote: a call graph too large to draw says so and
// names the command that draws it, wrapped to the pane.
func TestCallGraphTooLargeNote(t *testing.T) {
	m := newWorkspace("my agents", []string{"my agents/v/a"}, Options{})
	defer m.close()
	m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
	m.drawGraph()
	m.tooLarge = m.tooLargeNote(9000, 12000)
	lines := m.graphLines(60, 20)
	s := strings.Join(lines, "\n")
	if !strings.Contains(s, "oastui graph 'my agents' --workspace --format dot") || !strings.Contains(s, "9000 agents") {
		t.Errorf("the note does not name the command:\n%s", s)
	}
	for _, l := range lines {
		if ansi.StringWidth(l) > 60 {
			t.Errorf("line wider than the pane: %q", l)
		}
	}
}

// TestUndoStack: every fix applied since the TUI started can be undone,
// newest first; the message line quotes titles without escapes and says
// what u undoes next; once all are undone it says so.
func TestUndoStack(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "f.json")
	src0 := []byte(`{"v": "1", "w": "1"}`)
	if err := os.WriteFile(p, src0, 0o644); err != nil {
		t.Fatal(err)
	}
	m := New(Config{Path: dir})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	show := func(s string) string { return filepath.Base(s) }
	apply := func(title string, src []byte, at int, repl string) {
		t.Helper()
		fix := edit.Fix{Title: title, Edits: []edit.Edit{{Path: p, Start: at, End: at + 1, New: repl}}}
		msg := applyFixCmd(fix, map[string][]byte{p: src}, show)()
		m.Update(msg)
		if !strings.Contains(m.note, "fixed: “"+title+"”") {
			t.Fatalf("note = %q", m.note)
		}
	}
	apply(`Set v to "2"`, src0, 7, "2")
	src1 := read(t, p)
	apply(`Set w to "3"`, src1, 16, "3")
	if !strings.Contains(m.note, "2 fixes can be undone") || strings.Contains(m.note, `\"`) {
		t.Errorf("after two fixes: %q", m.note)
	}
	m.Update(m.undo()())
	if got := read(t, p); !bytes.Equal(got, src1) {
		t.Fatalf("first u: %s, want %s", got, src1)
	}
	if !strings.Contains(m.note, `undone: “Set w to "3"”`) || !strings.Contains(m.note, `u undoes “Set v to "2"” next`) {
		t.Errorf("first u: note = %q", m.note)
	}
	m.Update(m.undo()())
	if got := read(t, p); !bytes.Equal(got, src0) {
		t.Fatalf("second u: %s, want %s", got, src0)
	}
	if cmd := m.undo(); cmd != nil || !strings.Contains(m.note, "nothing to undo") {
		t.Errorf("third u: note = %q", m.note)
	}
}

// TestSlotsTabRemembersPick: a confirmed pick shows under its slot in the
// Slots tab, and p opens the picker on it again.
func TestSlotsTabRemembersPick(t *testing.T) {
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	m := New(Config{Path: p, Catalog: filepath.Join("..", "testdata", ".oastui", "catalog.json"), Audit: filepath.Join(t.TempDir(), "audit.db")})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Update(analysisMsg{analyze(t, p, 1)})
	for i, tab := range m.tabs {
		if tab.Name() == "Slots" {
			press(m, fmt.Sprint(i+1))
		}
	}
	m.focus = focusSide
	open := func() {
		t.Helper()
		cmd := press(m, "p")
		if cmd == nil {
			t.Fatalf("p does nothing: %s", m.note)
		}
		m.Update(cmd())
		if !m.pick.open {
			t.Fatalf("the picker did not open: %s", m.note)
		}
	}
	open()
	if n := m.pick.picker.Selection().Count(); n != 0 {
		t.Fatalf("first open: %d selected", n)
	}
	m.Update(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	if n := m.pick.picker.Selection().Count(); n != 1 {
		t.Fatalf("space: %d selected", n)
	}
	_, cmd := m.Update(keyMsg("enter"))
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			break
		}
		_, cmd = m.Update(msg)
	}
	if s := ansi.Strip(m.Render()); !strings.Contains(s, "last pick: ") {
		t.Errorf("the Slots tab does not show the pick:\n%s", s)
	}
	open()
	if n := m.pick.picker.Selection().Count(); n != 1 {
		t.Errorf("p again: %d selected, want the last pick", n)
	}
}

// TestCorpusScreens: every tab of the agent view on two real corpus
// agents at the sizes terminals open at (80×24, 100×30) and at 140×40:
// every frame fits, and matches its golden.
func TestCorpusScreens(t *testing.T) {
	t.Parallel() // pure renders (no program, no watcher, no package variable set): in the race suite tui is the last package running, its tail beside an idle core
	for _, slug := range []string{"blog-pipeline-agent", "email-outreach-agent"} {
		dir := testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", slug)
		an := analyze(t, dir, 1)
		for _, sz := range [][2]int{{80, 24}, {100, 30}, {140, 40}} {
			m := newModel(t, dir, sz[0], sz[1], an)
			m.cfg.DisplayPath = "agents/cinatra-ai/" + slug
			for i, tab := range m.tabs {
				t.Run(fmt.Sprintf("%s/%dx%d/%s", slug, sz[0], sz[1], tab.Name()), func(t *testing.T) {
					press(m, fmt.Sprint(i+1))
					out := m.Render()
					assertFrame(t, out, sz[0], sz[1])
					golden.RequireEqual(t, trimRight(ansi.Strip(out)))
				})
			}
		}
	}
}

// TestStepsTabNodeNotInGraph: a node removed from the flow's nodes while
// edges still reach it is compiled as a step but not drawn: the Steps
// tab says so instead of listing it as if the graph had it.
func TestStepsTabNodeNotInGraph(t *testing.T) {
	dir := copyDir(t, filepath.Join("..", "testdata", "agents", "oastui", "example-agent"))
	flow := filepath.Join(dir, "cinatra", "oas.json")
	src, _ := os.ReadFile(flow)
	s := strings.Replace(string(src), "    {\n      \"$component_ref\": \"notify\"\n    },\n", "", 1)
	if s == string(src) {
		t.Fatal("the example's nodes list changed: no notify entry")
	}
	os.WriteFile(flow, []byte(s), 0o644)
	m := newModel(t, dir, 140, 40, analyze(t, dir, 1))
	press(m, "2")
	out := ansi.Strip(m.Render())
	if !strings.Contains(out, "notify (not in the graph") {
		t.Errorf("the Steps tab lists notify as if the graph had it:\n%s", out)
	}
	if strings.Count(out, "not in the graph") != 1 {
		t.Errorf("only notify is missing from the graph:\n%s", out)
	}
}

// TestGraphSaysStepNotDrawn: the graph pane reads the same model as the
// Steps tab (the snapshot's Flow model and the compiled steps): under the
// top-level flow it names the compiled step whose node the nodes list
// lacks, so the two faces never disagree about what the drawing shows.
func TestGraphSaysStepNotDrawn(t *testing.T) {
	dir := copyDir(t, filepath.Join("..", "testdata", "agents", "oastui", "example-agent"))
	flow := filepath.Join(dir, "cinatra", "oas.json")
	src, _ := os.ReadFile(flow)
	m := newModel(t, dir, 140, 40, analyze(t, dir, 1))
	if out := ansi.Strip(m.Render()); strings.Contains(out, "not drawn") {
		t.Errorf("every step is drawn, yet:\n%s", out)
	}
	s := strings.Replace(string(src), "    {\n      \"$component_ref\": \"notify\"\n    },\n", "", 1)
	os.WriteFile(flow, []byte(s), 0o644)
	m = newModel(t, dir, 140, 40, analyze(t, dir, 1))
	out := ansi.Strip(m.Render())
	if !regexp.MustCompile(`⚠ step \d+ notify: compiled, not drawn`).MatchString(out) || !strings.Contains(out, "nodes)") {
		t.Errorf("the graph does not say the notify step is not drawn:\n%s", out)
	}
}
