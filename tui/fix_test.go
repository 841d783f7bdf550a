package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

const driftCode = "package_version_oas_pkg_drift"

// driftAgent is a temp copy of clean-agent whose flow says packageVersion
// "0.0.9" while package.json says "0.1.0": a package_version_oas_pkg_drift
// blocker.
func driftAgent(t *testing.T) (dir, flow, pkg string) {
	t.Helper()
	dir = copyDir(t, fixture("clean-agent"))
	flow = filepath.Join(dir, "cinatra", "oas.json")
	pkg = filepath.Join(dir, "package.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	out := bytes.Replace(src, []byte(`"type": "leaf",`), []byte(`"type": "leaf",`+"\n      "+`"packageVersion": "0.0.9",`), 1)
	if bytes.Equal(out, src) {
		t.Fatal("fixture changed: no metadata.cinatra.type to put packageVersion after")
	}
	if err := os.WriteFile(flow, out, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, flow, pkg
}

// valueEdit is the edit replacing the string value after key (`"key": "`)
// in doc's bytes with repl: a real byte-span edit on what the analysis read.
func valueEdit(t *testing.T, doc *compile.Doc, key, repl string) edit.Edit {
	t.Helper()
	needle := []byte(`"` + key + `": "`)
	i := bytes.Index(doc.Src, needle)
	if i < 0 {
		t.Fatalf("%s: no %q", doc.Path, key)
	}
	start := i + len(needle)
	end := start + bytes.IndexByte(doc.Src[start:], '"')
	return edit.Edit{Path: doc.Path, Start: start, End: end, New: repl}
}

// attachDriftFixes attaches TEST-MADE fixes to the drift finding of an
// (this branch's engine attaches none yet; see TestFixRealEngine for the
// engine's own): n=1 sets the flow's packageVersion to package.json's
// version, n=2 adds the reverse (package.json's version to the flow's);
// n=0 removes any fix.
// The edits are real byte spans of the bytes the analysis read.
func attachDriftFixes(t *testing.T, an *Analysis, n int) {
	t.Helper()
	a := an.Agent
	fixes := []edit.Fix{
		// Declared safe here, so that these tests see the plain preview;
		// TestFixUnsafeShowsCompiledChange has the other tiers.
		{Title: `Set metadata.cinatra.packageVersion to "0.1.0" (package.json's version)`, Tier: edit.Safe,
			Edits: []edit.Edit{valueEdit(t, a.Flow, "packageVersion", "0.1.0")}},
		{Title: `Set package.json's version to "0.0.9" (the flow's packageVersion)`, Tier: edit.Safe,
			Edits: []edit.Edit{valueEdit(t, a.Package, "version", "0.0.9")}},
	}[:n]
	if n == 0 {
		fixes = nil
	}
	found := false
	for i := range an.Review.Findings {
		if an.Review.Findings[i].Code == driftCode {
			an.Review.Findings[i].Fixes = fixes
			found = true
		}
	}
	if !found {
		t.Fatalf("no %s finding: %+v", driftCode, an.Review.Findings)
	}
}

// driftModel is a model on a drift agent whose finding carries n
// test-made fixes, the Findings tab shown.
func driftModel(t *testing.T, n, w, h int) (m *Model, flow, pkg string) {
	t.Helper()
	dir, flow, pkg := driftAgent(t)
	an := analyze(t, dir, 1)
	attachDriftFixes(t, an, n) // n=0: none, whatever the engine attached
	m = newModel(t, dir, w, h, an)
	m.seqReq = an.Seq // as if the model had asked for it: its re-analyses come after
	m.cfg.DisplayPath = "agents/tmp/clean-agent"
	press(m, "1")
	if x, ok := m.findings.Selected(); !ok || x.Code != driftCode {
		t.Fatalf("selected %+v, want the %s finding", x, driftCode)
	}
	return m, flow, pkg
}

// runCmd runs cmd and feeds its message (and those of the commands it
// returns, one level: a re-analysis) to m.
func runCmd(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	for i := 0; cmd != nil && i < 3; i++ {
		msg := cmd()
		if msg == nil {
			return
		}
		_, cmd = m.Update(msg)
	}
}

func read(t *testing.T, p string) []byte {
	t.Helper()
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func hasCode(m *Model, code string) bool {
	for _, x := range m.Current().Review.Findings {
		if x.Code == code {
			return true
		}
	}
	return false
}

// TestFixGolden: the fix mark on a row, the fix titles in the finding
// read in full, the preview of one fix and of two (the second chosen),
// and the message of a fix refused because the file changed on disk.
func TestFixGolden(t *testing.T) {
	cases := map[string]func() *Model{
		"mark": func() *Model {
			m, _, _ := driftModel(t, 1, 100, 24)
			return m
		},
		"detail": func() *Model {
			m, _, _ := driftModel(t, 2, 100, 40)
			press(m, "enter", "z")
			return m
		},
		"preview_one": func() *Model {
			m, _, _ := driftModel(t, 1, 100, 30)
			press(m, "f")
			return m
		},
		"preview_two": func() *Model {
			m, _, _ := driftModel(t, 2, 100, 30)
			press(m, "f", "tab")
			return m
		},
		"refused": func() *Model {
			m, flow, _ := driftModel(t, 1, 120, 24)
			os.WriteFile(flow, append(read(t, flow), ' '), 0o644)
			runCmd(t, m, press(m, "f", "enter"))
			return m
		},
	}
	for name, build := range cases {
		t.Run(name, func(t *testing.T) {
			m := build()
			out := m.Render()
			assertFrame(t, out, m.w, m.h)
			golden.RequireEqual(t, ansi.Strip(out))
		})
	}
}

// TestFixApplyAndUndo applies a fix to a temp copy: the file changes in
// the edited span only, the finding is gone after the re-analysis, the
// other file is untouched; u restores the original bytes exactly.
func TestFixApplyAndUndo(t *testing.T) {
	m, flow, pkg := driftModel(t, 1, 120, 30)
	before, pkgBefore := read(t, flow), read(t, pkg)
	e := m.Current().Review.Findings[0].Fixes[0].Edits[0]

	if cmd := press(m, "f"); cmd != nil || !m.fixOpen() {
		t.Fatal("f did not open the preview")
	}
	if !strings.Contains(ansi.Strip(m.Render()), `+      "packageVersion": "0.1.0",`) {
		t.Fatalf("the preview has no added line:\n%s", ansi.Strip(m.Render()))
	}
	cmd := press(m, "enter")
	if cmd == nil || m.fixOpen() {
		t.Fatal("enter did not close the preview with a write command")
	}
	if !bytes.Equal(read(t, flow), before) {
		t.Fatal("the file was written outside the command")
	}
	runCmd(t, m, cmd)

	after := read(t, flow)
	if !bytes.Equal(after[:e.Start], before[:e.Start]) || !bytes.Equal(after[e.Start+len(e.New):], before[e.End:]) {
		t.Errorf("bytes outside the edited span changed:\n%s", after)
	}
	if got := string(after[e.Start : e.Start+len(e.New)]); got != "0.1.0" {
		t.Errorf("edited span = %q", got)
	}
	if !bytes.Equal(read(t, pkg), pkgBefore) {
		t.Error("package.json changed")
	}
	if !strings.Contains(m.note, "fixed:") || !strings.Contains(m.note, "cinatra/oas.json") {
		t.Errorf("note = %q", m.note)
	}
	if hasCode(m, driftCode) {
		t.Error("the finding is still there after the re-analysis")
	}
	if !strings.Contains(ansi.Strip(m.Render()), "u undo fix") {
		t.Error("the help line does not offer u")
	}

	runCmd(t, m, press(m, "u"))
	if got := read(t, flow); !bytes.Equal(got, before) {
		t.Errorf("undo did not restore the bytes:\n%s", got)
	}
	if !strings.Contains(m.note, "undone") {
		t.Errorf("note = %q", m.note)
	}
	if !hasCode(m, driftCode) {
		t.Error("the finding did not come back after the undo")
	}
	press(m, "u")
	if !strings.Contains(m.note, "nothing to undo") {
		t.Errorf("second u: note = %q", m.note)
	}
}

// TestFixChooseSecond: with two fixes, 2 chooses the second; enter writes
// package.json and leaves the flow alone.
func TestFixChooseSecond(t *testing.T) {
	m, flow, pkg := driftModel(t, 2, 120, 30)
	flowBefore, pkgBefore := read(t, flow), read(t, pkg)
	press(m, "f", "2")
	if m.fix.preview.ChosenIndex() != 1 {
		t.Fatalf("chosen %d", m.fix.preview.ChosenIndex())
	}
	press(m, "tab")
	if m.fix.preview.ChosenIndex() != 0 {
		t.Fatal("tab did not wrap to the first fix")
	}
	press(m, "left")
	runCmd(t, m, press(m, "enter"))
	if !bytes.Equal(read(t, flow), flowBefore) {
		t.Error("the flow changed")
	}
	want := bytes.Replace(pkgBefore, []byte(`"version": "0.1.0"`), []byte(`"version": "0.0.9"`), 1)
	if got := read(t, pkg); !bytes.Equal(got, want) {
		t.Errorf("package.json:\n%s", got)
	}
	if hasCode(m, driftCode) {
		t.Error("the finding is still there")
	}
}

// TestFixEscCancels: esc closes the preview and writes nothing.
func TestFixEscCancels(t *testing.T) {
	m, flow, _ := driftModel(t, 1, 120, 30)
	before := read(t, flow)
	if cmd := press(m, "f", "esc"); cmd != nil {
		t.Error("esc returned a command")
	}
	if m.fixOpen() || !bytes.Equal(read(t, flow), before) {
		t.Error("esc did not cancel")
	}
}

// TestFixRefusedWhenChanged: a file changed on disk since the analysis
// refuses the fix with a clear message and keeps what is on disk; a file
// changed since the fix refuses the undo the same way.
func TestFixRefusedWhenChanged(t *testing.T) {
	m, flow, _ := driftModel(t, 1, 120, 30)
	press(m, "f")
	edited := append(read(t, flow), []byte("\n")...)
	if err := os.WriteFile(flow, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	runCmd(t, m, press(m, "enter"))
	if got := read(t, flow); !bytes.Equal(got, edited) {
		t.Errorf("the refused fix wrote:\n%s", got)
	}
	for _, s := range []string{"fix not applied", "cinatra/oas.json changed on disk since it was analysed", "nothing was written"} {
		if !strings.Contains(m.note, s) {
			t.Errorf("note %q lacks %q", m.note, s)
		}
	}
	if len(m.fix.undo) != 0 {
		t.Error("a refused fix can be undone")
	}

	// Undo refused: the user edits the file after the fix.
	m, flow, _ = driftModel(t, 1, 120, 30)
	runCmd(t, m, press(m, "f", "enter"))
	edited = bytes.Replace(read(t, flow), []byte("Clean Agent"), []byte("Edited Agent"), 1)
	os.WriteFile(flow, edited, 0o644)
	runCmd(t, m, press(m, "u"))
	if got := read(t, flow); !bytes.Equal(got, edited) {
		t.Errorf("the refused undo wrote:\n%s", got)
	}
	if !strings.Contains(m.note, "cannot undo") || !strings.Contains(m.note, "changed on disk since the fix was applied") {
		t.Errorf("note = %q", m.note)
	}
}

// TestFixNoFix: f on a finding without fixes, or off the Findings tab,
// says why and opens nothing.
func TestFixNoFix(t *testing.T) {
	m, _, _ := driftModel(t, 0, 120, 30)
	press(m, "f")
	if m.fixOpen() || !strings.Contains(m.note, "no fix for "+driftCode) {
		t.Errorf("open %v, note %q", m.fixOpen(), m.note)
	}
	press(m, "2", "f")
	if m.fixOpen() || !strings.Contains(m.note, "Findings tab") {
		t.Errorf("open %v, note %q", m.fixOpen(), m.note)
	}
}

// TestFixRealEngine applies the engine's own fix of
// package_version_oas_pkg_drift (issue 14 item 2) through the TUI: the
// finding is gone, no new finding appears, and u restores the bytes.
func TestFixRealEngine(t *testing.T) {
	dir, flow, _ := driftAgent(t)
	an := analyze(t, dir, 1)
	var x *compile.Finding
	for i := range an.Review.Findings {
		if an.Review.Findings[i].Code == driftCode {
			x = &an.Review.Findings[i]
		}
	}
	if x == nil {
		t.Fatalf("no %s finding", driftCode)
	}
	if len(x.Fixes) == 0 {
		t.Fatalf("the engine attaches no fix to %s", driftCode)
	}
	others := len(an.Review.Findings) - 1
	before := read(t, flow)
	m := newModel(t, dir, 120, 30, an)
	m.seqReq = an.Seq
	press(m, "1")
	if s, _ := m.findings.Selected(); s.Code != driftCode {
		t.Fatalf("selected %s", s.Code)
	}
	runCmd(t, m, press(m, "f", "enter"))
	if hasCode(m, driftCode) || len(m.Current().Review.Findings) != others {
		t.Errorf("after the fix: %+v (note %q)", m.Current().Review.Findings, m.note)
	}
	runCmd(t, m, press(m, "u"))
	if !bytes.Equal(read(t, flow), before) {
		t.Error("undo did not restore the flow's bytes")
	}
}

// TestFixPreviewWidthSweep: the preview fits every terminal size, with
// one fix and with two.
func TestFixPreviewWidthSweep(t *testing.T) {
	t.Parallel() // pure renders (no program, no watcher, no package variable set): in the race suite tui is the last package running, its tail beside an idle core
	for _, n := range []int{1, 2} {
		m, _, _ := driftModel(t, n, 120, 30)
		press(m, "f")
		for w := 30; w <= 220; w += sweepStep() {
			for _, h := range []int{10, 24, 60} {
				m.Update(tea.WindowSizeMsg{Width: w, Height: h})
				out := m.Render()
				if w >= minW && h >= minH && !strings.Contains(ansi.Strip(out), "fix preview") {
					t.Fatalf("%dx%d: no preview:\n%s", w, h, ansi.Strip(out))
				}
				lines := strings.Split(out, "\n")
				if len(lines) != h {
					t.Fatalf("%dx%d (%d fixes): %d lines", w, h, n, len(lines))
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("%dx%d (%d fixes): line %d is %d wide: %q", w, h, n, i, lw, ansi.Strip(l))
					}
				}
			}
		}
	}
}

// TestFixUnsafeShowsCompiledChange: the preview of an unsafe fix shows,
// below the file diff, what the diff engine says the fix changes in what
// the platform gets; a dangerous fix is applied only on a second Enter.
func TestFixUnsafeShowsCompiledChange(t *testing.T) {
	m, flow, _ := driftModel(t, 2, 120, 60)
	x := &m.Current().Review.Findings[0]
	x.Fixes[1].Tier = edit.Unsafe // package.json's version: the compiled packageVersion changes
	press(m, "f", "2")
	v := ansi.Strip(m.Render())
	if !strings.Contains(v, "[unsafe") || !strings.Contains(v, "~ what the platform gets after this fix (oastui diff):") || !strings.Contains(v, "0.0.9") {
		t.Fatalf("the unsafe fix's preview has no compiled-output change:\n%s", v)
	}
	press(m, "esc")

	x.Fixes[0].Tier = edit.Dangerous
	before := read(t, flow)
	if cmd := press(m, "f", "enter"); cmd != nil || !m.fixOpen() || !strings.Contains(m.note, "Enter again applies it") {
		t.Fatalf("one Enter applied a dangerous fix (note %q)", m.note)
	}
	cmd := press(m, "enter")
	if cmd == nil || m.fixOpen() {
		t.Fatal("the second Enter did not apply the dangerous fix")
	}
	runCmd(t, m, cmd)
	if bytes.Equal(read(t, flow), before) {
		t.Error("the dangerous fix was not written")
	}
}

// TestPolicyFindingShown: a team policy's finding is on the Findings tab
// like a rule's, its id as the code.
func TestPolicyFindingShown(t *testing.T) {
	dir := copyDir(t, fixture("clean-agent"))
	cfg := "policies:\n  - {id: team-frozen, severity: warning, message: the team froze this agent, assert: 'false'}\n"
	if err := os.WriteFile(filepath.Join(dir, ".oastui.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	an := analyze(t, dir, 1)
	m := newModel(t, dir, 140, 30, an)
	m.seqReq = an.Seq
	press(m, "1")
	if v := ansi.Strip(m.Render()); !strings.Contains(v, "team-frozen") || !strings.Contains(v, "the team froze this agent") {
		t.Errorf("the Findings tab does not show the policy's finding:\n%s", v)
	}
}
