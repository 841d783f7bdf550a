package tui

import (
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/views"
)

// fixture returns the path of a testdata/tui agent.
func fixture(name string) string {
	return filepath.Join("..", "testdata", "tui", "agents", "oastui-tui", name)
}

// findingsFixture is an agent whose real review has two blockers (an
// invalid hitlOwnedBy on "draft" and on "r_check" inside the "review"
// subflow) and a warning (StartNode inputs without required): the goldens
// show what the linter really says about it.
var findingsFixture = filepath.Join("testdata", "agents", "oastui-tui", "findings-agent")

// fixedTime is the analysis time shown in goldens.
var fixedTime = time.Date(2026, 1, 2, 15, 4, 5, 0, time.UTC)

// analyze runs the real pipeline and pins what varies between runs (time,
// duration) so that views are deterministic.
func analyze(t testing.TB, path string, seq uint64) *Analysis {
	t.Helper()
	an := Analyze(path, Options{}, seq)
	an.Started = fixedTime
	an.Took = 3 * time.Millisecond
	return an
}

// newModel builds a model of size w×h showing an.
func newModel(t testing.TB, path string, w, h int, an *Analysis) *Model {
	t.Helper()
	m := New(Config{Path: path, DisplayPath: filepath.ToSlash(path)})
	m.Update(tea.WindowSizeMsg{Width: w, Height: h})
	if an != nil {
		m.Update(analysisMsg{an})
	}
	return m
}

func press(m *Model, keys ...string) tea.Cmd {
	var cmd tea.Cmd
	for _, k := range keys {
		_, cmd = m.Update(keyMsg(k))
	}
	return cmd
}

func keyMsg(k string) tea.KeyPressMsg {
	switch k {
	case "tab":
		return tea.KeyPressMsg{Code: tea.KeyTab}
	case "shift+tab":
		return tea.KeyPressMsg{Code: tea.KeyTab, Mod: tea.ModShift}
	case "enter":
		return tea.KeyPressMsg{Code: tea.KeyEnter}
	case "esc":
		return tea.KeyPressMsg{Code: tea.KeyEscape}
	case "backspace":
		return tea.KeyPressMsg{Code: tea.KeyBackspace}
	case "down":
		return tea.KeyPressMsg{Code: tea.KeyDown}
	case "up":
		return tea.KeyPressMsg{Code: tea.KeyUp}
	case "space":
		return tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
	case "ctrl+c":
		return tea.KeyPressMsg{Code: 'c', Mod: tea.ModCtrl}
	}
	r := []rune(k)[0]
	return tea.KeyPressMsg{Code: r, Text: k}
}

// copyDir copies a fixture into a temp agents/ tree and returns the copy.
func copyDir(t testing.TB, src string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "agents", "tmp", filepath.Base(src))
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		target := filepath.Join(dst, rel)
		if d.IsDir() {
			return os.MkdirAll(target, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(target, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// tabOf is the model's side tab of type T.
func tabOf[T views.Pane](m *Model) T {
	for _, p := range m.tabs {
		if t, ok := p.(T); ok {
			return t
		}
	}
	var zero T
	return zero
}
