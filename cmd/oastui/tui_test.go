package main

import (
	"bytes"
	"os"
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

// TestOpenTarget: what `oastui [PATH]` opens (issue 13 item 3).
func TestOpenTarget(t *testing.T) {
	agents := filepath.Join("..", "..", "testdata", "agents")
	leaf := filepath.Join(agents, "oastui", "leaf-agent")
	txt := filepath.Join(t.TempDir(), "notes.txt")
	if err := os.WriteFile(txt, []byte("hello"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, arg   string
		agent, tree bool
		wantPath    string
		errHas      string
	}{
		{name: "package dir", arg: leaf, agent: true, wantPath: leaf},
		{name: "flow file", arg: filepath.Join(leaf, "cinatra", "oas.json"), agent: true},
		{name: "package.json opens its package", arg: filepath.Join(leaf, "package.json"), agent: true, wantPath: leaf},
		{name: "a text file is not an agent", arg: txt, errHas: "is not an agent: a flow file is .json, .yaml or .yml"},
		{name: "tree", arg: agents, tree: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := openTarget(tc.arg)
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err %v, want %q", err, tc.errHas)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if (got.agent != nil) != tc.agent || (len(got.tree) > 0) != tc.tree {
				t.Fatalf("agent %v tree %v", got.agent != nil, got.tree)
			}
			if tc.wantPath != "" && got.path != tc.wantPath {
				t.Errorf("path %q, want %q", got.path, tc.wantPath)
			}
		})
	}
}

// TestOpenHere: without PATH, the agent of the current directory (or of
// the cinatra/ folder we are in), else the agents/ tree there, else the
// bundled example.
func TestOpenHere(t *testing.T) {
	leaf, err := filepath.Abs(filepath.Join("..", "..", "testdata", "agents", "oastui", "leaf-agent"))
	if err != nil {
		t.Fatal(err)
	}
	agents := filepath.Dir(filepath.Dir(leaf))
	got, err := openHere(filepath.Join(leaf, "cinatra"))
	if err != nil || got.agent == nil || got.path != leaf {
		t.Errorf("inside cinatra/: %+v %v", got, err)
	}
	if got, err = openHere(agents); err != nil || len(got.tree) == 0 {
		t.Errorf("in agents/: %+v %v", got, err)
	}
	if got, err = openHere(filepath.Dir(agents)); err != nil || len(got.tree) == 0 {
		t.Errorf("beside agents/: %+v %v", got, err)
	}
	if got, err = openHere(t.TempDir()); err != nil || got.agent != nil || got.tree != nil {
		t.Errorf("empty directory should open the example: %+v %v", got, err)
	}
}

// TestTUIHints: a mistyped subcommand is suggested, and the TUI without a
// terminal (as in tests and CI) is a usage error pointing at lint, not an
// internal error (issue 12 item 5).
func TestTUIHints(t *testing.T) {
	leaf := filepath.Join("..", "..", "testdata", "agents", "oastui", "leaf-agent")
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"lnt"}, `unknown command "lnt": did you mean lint`}, // "or lsp?" since oastui lsp
		{[]string{"compil"}, "did you mean compile?"},
		{[]string{leaf}, "this is not a terminal;\nheadless, run: oastui lint PATH"},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != exitUsage || !strings.Contains(errb.String(), tc.want) {
			t.Errorf("%v: exit %d, stderr %q, want %d and %q", tc.args, code, errb.String(), exitUsage, tc.want)
		}
	}
}

// TestTUICatalogAuditFlags: the root command accepts --catalog and --audit
// (the picker's "no catalog" message names --catalog FILE); a catalog
// that is not a file is a usage error naming it (issue 13 item 2).
func TestTUICatalogAuditFlags(t *testing.T) {
	agent := filepath.Join("..", "..", "testdata", "tui", "agents", "oastui-tui", "clean-agent")
	cat := filepath.Join(t.TempDir(), "catalog.json")
	if err := os.WriteFile(cat, []byte(`{}`), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	// Not a terminal: the flags parse, and the message is the usual one.
	code := run([]string{"--catalog", cat, "--audit", filepath.Join(t.TempDir(), "a.db"), agent}, &out, &errb)
	if code != exitUsage || strings.Contains(errb.String(), "unknown flag") || !strings.Contains(errb.String(), "not a terminal") {
		t.Errorf("exit %d: %s", code, errb.String())
	}
	errb.Reset()
	code = run([]string{"--catalog", filepath.Join(t.TempDir(), "nope.json"), agent}, &out, &errb)
	if code != exitUsage || !strings.Contains(errb.String(), "--catalog") || !strings.Contains(errb.String(), "nope.json") {
		t.Errorf("missing catalog: exit %d: %s", code, errb.String())
	}
}
