package tui

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"time"
)

// EditorArgs is the argv that opens file at line and column in the user's
// editor ($VISUAL, then $EDITOR, then vi), with the argument form
// each editor understands:
//
//	vi, vim, nvim, nano, micro, kak:   +LINE FILE      (nano: +LINE,COL)
//	emacs, emacsclient:                +LINE:COL FILE
//	code, codium, cursor, windsurf:    -g FILE:LINE:COL
//	subl, zed, hx, helix:              FILE:LINE:COL
//	anything else:                     +LINE FILE (the convention most editors accept)
//
// Arguments already in the variable (code --wait) are kept.
func EditorArgs(getenv func(string) string, file string, line, col int) []string {
	if getenv == nil {
		getenv = os.Getenv
	}
	ed := strings.TrimSpace(getenv("VISUAL"))
	if ed == "" {
		ed = strings.TrimSpace(getenv("EDITOR"))
	}
	if ed == "" {
		ed = "vi"
	}
	argv := strings.Fields(ed)
	if line < 1 {
		line = 1
	}
	if col < 1 {
		col = 1
	}
	name := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	switch name {
	case "vi", "vim", "nvim", "gvim", "mvim", "view", "micro", "kak", "vim.tiny", "vim.basic":
		return append(argv, fmt.Sprintf("+%d", line), file)
	case "nano", "pico":
		return append(argv, fmt.Sprintf("+%d,%d", line, col), file)
	case "emacs", "emacsclient":
		return append(argv, fmt.Sprintf("+%d:%d", line, col), file)
	case "code", "code-insiders", "codium", "vscodium", "cursor", "windsurf":
		return append(argv, "-g", fmt.Sprintf("%s:%d:%d", file, line, col))
	case "subl", "sublime_text", "zed", "hx", "helix":
		return append(argv, fmt.Sprintf("%s:%d:%d", file, line, col))
	}
	return append(argv, fmt.Sprintf("+%d", line), file)
}

// EditorMissing is the message for an editor command that cannot be run
// (not installed, not on PATH), or "" when it can.
func EditorMissing(argv []string) string {
	if _, err := exec.LookPath(argv[0]); err != nil {
		return fmt.Sprintf("editor %q not found: set $VISUAL or $EDITOR to an installed editor (e.g. EDITOR=nano)", argv[0])
	}
	return ""
}

// editorSettle is the least time the editor hand-off takes, editor
// included. Why: Bubble Tea v2.0.10 (the version DESIGN.md pins) hands
// the terminal to the editor by signalling its frame goroutine to stop,
// and that goroutine stops the frame ticker a moment *after* taking the
// signal (tea.go, startRenderer). When the editor returns, the same ticker
// is started again. An editor that returns at once (`code -g` without
// --wait, an $EDITOR that fails) can let the restart come first: the late
// stop then leaves the TUI drawing no frame ever again, a blank screen
// until the user quits. Holding a quick editor's return this long lets
// that goroutine finish first; an editor a person uses is not held at all.
// (A copy of Bubble Tea with the goroutine slowed by 8 ms before its stop
// froze the TUI on 6 of 6 runs of .ci/e2e/tui.sh's hand-off; with this
// hold, on none.)
const editorSettle = 50 * time.Millisecond

// editorExec runs the editor for tea.Exec, holding a quick return to
// editorSettle (see there).
type editorExec struct {
	cmd    *exec.Cmd
	settle time.Duration
}

func newEditorExec(argv []string) *editorExec {
	return &editorExec{cmd: exec.Command(argv[0], argv[1:]...), settle: editorSettle}
}

// Run runs the editor, then waits out what is left of the settle time.
func (e *editorExec) Run() error {
	started := time.Now()
	runtime.Gosched() // let the frame goroutine, woken by the stop, run
	err := e.cmd.Run()
	if rest := settleRest(time.Since(started), e.settle); rest > 0 {
		time.Sleep(rest)
	}
	return err
}

// settleRest is how long a hand-off that took ran still waits.
func settleRest(ran, settle time.Duration) time.Duration {
	if ran >= settle {
		return 0
	}
	return settle - ran
}

// SetStdin, SetStdout and SetStderr give the editor the terminal, as
// Bubble Tea's own wrapper of exec.Cmd does: a stream already set is kept.
func (e *editorExec) SetStdin(r io.Reader) {
	if e.cmd.Stdin == nil {
		e.cmd.Stdin = r
	}
}

func (e *editorExec) SetStdout(w io.Writer) {
	if e.cmd.Stdout == nil {
		e.cmd.Stdout = w
	}
}

func (e *editorExec) SetStderr(w io.Writer) {
	if e.cmd.Stderr == nil {
		e.cmd.Stderr = w
	}
}
