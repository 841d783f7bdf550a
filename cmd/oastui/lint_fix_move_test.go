package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// legacyPkg copies the legacy_agent_filename err fixture and gives its
// flow a removable legacy field too: the move and the field's removal
// touch the same file, so --fix needs two rounds.
func legacyPkg(t *testing.T) (dir, from string, body []byte) {
	t.Helper()
	dir = copyFixtureTree(t, filepath.Join("..", "..", "lint", "testdata", "rules", "err", "legacy_agent_filename"))
	from = filepath.Join(dir, "cinatra", "agent.json")
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), `      "type": "leaf",`, `      "type": "leaf",`+"\n"+`      "executionMode": "sync",`, 1)
	if s == string(b) {
		t.Fatal("fixture changed: update this test")
	}
	if err := os.WriteFile(from, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir, from, []byte(s)
}

// TestLintDiffShowsMove: --diff shows the move as git's rename and writes
// nothing; the edit of the moved file waits for the next round (skipped
// with its reason).
func TestLintDiffShowsMove(t *testing.T) {
	dir, _, _ := legacyPkg(t)
	before := readAll(t, dir)
	code, out, errs := runLintCmd(t, "--diff", dir)
	if code != exitFindings {
		t.Errorf("exit %d (%s)", code, errs)
	}
	for _, want := range []string{"similarity index 100%\n", "rename from ", "cinatra/agent.json\n", "rename to ", "cinatra/oas.json\n"} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "would fix 1 finding") || !strings.Contains(errs, "1 skipped") || !strings.Contains(errs, "moves") {
		t.Errorf("stderr %q", errs)
	}
	after := readAll(t, dir)
	if len(after) != len(before) {
		t.Fatal("files appeared or vanished")
	}
	for p, b := range before {
		if after[p] != b {
			t.Errorf("%s was written", p)
		}
	}
}

// TestLintFixMoves: --fix moves the flow file (bytes unchanged by the
// move), then removes the legacy field in the moved file; both findings
// are gone and the legacy file with them.
func TestLintFixMoves(t *testing.T) {
	dir, from, _ := legacyPkg(t)
	code, out, errs := runLintCmd(t, "--fix", "--format", "json", dir)
	if !strings.Contains(errs, "oastui: fixed 2 findings") {
		t.Errorf("stderr %q", errs)
	}
	got := codesOf(t, out)
	if got["legacy_agent_filename"] != 0 || got["legacy_field"] != 0 {
		t.Errorf("after --fix: %v", got)
	}
	if code != exitClean {
		t.Errorf("exit %d: %s", code, errs)
	}
	if _, err := os.Lstat(from); !os.IsNotExist(err) {
		t.Errorf("legacy file left: %v", err)
	}
	moved, err := os.ReadFile(filepath.Join(dir, "cinatra", "oas.json"))
	orig, _ := os.ReadFile(filepath.Join("..", "..", "lint", "testdata", "rules", "err", "legacy_agent_filename", "cinatra", "agent.json"))
	if err != nil || string(moved) != string(orig) {
		t.Errorf("cinatra/oas.json is not the original flow without the legacy field (%v):\n%s", err, moved)
	}
}

// TestLintFixNoMoveOntoTarget: when something already holds
// cinatra/oas.json's place (here a dangling symlink, which loading does
// not take for the flow), the move is not offered: --fix fixes the rest in
// place and leaves the link alone.
func TestLintFixNoMoveOntoTarget(t *testing.T) {
	dir, from, body := legacyPkg(t)
	to := filepath.Join(dir, "cinatra", "oas.json")
	if err := os.Symlink(filepath.Join(dir, "nowhere"), to); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runLintCmd(t, "--fix", "--format", "json", dir)
	if code != exitClean || !strings.Contains(errs, "fixed 1 finding in 1 file") {
		t.Errorf("exit %d, stderr %q", code, errs)
	}
	if got := codesOf(t, out); got["legacy_agent_filename"] != 1 || got["legacy_field"] != 0 {
		t.Errorf("after --fix: %v", got)
	}
	if b, _ := os.ReadFile(from); string(b) == string(body) || strings.Contains(string(b), "executionMode") {
		t.Errorf("the legacy field was not removed in place:\n%s", b)
	}
	if l, err := os.Readlink(to); err != nil || l != filepath.Join(dir, "nowhere") {
		t.Errorf("the link was touched: %q %v", l, err)
	}
}
