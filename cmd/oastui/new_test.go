package main

import (
	"bytes"
	"encoding/json"
	"github.com/oastui/oastui/compile"
	"os"
	"path/filepath"
	"slices"
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

// Every kind, with and without slots, and the orchestrator with and
// without a child, lints with no finding at all and compiles; the slots'
// context FlowNodes are compiled steps, the child is the FlowNode step's
// childAgent and a package.json dependency.
func TestNewKindMatrix(t *testing.T) {
	slots := []string{"--slot", "draftContext:@cinatra-ai/brand-voice-artifact,@cinatra-ai/blog-post-artifact", "--slot", "voice:@acme/voice-artifact"}
	for _, kind := range []string{"leaf", "gate", "orchestrator"} {
		for _, slot := range []bool{false, true} {
			for _, child := range []bool{false, true} {
				if child && kind != "orchestrator" {
					continue
				}
				name := kind
				args := []string{"--kind", kind}
				if slot {
					name += "+slots"
					args = append(args, slots...)
				}
				if child {
					name += "+child"
					args = append(args, "--child", "@acme/summary-agent")
				}
				t.Run(name, func(t *testing.T) {
					dir := filepath.Join(t.TempDir(), "agents", "acme", "new-agent")
					if code, _, errs := runCmd(append([]string{"new", dir}, args...)...); code != 0 {
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
							ApprovalPolicy struct {
								Steps []struct {
									Name       string `json:"name"`
									NodeType   string `json:"nodeType"`
									ChildAgent *struct {
										PackageName string `json:"packageName"`
									} `json:"childAgent"`
								} `json:"steps"`
							} `json:"approvalPolicy"`
						} `json:"value"`
					}
					if err := json.Unmarshal([]byte(out), &res); err != nil || !res.OK {
						t.Fatalf("compile result %v: %s", err, out)
					}
					var names, children []string
					for _, s := range res.Value.ApprovalPolicy.Steps {
						names = append(names, s.Name)
						if s.ChildAgent != nil {
							children = append(children, s.ChildAgent.PackageName)
						}
					}
					joined := strings.Join(names, "|")
					// The slim form: the file holds no context step (the
					// loader injects it at mount), and the mount is not refused.
					if strings.Contains(joined, "Resolve ") {
						t.Errorf("steps %q: a context step in the file", joined)
					}
					flow, _ := os.ReadFile(filepath.Join(dir, "cinatra", "oas.json"))
					m := compile.MountSlots(compile.ParseDoc("oas.json", flow))
					if len(m.Refusals) != 0 || m.Injected() != slot {
						t.Errorf("mount: %+v", m)
					}
					if kind == "gate" && !strings.Contains(joined, "Approve summary") {
						t.Errorf("gate: steps %q lack the approval gate", joined)
					}
					pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
					if child != slices.Contains(children, "@acme/summary-agent") || child != strings.Contains(string(pkg), `"@acme/summary-agent"`) {
						t.Errorf("child %v: childAgents %q, package.json:\n%s", child, children, pkg)
					}
					if slot != strings.Contains(string(pkg), "@cinatra-ai/context-selection-agent") {
						t.Errorf("slots %v: package.json:\n%s", slot, pkg)
					}
				})
			}
		}
	}
}

// `new --slot` writes the slim form the platform recommends
// (docker/wayflow/context_subflow_injection.py @b76ddc22): the declaration
// and the step's bindings input, no context step, and the dependency as a
// canonical runtime, required edge.
func TestNewSlotWritesTheSlimForm(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a")
	if code, _, errs := runCmd("new", dir, "--slot", "notes:@acme/notes-artifact"); code != 0 {
		t.Fatal(errs)
	}
	src, _ := os.ReadFile(filepath.Join(dir, "cinatra", "oas.json"))
	for _, want := range []string{`"contextSlots"`, `"slotId": "notes"`, `"title": "contextSlotBindings"`, `"@cinatra-ai/context-selection-agent:context-selector"`} {
		if !strings.Contains(string(src), want) {
			t.Errorf("oas.json lacks %s", want)
		}
	}
	for _, not := range []string{`"context_notes"`, `"context-notes-subflow"`, `/api/context-resolve`, `"notesSlotId"`} {
		if strings.Contains(string(src), not) {
			t.Errorf("oas.json holds %s: the loader adds it at mount", not)
		}
	}
	m := compile.MountSlots(compile.ParseDoc("oas.json", src))
	if len(m.Slots) != 1 || m.Slots[0].Form != compile.SlotSlim || len(m.Refusals) != 0 || len(m.Slots[0].Consumers) != 1 {
		t.Errorf("mount: %+v", m)
	}
	pkg, _ := os.ReadFile(filepath.Join(dir, "package.json"))
	deps := compile.ManifestDependencies(compile.ParseDoc("package.json", pkg))
	if e, ok := deps.Edge("@cinatra-ai/context-selection-agent"); !ok || !e.RuntimeRequired() || deps.Source != compile.DepsCanonical || len(deps.Problems) != 0 {
		t.Errorf("package.json dependencies %+v:\n%s", deps, pkg)
	}
}

func TestNewFlagErrors(t *testing.T) {
	base := t.TempDir()
	file := filepath.Join(base, "file")
	if err := os.WriteFile(file, []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"new", filepath.Join(base, "k"), "--kind", "robot"}, "unknown --kind"},
		{[]string{"new", filepath.Join(base, "c"), "--child", "@acme/x"}, "--child is for --kind orchestrator"},
		{[]string{"new", filepath.Join(base, "c2"), "--kind", "orchestrator", "--child", "acme"}, "@vendor/slug"},
		{[]string{"new", filepath.Join(base, "s"), "--slot", "1bad:@x/y"}, "identifier-safe"},
		{[]string{"new", filepath.Join(base, "s2"), "--slot", "a"}, "ID:EXTENSION"},
		{[]string{"new", filepath.Join(base, "s3"), "--slot", "a:"}, "extension"},
		{[]string{"new", filepath.Join(base, "s4"), "--slot", "a:@x/y", "--slot", "a:@x/z"}, "twice"},
		{[]string{"new", file}, "not a directory"},
	} {
		code, _, errs := runCmd(tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, %q (want %q)", tc.args, code, errs, tc.want)
		}
	}
	if b, _ := os.ReadFile(file); string(b) != "x" {
		t.Error("the file was overwritten")
	}
	// writeNew never replaces a file (O_EXCL), even one created after the checks.
	if err := writeNew(file, []byte("y")); err == nil || !strings.Contains(err.Error(), "never overwrites") {
		t.Errorf("writeNew over a file: %v", err)
	}
}

func TestNewKindCompletion(t *testing.T) {
	got, dir := complete(t, "new", "x", "--kind", "")
	if strings.Join(got, ",") != "leaf,orchestrator,gate" || dir != ":4" {
		t.Errorf("--kind completes %q (%s)", got, dir)
	}
}

// TestNewOrchestratorInTree: `new --kind orchestrator --child` inside an
// agents/ tree that has no such package scaffolds the child too, so the
// tree lints clean (no workspace_child_missing); outside a tree it does
// not; a child the tree has is left alone.
func TestNewOrchestratorInTree(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	code, out, errs := runCmd("new", filepath.Join(root, "acme", "pipe"), "--kind", "orchestrator", "--child", "@acme/summary-agent")
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	if !strings.Contains(out, "the child @acme/summary-agent") {
		t.Errorf("new does not say it made the child:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(root, "acme", "summary-agent", "cinatra", "oas.json")); err != nil {
		t.Fatalf("no child scaffold: %v", err)
	}
	code, out, _ = runLintCmd(t, root)
	if code != exitClean || strings.Contains(out, "workspace_child_missing") {
		t.Errorf("the new tree does not lint clean (exit %d):\n%s", code, out)
	}
	// The child is there now: a second orchestrator of it makes no copy.
	if _, out, _ := runCmd("new", filepath.Join(root, "acme", "pipe2"), "--kind", "orchestrator", "--child", "@acme/summary-agent"); strings.Contains(out, "the child") {
		t.Errorf("a child the tree has was made again:\n%s", out)
	}
	// Outside an agents/ tree: no child is made.
	lone := filepath.Join(t.TempDir(), "pipe")
	if _, out, _ := runCmd("new", lone, "--kind", "orchestrator", "--child", "@acme/summary-agent"); strings.Contains(out, "the child") {
		t.Errorf("outside a tree a child was made:\n%s", out)
	}
}
