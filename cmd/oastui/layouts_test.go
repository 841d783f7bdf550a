package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testgit"
	"github.com/oastui/oastui/internal/testshared"
)

// lintCodes is what `lint --format json` of a tree found, as
// "<package dir name> <code> <line>:<column>" lines, sorted: comparable
// between two trees holding the same agents at other paths.
func lintCodes(t *testing.T, tree string) []string {
	t.Helper()
	_, out, errs := runLintCmd(t, tree, "--format", "json")
	var res lintJSON
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("lint %s: %v\n%s", tree, err, errs)
	}
	var lines []string
	for _, f := range res.Findings {
		rel, err := filepath.Rel(tree, f.File)
		if err != nil || strings.HasPrefix(rel, "..") {
			rel = f.File
		}
		lines = append(lines, rel+" "+f.Code+" "+f.Location)
	}
	sort.Strings(lines)
	return lines
}

// The faces of tree discovery read today's extensions/ tree as they read
// agents/: lint of the tree gives the same findings at the same places of
// the same agents (the non-agent packs beside them give none), graph
// --workspace draws all 25, and the TUI opens the tree's list from the
// directory holding it.
func TestExtensionsTreeFaces(t *testing.T) {
	dir, _ := testshared.CorpusAgents(t)
	ext := testshared.ExtensionsTree(t)

	old, now := lintCodes(t, filepath.Join(dir, "agents")), lintCodes(t, ext)
	if strings.Join(old, "\n") != strings.Join(now, "\n") {
		t.Errorf("lint of extensions/ differs from agents/:\nagents/:\n%s\nextensions/:\n%s", strings.Join(old, "\n"), strings.Join(now, "\n"))
	}
	for _, l := range now {
		for _, pack := range []string{"gmail-connector", "email-artifacts", "brand-voice-skill", "crm-sync"} {
			if strings.Contains(l, pack) {
				t.Errorf("a non-agent pack has a finding: %s", l)
			}
		}
	}

	code, out, errs := runCmd("graph", ext, "--workspace", "--format", "mermaid")
	if code > exitFindings {
		t.Fatalf("graph --workspace: exit %d: %s", code, errs)
	}
	for _, slug := range []string{"email-outreach-agent", "email-drafting-agent"} {
		if !strings.Contains(out, slug) {
			t.Errorf("graph --workspace of extensions/ does not draw %s", slug)
		}
	}

	tg, err := openHere(filepath.Dir(ext))
	if err != nil {
		t.Fatal(err)
	}
	if len(tg.tree) != testshared.CorpusAgentCount {
		t.Errorf("the TUI opens %d agents from the directory holding extensions/, want %d", len(tg.tree), testshared.CorpusAgentCount)
	}
}

// `oastui new` names the package @vendor/slug from either tree layout.
func TestNewInfersVendorInBothLayouts(t *testing.T) {
	for _, tree := range []string{"agents", "extensions"} {
		t.Run(tree, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), tree, "acme", "foo")
			if code, _, errs := runCmd("new", dir); code != 0 {
				t.Fatalf("new: exit %d: %s", code, errs)
			}
			src, err := os.ReadFile(filepath.Join(dir, "package.json"))
			if err != nil {
				t.Fatal(err)
			}
			var pkg struct{ Name string }
			if err := json.Unmarshal(src, &pkg); err != nil || pkg.Name != "@acme/foo" {
				t.Errorf("package name %q (%v), want @acme/foo", pkg.Name, err)
			}
			// An orchestrator's missing child is scaffolded in the same tree.
			pipe := filepath.Join(filepath.Dir(filepath.Dir(dir)), "acme", "pipe")
			if code, _, errs := runCmd("new", pipe, "--kind", "orchestrator", "--child", "@acme/summary-agent"); code != 0 {
				t.Fatalf("new orchestrator: exit %d: %s", code, errs)
			}
			if _, err := os.Stat(filepath.Join(filepath.Dir(filepath.Dir(dir)), "acme", "summary-agent", "cinatra", "oas.json")); err != nil {
				t.Errorf("the child was not scaffolded in %s/: %v", tree, err)
			}
		})
	}
}

// `oastui compile` of today's produces cases: the road warning on stderr
// beside a successful compile; the mirror refusal stops the compile at the
// review gate, naming the rule.
func TestCompileProducesCases(t *testing.T) {
	code, out, errOut := runCLI(t, "compile", "../../lint/testdata/rules/err/produces_without_road/unkept-promise")
	if code != 0 {
		t.Fatalf("road: exit %d\n%s%s", code, out, errOut)
	}
	if !strings.Contains(out, `"hasArtifactBindings": false`) {
		t.Errorf("road: no hasArtifactBindings false in\n%s", out)
	}
	if !strings.Contains(errOut, "warning: [artifact-binding] @acme/scan-agent") || !strings.Contains(errOut, "@cinatra-ai/blog-post-artifact") {
		t.Errorf("road: stderr %q", errOut)
	}
	code, out, _ = runCLI(t, "compile", "../../lint/testdata/rules/err/produces_mirror_mismatch/other-extension")
	if code != exitFindings || !strings.Contains(out, "produces_mirror_mismatch") {
		t.Errorf("mirror: exit %d\n%s", code, out)
	}
}

// Every lint format carries the new findings (they come from the one
// review, through the one snapshot).
func TestProducesFindingsInEveryFormat(t *testing.T) {
	for code, fx := range map[string]string{
		"produces_mirror_mismatch": "../../lint/testdata/rules/err/produces_mirror_mismatch/other-extension",
		"produces_without_road":    "../../lint/testdata/rules/err/produces_without_road/unkept-promise",
		"object_type_retired":      "../../lint/testdata/rules/err/object_type_retired/oas.json",
	} {
		for _, format := range []string{"text", "json", "sarif", "github"} {
			_, out, errs := runLintCmd(t, fx, "--format", format, "--fail-on", "suggestion")
			if !strings.Contains(out, code) {
				t.Errorf("lint --format %s %s: no %s\n%s%s", format, fx, code, out, errs)
			}
		}
	}
}

// `oastui diff` between two git revisions of an extensions/ tree names
// the agent's changes, a hasArtifactBindings flip among them.
func TestDiffExtensionsTree(t *testing.T) {
	testgit.Have(t)
	repo := t.TempDir()
	testgit.Git(t, repo, "", "init", "-q", "-b", "main")
	pkg := filepath.Join(repo, "extensions", "oastui", "leaf-agent")
	fx := "../../diff/testdata/checks/diff_artifact_bindings_added"
	testgit.CopyTree(t, filepath.Join(fx, "old"), pkg)
	testgit.CopyTree(t, "../../testdata/agents/_shared", filepath.Join(repo, "extensions", "_shared"))
	if err := os.MkdirAll(filepath.Join(repo, "extensions", "cinatra-ai", "gmail-connector"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(repo, "extensions", "cinatra-ai", "gmail-connector", "package.json"), []byte(`{"name":"@cinatra-ai/gmail-connector","cinatra":{"kind":"connector"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Git(t, repo, "", "add", "-A")
	testgit.Git(t, repo, "", "commit", "-q", "-m", "unbound")
	if err := os.RemoveAll(pkg); err != nil {
		t.Fatal(err)
	}
	testgit.CopyTree(t, filepath.Join(fx, "new"), pkg)
	testgit.Git(t, repo, "2026-01-02T00:00:00Z", "add", "-A")
	testgit.Git(t, repo, "2026-01-02T00:00:00Z", "commit", "-q", "-m", "bound")
	_, out, errs := runCLI(t, "diff", "HEAD~1", "HEAD", filepath.Join(repo, "extensions"))
	if !strings.Contains(out, "diff_artifact_bindings_added") || strings.Contains(out, "gmail-connector") {
		t.Errorf("diff of the extensions/ tree:\n%s%s", out, errs)
	}
}
