package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/clipperhouse/displaywidth"
	"github.com/oastui/oastui/internal/testshared"
)

// workspaceTree scaffolds agents/acme/{boss,worker,lone} with `oastui new`
// (boss calls worker and accepts ^0.1.0 of it), with worker at version.
func workspaceTree(t *testing.T, workerVersion string) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "agents")
	for _, args := range [][]string{
		{"new", filepath.Join(root, "acme", "worker"), "--package", "@acme/worker"},
		{"new", filepath.Join(root, "acme", "boss"), "--package", "@acme/boss", "--kind", "orchestrator", "--child", "@acme/worker"},
		{"new", filepath.Join(root, "acme", "lone"), "--package", "@acme/lone"},
	} {
		if code, _, errs := runCmd(args...); code != exitClean {
			t.Fatalf("%v: exit %d: %s", args, code, errs)
		}
	}
	boss := filepath.Join(root, "acme", "boss", "package.json")
	src, _ := os.ReadFile(boss)
	// ghost in both vocabularies: a legacy edge the canonical list drops is
	// manifest_dependencies_conflict, not what this tree is about
	ghost := `{"packageName": "@acme/ghost", "edgeType": "runtime", "versionConstraint": {"kind": "semver-range", "range": "^1.0.0"}, "requirement": "required", "kind": "agent"}, `
	withGhost := strings.Replace(string(src), `"cinatra": {`, `"cinatra": {"agentDependencies": {"@acme/ghost": "^1.0.0"},`, 1)
	withGhost = strings.Replace(withGhost, `"dependencies": [`, `"dependencies": [`+ghost, 1)
	os.WriteFile(boss, []byte(withGhost), 0o644)
	pkg := filepath.Join(root, "acme", "worker", "package.json")
	src, _ = os.ReadFile(pkg)
	os.WriteFile(pkg, []byte(strings.Replace(string(src), `"version": "0.1.0"`, `"version": "`+workerVersion+`"`, 1)), 0o644)
	return root
}

func TestGraphWorkspace(t *testing.T) {
	root := workspaceTree(t, "2.0.0")
	code, out, errs := runGraphCmd(t, root, "--workspace", "--ascii")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"(3 agents, 2 drawn, 2 calls)", "boss  orchestrator", "worker  leaf", "ghost  missing", "needs ^0.1.0",
		"1 agent calls no other agent", "[workspace_child_version_mismatch]", "[workspace_child_missing]"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	for _, f := range []string{"dot", "mermaid"} {
		code, out, _ := runGraphCmd(t, root, "--workspace", "--format", f)
		if code != exitClean || !strings.Contains(out, "worker") || !strings.Contains(out, "needs ^0.1.0") {
			t.Errorf("--format %s: exit %d\n%s", f, code, out)
		}
	}
	if code, _, errs := runGraphCmd(t, filepath.Join(root, "nope"), "--workspace"); code != exitUsage {
		t.Errorf("a missing tree: exit %d (%s)", code, errs)
	}
}

// TestLintTreeWorkspace: linting a tree adds the workspace findings (in
// every format), and --format summary prints one line per agent.
func TestLintTreeWorkspace(t *testing.T) {
	root := workspaceTree(t, "2.0.0")
	_, out, _ := runLintCmd(t, root, "--format", "json")
	for _, want := range []string{`"workspace_child_version_mismatch"`, `"workspace_child_missing"`} {
		if !strings.Contains(out, want) {
			t.Errorf("json lacks %s", want)
		}
	}
	code, out, errs := runLintCmd(t, root, "--format", "summary")
	if code != exitFindings { // worker's version no longer matches its flow's packageVersion: a blocker
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n") // worst first
	if len(lines) != 4 || !strings.Contains(lines[0], "worker") || !strings.Contains(lines[0], "blocked") ||
		!strings.Contains(lines[1], "boss") || !strings.Contains(lines[1], "0 blockers, 3 warnings") ||
		!strings.Contains(lines[3], "3 agents: 0 do not parse or load") {
		t.Errorf("summary:\n%s", out)
	}
	// Text: a workspace finding has its source excerpt as every other
	// finding, also in an agent whose review found nothing (issue 28).
	_, out, _ = runLintCmd(t, root)
	tl := strings.Split(out, "\n")
	n := 0
	for i, l := range tl {
		if strings.Contains(l, "[workspace_") {
			n++
			if i+2 >= len(tl) || strings.TrimSpace(tl[i+1]) != "|" || !strings.Contains(tl[i+2], " | ") {
				t.Errorf("no excerpt under %q:\n%s", l, out)
			}
		}
	}
	if n == 0 {
		t.Errorf("no workspace finding in the text:\n%s", out)
	}
	// One agent alone: no workspace findings (its children are not looked for).
	_, out, _ = runLintCmd(t, filepath.Join(root, "acme", "boss"), "--format", "json")
	if strings.Contains(out, "workspace_") {
		t.Errorf("a single agent got workspace findings:\n%s", out)
	}
}

// TestWorkspaceIgnores: the .oastui.yaml ignores silence workspace findings
// in every face of the CLI: lint (each format; SARIF lists them as
// suppressed), the summary's counts and exit code, graph --workspace.
func TestWorkspaceIgnores(t *testing.T) {
	root := workspaceTree(t, "0.1.0")
	cfg := `ignores:
  - {rule: workspace_child_missing, file: agents/acme/boss/package.json, pointer: /cinatra/agentDependencies, reason: installed from the registry}
  - {rule: workspace_child_missing, file: agents/acme/boss/package.json, pointer: /cinatra/dependencies/0, reason: installed from the registry}
  - {rule: workspace_dependency_cycle, file: agents/acme/lone/package.json, reason: nothing to silence}
`
	os.WriteFile(filepath.Join(filepath.Dir(root), ".oastui.yaml"), []byte(cfg), 0o644)
	// Every format from one run (the CLI's FORMAT:PATH outputs).
	dir := t.TempDir()
	file := func(f string) string { return filepath.Join(dir, f) }
	code, out, errs := runLintCmd(t, root, "--format", "text,json:"+file("json")+",github:"+file("github")+",summary:"+file("summary")+",sarif:"+file("sarif"))
	if strings.Contains(out, "[workspace_child_missing]") || !strings.Contains(out, "unused ignore: no workspace_dependency_cycle finding") {
		t.Errorf("text: exit %d\n%s%s", code, out, errs)
	}
	if n := strings.Count(out, "unused_ignore"); n != 1 {
		t.Errorf("%d unused_ignore (want 1: the workspace's, not the reviews'):\n%s", n, out)
	}
	read := func(f string) string { b, _ := os.ReadFile(file(f)); return string(b) }
	for _, f := range []string{"json", "github", "summary"} {
		if out := read(f); out == "" || strings.Contains(out, "workspace_child_missing") {
			t.Errorf("--format %s shows the ignored finding:\n%s", f, out)
		}
	}
	if out := read("summary"); !regexp.MustCompile(`acme/boss +ok +0 blockers, 0 warnings`).MatchString(out) {
		t.Errorf("summary: the ignored finding still counts for boss:\n%s", out)
	}
	if out := read("sarif"); !strings.Contains(out, `"ruleId": "workspace_child_missing"`) || !strings.Contains(out, "installed from the registry") {
		t.Errorf("sarif lacks the suppressed finding:\n%s", out)
	}
	code, out, errs = runGraphCmd(t, root, "--workspace", "--ascii")
	if code != exitClean || strings.Contains(out, "workspace_child_missing") || strings.Contains(out, "ghost  missing !") || !strings.Contains(out, "ghost  missing") {
		t.Errorf("graph --workspace: exit %d\n%s%s", code, out, errs)
	}
}

// TestSummaryCountsEveryFinding: a finding in a file of no agent (an
// unused ignore in .oastui.yaml naming a file that does not exist) gets a
// line of its own in --format summary, and the total counts it.
func TestSummaryCountsEveryFinding(t *testing.T) {
	root := workspaceTree(t, "0.1.0")
	cfg := "ignores:\n  - {rule: workspace_child_missing, file: agents/acme/gone/package.json, reason: stale entry}\n"
	os.WriteFile(filepath.Join(filepath.Dir(root), ".oastui.yaml"), []byte(cfg), 0o644)
	_, out, errs := runLintCmd(t, root, "--format", "summary")
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 || !regexp.MustCompile(`^\S*\.oastui\.yaml +warnings +0 blockers, 1 warning, 0 suggestions$`).MatchString(lines[3]) ||
		!strings.Contains(lines[4], "3 agents: 0 do not parse or load") || !strings.Contains(lines[4], "(1 in 1 file of no agent)") {
		t.Errorf("summary:\n%s%s", out, errs)
	}
}

// TestGraphWorkspaceTooWide: a call graph drawn wider than the output
// (120 columns off a terminal) says how wide it is and names the formats
// that read well at any width (issue 28: the corpus draws 380–460 wide).
func TestGraphWorkspaceTooWide(t *testing.T) {
	tree := testshared.Dir(t, "corpus", "cinatra", "agents")
	code, out, errs := runGraphCmd(t, tree, "--workspace")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "columns wide, wider than 120") || !strings.Contains(out, "--workspace --format dot") {
		t.Errorf("no note under a wide drawing:\n%s", out[max(0, len(out)-600):])
	}
	// The calls are laid out to fit: a tree whose every line is within
	// 120 columns, each orchestrator's calls under it.
	calls, _, _ := strings.Cut(out, "agents call no other agent")
	for _, l := range strings.Split(calls, "\n") {
		if w := displaywidth.String(l); w > 120 {
			t.Errorf("a line of the calls is %d columns wide: %q", w, l)
		}
	}
	if !strings.Contains(calls, "\nblog-pipeline-agent  orchestrator") || !strings.Contains(calls, "\n│   └─→ context-selection-agent  flow") {
		t.Errorf("no call tree:\n%s", calls)
	}
	root := workspaceTree(t, "0.1.0") // narrow: no note
	if _, out, _ := runGraphCmd(t, root, "--workspace"); strings.Contains(out, "columns wide") {
		t.Errorf("a narrow drawing got the note:\n%s", out)
	}
}
