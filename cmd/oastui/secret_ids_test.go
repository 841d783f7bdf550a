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
	return copyFixtureFlow(t, exampleAgent, func(s string) string {
		return strings.ReplaceAll(s, `"notify"`, `"`+hostile.Token+`"`)
	})
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

// TestKeyInIdentifierMasked: an AWS key inside a placeholder name
// ("{{ secret_AKIA… }}") is found (word boundaries include '_') and masked
// in every output — the prompt report (text and json), lint's excerpt, the
// gate — where the same key as a value already was (issue 26 item 12).
func TestKeyInIdentifierMasked(t *testing.T) {
	const key = "AKIAQ3ZL7RWXP4N2M6TB"
	dir := copyFixtureTree(t, exampleAgent)
	p := filepath.Join(dir, "cinatra", "oas.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	s := strings.Replace(string(b), "{{ releaseUrl }}", "{{ secret_"+key+" }}", 1)
	if s == string(b) {
		t.Fatal("the fixture has no {{ releaseUrl }}")
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		{"lint", "--format", "text", dir},
		{"lint", "--format", "json", dir},
		{"compile", dir},
		{"prompts", dir},
		{"prompts", "--format", "json", dir},
	} {
		_, out, errs := runCmd(args...)
		if strings.Contains(out+errs, key[4:]) {
			t.Errorf("%v shows the key:\n%s", args, grepLines(out+errs, key[4:]))
		}
	}
}
