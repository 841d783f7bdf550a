package tui

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/tui/watch"
	"github.com/oastui/oastui/workspace"
)

// corpusTree copies the corpus's agents/ tree (with _shared) into a temp
// directory: every agent, or only the slugs given.
func corpusTree(t *testing.T, slugs ...string) string {
	t.Helper()
	src := filepath.Join(testshared.Corpus(t), "agents")
	dst := filepath.Join(t.TempDir(), "agents")
	if len(slugs) == 0 {
		if err := os.CopyFS(dst, os.DirFS(src)); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	for _, rel := range append([]string{"_shared"}, slugs...) {
		if rel != "_shared" {
			rel = filepath.Join("cinatra-ai", rel)
		}
		if err := os.CopyFS(filepath.Join(dst, rel), os.DirFS(filepath.Join(src, rel))); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// newWS builds the workspace screen of the tree at root with every agent
// reviewed (synchronously: no pool), mtimes and the clock pinned.
func newWS(t *testing.T, root string, w, h int) *wsModel {
	t.Helper()
	dirs, err := compile.FindAgents(root, 0)
	if err != nil {
		t.Fatal(err)
	}
	m := newWorkspace(root, dirs, Options{})
	m.display = "agents" // the screen does not name the temp directory
	m.now = func() time.Time { return fixedTime }
	m.pin = func(a *workspace.Agent) { a.MTime = fixedTime.Add(-90 * time.Minute) }
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	var reviewed []review
	for i, a := range workspace.ReviewAll(root, dirs, Options{}, 2, nil) {
		a.Dir = dirs[i]
		reviewed = append(reviewed, review{agent: a})
	}
	m.apply(reviewed)
	// apply rebuilds the index at once only when the last rebuild was
	// quick; on a loaded machine it hands the rebuild to a command, which
	// no program runs here. Rebuild now, as that command would, so the
	// screen never depends on how long an earlier rebuild took.
	if m.dirty || m.building {
		m.building = false
		m.rebuild()
	}
	return m
}

func wsScreen(m *wsModel) string { return trimRight(ansi.Strip(m.render())) }

func TestWorkspaceGolden(t *testing.T) {
	m := newWS(t, corpusTree(t), 170, 34)
	out := m.render()
	assertFrame(t, out, 170, 34)
	golden.RequireEqual(t, wsScreen(m))
	t.Run("graph", func(t *testing.T) {
		m.Update(keyMsg("2"))
		out := m.render()
		assertFrame(t, out, 170, 34)
		golden.RequireEqual(t, wsScreen(m))
		m.Update(keyMsg("1"))
	})
	// Issue 37: the Graph tab at the sizes terminals open at: the corpus'
	// drawing is 456 columns wide, so the tab shows the calls as an indented
	// tree (as `oastui graph --workspace` prints it), the selected agent's
	// lines highlighted and scrolled into view as the selection moves.
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {140, 40}} {
		t.Run(fmt.Sprintf("graph_%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			m.Update(keyMsg("2"))
			defer m.Update(keyMsg("1"))
			assertFrame(t, m.render(), sz[0], sz[1])
			screen := wsScreen(m)
			if !strings.Contains(screen, "calls as a tree") || !strings.Contains(screen, "└─→ ") {
				t.Errorf("no tree:\n%s", screen)
			}
			golden.RequireEqual(t, screen)
		})
	}
	t.Run("graph_tree_follows_selection", func(t *testing.T) {
		m.Update(tea.WindowSizeMsg{Width: 80, Height: 24})
		m.Update(keyMsg("2"))
		defer m.Update(keyMsg("1"))
		m.render()
		for range 12 {
			m.Update(keyMsg("down"))
		}
		m.render()
		name := m.cg.Graph.Nodes[m.gorder[m.gsel]].Name
		lines := m.graphLines(77, 20)
		found := false
		for _, l := range lines {
			if strings.Contains(ansi.Strip(l), name+"  ") {
				found = true
			}
		}
		if !found {
			t.Errorf("the selected agent %s is not in view:\n%s", name, strings.Join(lines, "\n"))
		}
	})
	// Issue 28: the table at the sizes terminals open at, and wider.
	for _, sz := range [][2]int{{80, 24}, {100, 30}, {140, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz[0], sz[1]), func(t *testing.T) {
			m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
			assertFrame(t, m.render(), sz[0], sz[1])
			golden.RequireEqual(t, wsScreen(m))
		})
	}
	t.Run("keys", func(t *testing.T) { workspaceKeys(t, m) }) // the same tree: one review
	t.Run("sizes", func(t *testing.T) {
		for _, sz := range [][2]int{{40, 8}, {60, 12}, {80, 24}, {120, 30}, {220, 60}} {
			for _, tab := range []string{"1", "2"} {
				m.Update(tea.WindowSizeMsg{Width: sz[0], Height: sz[1]})
				m.Update(keyMsg(tab))
				assertFrame(t, m.render(), sz[0], sz[1])
			}
		}
	})
}

// TestWorkspaceProgress: before the first reviews come back the table is
// there, every row "reviewing", the header a progress bar.
func TestWorkspaceProgress(t *testing.T) {
	dirs := []string{"agents/v/a", "agents/v/b", "agents/v/c"}
	m := newWorkspace("agents", dirs, Options{})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 12})
	s := wsScreen(m)
	if !strings.Contains(s, "reviewing 0/3 ░░░") || strings.Count(s, "… reviewing") != 3 {
		t.Errorf("before any review:\n%s", s)
	}
	m.apply([]review{{agent: workspace.Agent{Dir: "agents/v/b", Package: "@v/b", Version: "1.0.0", Parsed: true, Title: "B", Steps: 2}}})
	s = wsScreen(m)
	if !strings.Contains(s, "reviewing 1/3 ██████") || strings.Count(s, "… reviewing") != 2 || !strings.Contains(s, "● clean") {
		t.Errorf("after one review:\n%s", s)
	}
	if m.Update(keyMsg("down")); m.rows[m.cursor].Dir == "" {
		t.Error("the table does not move while it fills")
	}
}

// TestWorkspaceKeys: sort cycles and reverses, / filters, enter picks the
// selected agent, and coming back (Init of the next program) keeps it.
func workspaceKeys(t *testing.T, m *wsModel) {
	m.Update(tea.WindowSizeMsg{Width: 150, Height: 30})
	if !strings.Contains(wsScreen(m), "sorted by status") {
		t.Fatalf("default sort:\n%s", wsScreen(m))
	}
	m.Update(keyMsg("s"))
	if m.sortCol != workspace.ColAgent || m.rows[0].ID() != "cinatra-ai/apollo-prospecting-agent" {
		t.Errorf("s: sorted by %s, first %s", m.sortCol, m.rows[0].ID())
	}
	m.Update(keyMsg("S"))
	if m.rows[0].ID() != "cinatra-ai/trigger-agent" {
		t.Errorf("S: first %s", m.rows[0].ID())
	}
	for _, k := range []string{"/", "e", "m", "a", "i", "l", "enter"} {
		m.Update(keyMsg(k))
	}
	if len(m.rows) != 5 || !strings.Contains(wsScreen(m), `filter "email": 5 of 25`) {
		t.Errorf("filter email: %d rows\n%s", len(m.rows), wsScreen(m))
	}
	m.Update(keyMsg("down"))
	want := m.rows[1].Dir
	if _, cmd := m.Update(keyMsg("enter")); cmd == nil || cmd() != (openAgentMsg{want}) {
		t.Fatalf("enter does not open %q", want)
	}
	if m.rows[m.cursor].Dir != want {
		t.Errorf("back: cursor on %s, want %s", m.rows[m.cursor].Dir, want)
	}
	// / starts a fresh filter: the kept "email" goes, "trigger" is typed
	// on its own (issue 37).
	for _, k := range []string{"/", "t", "r", "i", "g", "enter"} {
		m.Update(keyMsg(k))
	}
	if m.filter != "trig" || !strings.Contains(wsScreen(m), `filter "trig": `) {
		t.Errorf("/ after a kept filter: %q\n%s", m.filter, wsScreen(m))
	}
	m.Update(keyMsg("esc"))
	m.Update(keyMsg("?"))
	if !strings.Contains(wsScreen(m), "esc or ⌫ with nothing") {
		t.Errorf("? help:\n%s", wsScreen(m))
	}
	m.Update(keyMsg("esc"))
	if _, cmd := m.Update(keyMsg("q")); cmd == nil {
		t.Error("q does not quit")
	}
}

// settle pokes the model until no review is queued (the real pool).
func settle(t *testing.T, m *wsModel) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for len(m.queued) > 0 {
		if time.Now().After(deadline) {
			t.Fatalf("still queued: %v", m.queued)
		}
		select { // wait for a result, then take everything
		case <-m.in.signal():
		case <-time.After(time.Until(deadline)):
			t.Fatalf("no review came; still queued: %v", m.queued)
		}
		m.Update(wsPokeMsg{})
	}
	if m.dirty || m.building { // what the commands of rebuildSoon do in a program
		m.building = false
		m.rebuild()
	}
}

// TestWorkspaceLive: breaking one agent's flow sends its row to the top
// with "does not parse" (its last good columns kept, stale), fixing it
// brings it back; a child's save re-reviews the orchestrators above it.
func TestWorkspaceLive(t *testing.T) {
	root := corpusTree(t, "context-selection-agent", "blog-draft-writer-agent", "blog-image-prompt-agent",
		"blog-pipeline-agent", "email-outreach-agent", "reviewer-agent")
	m := newWS(t, root, 150, 30)
	m.start()
	child := filepath.Join(root, "cinatra-ai", "context-selection-agent")
	flow := filepath.Join(child, "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(flow, bytes.Replace(src, []byte(`"nodes": [`), []byte(`"nodes": [,`), 1), 0o644)
	m.Update(wsPokeMsg{}) // nothing in the inbox yet
	m.changed(watch.Batch{Paths: []string{flow}})
	var queued []string
	for d := range m.queued {
		queued = append(queued, filepath.Base(d))
	}
	slices.Sort(queued)
	if want := []string{"blog-draft-writer-agent", "blog-image-prompt-agent", "blog-pipeline-agent", "context-selection-agent", "email-outreach-agent"}; !slices.Equal(queued, want) {
		t.Errorf("a child's save queues %v, want %v (the child and its orchestrators)", queued, want)
	}
	if !strings.Contains(wsScreen(m), "stale") {
		t.Errorf("queued rows are not marked stale:\n%s", wsScreen(m))
	}
	settle(t, m)
	top := m.rows[0]
	if top.Dir != child || top.Problem != workspace.NotParsed || !top.Stale || top.Title != "Context Agent" {
		t.Errorf("broken agent: first row %s %q stale=%v title=%q", top.ID(), top.Problem, top.Stale, top.Title)
	}
	if line := strings.Split(wsScreen(m), "\n")[3]; !strings.Contains(line, "not parsed") || !strings.Contains(line, "context-selection-agent") {
		t.Errorf("first row:\n%s", line)
	}
	os.WriteFile(flow, src, 0o644)
	m.changed(watch.Batch{Paths: []string{flow}})
	settle(t, m)
	i := slices.IndexFunc(m.rows, func(r workspace.Row) bool { return r.Dir == child })
	if r := m.rows[i]; r.Problem != workspace.Readable || r.Stale || r.Status() != "clean" || i == 0 {
		t.Errorf("fixed agent: row %d %q stale=%v", i, r.Status(), r.Stale)
	}

	// A new package: the rescan finds it and it is reviewed; deleting it
	// removes its row.
	newDir := filepath.Join(root, "cinatra-ai", "copy-agent")
	if err := os.CopyFS(newDir, os.DirFS(filepath.Join(root, "cinatra-ai", "reviewer-agent"))); err != nil {
		t.Fatal(err)
	}
	runWSCmd(m, m.changed(watch.Batch{Paths: []string{filepath.Join(newDir, "package.json")}, Rescan: true}))
	settle(t, m)
	has := func() bool { return slices.ContainsFunc(m.rows, func(r workspace.Row) bool { return r.Dir == newDir }) }
	if !has() || len(m.rows) != 7 {
		t.Errorf("new package: %d rows, has it %v", len(m.rows), has())
	}
	os.RemoveAll(newDir)
	runWSCmd(m, m.changed(watch.Batch{Paths: []string{filepath.Join(newDir, "cinatra", "oas.json")}}))
	settle(t, m)
	if has() || len(m.rows) != 6 {
		t.Errorf("deleted package: %d rows, has it %v", len(m.rows), has())
	}
}

// runWSCmd runs a command and hands its messages (a batch's too) to m.
func runWSCmd(m *wsModel, cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			runWSCmd(m, c)
		}
	case nil:
	default:
		m.Update(msg)
	}
}

// writeWSAgent writes a minimal agent package agents/acme/<slug>: a flow
// with a FlowNode per child in calls, package.json declaring deps.
func writeWSAgent(t *testing.T, root, slug, version string, calls []string, deps string) string {
	t.Helper()
	dir := filepath.Join(root, "acme", slug)
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	refs := `"start": {"component_type": "StartNode", "id": "start", "name": "start"}, "end": {"component_type": "EndNode", "id": "end", "name": "end"}`
	nodes := `{"$component_ref": "start"}`
	for i, c := range calls {
		id := "call" + string(rune('a'+i))
		refs += `, "` + id + `": {"component_type": "FlowNode", "id": "` + id + `", "name": "` + id + `", "metadata": {"cinatra": {"packageName": "` + c + `"}}, "subflow": {"$component_ref": "sub"}}`
		nodes += `, {"$component_ref": "` + id + `"}`
	}
	flow := `{"agentspec_version": "26.1.0", "component_type": "Flow", "id": "` + slug + `", "name": "` + slug + `",
  "start_node": {"$component_ref": "start"}, "nodes": [` + nodes + `, {"$component_ref": "end"}],
  "control_flow_connections": [], "$referenced_components": {` + refs + `}}`
	os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), []byte(flow), 0o644)
	pkg := `{"name": "@acme/` + slug + `", "version": "` + version + `", "license": "MIT", "cinatra": {"agentDependencies": {` + deps + `}}}`
	os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644)
	return dir
}

// TestAgentViewWorkspaceFindings: the agent view opened from the workspace
// shows the agent's workspace findings in its Findings tab, at their
// place, counted in its header; when a child's save changes the index
// (the workspace follows the tree while the agent view runs), the view
// gets the new list.
func TestAgentViewWorkspaceFindings(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	boss := writeWSAgent(t, root, "boss", "1.0.0", []string{"@acme/worker"}, `"@acme/worker": "^2.0.0"`)
	worker := writeWSAgent(t, root, "worker", "1.4.0", nil, "")
	m := newWS(t, root, 120, 30)
	m.start()
	fs := m.findingsOf(boss)
	if len(fs) != 1 || fs[0].Code != "workspace_child_version_mismatch" {
		t.Fatalf("boss's workspace findings: %v", fs)
	}

	a := newApp(m, RunConfig{}, nil)
	defer a.close()
	a.Update(tea.WindowSizeMsg{Width: 140, Height: 30})
	_, cmd := a.Update(openAgentMsg{boss})
	a.Update(cmd())
	if a.agent == nil {
		t.Fatalf("the agent view did not open: %s", m.note)
	}
	av := a.agent.m
	an := analyze(t, boss, 1)
	a.Update(agentMsg{a.agent.gen, analysisMsg{an}})
	s := plain(av)
	place := fmt.Sprintf("%d:%d", fs[0].Line, fs[0].Column)
	if !strings.Contains(s, "workspace_child_version_mismatch") || !strings.Contains(s, "package.json:"+place) {
		t.Errorf("the Findings tab lacks the workspace finding at package.json:%s:\n%s", place, s)
	}
	hd := av.headerData()
	if hd.Warnings != len(an.Review.Warnings)+1 || hd.Blockers != len(an.Review.Blockers) {
		t.Errorf("header counts %d blockers, %d warnings; the review has %d, %d and the workspace 1 warning",
			hd.Blockers, hd.Warnings, len(an.Review.Blockers), len(an.Review.Warnings))
	}

	pkg := filepath.Join(worker, "package.json")
	src, _ := os.ReadFile(pkg)
	os.WriteFile(pkg, bytes.Replace(src, []byte(`"1.4.0"`), []byte(`"2.1.0"`), 1), 0o644)
	m.in.put(func() { m.in.batches = append(m.in.batches, watch.Batch{Paths: []string{pkg}}) }) // as the tree watcher does
	// The program's loop, by hand: each wake-up of the inbox is a poke.
	deadline := time.After(20 * time.Second)
	for strings.Contains(plain(av), "workspace_child_version_mismatch") {
		select {
		case <-m.in.signal():
			a.Update(wsPokeMsg{})
		case <-time.After(20 * time.Millisecond):
			if m.dirty || m.building { // what the commands of rebuildSoon do in a program
				m.building = false
				m.rebuild()
				a.syncOutside()
			}
		case <-deadline:
			t.Fatal("no update after the child's save")
		}
	}
	if hd := av.headerData(); hd.Warnings != len(an.Review.Warnings) {
		t.Errorf("header: %d warnings, want the review's %d", hd.Warnings, len(an.Review.Warnings))
	}
	// esc goes back to the table, with boss selected.
	_, cmd = a.Update(keyMsg("esc"))
	if cmd == nil {
		t.Fatal("esc in the agent view does nothing")
	}
	a.Update(cmd())
	if a.agent != nil || m.selDir != boss {
		t.Errorf("esc: agent view %v, table on %s", a.agent != nil, m.selDir)
	}
}

// TestWorkspaceChangedTicks: the "changed" column keeps time between
// reviews: a tick re-arms itself and the next frame shows the new age.
func TestWorkspaceChangedTicks(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	writeWSAgent(t, root, "boss", "1.0.0", nil, "")
	m := newWS(t, root, 100, 20)
	now := fixedTime
	m.now = func() time.Time { return now }
	m.pin = nil
	for d, a := range m.agents {
		a.MTime = fixedTime.Add(-5 * time.Second)
		m.agents[d] = a
	}
	m.rebuild()
	if s := wsScreen(m); !strings.Contains(s, "5s ago") {
		t.Fatalf("before the tick:\n%s", s)
	}
	now = now.Add(3 * time.Second)
	if _, cmd := m.Update(wsTickMsg{}); cmd == nil {
		t.Error("the tick does not re-arm")
	}
	if s := wsScreen(m); !strings.Contains(s, "8s ago") {
		t.Errorf("after the tick:\n%s", s)
	}
}

// TestWorkspaceNarrowNames: at 80 and 100 columns every agent's slug is
// shown whole (no two rows look alike); copies of an agent (the same
// package name in two places) say where each lives.
func TestWorkspaceNarrowNames(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	for _, v := range []string{"v001", "v002"} {
		writeWSAgent(t, filepath.Join(root, v), "email-outreach-agent", "1.0.0", nil, "")
	}
	writeWSAgent(t, root, "blog-pipeline-agent", "1.0.0", nil, "")
	for _, w := range []int{80, 100} {
		m := newWS(t, root, w, 24)
		s := wsScreen(m)
		for _, want := range []string{"email-outreach-agent @ v001/acme", "email-outreach-agent @ v002/acme", "blog-pipeline-agent "} {
			if !strings.Contains(s, want) {
				t.Errorf("%d columns: no %q:\n%s", w, want, s)
			}
		}
		if strings.Contains(s, "acme/") {
			t.Errorf("%d columns: the vendor every row shares takes room:\n%s", w, s)
		}
	}
}

// TestWorkspaceRebuildPutOff: on a tree whose index is slow to rebuild,
// reviews coming in do not rebuild it at once (keys are answered in
// between): a tick comes later, and the index is built off the UI
// goroutine, then installed; on a small tree it is rebuilt at once.
func TestWorkspaceRebuildPutOff(t *testing.T) {
	dirs := []string{"agents/v/a", "agents/v/b"}
	m := newWorkspace("agents", dirs, Options{})
	defer m.close()
	m.rebuildTook, m.rebuiltAt = time.Second, time.Now() // as a 10,000-agent tree
	cmd := m.apply([]review{{agent: workspace.Agent{Dir: "agents/v/b", Package: "@v/b", Version: "1.0.0", Parsed: true, Title: "B", Steps: 2}}})
	if cmd == nil || !m.dirty || strings.Contains(wsScreen(m), "● clean") {
		t.Fatalf("a costly rebuild is not put off (cmd %v, dirty %v):\n%s", cmd != nil, m.dirty, wsScreen(m))
	}
	m.rebuiltAt = time.Now().Add(-time.Minute) // the tick comes once enough time passed
	_, build := m.Update(wsRebuildMsg{})
	if build == nil || !m.building || strings.Contains(wsScreen(m), "● clean") {
		t.Fatal("the tick does not start a build off the UI goroutine")
	}
	msg := build()
	if _, ok := msg.(wsIndexMsg); !ok {
		t.Fatalf("the build brings %T", msg)
	}
	m.Update(msg)
	if m.dirty || m.building || !strings.Contains(wsScreen(m), "● clean") {
		t.Errorf("the built index is not shown:\n%s", wsScreen(m))
	}
	m.rebuildTook = time.Millisecond
	cmd = m.apply([]review{{agent: workspace.Agent{Dir: "agents/v/a", Package: "@v/a", Version: "1.0.0", Parsed: true, Title: "A", Steps: 1}}})
	if m.dirty || m.building {
		t.Error("a cheap rebuild is put off")
	}
	// The pass is over (every agent reviewed, the index in): the memory
	// the reviews used is given back, once.
	if cmd == nil || m.releaseDue {
		t.Error("the end of the review pass releases no memory")
	}
	if m.rebuildSoon() != nil {
		t.Error("memory released twice for one pass")
	}
}
