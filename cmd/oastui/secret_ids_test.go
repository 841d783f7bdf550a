package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
)

// tokenIDAgent is the example agent with its node "notify" renamed to a
// GitHub token: the token is a component key, an id, a $component_ref and
// part of every JSON Pointer into the node (issue 26 item 10).
func tokenIDAgent(t *testing.T) string {
	dir := copyFixtureTree(t, exampleAgent)
	p := filepath.Join(dir, "cinatra", "oas.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.ReplaceAll(string(b), `"notify"`, `"`+hostile.Token+`"`)
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestTokenAsIDMasked: a token used as a component key or id is masked in
// every output of the CLI — messages, JSON Pointers, excerpts — in lint
// (every format), compile, prompts, graph and baseline. Before, the
// pointers and the messages that quote them printed it raw.
func TestTokenAsIDMasked(t *testing.T) {
	dir := tokenIDAgent(t)
	for _, args := range [][]string{
		{"lint", "--format", "text", dir},
		{"lint", "--format", "json", dir},
		{"lint", "--format", "sarif", dir},
		{"lint", "--format", "github", dir},
		{"compile", dir},
		{"prompts", dir},
		{"prompts", "--format", "json", dir},
		{"graph", dir},
		{"baseline", dir},
	} {
		_, out, errs := runCmd(args...)
		if strings.Contains(out+errs, hostile.Token[4:]) {
			t.Errorf("%v shows the token:\n%s", args, grepLines(out+errs, hostile.Token[4:]))
		}
	}
}

func grepLines(s, sub string) string {
	var out []string
	for _, l := range strings.Split(s, "\n") {
		if strings.Contains(l, sub) {
			out = append(out, l)
		}
	}
	return strings.Join(out, "\n")
}
