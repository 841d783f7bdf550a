package tui

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/edit"
)

const legacyCode = "legacy_agent_filename"

// legacyModel is a model on a copy of clean-agent whose flow sits at the
// legacy cinatra/agent.json, with the legacy_agent_filename finding
// selected.
func legacyModel(t *testing.T) (m *Model, from, to string) {
	t.Helper()
	dir := copyDir(t, fixture("clean-agent"))
	to = filepath.Join(dir, "cinatra", "oas.json")
	from = filepath.Join(dir, "cinatra", "agent.json")
	if err := os.Rename(to, from); err != nil {
		t.Fatal(err)
	}
	an := analyze(t, dir, 1)
	m = newModel(t, dir, 120, 30, an)
	m.seqReq = an.Seq
	press(m, "1")
	if x, ok := m.findings.Selected(); !ok || x.Code != legacyCode || len(x.Fixes) != 1 || len(x.Fixes[0].Moves) != 1 {
		t.Fatalf("selected %+v, want the %s finding with its move", x, legacyCode)
	}
	return m, from, to
}

// TestFixMoveApplyAndUndo: f previews the move as a rename, enter moves
// the file (bytes unchanged), the finding goes; u moves it back.
func TestFixMoveApplyAndUndo(t *testing.T) {
	m, from, to := legacyModel(t)
	before := read(t, from)
	press(m, "f")
	screen := ansi.Strip(m.Render())
	for _, want := range []string{"rename from cinatra/agent.json", "rename to cinatra/oas.json"} {
		if !strings.Contains(screen, want) {
			t.Fatalf("the preview lacks %q:\n%s", want, screen)
		}
	}
	runCmd(t, m, press(m, "enter"))
	if got := read(t, to); !bytes.Equal(got, before) {
		t.Fatal("the moved file's bytes differ")
	}
	if _, err := os.Lstat(from); !os.IsNotExist(err) {
		t.Fatalf("the legacy file is still there: %v", err)
	}
	if !strings.Contains(m.note, "fixed:") || !strings.Contains(m.note, "cinatra/agent.json → cinatra/oas.json") {
		t.Errorf("note = %q", m.note)
	}
	if hasCode(m, legacyCode) {
		t.Error("the finding is still there after the re-analysis")
	}

	runCmd(t, m, press(m, "u"))
	if got := read(t, from); !bytes.Equal(got, before) {
		t.Error("undo did not move the file back")
	}
	if _, err := os.Lstat(to); !os.IsNotExist(err) {
		t.Errorf("the moved file is still there after the undo: %v", err)
	}
	if !strings.Contains(m.note, "undone") || !hasCode(m, legacyCode) {
		t.Errorf("after the undo: note %q, finding back %v", m.note, hasCode(m, legacyCode))
	}
}

// TestFixMoveUndoRefused: once the moved file is edited, u refuses and
// leaves it alone.
func TestFixMoveUndoRefused(t *testing.T) {
	m, from, to := legacyModel(t)
	runCmd(t, m, press(m, "f", "enter"))
	edited := append(read(t, to), '\n')
	if err := os.WriteFile(to, edited, 0o644); err != nil {
		t.Fatal(err)
	}
	runCmd(t, m, press(m, "u"))
	if !strings.Contains(m.note, "cannot undo") || !strings.Contains(m.note, "changed on disk") {
		t.Errorf("note = %q", m.note)
	}
	if !bytes.Equal(read(t, to), edited) {
		t.Error("the edited file was touched")
	}
	if _, err := os.Lstat(from); !os.IsNotExist(err) {
		t.Error("the legacy file came back")
	}
}

// TestFixMoveRefusedWhenTargetAppears: a file put at cinatra/oas.json
// after the analysis refuses the move; nothing is written.
func TestFixMoveRefusedWhenTargetAppears(t *testing.T) {
	m, from, to := legacyModel(t)
	before := read(t, from)
	press(m, "f")
	if err := os.WriteFile(to, []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	runCmd(t, m, press(m, "enter"))
	if !strings.Contains(m.note, "fix not applied") || !strings.Contains(m.note, "already exists") {
		t.Errorf("note = %q", m.note)
	}
	if !bytes.Equal(read(t, from), before) || string(read(t, to)) != "mine" {
		t.Error("files were written")
	}
}

// TestFixMoveAndEditOfOneFileRefused: a fix that both edits and moves one
// file is refused before anything is written (the engine makes none; the
// TUI applies fixes without edit.Plan's batch check otherwise).
func TestFixMoveAndEditOfOneFileRefused(t *testing.T) {
	m, from, to := legacyModel(t)
	before := read(t, from)
	x, _ := m.findings.Selected()
	fx := x.Fixes[0]
	fx.Edits = []edit.Edit{{Path: from, Start: 0, End: 1, New: "["}}
	runCmd(t, m, applyFixCmd(fx, map[string][]byte{from: before}, m.displayPath))
	if !strings.Contains(m.note, "fix not applied") || !strings.Contains(m.note, "moves") {
		t.Errorf("note = %q", m.note)
	}
	if !bytes.Equal(read(t, from), before) {
		t.Error("the file was written")
	}
	if _, err := os.Lstat(to); !os.IsNotExist(err) {
		t.Error("the file was moved")
	}
}
