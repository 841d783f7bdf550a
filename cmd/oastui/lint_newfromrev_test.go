package main

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/diff"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
)

// lintFindings decodes lint --format json's findings.
func lintFindings(t *testing.T, out, errs string) []lint.Finding {
	t.Helper()
	var r struct{ Findings []lint.Finding }
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("%v\n%s%s", err, out, errs)
	}
	return r.Findings
}

// TestLintNewFromRevSharesDiff: lint --new-from-rev reads the old revision
// through the diff engine's path, so for the pair (HEAD, working tree) of
// one agent it reports exactly the findings `oastui diff` names as
// diff_finding_introduced, keyed the same way (rule and stable pointer).
func TestLintNewFromRevSharesDiff(t *testing.T) {
	repo, leaf := diffRepo(t)
	rel, _ := filepath.Rel(repo, leaf)
	pkg := filepath.Join(leaf, "package.json")
	b, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	// Two new findings: the license is gone and the version drifts from the flow's.
	nb := bytes.Replace(b, []byte(`"license": "Apache-2.0",`), nil, 1)
	nb = bytes.Replace(nb, []byte(`"version": "0.1.0"`), []byte(`"version": "0.1.9"`), 1)
	if bytes.Equal(nb, b) {
		t.Fatal("fixture changed: no license or version")
	}
	if err := os.WriteFile(pkg, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	_, out, errs := runIn(t, repo, "lint", "--format", "json", "--fail-on", "none", "--new-from-rev", "HEAD", rel)
	var fromLint []string
	for _, f := range lintFindings(t, out, errs) {
		fromLint = append(fromLint, f.Code+" "+report.StablePointer(f))
	}
	code, out, errs := runIn(t, repo, "diff", "--format", "json", "--fail-on", "none", rel)
	if code != 0 {
		t.Fatalf("diff: exit %d: %s", code, errs)
	}
	var doc diff.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Agents) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	var fromDiff []string
	for _, c := range doc.Agents[0].Changes {
		if c.Check != diff.CheckFindingIntroduced.ID {
			continue
		}
		// the subject is "finding <rule> <file> <stable pointer> <value hash>"
		fs := strings.Split(c.Subject, " ")
		if len(fs) < 4 {
			t.Fatalf("subject %q", c.Subject)
		}
		fromDiff = append(fromDiff, fs[1]+" "+fs[3])
	}
	slices.Sort(fromLint)
	slices.Sort(fromDiff)
	if len(fromLint) < 2 || !slices.Equal(fromLint, fromDiff) {
		t.Errorf("lint --new-from-rev HEAD: %q\ndiff's diff_finding_introduced: %q", fromLint, fromDiff)
	}
}

// TestLintNewFromRevInsertedDependency: a dependency inserted earlier in
// cinatra.dependencies moves the old missing children's array indexes; their
// workspace_child_missing findings are not new (fingerprints key on the
// package name, never the index), only the inserted one's is.
func TestLintNewFromRevInsertedDependency(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "agents"), filepath.Join(repo, "agents"))
	pkg := filepath.Join(repo, "agents", "oastui", "example-agent", "package.json")
	b, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	dep := func(name string) string {
		return `{"packageName": "` + name + `", "edgeType": "runtime", "versionConstraint": {"kind": "semver-range", "range": "^1.0.0"}, "requirement": "required", "kind": "agent"},
      `
	}
	const at = `"dependencies": [
      `
	if !bytes.Contains(b, []byte(at)) {
		t.Fatal("fixture changed: no cinatra.dependencies")
	}
	old := bytes.Replace(b, []byte(at), []byte(at+dep("@acme/ghost-a")+dep("@acme/ghost-b")), 1)
	if err := os.WriteFile(pkg, old, 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "init", "-q")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "two missing children")
	nb := bytes.Replace(old, []byte(at), []byte(at+dep("@acme/ghost-new")), 1)
	if err := os.WriteFile(pkg, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := func(fs []lint.Finding) []string {
		var out []string
		for _, f := range fs {
			if f.Code == "workspace_child_missing" {
				out = append(out, f.Location+" "+f.Message)
			}
		}
		return out
	}
	_, out, errs := runIn(t, repo, "lint", "--format", "json", "--fail-on", "none", "agents")
	all := missing(lintFindings(t, out, errs))
	if len(all) < 3 {
		t.Fatalf("the tree's workspace_child_missing findings: %q", all)
	}
	_, out, errs = runIn(t, repo, "lint", "--format", "json", "--fail-on", "none", "--new-from-rev", "HEAD", "agents")
	fresh := missing(lintFindings(t, out, errs))
	if len(fresh) != 1 || !strings.Contains(fresh[0], "@acme/ghost-new") || !strings.HasPrefix(fresh[0], "/cinatra/dependencies/0/") {
		t.Errorf("--new-from-rev HEAD: new workspace_child_missing %q (all: %q)", fresh, all)
	}
}
