package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testgit"
)

// templateCommands are the oastui commands of the CI template
// (docs/ci/github-actions.yml), with the workflow's expressions replaced:
// the tree's root by root, the base branch by base.
func templateCommands(t *testing.T, template, root, base string) [][]string {
	t.Helper()
	src, err := os.ReadFile(template)
	if err != nil {
		t.Fatal(err)
	}
	var out [][]string
	for _, l := range strings.Split(string(src), "\n") {
		l = strings.TrimSpace(l)
		cmd, ok := strings.CutPrefix(l, "run: oastui ")
		if !ok {
			continue
		}
		cmd, _, _ = strings.Cut(cmd, " > ") // the SARIF file
		cmd = strings.ReplaceAll(cmd, "${{ steps.tree.outputs.root }}", root)
		cmd = strings.ReplaceAll(cmd, "origin/${{ github.base_ref }}", base)
		if strings.Contains(cmd, "${{") {
			t.Fatalf("an expression the test does not know: %s", l)
		}
		out = append(out, strings.Fields(strings.ReplaceAll(cmd, `"`, "")))
	}
	return out
}

// TestCITemplate (issue 37): the CI template's commands (the lint gate and
// the pull-request review with oastui diff --format github) run as written
// in a repository of either layout, agents/ or extensions/ (the platform's:
// extensions/<vendor>/<slug>/cinatra/oas.json), with a base branch and a
// change on top of it: no usage error, and the review names the change as
// an annotation.
func TestCITemplate(t *testing.T) {
	testgit.Have(t)
	example, err := filepath.Abs(exampleAgent)
	if err != nil {
		t.Fatal(err)
	}
	template, err := filepath.Abs(filepath.Join("..", "..", "docs", "ci", "github-actions.yml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, layout := range []string{"agents", "extensions"} {
		t.Run(layout, func(t *testing.T) {
			repo := t.TempDir()
			pkg := filepath.Join(repo, layout, "oastui", "example-agent")
			testgit.CopyTree(t, example, pkg)
			testgit.Git(t, repo, "", "init", "-q", "-b", "main")
			testgit.Git(t, repo, "", "add", "-A")
			testgit.Git(t, repo, "", "commit", "-q", "-m", "base")
			testgit.Git(t, repo, "", "update-ref", "refs/remotes/origin/main", "HEAD")
			flow := filepath.Join(pkg, "cinatra", "oas.json")
			src, err := os.ReadFile(flow)
			if err != nil {
				t.Fatal(err)
			}
			changed := strings.Replace(string(src), `"Announce the release"`, `"Announce the new release"`, 1)
			if changed == string(src) {
				t.Fatal("the example agent no longer has the node this test renames")
			}
			if err := os.WriteFile(flow, []byte(changed), 0o644); err != nil {
				t.Fatal(err)
			}
			testgit.Git(t, repo, "", "commit", "-q", "-am", "rename a node")
			t.Chdir(repo)
			cmds := templateCommands(t, template, layout, "origin/main")
			if len(cmds) != 3 || cmds[2][0] != "diff" {
				t.Fatalf("the template's commands: %q", cmds)
			}
			for _, args := range cmds {
				code, out, errOut := runCLI(t, args...)
				if code != exitClean && code != exitFindings {
					t.Errorf("oastui %s: exit %d\n%s", strings.Join(args, " "), code, errOut)
				}
				if args[0] == "diff" && !strings.Contains(out, "::") {
					t.Errorf("oastui %s: no annotation for the renamed node:\n%s%s", strings.Join(args, " "), out, errOut)
				}
				if args[0] == "lint" && strings.Contains(strings.Join(args, " "), "sarif") && !strings.Contains(out, `"version": "2.1.0"`) {
					t.Errorf("oastui %s: no SARIF:\n%.300s", strings.Join(args, " "), out)
				}
			}
		})
	}
}
