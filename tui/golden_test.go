package tui

import (
	"bytes"
	"fmt"
	"github.com/oastui/oastui/internal/race"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/vt"
)

// states builds the main screens of issue 6 item 6.
func states(t *testing.T) map[string]func() *Model {
	return map[string]func() *Model{
		"clean": func() *Model {
			p := fixture("clean-agent")
			an := analyze(t, p, 1)
			return newModel(t, p, 120, 30, an)
		},
		"blockers": func() *Model {
			p := findingsFixture
			an := analyze(t, p, 1)
			m := newModel(t, p, 120, 30, an)
			press(m, "tab", "down")
			return m
		},
		"stale": func() *Model {
			dir := copyDir(t, fixture("clean-agent"))
			an := analyze(t, dir, 1)
			m := newModel(t, dir, 120, 30, an)
			m.cfg.DisplayPath = "agents/tmp/clean-agent"
			flow := filepath.Join(dir, "cinatra", "oas.json")
			src, _ := os.ReadFile(flow)
			os.WriteFile(flow, bytes.Replace(src, []byte(`"nodes": [`), []byte(`"nodes": [,`), 1), 0o644)
			m.Update(analysisMsg{analyze(t, dir, 2)})
			for i := range m.cur.Review.Findings { // temp dir names vary
				m.cur.Review.Findings[i].File = m.cur.Agent.FlowPath
			}
			return m
		},
		"subflow": func() *Model {
			p := fixture("subflow-agent")
			an := analyze(t, p, 1)
			m := newModel(t, p, 120, 30, an)
			m.graph.SelectID("review")
			press(m, "enter")
			return m
		},
		"help": func() *Model {
			p := fixture("clean-agent")
			an := analyze(t, p, 1)
			m := newModel(t, p, 100, 30, an)
			press(m, "?")
			return m
		},
		// issue 13 item 1: enter on a finding reads it in full (whole
		// message, the rule's doc, pointer, source with a caret).
		"finding_detail_80x24": func() *Model {
			p := findingsFixture
			m := newModel(t, p, 80, 24, analyze(t, p, 1))
			press(m, "1", "down", "down", "down", "enter")
			return m
		},
		// the same, zoomed: every part of it on one screen.
		"finding_detail_zoomed": func() *Model {
			p := findingsFixture
			m := newModel(t, p, 80, 40, analyze(t, p, 1))
			press(m, "1", "enter", "z")
			return m
		},
		// the ▸/▾ marks fold: enter on the Blockers header folds it.
		"findings_folded": func() *Model {
			p := findingsFixture
			m := newModel(t, p, 100, 24, analyze(t, p, 1))
			press(m, "1", "up", "enter")
			return m
		},
		// issue 13 item 4: with a blocker the Compiled tab shows the gate's
		// refusal first, then the output marked not publishable.
		"compiled_refused": func() *Model {
			p := findingsFixture
			m := newModel(t, p, 120, 30, analyze(t, p, 1))
			press(m, "4")
			return m
		},
		// issue 13 item 5: a tab showing last-good data says it is stale.
		"stale_steps": func() *Model {
			dir := copyDir(t, fixture("subflow-agent"))
			m := newModel(t, dir, 120, 20, analyze(t, dir, 1))
			m.cfg.DisplayPath = "agents/tmp/subflow-agent"
			flow := filepath.Join(dir, "cinatra", "oas.json")
			src, _ := os.ReadFile(flow)
			os.WriteFile(flow, bytes.Replace(src, []byte(`"nodes": [`), []byte(`"nodes": [,`), 1), 0o644)
			m.Update(analysisMsg{analyze(t, dir, 2)})
			press(m, "2")
			return m
		},
		// issue 13 item 6: step name and node name, a node column.
		// The example's step 3 "Review release notes" is the FlowNode
		// "Draft release notes" in the graph. Narrow: two lines a step.
		"steps_80x24": func() *Model {
			p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
			m := newModel(t, p, 80, 24, analyze(t, p, 1))
			press(m, "2")
			return m
		},
		// Wide enough (zoomed): a table with the node column, nothing cut.
		"steps_table": func() *Model {
			p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
			m := newModel(t, p, 200, 20, analyze(t, p, 1))
			press(m, "2", "z")
			return m
		},
		// issue 13 item 6: a drawing wider than the graph pane says it
		// scrolls sideways (◂▸ H L in the title).
		"wide_graph_80x24": func() *Model {
			p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
			return newModel(t, p, 80, 24, analyze(t, p, 1))
		},
		// issue 17: the Run tab, two steps into the first dry-run path of
		// the example agent; the graph selects the step's node.
		"run_tab": func() *Model {
			p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
			m := newModel(t, p, 120, 30, analyze(t, p, 1))
			for i, tab := range m.tabs {
				if tab.Name() == "Run" {
					m.tab = i
				}
			}
			m.focus = focusSide
			press(m, "right", "right")
			return m
		},
		// issue 16: enter on notify's {{ releaseUrl }} in the Prompt tab
		// selected publish, which feeds it; the tab says how to go back.
		"prompt_jump": func() *Model { return promptJump(t) },
		"80x24": func() *Model {
			p := findingsFixture
			an := analyze(t, p, 1)
			return newModel(t, p, 80, 24, an)
		},
		"200x60": func() *Model {
			p := findingsFixture
			an := analyze(t, p, 1)
			return newModel(t, p, 200, 60, an)
		},
	}
}

// TestGolden compares the rendered frame (styles stripped, so the goldens
// read as the screen does) with testdata/TestGolden/*.golden; regenerate
// with `go test ./tui -run TestGolden -update`.
func TestGolden(t *testing.T) {
	for name, build := range states(t) {
		t.Run(name, func(t *testing.T) {
			m := build()
			out := m.Render()
			assertFrame(t, out, m.w, m.h)
			golden.RequireEqual(t, ansi.Strip(out))
		})
	}
}

// assertFrame checks the frame is exactly w×h cells.
func assertFrame(t *testing.T, out string, w, h int) {
	t.Helper()
	lines := strings.Split(out, "\n")
	if len(lines) != h {
		t.Errorf("%d lines, want %d", len(lines), h)
	}
	for i, l := range lines {
		if lw := ansi.StringWidth(l); lw > w {
			t.Errorf("line %d is %d wide (terminal %d): %q", i, lw, w, ansi.Strip(l))
		}
	}
}

// TestWidthSweep: at sizes from 30×10 to 220×60 no line is wider than
// the terminal and the frame has exactly its height, in every tab, with
// help open and with the graph zoomed.
func TestWidthSweep(t *testing.T) {
	t.Parallel() // pure renders (no program, no watcher, no package variable set): in the race suite tui is the last package running, its tail beside an idle core
	p := findingsFixture
	an := analyze(t, p, 1)
	heights := []int{10, 24, 60}
	for w := 30; w <= 220; w += sweepStep() {
		for _, h := range heights {
			m := newModel(t, p, w, h, an)
			for _, keys := range [][]string{nil, {"2"}, {"3"}, {"4"}, {"5"}, {"6"}, {"7"}, {"?"}, {"esc", "tab", "z"}, {"z", "/", "x"}} {
				press(m, keys...)
				out := m.Render()
				lines := strings.Split(out, "\n")
				if len(lines) != h {
					t.Fatalf("%dx%d after %v: %d lines", w, h, keys, len(lines))
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("%dx%d after %v: line %d is %d wide: %q", w, h, keys, i, lw, ansi.Strip(l))
					}
				}
			}
		}
	}
}

// sweepStep is the width step of the width sweeps: every 10 columns, every
// 30 under the race detector (several times slower; the layout code starts
// no goroutines, so the sample loses no race coverage).
func sweepStep() int {
	if race.Enabled {
		return 30
	}
	return 10
}

// onlcr maps \n to \r\n: a headless emulator has no tty line discipline.
type onlcr struct{ w io.Writer }

func (o onlcr) Write(p []byte) (int, error) {
	_, err := o.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n")))
	return len(p), err
}

// frameTap wraps the model of a program under test: it counts the frames
// the model renders (the render sequence) and keeps the newest.
type frameTap struct {
	m    *Model
	seq  atomic.Uint64
	last atomic.Pointer[string]
}

func (f *frameTap) Init() tea.Cmd { return f.m.Init() }

func (f *frameTap) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	_, cmd := f.m.Update(msg)
	return f, cmd
}

func (f *frameTap) View() tea.View {
	v := f.m.View()
	s := trimRight(ansi.Strip(v.Content))
	f.last.Store(&s)
	f.seq.Add(1)
	return v
}

// screen runs the real program in the x/vt emulator and returns the
// visible screen once it shows want and is the newest frame the model
// rendered (the render sequence counter says which; no settling guess).
func screen(t *testing.T, cfg Config, w, h int, keys []tea.Msg, want string, before func()) string {
	t.Helper()
	emu := vt.NewSafeEmulator(w, h)
	tap := &frameTap{m: New(cfg)}
	p := tea.NewProgram(tap, tea.WithInput(emu), tea.WithOutput(onlcr{emu}), tea.WithWindowSize(w, h), tea.WithoutSignals())
	done := make(chan struct{})
	go func() { p.Run(); close(done) }()
	// (no emu.Close: it races with the input reader inside x/vt)
	defer func() { p.Quit(); <-done }()
	deadline := time.Now().Add(10 * time.Second)
	// shown waits until the screen holds s and is the frame the model
	// rendered last, at sequence after or later.
	shown := func(s string, after uint64) string {
		for {
			got := trimRight(screenText(emu))
			if last := tap.last.Load(); last != nil && tap.seq.Load() > after && strings.Contains(got, s) && got == *last {
				return got
			}
			if time.Now().After(deadline) {
				last := ""
				if l := tap.last.Load(); l != nil {
					last = *l
				}
				gl, ll := strings.Split(got, "\n"), strings.Split(last, "\n")
				for i := range min(len(gl), len(ll)) {
					if gl[i] != ll[i] {
						t.Logf("line %d:\n screen %q\n frame  %q", i, gl[i], ll[i])
					}
				}
				t.Fatalf("screen never showed %q as the last frame (%d vs %d lines):\n%s", s, len(gl), len(ll), got)
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	shown("15:04:05", 0) // the (pinned) first analysis is on screen
	if before != nil {
		before()
	}
	seq := tap.seq.Load()
	if len(keys) == 0 {
		seq-- // the frame on screen may be the one wanted
	}
	for _, k := range keys {
		p.Send(k)
	}
	return shown(want, seq)
}

// screenText is the visible screen as plain text. (SafeEmulator.String
// does not take the emulator's lock; Render does.)
func screenText(emu *vt.SafeEmulator) string { return ansi.Strip(emu.Render()) }

func trimRight(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// TestScreen renders through the terminal emulator (the real renderer and
// its diffing) and compares the visible grid with goldens.
func TestScreen(t *testing.T) {
	if testing.Short() {
		t.Skip("emulator test")
	}
	pinTime := func(an *Analysis) { an.Started, an.Took = fixedTime, 3*time.Millisecond }
	cases := []struct {
		name string
		path string
		pin  func(*Analysis)
		w, h int
		keys []tea.Msg
		want string
	}{
		{"clean_80x24", fixture("clean-agent"), pinTime, 80, 24, nil, "clean"},
		{"blockers_200x60", findingsFixture, pinTime, 200, 60, nil, "2 blockers"},
		{"help_80x24", findingsFixture, pinTime, 80, 24, []tea.Msg{keyMsg("?")}, "press ? or esc"},
		{"subflow_120x30", fixture("subflow-agent"), pinTime, 120, 30, []tea.Msg{keyMsg("j"), keyMsg("j"), keyMsg("enter")}, "Subflow Agent › Review subflow"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			cfg := Config{Path: c.path, DisplayPath: filepath.ToSlash(c.path), pin: c.pin}
			golden.RequireEqual(t, screen(t, cfg, c.w, c.h, c.keys, c.want, nil))
		})
	}
	// Stale after a broken save: the program is running when the file
	// breaks; `r` re-analyses (the watcher is not part of this test).
	t.Run("stale_120x30", func(t *testing.T) {
		dir := copyDir(t, fixture("clean-agent"))
		flow := filepath.Join(dir, "cinatra", "oas.json")
		cfg := Config{Path: dir, DisplayPath: "agents/tmp/clean-agent", pin: pinTime}
		breakIt := func() {
			src, _ := os.ReadFile(flow)
			os.WriteFile(flow, bytes.Replace(src, []byte(`"nodes": [`), []byte(`"nodes": [,`), 1), 0o644)
		}
		golden.RequireEqual(t, screen(t, cfg, 120, 30, []tea.Msg{keyMsg("r")}, "stale", breakIt))
	})
}

// TestRunTabFollowsGraph: stepping through a dry-run path in the Run tab
// selects each step's node in the graph; a step inside a subflow selects
// the FlowNode that runs it (the subflow's own node once it is open).
func TestRunTabFollowsGraph(t *testing.T) {
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	for i, tab := range m.tabs {
		if tab.Name() == "Run" {
			m.tab = i
		}
	}
	m.focus = focusSide
	press(m, "right", "right")
	if _, n := m.graph.SelectedNode(); n == nil || n.ID != "collect_changes" {
		t.Fatalf("step 3: graph selects %+v", n)
	}
	press(m, "right", "right")
	if _, n := m.graph.SelectedNode(); n == nil || n.ID != "context_styleContext" {
		t.Errorf("step 5 (inside the styleContext subflow): graph selects %+v, want its FlowNode", n)
	}
	m.graph.Open()
	m.focus = focusSide
	press(m, "right")
	if fl, n := m.graph.SelectedNode(); n == nil || fl.Pointer == "" || n.Kind == "flow" {
		t.Errorf("step 6 with the subflow open: graph at %q selects %+v", fl.Pointer, n)
	}
}

// promptJump is the example agent with notify selected, the Prompt tab
// shown and enter pressed on its one placeholder, {{ releaseUrl }}.
func promptJump(t *testing.T) *Model {
	t.Helper()
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	m.graph.SelectID("notify")
	m.refreshNode()
	for i, tab := range m.tabs {
		if tab.Name() == "Prompt" {
			press(m, fmt.Sprint(i+1))
		}
	}
	press(m, "enter")
	return m
}

// TestPromptTabBack: enter on a placeholder selects the node feeding it
// in the graph; ⌫ (or esc) goes back to the LLM node; with nothing to go
// back to, ⌫ does nothing more.
func TestPromptTabBack(t *testing.T) {
	m := promptJump(t)
	if _, n := m.graph.SelectedNode(); n == nil || n.ID != "publish" {
		t.Fatalf("enter on {{ releaseUrl }}: graph selects %+v, want publish", n)
	}
	if !strings.Contains(ansi.Strip(m.Render()), "⌫ back to LLM node") {
		t.Error("the help line offers the way back")
	}
	press(m, "backspace")
	if _, n := m.graph.SelectedNode(); n == nil || n.ID != "notify" {
		t.Fatalf("⌫: graph selects %+v, want notify", n)
	}
	if s := ansi.Strip(m.Render()); !strings.Contains(s, "{{ releaseUrl }} ← edge from publish.releaseUrl") || strings.Contains(s, "back to LLM node") {
		t.Errorf("back on notify, nothing more to go back to:\n%s", s)
	}
	press(m, "enter", "esc")
	if _, n := m.graph.SelectedNode(); n == nil || n.ID != "notify" {
		t.Errorf("esc goes back too: graph selects %+v", n)
	}
}
