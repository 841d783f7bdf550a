package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/oastui/oastui/lint/report"
)

// complete runs cobra's hidden __complete command, as the shells do, and
// returns the candidates and the directive line.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(append([]string{"__complete"}, args...), &out, &errb); code != 0 {
		t.Fatalf("__complete %v: exit %d %s", args, code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	return lines[:len(lines)-1], lines[len(lines)-1]
}

func TestFlagCompletion(t *testing.T) {
	noFiles := ":4" // cobra.ShellCompDirectiveNoFileComp
	for _, tc := range []struct {
		args []string
		want []string
		dir  string
	}{
		{[]string{"lint", "--format", ""}, report.Names(), noFiles},
		{[]string{"lint", "--format", "s"}, []string{"sarif", "summary"}, noFiles},
		{[]string{"lint", "--format", "text,j"}, []string{"text,json"}, noFiles},
		{[]string{"lint", "--out-format", "g"}, []string{"github"}, noFiles},
		{[]string{"lint", "--fail-on", ""}, []string{"blocker", "warning", "suggestion", "none"}, noFiles},
		{[]string{"lint", "--fail-on", "w"}, []string{"warning"}, noFiles},
		{[]string{"lint", "--mode", ""}, []string{"deterministic", "advisory", "full"}, noFiles},
		{[]string{"lint", "--profile", ""}, []string{"cinatra", "agentspec"}, noFiles},
		{[]string{"lint", "--color", ""}, []string{"auto", "always", "never"}, noFiles},
		{[]string{"lint", "--stdin-filename", ""}, []string{"json", "yaml", "yml"}, ":8"}, // FilterFileExt
		{[]string{"graph", "--format", ""}, []string{"text", "dot", "mermaid"}, noFiles},
		{[]string{"rules", "--format", ""}, []string{"text", "json"}, noFiles},
		{[]string{"audit", "--format", ""}, []string{"text", "json"}, noFiles},
		{[]string{"compile", "--format", ""}, []string{"json"}, noFiles},
	} {
		got, dir := complete(t, tc.args...)
		if strings.Join(got, " ") != strings.Join(tc.want, " ") || dir != tc.dir {
			t.Errorf("%v: %v %s, want %v %s", tc.args, got, dir, tc.want, tc.dir)
		}
	}
}
