package main

import (
	"bytes"
	"path/filepath"
	"strings"
	"testing"
)

// The root command refuses what is not an agent with exit 2 and a message
// (the TUI itself needs a terminal; .ci/e2e/tui.sh drives it in tmux).
func TestTUINotAnAgent(t *testing.T) {
	empty := t.TempDir()
	cases := []struct {
		args []string
		want string
	}{
		{[]string{filepath.Join(empty, "missing")}, "no such file or directory"},
		{[]string{empty}, "is not an agent"},
		{[]string{filepath.Join("..", "..", "testdata", "agents")}, "is a tree of agents"},
	}
	for _, c := range cases {
		var out, errb bytes.Buffer
		if code := run(c.args, &out, &errb); code != exitUsage {
			t.Errorf("%v: exit %d, want %d (%s)", c.args, code, exitUsage, errb.String())
		}
		if !strings.Contains(errb.String(), c.want) {
			t.Errorf("%v: stderr %q lacks %q", c.args, errb.String(), c.want)
		}
	}
}
