package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

func runLintCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"lint"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

type lintJSON struct {
	SchemaVersion int `json:"schemaVersion"`
	Findings      []struct {
		Code     string `json:"code"`
		Severity string `json:"severity"`
		File     string `json:"file"`
		Line     int    `json:"line"`
		Column   int    `json:"column"`
		Location string `json:"location"`
		Source   string `json:"source"`
		Message  string `json:"message"`
	} `json:"findings"`
	Summary struct {
		Blockers, Warnings, Suggestions, Files int
	} `json:"summary"`
}

const legacyFixture = "../../lint/testdata/rules/err/legacy_field/oas.json"

func TestLintText(t *testing.T) {
	code, out, _ := runLintCmd(t, legacyFixture)
	if code != exitFindings {
		t.Fatalf("exit %d, want 1\n%s", code, out)
	}
	want := "legacy_field/oas.json:2:20: blocker: legacy field componentType must not appear in OAS agent.json [legacy_field]\n"
	if !strings.Contains(out, want) {
		t.Errorf("no %q in\n%s", want, out)
	}
	if !strings.Contains(out, "2 |   \"componentType\": \"Flow\",\n  |                    ^~~~~~\n") {
		t.Errorf("no source line and caret in\n%s", out)
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("colour in output to a buffer")
	}
	last := out[strings.LastIndex(strings.TrimSuffix(out, "\n"), "\n")+1:]
	if !strings.HasSuffix(last, "in 1 of 1 agent\n") { // issue 37: "in N of M agents"
		t.Errorf("summary line %q", last)
	}
}

func TestLintJSONAndFailOn(t *testing.T) {
	code, out, _ := runLintCmd(t, "--format", "json", legacyFixture)
	if code != exitFindings {
		t.Fatalf("exit %d", code)
	}
	var rep lintJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if rep.SchemaVersion != 1 || rep.Summary.Files != 1 || rep.Summary.Blockers == 0 {
		t.Errorf("report %+v", rep)
	}
	found := false
	for _, f := range rep.Findings {
		if f.Code == "legacy_field" && f.Location == "/componentType" && f.Line == 2 && f.Column == 20 && f.Source == "deterministic" {
			found = true
		}
	}
	if !found {
		t.Errorf("legacy_field at /componentType 2:20 missing: %+v", rep.Findings)
	}
	if code, _, _ := runLintCmd(t, "--fail-on", "none", legacyFixture); code != exitClean {
		t.Errorf("--fail-on none: exit %d", code)
	}
}

func TestLintUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"does/not/exist"},
		{"--format", "yaml", legacyFixture},
		{"--fail-on", "sometimes", legacyFixture},
		{"--profile", "other", legacyFixture},
		{"--mode", "chatty", legacyFixture},
		{"--registry", "no/such/registry.json", legacyFixture},
		{t.TempDir()}, // a directory with no agent in it
		{"lint.go"},   // not a flow file
		{},
	} {
		if code, out, errOut := runLintCmd(t, args...); code != exitUsage {
			t.Errorf("%v: exit %d, want 2\n%s%s", args, code, out, errOut)
		}
	}
}

// TestLintTree: a directory tree is searched for agent packages (skipping
// _shared), and the output is in stable path order.
func TestLintTree(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	src, err := os.ReadFile(legacyFixture)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"v2/b-agent", "v1/c-agent", "v1/a-agent", "_shared/not-an-agent"} {
		dir := filepath.Join(root, filepath.FromSlash(p), "cinatra")
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "oas.json"), src, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var first string
	for i := 0; i < 3; i++ {
		code, out, errOut := runLintCmd(t, "--format", "json", root)
		if code != exitFindings {
			t.Fatalf("exit %d\n%s", code, errOut)
		}
		var rep lintJSON
		if err := json.Unmarshal([]byte(out), &rep); err != nil {
			t.Fatal(err)
		}
		if rep.Summary.Files != 3 {
			t.Errorf("%d files linted, want 3 (_shared skipped)", rep.Summary.Files)
		}
		var order []string
		for _, f := range rep.Findings {
			rel, _ := filepath.Rel(root, f.File)
			if len(order) == 0 || order[len(order)-1] != rel {
				order = append(order, rel)
			}
		}
		want := []string{"v1/a-agent/cinatra/oas.json", "v1/c-agent/cinatra/oas.json", "v2/b-agent/cinatra/oas.json"}
		if strings.Join(order, ",") != filepath.FromSlash(strings.Join(want, ",")) {
			t.Errorf("order %v", order)
		}
		if i == 0 {
			first = out
		} else if out != first {
			t.Errorf("output differs between runs")
		}
	}
}

// TestLintCorpus: every corpus agent loads and lints (skips without ../shared).
func TestLintCorpus(t *testing.T) {
	dir := testshared.Dir(t, "corpus", "cinatra", "agents")
	code, out, errOut := runLintCmd(t, "--format", "json", "--fail-on", "none", dir)
	if code != exitClean {
		t.Fatalf("exit %d\n%s", code, errOut)
	}
	var rep lintJSON
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if rep.Summary.Files != 25 {
		t.Errorf("%d files, want 25", rep.Summary.Files)
	}
}

// TestLintNoPath (issue 37): with no PATH, lint lints the current
// directory, as golangci-lint and ruff do.
func TestLintNoPath(t *testing.T) {
	abs, err := filepath.Abs(exampleAgent)
	if err != nil {
		t.Fatal(err)
	}
	code0, want, _ := runLintCmd(t, abs)
	t.Chdir(abs)
	code, out, errOut := runLintCmd(t)
	if code != code0 || out != want || !strings.HasSuffix(out, "in 1 agent\n") {
		t.Errorf("exit %d (%d), stderr %q\ngot  %q\nwant %q", code, code0, errOut, out, want)
	}
}
