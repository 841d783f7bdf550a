package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/oastui/oastui/diff"
	"github.com/oastui/oastui/internal/race"
)

func gitIn(t *testing.T, dir string, args ...string) {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
		"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
}

// diffRepo is a git repository holding the test agents (one commit) and a
// working tree where the leaf agent's approval gate is gone.
func diffRepo(t *testing.T) (repo, leaf string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo = t.TempDir()
	copyTree(t, filepath.Join("..", "..", "testdata", "agents"), filepath.Join(repo, "agents"))
	gitIn(t, repo, "init", "-q")
	gitIn(t, repo, "add", "-A")
	gitIn(t, repo, "commit", "-q", "-m", "one")
	leaf = filepath.Join(repo, "agents", "oastui", "leaf-agent")
	flow := filepath.Join(leaf, "cinatra", "oas.json")
	b, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	nb := bytes.Replace(b, []byte(`"requiresApproval": true`), []byte(`"requiresApproval": false`), 1)
	if bytes.Equal(nb, b) {
		t.Fatal("fixture changed: no requiresApproval")
	}
	if err := os.WriteFile(flow, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	return repo, leaf
}

func runIn(t *testing.T, dir string, args ...string) (int, string, string) {
	t.Helper()
	t.Chdir(dir)
	var out, errb bytes.Buffer
	code := run(args, &out, &errb)
	return code, out.String(), errb.String()
}

func TestDiffCLI(t *testing.T) {
	repo, leaf := diffRepo(t)
	rel, _ := filepath.Rel(repo, leaf)

	// No revision: HEAD against the working tree; the approval removed is breaking.
	code, out, errs := runIn(t, repo, "diff", "--color", "never", rel)
	if code != exitFindings || !strings.Contains(out, "diff_approval_removed") {
		t.Fatalf("exit %d, want 1\n%s%s", code, out, errs)
	}
	if code, _, _ := runIn(t, repo, "diff", "--fail-on", "none", rel); code != exitClean {
		t.Errorf("--fail-on none: exit %d", code)
	}
	// A..B over two equal revisions: nothing.
	if code, out, _ := runIn(t, repo, "diff", "HEAD..HEAD", rel); code != exitClean || !strings.Contains(out, "no changes") {
		t.Errorf("HEAD..HEAD: exit %d\n%s", code, out)
	}
	// REV:PATH against the working tree's file.
	if code, out, _ := runIn(t, repo, "diff", "HEAD:"+filepath.ToSlash(rel), rel); code != exitFindings || !strings.Contains(out, "diff_approval_removed") {
		t.Errorf("REV:PATH: exit %d\n%s", code, out)
	}
	// Two agents on disk (--no-index; inside a work tree two PATHs are two agents against HEAD).
	if code, out, errs := runIn(t, repo, "diff", "--no-index", "--fail-on", "none", rel, filepath.Join("agents", "oastui", "gate-agent")); code != exitClean || !strings.Contains(out, "diff_node_removed") {
		t.Errorf("--no-index: exit %d\n%s%s", code, out, errs)
	}
	if code, out, _ := runIn(t, repo, "diff", "--fail-on", "none", rel, filepath.Join("agents", "oastui", "gate-agent")); code != exitClean || !strings.Contains(out, "2 agents compared") {
		t.Errorf("two PATHs in a work tree: exit %d\n%s", code, out)
	}
	if code, _, _ := runIn(t, repo, "diff", "--no-index", rel); code != exitUsage {
		t.Errorf("--no-index with one path: exit %d", code)
	}
	// A missing revision is an error, not an empty diff.
	if code, _, errs := runIn(t, repo, "diff", "no-such-rev", "--", rel); code != exitUsage || !strings.Contains(errs, "no such revision") {
		t.Errorf("missing revision: exit %d\n%s", code, errs)
	}
	// JSON validates against the schema in the repository.
	code, out, _ = runIn(t, repo, "diff", "--format", "json", rel)
	if code != exitFindings {
		t.Errorf("json: exit %d", code)
	}
	validateDiffJSON(t, []byte(out))
	if strings.Contains(out, repo) {
		t.Errorf("json paths are not relative to the working directory:\n%s", out)
	}
	var rep struct {
		Agents []struct {
			Changes []struct{ Check, Level, Node string }
		}
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil || len(rep.Agents) != 1 {
		t.Fatalf("json: %v\n%s", err, out)
	}
	// Markdown: one comment, breaking first; GitHub: one ::error.
	if _, out, _ := runIn(t, repo, "diff", "--format", "markdown", rel); !strings.Contains(out, "#### breaking") || !strings.Contains(out, "| breaking | warn | info |") {
		t.Errorf("markdown:\n%s", out)
	}
	if _, out, _ := runIn(t, repo, "diff", "--format", "github", rel); !strings.Contains(out, "::error file=") {
		t.Errorf("github:\n%s", out)
	}
	// The config's diff: section sets a level (a safety check: with a
	// reason, and committed before the change, else the change relaxes its
	// own gate).
	if err := os.WriteFile(filepath.Join(repo, ".oastui.yaml"), []byte("diff:\n  diff_approval_removed: {level: info, reason: test}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "add", ".oastui.yaml")
	gitIn(t, repo, "commit", "-q", "-m", "config")
	if code, out, errs := runIn(t, repo, "diff", rel); code != exitClean || !strings.Contains(out, "level set by the config") {
		t.Errorf("config override: exit %d\n%s%s", code, out, errs)
	}
	if err := os.WriteFile(filepath.Join(repo, ".oastui.yaml"), []byte("diff:\n  diff_no_such_check: info\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, _, errs := runIn(t, repo, "diff", rel); code != exitUsage || !strings.Contains(errs, "unknown check") {
		t.Errorf("unknown check in config: exit %d\n%s", code, errs)
	}
}

func TestDiffChecksList(t *testing.T) {
	var out, errb bytes.Buffer
	if code := run([]string{"diff", "--checks"}, &out, &errb); code != exitClean {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	for _, c := range diff.Checks() {
		if !strings.Contains(out.String(), c.ID+"  "+string(c.Level)) {
			t.Errorf("--checks lacks %s", c.ID)
		}
	}
}

// diffOutputSchema is diff.JSONSchema compiled, once per test binary (a
// compiled schema is only read).
var diffOutputSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(diff.JSONSchema))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("diff-output.schema.json", doc); err != nil {
		return nil, err
	}
	return c.Compile("diff-output.schema.json")
})

func validateDiffJSON(t *testing.T, out []byte) {
	t.Helper()
	s, err := diffOutputSchema()
	if err != nil {
		t.Fatal(err)
	}
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(out))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, out)
	}
	if err := s.Validate(v); err != nil {
		t.Errorf("diff JSON does not match its schema: %v\n%s", err, out)
	}
}

// lint --new-from-rev reports only the findings introduced since REV; a
// missing REV is an error (exit 2).
func TestLintNewFromRev(t *testing.T) {
	repo, leaf := diffRepo(t)
	rel, _ := filepath.Rel(repo, leaf)
	// An old finding, committed: package.json's version drifts from the flow's.
	pkg := filepath.Join(leaf, "package.json")
	b, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	b = bytes.Replace(b, []byte(`"version": "0.1.0"`), []byte(`"version": "0.1.9"`), 1)
	if err := os.WriteFile(pkg, b, 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "commit", "-q", "-am", "drift")
	// A new finding in the working tree: package.json loses its license.
	nb := bytes.Replace(b, []byte(`"license": "Apache-2.0",`), nil, 1)
	if bytes.Equal(nb, b) {
		t.Fatal("fixture changed: no license")
	}
	if err := os.WriteFile(pkg, nb, 0o644); err != nil {
		t.Fatal(err)
	}
	_, all, _ := runIn(t, repo, "lint", "--format", "json", "--fail-on", "none", rel)
	_, fresh, errs := runIn(t, repo, "lint", "--format", "json", "--fail-on", "none", "--new-from-rev", "HEAD", rel)
	codes := func(out string) []string {
		var r struct{ Findings []struct{ Code string } }
		if err := json.Unmarshal([]byte(out), &r); err != nil {
			t.Fatalf("%v\n%s%s", err, out, errs)
		}
		var c []string
		for _, f := range r.Findings {
			c = append(c, f.Code)
		}
		return c
	}
	got, before := codes(fresh), codes(all)
	if len(got) == 0 || len(got) >= len(before) {
		t.Fatalf("--new-from-rev HEAD: %v; all findings: %v", got, before)
	}
	for _, c := range got {
		if !strings.Contains(c, "license") {
			t.Errorf("finding %s is not new", c)
		}
	}
	if code, _, errs := runIn(t, repo, "lint", "--new-from-rev", "no-such-rev", rel); code != exitUsage || !strings.Contains(errs, "no such revision") {
		t.Errorf("missing REV: exit %d %s", code, errs)
	}
}

// TestDiffOneVerdict: `oastui diff` and the History tab's step for the
// working tree (diff.Step, what views.History shows) give the same changes,
// levels, fingerprints and callers for the same pair (the MCP face is held
// to the tab in mcpserver's TestAgentDiff).
func TestDiffOneVerdict(t *testing.T) {
	repo, leaf := diffRepo(t)
	code, out, errOut := runIn(t, repo, "diff", "--format", "json", "--fail-on", "none", "agents/oastui/leaf-agent")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	var doc diff.Document
	if err := json.Unmarshal([]byte(out), &doc); err != nil || len(doc.Agents) != 1 {
		t.Fatalf("%v\n%s", err, out)
	}
	tab, err := diff.Step(leaf, diff.Entry{Short: "working tree", Parent: "HEAD"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	verdict := func(r *diff.Result) string {
		var b strings.Builder
		for _, c := range r.Changes {
			fmt.Fprintf(&b, "%s %s %s", c.Check, c.Level, c.Fingerprint)
			for _, cl := range c.Callers {
				fmt.Fprintf(&b, " caller=%s binds=%v accepts=%v", cl.Package, cl.Binds, cl.Accepts)
			}
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "%+v callers=%d", r.Summary, len(r.Callers))
		return b.String()
	}
	if a, b := verdict(doc.Agents[0]), verdict(tab); a != b || doc.Agents[0].Summary.Breaking == 0 {
		t.Errorf("oastui diff and the History tab differ:\nCLI:\n%s\ntab:\n%s", a, b)
	}
}

// TestLintNewFromRevPolicy: --new-from-rev reports a team policy's new
// finding and leaves out one the revision had already.
func TestLintNewFromRevPolicy(t *testing.T) {
	repo, leaf := diffRepo(t)
	rel, _ := filepath.Rel(repo, leaf)
	cfg := "policies:\n  - {id: old-policy, message: always, assert: 'agent.package == \"\"'}\n  - {id: version-frozen, message: the version is frozen, assert: 'agent.version == \"0.1.0\"'}\n"
	if err := os.WriteFile(filepath.Join(repo, ".oastui.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, repo, "add", ".oastui.yaml")
	gitIn(t, repo, "commit", "-q", "-m", "policies")
	pkg := filepath.Join(leaf, "package.json")
	b, _ := os.ReadFile(pkg)
	if err := os.WriteFile(pkg, bytes.Replace(b, []byte(`"version": "0.1.0"`), []byte(`"version": "0.2.0"`), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	_, all, _ := runIn(t, repo, "lint", "--format", "json", "--fail-on", "none", rel)
	_, fresh, _ := runIn(t, repo, "lint", "--format", "json", "--fail-on", "none", "--new-from-rev", "HEAD", rel)
	if !strings.Contains(all, `"old-policy"`) || !strings.Contains(all, `"version-frozen"`) {
		t.Fatalf("the policies do not report:\n%s", all)
	}
	if !strings.Contains(fresh, `"version-frozen"`) || strings.Contains(fresh, `"old-policy"`) {
		t.Errorf("--new-from-rev HEAD:\n%s", fresh)
	}
}

// TestDiffRevisionOrPathAmbiguous (issue 35, point 2): a directory the
// change adds, named like the base revision, does not turn the CI gate
// into a diff of that directory: without "--" the argument is ambiguous
// (exit 2, both readings named); with "--" each reading is what it says.
func TestDiffRevisionOrPathAmbiguous(t *testing.T) {
	repo, leaf := diffRepo(t)
	rel, _ := filepath.Rel(repo, leaf)
	gitIn(t, repo, "update-ref", "refs/remotes/origin/main", "HEAD")
	if err := os.MkdirAll(filepath.Join(repo, "origin", "main"), 0o755); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runIn(t, repo, "diff", "origin/main", "--fail-on", "breaking")
	if code != exitUsage || !strings.Contains(errs, "both a revision and a path") ||
		!strings.Contains(errs, "oastui diff origin/main -- ") || !strings.Contains(errs, "oastui diff -- origin/main") {
		t.Fatalf("ambiguous argument: exit %d\n%s%s", code, out, errs)
	}
	// The unambiguous recipe sees the breaking change.
	code, out, errs = runIn(t, repo, "diff", "origin/main", "--fail-on", "breaking", "--", rel)
	if code != exitFindings || !strings.Contains(out, "diff_approval_removed") {
		t.Errorf("origin/main -- PATH: exit %d\n%s%s", code, out, errs)
	}
	// A path that is not a revision is still a path, a revision that is no path a revision.
	if code, out, errs := runIn(t, repo, "diff", rel); code != exitFindings {
		t.Errorf("PATH: exit %d\n%s%s", code, out, errs)
	}
	if code, out, errs := runIn(t, repo, "diff", "HEAD", rel); code != exitFindings {
		t.Errorf("HEAD PATH: exit %d\n%s%s", code, out, errs)
	}
}

// TestDiffGateCannotRelaxItself (issue 35, point 3): the change under
// review cannot silence its own approval-safety checks: turning one off
// without a reason is a usage error; with a reason every run prints a
// notice, and the lowering is itself a breaking change.
func TestDiffGateCannotRelaxItself(t *testing.T) {
	repo, leaf := diffRepo(t)
	rel, _ := filepath.Rel(repo, leaf)
	cfg := filepath.Join(repo, ".oastui.yaml")
	if err := os.WriteFile(cfg, []byte("diff:\n  diff_approval_removed: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs := runIn(t, repo, "diff", "HEAD", "--", rel)
	if code != exitUsage || !strings.Contains(errs, "needs a reason") {
		t.Fatalf("off without a reason: exit %d\n%s%s", code, out, errs)
	}
	if err := os.WriteFile(cfg, []byte("diff:\n  diff_approval_removed: {level: off, reason: \"reviewed elsewhere\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errs = runIn(t, repo, "diff", "HEAD", "--", rel)
	if code != exitFindings || !strings.Contains(errs, "notice: approval-safety check diff_approval_removed is set to off") ||
		!strings.Contains(errs, "reviewed elsewhere") {
		t.Errorf("off with a reason: exit %d\n%s%s", code, out, errs)
	}
	if !strings.Contains(out, "diff_gate_relaxed") || !strings.Contains(out, "relaxes its own gate") || strings.Contains(out, "diff_approval_removed  ") {
		t.Errorf("the lowering is not reported as breaking:\n%s", out)
	}
	// Committed, the same config is the gate (no longer a change of it).
	gitIn(t, repo, "add", ".oastui.yaml")
	gitIn(t, repo, "commit", "-q", "-m", "config")
	code, out, errs = runIn(t, repo, "diff", "HEAD", "--", rel)
	if code != exitClean || strings.Contains(out, "diff_gate_relaxed") || !strings.Contains(errs, "notice:") {
		t.Errorf("committed config: exit %d\n%s%s", code, out, errs)
	}
	// Every format holds the notice too, once (issue 35, point 3); under
	// -race one of them (the engine's TestNoticesOnEveryFace has all).
	for i, f := range []string{"json", "markdown", "github"} {
		if i%race.Stride(3) != 0 {
			continue
		}
		_, out, errs = runIn(t, repo, "diff", "HEAD", "--format", f, "--", rel)
		if n := strings.ReplaceAll(out, `\_`, "_"); strings.Count(n, "approval-safety check diff_approval_removed is set to off") != 1 || strings.Count(errs, "notice:") != 1 {
			t.Errorf("--format %s: no notice, or more than one:\n%s%s", f, out, errs)
		}
		if f == "json" {
			validateDiffJSON(t, []byte(out))
		}
	}
}

// TestDiffMaxChanges (issue 35, point 11): --max-changes caps the changes
// listed (the JSON says how many it left out, the summary and the exit
// code count them all), 0 lists them all, a negative cap is a usage error.
func TestDiffMaxChanges(t *testing.T) {
	repo, leaf := diffRepo(t)
	rel, _ := filepath.Rel(repo, leaf)
	type doc struct {
		Agents []struct {
			Changes   []struct{ Check, Level string }
			Truncated int
			Summary   diff.Summary
		}
	}
	read := func(out string) doc {
		var d doc
		if err := json.Unmarshal([]byte(out), &d); err != nil || len(d.Agents) != 1 {
			t.Fatalf("%v\n%s", err, out)
		}
		return d
	}
	code, out, errs := runIn(t, repo, "diff", "HEAD", "--format", "json", "--max-changes", "0", "--", rel)
	all := read(out)
	n := len(all.Agents[0].Changes)
	if code != exitFindings || n < 2 || all.Agents[0].Truncated != 0 {
		t.Fatalf("--max-changes 0: exit %d, %d changes\n%s%s", code, n, out, errs)
	}
	validateDiffJSON(t, []byte(out))
	code, out, errs = runIn(t, repo, "diff", "HEAD", "--format", "json", "--max-changes", "1", "--", rel)
	one := read(out)
	a := one.Agents[0]
	if code != exitFindings || len(a.Changes) != 1 || a.Truncated != n-1 || a.Summary != all.Agents[0].Summary ||
		a.Changes[0] != all.Agents[0].Changes[0] {
		t.Errorf("--max-changes 1: exit %d, %+v\n%s", code, a, errs)
	}
	validateDiffJSON(t, []byte(out))
	_, out, _ = runIn(t, repo, "diff", "HEAD", "--max-changes", "1", "--", rel)
	if want := fmt.Sprintf("… %d more changes (--format json --max-changes 0 lists them all)", n-1); !strings.Contains(out, want) {
		t.Errorf("text: no %q\n%s", want, out)
	}
	if code, _, errs := runIn(t, repo, "diff", "HEAD", "--max-changes", "-1", "--", rel); code != exitUsage || !strings.Contains(errs, "--max-changes") {
		t.Errorf("--max-changes -1: exit %d %s", code, errs)
	}
}
