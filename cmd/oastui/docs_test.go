package main

import (
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/spf13/cobra/doc"
)

// TestCommandReference (issue 37): docs/commands/ is the reference of every
// command, generated from the cobra commands themselves (their Use, Short,
// Long, Example and flags) by cobra's own generator; a test fails when the
// pages and the commands differ. Rewrite with
// `go test ./cmd/oastui -run TestCommandReference -update`.
func TestCommandReference(t *testing.T) {
	root := newRootCmd()
	root.DisableAutoGenTag = true // no date: the pages stay equal from run to run
	gen := t.TempDir()
	if err := doc.GenMarkdownTree(root, gen); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join("..", "..", "docs", "commands")
	if f := flag.Lookup("update"); f != nil && f.Value.String() == "true" {
		if err := os.RemoveAll(dir); err != nil {
			t.Fatal(err)
		}
		if err := os.CopyFS(dir, os.DirFS(gen)); err != nil {
			t.Fatal(err)
		}
	}
	names := func(d string) []string {
		es, err := os.ReadDir(d)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, e := range es {
			out = append(out, e.Name())
		}
		return out
	}
	want, have := names(gen), names(dir)
	if !slices.Equal(want, have) {
		t.Fatalf("docs/commands holds %v, the commands give %v", have, want)
	}
	if !slices.Contains(want, "oastui_lint.md") || !slices.Contains(want, "oastui_diff.md") {
		t.Errorf("no lint or diff page: %v", want)
	}
	for _, n := range want {
		g, _ := os.ReadFile(filepath.Join(gen, n))
		h, _ := os.ReadFile(filepath.Join(dir, n))
		if string(g) != string(h) {
			t.Errorf("docs/commands/%s differs from the command", n)
		}
		// nothing of this machine in a page
		for _, local := range []string{"/root", "/home/", "/tmp/", "/work/"} {
			if strings.Contains(string(g), local) {
				t.Errorf("%s names a local path (%s)", n, local)
			}
		}
	}
}
