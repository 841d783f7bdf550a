package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func runCmd(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

// A scaffolded agent must lint clean (nothing at all, not even a suggestion)
// and compile, whatever its name and title.
func TestNewScaffoldLintsCleanAndCompiles(t *testing.T) {
	for _, tc := range []struct {
		name      string
		rel       string
		extra     []string
		wantPkg   string
		wantTitle string
	}{
		{"package from the agents tree", "agents/acme/release-notes-agent", nil, "@acme/release-notes-agent", "Release Notes Agent"},
		{"outside a tree", "my-agent", nil, "@local/my-agent", "My Agent"},
		{"explicit package and a title needing JSON escapes", "x", []string{"--package", "@acme/quoted", "--title", `Say "hi" \ back`}, "@acme/quoted", `Say "hi" \ back`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), filepath.FromSlash(tc.rel))
			if code, _, errs := runCmd(append([]string{"new", dir}, tc.extra...)...); code != 0 {
				t.Fatalf("new: exit %d: %s", code, errs)
			}
			if code, out, errs := runCmd("lint", dir, "--fail-on", "suggestion"); code != 0 {
				t.Fatalf("lint: exit %d\n%s%s", code, out, errs)
			}
			code, out, errs := runCmd("compile", dir)
			if code != 0 {
				t.Fatalf("compile: exit %d\n%s%s", code, out, errs)
			}
			var res struct {
				OK    bool `json:"ok"`
				Value struct {
					PackageName string `json:"packageName"`
				} `json:"value"`
			}
			if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK || res.Value.PackageName != tc.wantPkg {
				t.Fatalf("compile result %v %+v", err, res)
			}
			src, _ := os.ReadFile(filepath.Join(dir, "cinatra", "oas.json"))
			var flow struct{ Name string }
			if err := json.Unmarshal(src, &flow); err != nil || flow.Name != tc.wantTitle {
				t.Fatalf("flow name %q (%v), want %q", flow.Name, err, tc.wantTitle)
			}
		})
	}
}

func TestNewRefusesToOverwriteAndBadNames(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "keep.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errs := runCmd("new", dir)
	if code != exitUsage || !strings.Contains(errs, "not empty") {
		t.Errorf("non-empty dir: exit %d, %q", code, errs)
	}
	code, _, errs = runCmd("new", filepath.Join(dir, "a"), "--package", "no-scope")
	if code != exitUsage || !strings.Contains(errs, "@vendor/slug") {
		t.Errorf("bad package: exit %d, %q", code, errs)
	}
	if code, _, _ := runCmd("new"); code != exitUsage {
		t.Errorf("missing DIR: exit %d", code)
	}
}
