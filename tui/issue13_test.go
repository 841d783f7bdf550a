package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/views"
)

// TestBackToList: an agent opened from the agents/ list goes back to it
// with esc/⌫ once nothing is left to close (a finding read in full, a
// subflow); q still quits; without a list esc does nothing.
func TestBackToList(t *testing.T) {
	p := findingsFixture
	m := New(Config{Path: p, FromList: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Update(analysisMsg{analyze(t, p, 1)})
	press(m, "1", "enter") // the finding in full
	if cmd := press(m, "esc"); cmd != nil || m.Back() || m.findings.DetailOpen() {
		t.Fatalf("esc did not just close the finding")
	}
	if cmd := press(m, "esc"); cmd == nil || !m.Back() {
		t.Fatal("esc on the list did not go back to the agents/ list")
	}
	// From the graph: backspace leaves a subflow first.
	m = New(Config{Path: p, FromList: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Update(analysisMsg{analyze(t, p, 1)})
	m.graph.SelectID("review")
	press(m, "enter")
	if cmd := press(m, "backspace"); cmd != nil || m.Back() {
		t.Fatal("backspace in a subflow went back to the list")
	}
	if cmd := press(m, "backspace"); cmd == nil || !m.Back() {
		t.Fatal("backspace at the top flow did not go back to the list")
	}
	// The overlay says so.
	m = New(Config{Path: p, FromList: true})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Update(analysisMsg{analyze(t, p, 1)})
	press(m, "?")
	if !strings.Contains(ansi.Strip(m.Render()), "back to agents/ list") {
		t.Error("help does not say how to go back to the list")
	}
	// Not from a list: esc does nothing, q quits.
	m = newModel(t, p, 120, 30, analyze(t, p, 1))
	if cmd := press(m, "esc"); cmd != nil || m.Back() {
		t.Error("esc without a list did something")
	}
	if cmd := press(m, "q"); cmd == nil {
		t.Error("q does not quit")
	}
}

// TestStaleEveryTab: while the flow file is broken, every tab that shows
// the last good analysis says so (Findings shows the newest: not stale).
func TestStaleEveryTab(t *testing.T) {
	dir := copyDir(t, fixture("subflow-agent"))
	m := newModel(t, dir, 120, 30, analyze(t, dir, 1))
	flow := filepath.Join(dir, "cinatra", "oas.json")
	src, _ := os.ReadFile(flow)
	os.WriteFile(flow, bytes.Replace(src, []byte(`"nodes": [`), []byte(`"nodes": [,`), 1), 0o644)
	m.Update(analysisMsg{analyze(t, dir, 2)})
	for i, p := range m.tabs {
		press(m, string(rune('1'+i)))
		out := ansi.Strip(m.Render())
		_, lastGood := p.(views.LastParsed)
		if got := strings.Contains(out, "◌ stale: the flow file is broken"); got != lastGood {
			t.Errorf("tab %s: stale line shown %v, want %v:\n%s", p.Name(), got, lastGood, out)
		}
		assertFrame(t, m.Render(), 120, 30)
	}
}

// TestPickerUsesCatalogFlag: --catalog reaches the picker (a missing
// catalog file is reported, not the default one used).
func TestPickerUsesCatalogFlag(t *testing.T) {
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	m := New(Config{Path: p, Catalog: filepath.Join(t.TempDir(), "nope.json")})
	m.Update(tea.WindowSizeMsg{Width: 120, Height: 30})
	m.Update(analysisMsg{analyze(t, p, 1)})
	cmd := press(m, "5", "p")
	if cmd == nil {
		t.Fatal("p on Slots did nothing")
	}
	m.Update(cmd())
	if m.pick.open || !strings.Contains(m.note, "nope.json") {
		t.Errorf("picker ignored --catalog: open=%v note=%q", m.pick.open, m.note)
	}
}

// TestReloadSaysSo: `r` says it re-analysed, even when the header's
// time (seconds) does not change.
func TestReloadSaysSo(t *testing.T) {
	p := fixture("clean-agent")
	m := newModel(t, p, 100, 24, analyze(t, p, 1))
	m.seqReq = 1 // the first analysis was handed in, not requested
	m.cfg.pin = func(an *Analysis) { an.Started, an.Took = fixedTime, 3*time.Millisecond }
	m.Update(press(m, "r")())
	if !strings.Contains(ansi.Strip(m.Render()), "re-analysed at 15:04:05.003 in 3ms") {
		t.Errorf("no reload message:\n%s", ansi.Strip(m.Render()))
	}
}
