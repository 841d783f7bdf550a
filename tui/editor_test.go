package tui

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// TestSettleRest: a hand-off that ran less than the settle time waits out
// the rest; one that ran as long or longer (an editor a person used)
// waits nothing.
func TestSettleRest(t *testing.T) {
	const s = 50 * time.Millisecond
	for _, c := range []struct{ ran, want time.Duration }{
		{0, s},
		{time.Millisecond, 49 * time.Millisecond},
		{s - 1, 1},
		{s, 0},
		{3 * time.Second, 0},
	} {
		if got := settleRest(c.ran, s); got != c.want {
			t.Errorf("settleRest(%v) = %v, want %v", c.ran, got, c.want)
		}
	}
}

// TestEditorExecHoldsAQuickEditor: an editor that returns at once is held
// to the settle time (the Bubble Tea frame-ticker race, see editorSettle),
// and its failure still reaches the model.
func TestEditorExecHoldsAQuickEditor(t *testing.T) {
	for _, name := range []string{"true", "false"} {
		if _, err := exec.LookPath(name); err != nil {
			t.Fatalf("%s not on PATH: %v", name, err)
		}
		e := newEditorExec([]string{name})
		if e.settle != editorSettle || editorSettle <= 0 {
			t.Fatalf("settle %v, want editorSettle (%v) > 0", e.settle, editorSettle)
		}
		e.settle = 30 * time.Millisecond
		start := time.Now()
		err := e.Run()
		if took := time.Since(start); took < e.settle {
			t.Errorf("%s: the hand-off took %v, less than its settle time %v", name, took, e.settle)
		}
		if (err != nil) != (name == "false") {
			t.Errorf("%s: Run() = %v", name, err)
		}
	}
}

// TestEditorExecStreams: the terminal is the editor's stdin and stdout
// unless the command already had its own, as with Bubble Tea's wrapper.
func TestEditorExecStreams(t *testing.T) {
	e := newEditorExec([]string{"true"})
	in, out, errw := strings.NewReader("x"), &bytes.Buffer{}, &bytes.Buffer{}
	e.SetStdin(in)
	e.SetStdout(out)
	e.SetStderr(errw)
	if e.cmd.Stdin != in || e.cmd.Stdout != out || e.cmd.Stderr != errw {
		t.Fatal("the streams were not given to the editor")
	}
	e.SetStdin(strings.NewReader("y"))
	e.SetStdout(&bytes.Buffer{})
	e.SetStderr(&bytes.Buffer{})
	if e.cmd.Stdin != in || e.cmd.Stdout != out || e.cmd.Stderr != errw {
		t.Fatal("a stream already set was replaced")
	}
}
