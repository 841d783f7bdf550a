package tui

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// minifiedAgent is the findings fixture with its flow written as one line
// of about 5 MB (the flow's description 5 MB long, so every finding sits
// millions of columns into the line), as a minifier or another tool would leave it.
func minifiedAgent(tb testing.TB) string {
	tb.Helper()
	dir := copyDir(tb, findingsFixture)
	flow := filepath.Join(dir, "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		tb.Fatal(err)
	}
	var b bytes.Buffer
	if err := json.Compact(&b, src); err != nil {
		tb.Fatal(err)
	}
	// The flow's description (its first one) grows by 5 MB of words.
	lorem := strings.Repeat("lorem ipsum dolor sit amet ", 5<<20/27+1)
	min := bytes.Replace(b.Bytes(), []byte(`"description":"`), []byte(`"description":"`+lorem), 1)
	b.Reset()
	b.Write(min)
	b.WriteByte('\n')
	if b.Len() < 5<<20 || bytes.Count(b.Bytes(), []byte{'\n'}) != 1 {
		tb.Fatalf("fixture: %d bytes, %d lines", b.Len(), bytes.Count(b.Bytes(), []byte{'\n'}))
	}
	if err := os.WriteFile(flow, b.Bytes(), 0o644); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// minifiedModel opens the minified agent at w×h on its Findings tab.
func minifiedModel(tb testing.TB, w, h int) *Model {
	tb.Helper()
	dir := minifiedAgent(tb)
	return minifiedModelOf(tb, dir, analyze(tb, dir, 1), w, h)
}

// minifiedModelOf is minifiedModel on an agent already written and
// analysed (models only read their analysis, so one serves several).
func minifiedModelOf(tb testing.TB, dir string, an *Analysis, w, h int) *Model {
	tb.Helper()
	m := newModel(tb, dir, w, h, an)
	m.cfg.DisplayPath = "agents/tmp/findings-agent"
	if len(m.cur.Review.Findings) < 3 {
		tb.Fatalf("the minified fixture has %d findings", len(m.cur.Review.Findings))
	}
	press(m, "1")
	return m
}

// TestMinifiedFlowGolden (issue 37): on a 5 MB one-line flow the Findings
// tab shows each finding's excerpt as a window around its column (… on
// both sides, the value underlined), after ten moves and ?, and with a
// finding read in full. What a frame costs there (seconds, when every
// frame presented the whole line) is BenchmarkMinifiedFindingsRender's to
// measure: a test holds no bound in seconds.
func TestMinifiedFlowGolden(t *testing.T) {
	t.Parallel() // pure renders (no program, no watcher, no package variable set): in the race suite tui is the last package running, its tail beside an idle core
	if testing.Short() {
		t.Skip("a 5 MB fixture")
	}
	// One write and one analysis of the 5 MB agent for the six models
	// (each was a 5 MB load and review, the most of this test under -race).
	dir := minifiedAgent(t)
	an := analyze(t, dir, 1)
	for _, sz := range []struct{ w, h int }{{80, 24}, {100, 30}, {140, 40}} {
		name := itoa(sz.w) + "x" + itoa(sz.h)
		t.Run(name, func(t *testing.T) {
			m := minifiedModelOf(t, dir, an, sz.w, sz.h)
			for range 10 {
				press(m, "down")
				m.Render()
			}
			press(m, "?")
			m.Render()
			press(m, "?", "home", "down")
			out := m.Render()
			assertFrame(t, out, m.w, m.h)
			golden.RequireEqual(t, ansi.Strip(out))
		})
		t.Run(name+"_detail", func(t *testing.T) {
			m := minifiedModelOf(t, dir, an, sz.w, sz.h)
			press(m, "home", "down", "enter")
			out := m.Render()
			assertFrame(t, out, m.w, m.h)
			golden.RequireEqual(t, ansi.Strip(out))
		})
	}
}

// BenchmarkMinifiedFindingsRender is one move in the Findings tab of a
// 5 MB one-line flow and the frame drawn after it (100×30).
func BenchmarkMinifiedFindingsRender(b *testing.B) {
	m := minifiedModel(b, 100, 30)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if i%8 == 0 {
			press(m, "home")
		}
		press(m, "down")
		m.Render()
	}
}
