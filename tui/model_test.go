package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

func plain(m *Model) string { return ansi.Strip(m.Render()) }

func TestAnalyzeFixture(t *testing.T) {
	an := Analyze(fixture("subflow-agent"), Options{}, 1)
	if !an.Parsed() {
		t.Fatalf("fixture did not load: %v %+v", an.LoadErr, an.Review.Findings)
	}
	if an.AgentName() != "Subflow Agent" || an.PackageVersion() != "@oastui-tui/subflow-agent@0.1.0" {
		t.Errorf("name %q package %q", an.AgentName(), an.PackageVersion())
	}
	if len(an.Flows) < 2 {
		t.Errorf("flows: %d, want root and subflow", len(an.Flows))
	}
}

// TestFixtureFindings: the goldens' fixtures have exactly the findings
// the goldens show, from the real review.
func TestFixtureFindings(t *testing.T) {
	for _, tc := range []struct {
		path string
		want []string
	}{
		{fixture("clean-agent"), nil},
		{fixture("subflow-agent"), nil},
		{findingsFixture, []string{
			"blocker agentnode_hitl_owned_by /$referenced_components/draft/metadata/cinatra/hitlOwnedBy",
			"blocker agentnode_hitl_owned_by /$referenced_components/review/subflow/$referenced_components/r_check/metadata/cinatra/hitlOwnedBy",
			"warning start_node_inputs_without_required /$referenced_components/start",
		}},
	} {
		var got []string
		for _, f := range Analyze(tc.path, Options{}, 1).Review.Findings {
			got = append(got, fmt.Sprintf("%s %s %s", f.Severity, f.Code, f.Location))
		}
		slices.Sort(got)
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: findings\n%s\nwant\n%s", tc.path, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
		}
	}
}

func TestAnalyzeNotAnAgent(t *testing.T) {
	an := Analyze(t.TempDir(), Options{}, 1)
	if an.Parsed() || an.LoadErr == nil || len(an.Review.Blockers) != 1 || an.Review.Blockers[0].Code != "agent_read_failed" {
		t.Fatalf("got good=%v err=%v findings=%+v", an.Parsed(), an.LoadErr, an.Review.Findings)
	}
}

func TestNewerResultWins(t *testing.T) {
	p := fixture("clean-agent")
	m := newModel(t, p, 100, 30, nil)
	a1, a2 := analyze(t, p, 1), analyze(t, p, 2)
	m.Update(analysisMsg{a2})
	m.Update(analysisMsg{a1}) // late, older result
	if m.Current() != a2 {
		t.Fatalf("older result replaced a newer one")
	}
	a3 := analyze(t, p, 3)
	m.Update(analysisMsg{a3})
	if m.Current() != a3 {
		t.Fatalf("newer result not applied")
	}
}

func TestStaleAfterBrokenSave(t *testing.T) {
	dir := copyDir(t, fixture("clean-agent"))
	flow := filepath.Join(dir, "cinatra", "oas.json")
	m := newModel(t, dir, 120, 30, analyze(t, dir, 1))
	good := m.LastParsed()
	if m.Stale() || good == nil {
		t.Fatal("fresh analysis is stale")
	}
	src, _ := os.ReadFile(flow)
	if err := os.WriteFile(flow, src[:len(src)/2], 0o644); err != nil { // mid-save: truncated
		t.Fatal(err)
	}
	m.Update(analysisMsg{analyze(t, dir, 2)})
	if !m.Stale() || m.LastParsed() != good {
		t.Fatal("broken save did not keep the last good snapshot")
	}
	if b := m.Current().Review.Blockers; len(b) == 0 || b[0].Code != "invalid_json" {
		t.Fatalf("want the parse error as a blocker, got %+v", b)
	}
	if s := plain(m); !strings.Contains(s, "stale") || !strings.Contains(s, "invalid_json") {
		t.Errorf("screen does not show stale + parse error:\n%s", s)
	}
	// Directory gone: still stale, still the last good graph.
	os.RemoveAll(dir)
	m.Update(analysisMsg{analyze(t, dir, 3)})
	if !m.Stale() || m.LastParsed() != good {
		t.Fatal("vanished directory lost the last good snapshot")
	}
	// Back again and fixed.
	copied := copyDir(t, fixture("clean-agent"))
	os.MkdirAll(filepath.Dir(dir), 0o755)
	if err := os.Rename(copied, dir); err != nil {
		t.Fatal(err)
	}
	m.Update(analysisMsg{analyze(t, dir, 4)})
	if m.Stale() || m.LastParsed() != m.Current() {
		t.Fatal("repaired agent still stale")
	}
}

func TestKeys(t *testing.T) {
	p := fixture("subflow-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	if m.focus != focusGraph {
		t.Fatal("initial focus is not the graph")
	}
	press(m, "tab")
	if m.focus != focusSide {
		t.Error("tab did not move focus")
	}
	press(m, "shift+tab")
	if m.focus != focusGraph {
		t.Error("shift+tab did not move focus back")
	}
	for i, k := range []string{"1", "2", "3", "4", "5"} {
		press(m, k)
		if m.tab != i {
			t.Errorf("key %s: tab %d", k, m.tab)
		}
	}
	press(m, "?")
	if !m.showHelp || !strings.Contains(plain(m), "press ? or esc to close") {
		t.Error("? did not open the help overlay")
	}
	press(m, "esc")
	if m.showHelp {
		t.Error("esc did not close help")
	}
	if cmd := press(m, "r"); cmd == nil {
		t.Error("r did not request an analysis")
	}
	if cmd := press(m, "m"); cmd == nil || m.cfg.Options.Mode != lint.ModeAdvisory {
		t.Error("m did not switch to advisory")
	}
	press(m, "m")
	if m.cfg.Options.Mode != lint.ModeFull {
		t.Error("m did not switch to full")
	}
	press(m, "m")
	if m.cfg.Options.Mode != lint.ModeDeterministic {
		t.Error("m did not switch back")
	}
	cmd := press(m, "q")
	if cmd == nil {
		t.Fatal("q returned no command")
	}
	if _, ok := cmd().(tea.QuitMsg); !ok {
		t.Error("q does not quit")
	}
}

func TestFilter(t *testing.T) {
	p := findingsFixture // three findings, one of them start_node_…
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	press(m, "/", "s", "t", "a", "r", "t")
	if !m.filtering || m.findings.Len() != 1 {
		t.Fatalf("filter 'start': filtering=%v shown=%d", m.filtering, m.findings.Len())
	}
	if !strings.Contains(plain(m), "/start") {
		t.Error("filter prompt not shown")
	}
	press(m, "enter")
	if m.filtering || m.findings.Len() != 1 {
		t.Error("enter did not keep the filter")
	}
	press(m, "/", "esc")
	if m.findings.Len() != 3 {
		t.Error("esc did not clear the filter")
	}
}

func TestEditorArgs(t *testing.T) {
	cases := []struct{ env, want string }{
		{"vim", "vim +12 f.json"},
		{"nvim", "nvim +12 f.json"},
		{"nano", "nano +12,5 f.json"},
		{"emacs", "emacs +12:5 f.json"},
		{"emacsclient -t", "emacsclient -t +12:5 f.json"},
		{"code --wait", "code --wait -g f.json:12:5"},
		{"hx", "hx f.json:12:5"},
		{"/usr/bin/helix", "/usr/bin/helix f.json:12:5"},
		{"ed", "ed +12 f.json"},           // unknown editors: the +LINE FILE convention
		{"kate -n", "kate -n +12 f.json"}, // its arguments kept
		{"", "vi +12 f.json"},
	}
	for _, c := range cases {
		env := map[string]string{"EDITOR": c.env}
		got := strings.Join(EditorArgs(func(k string) string { return env[k] }, "f.json", 12, 5), " ")
		if got != c.want {
			t.Errorf("EDITOR=%q: %q, want %q", c.env, got, c.want)
		}
	}
	env := map[string]string{"EDITOR": "vim", "VISUAL": "code"}
	if got := EditorArgs(func(k string) string { return env[k] }, "f", 1, 1)[0]; got != "code" {
		t.Errorf("VISUAL does not win over EDITOR: %s", got)
	}
}

func TestEditorKeyOpensExec(t *testing.T) {
	p := fixture("clean-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	m.cfg.Getenv = func(string) string { return "true" }
	if cmd := press(m, "e"); cmd == nil {
		t.Fatal("e returned no command")
	}
}

// TestEditorMissing: an editor that is not installed gives a clear
// message on the message line (not "fork/exec …") and runs nothing.
func TestEditorMissing(t *testing.T) {
	p := fixture("clean-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	m.cfg.Getenv = func(k string) string {
		if k == "EDITOR" {
			return "no-such-editor-oastui"
		}
		return ""
	}
	if cmd := press(m, "e"); cmd != nil {
		t.Fatal("e ran a missing editor")
	}
	out := ansi.Strip(m.Render())
	if !strings.Contains(out, `editor "no-such-editor-oastui" not found: set $VISUAL or $EDITOR`) || strings.Contains(out, "fork/exec") {
		t.Errorf("no clear message:\n%s", out)
	}
	if !strings.Contains(strings.Split(out, "\n")[0], "Clean Agent") {
		t.Errorf("the message pushed the agent name off the header:\n%s", out)
	}
}

// TestSanitised: node names, prompts and the agent name of the ANSI
// fixture carry CSI/OSC sequences; the frame may only contain the SGR
// sequences of our own styles, and no other control character.
func TestSanitised(t *testing.T) {
	p := fixture("ansi-agent")
	an := analyze(t, p, 1)
	if !an.Parsed() {
		t.Fatalf("ansi fixture does not load: %+v", an.Review.Findings)
	}
	m := newModel(t, p, 160, 50, an)
	for _, tab := range []string{"1", "2", "3", "4", "5"} {
		press(m, tab)
		for _, node := range []string{"tab", "down", "tab"} {
			press(m, node)
			assertOnlySGR(t, m.Render())
		}
	}
	press(m, "1")
	s := plain(m)
	for _, want := range []string{"ANSI Evil Agent", "Draft writer", "Inputs RED"} {
		if !strings.Contains(s, want) {
			t.Errorf("sanitised text %q not shown:\n%s", want, s)
		}
	}
	if strings.Contains(s, "pwned") {
		t.Errorf("OSC payload shown:\n%s", s)
	}
	if title := m.View().WindowTitle; strings.ContainsAny(title, "\x1b\x07") || title != "oastui · ANSI Evil Agent" {
		t.Errorf("window title %q", title)
	}
}

func assertOnlySGR(t *testing.T, s string) {
	t.Helper()
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '\n':
		case c == 0x1b:
			j := i + 1
			if j >= len(s) || s[j] != '[' {
				t.Fatalf("non-CSI escape at %d: %q", i, s[i:min(len(s), i+20)])
			}
			j++
			for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == ';' || s[j] == ':') {
				j++
			}
			if j >= len(s) || s[j] != 'm' {
				t.Fatalf("non-SGR CSI at %d: %q", i, s[i:min(len(s), j+1)])
			}
			i = j
		case c < 0x20 || c == 0x7f:
			t.Fatalf("control byte %#x at %d", c, i)
		}
	}
	if strings.ContainsRune(s, 0x9b) || strings.ContainsRune(s, 0x9d) {
		t.Fatal("C1 control in frame")
	}
}

func TestBrokenAtStart(t *testing.T) {
	dir := copyDir(t, fixture("clean-agent"))
	flow := filepath.Join(dir, "cinatra", "oas.json")
	if err := os.WriteFile(flow, []byte(`{"agentspec_version": `), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newModel(t, dir, 100, 30, analyze(t, dir, 1))
	s := plain(m)
	if !strings.Contains(s, "no graph yet") || !strings.Contains(s, "invalid_json") {
		t.Errorf("broken agent at start:\n%s", s)
	}
	assertFrame(t, m.Render(), 100, 30)
}

func TestWatchConfig(t *testing.T) {
	dir := copyDir(t, fixture("clean-agent"))
	root := filepath.Dir(filepath.Dir(filepath.Dir(dir))) // above agents/
	reg := filepath.Join(root, "agents", "_shared", "cinatra", "components.json")
	os.MkdirAll(filepath.Dir(reg), 0o755)
	os.WriteFile(reg, []byte(`{"components": {}}`), 0o644)
	os.WriteFile(filepath.Join(root, ".oastui.yaml"), []byte("rules: {}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "README.md"), []byte("a sibling file the review scans\n"), 0o644)
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cfg := WatchConfig(analysis.WatchSetOf(a, analysis.ConfigPathOf(a, "")))
	files := strings.Join(cfg.Files, "\n")
	for _, want := range []string{"cinatra/oas.json", "package.json", "components.json", ".oastui.yaml", "README.md"} {
		if !strings.Contains(files, want) {
			t.Errorf("not watched: %s\n%s", want, files)
		}
	}
	dirs := strings.Join(cfg.Dirs, "\n")
	if !strings.Contains(dirs, filepath.Join(dir, "cinatra")) || !strings.Contains(dirs, filepath.Dir(reg)) {
		t.Errorf("dirs:\n%s", dirs)
	}
	if len(cfg.Trees) == 0 || !strings.HasSuffix(cfg.Trees[0], filepath.Base(dir)) {
		t.Errorf("trees: %v, want the package directory", cfg.Trees)
	}
}

func TestConfigErrorShown(t *testing.T) {
	dir := copyDir(t, fixture("clean-agent"))
	root := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
	os.WriteFile(filepath.Join(root, ".oastui.yaml"), []byte("nonsense_key: 1\n"), 0o644)
	an := analyze(t, dir, 1)
	if an.Config.Err == nil {
		t.Fatal("bad config not reported")
	}
	m := newModel(t, dir, 200, 30, an)
	if !strings.Contains(plain(m), "config ignored") {
		t.Errorf("header does not say the config is ignored:\n%s", plain(m))
	}
}

// TestHelpScrolls: at 80×24 the help is taller than the screen; ↓/G
// scroll it so that the last group (History) shows, ↑/g come back, and every
// group of fullHelp is seen on the way (none is cut).
func TestHelpScrolls(t *testing.T) {
	p := fixture("subflow-agent")
	m := newModel(t, p, 80, 24, analyze(t, p, 1))
	press(m, "?")
	top := plain(m)
	if !strings.Contains(top, "↑↓ lines") || strings.Contains(top, "its changes, before/after") {
		t.Fatalf("80×24 help: expected a scrolling overlay without the last group yet:\n%s", top)
	}
	seen := top
	for range 4 { // 25 lines, 20 a page: two pages reach the end
		press(m, "pgdown")
		seen += plain(m)
	}
	if !strings.Contains(plain(m), "History") || !strings.Contains(plain(m), "its changes, before/after") {
		t.Errorf("scrolled to the end, the History group does not show:\n%s", plain(m))
	}
	for _, g := range m.keys.fullHelp() {
		if !strings.Contains(seen, g.Title) {
			t.Errorf("group %q never showed", g.Title)
		}
	}
	press(m, "g")
	if plain(m) != top {
		t.Error("g did not scroll back to the top")
	}
	press(m, "G")
	end := plain(m)
	press(m, "j")
	if plain(m) != end {
		t.Error("j past the end moved the overlay")
	}
	press(m, "esc")
	press(m, "?")
	if plain(m) != top {
		t.Error("the help does not open at its top again")
	}
}
