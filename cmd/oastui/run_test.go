package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/oastui/oastui/dryrun"
	"github.com/santhosh-tekuri/jsonschema/v6"
)

const runFixtures = "../../lint/testdata/rules"

func TestRunDryText(t *testing.T) {
	code, out, errOut := runCLI(t, "run", filepath.Join(runFixtures, "err", "dryrun_input_unavailable"), "--dry")
	if code != 0 { // a warning only
		t.Fatalf("exit %d, stderr %s", code, errOut)
	}
	for _, want := range []string{"explored 2 of 2 paths", "path 1: end at end", "path 2: end at end",
		"x: string ✗ no value", "→ branch a", "→ branch default", "[dryrun_input_unavailable]", "x: string = \"<x>\"  ← make.x"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in\n%s", want, out)
		}
	}
}

func TestRunDryJSONAndBlocker(t *testing.T) {
	code, out, _ := runCLI(t, "run", filepath.Join(runFixtures, "err", "dryrun_gate_without_data"), "--dry", "--format", "json")
	if code != 1 {
		t.Errorf("exit %d, want 1 (a dryrun blocker)", code)
	}
	var doc struct {
		SchemaVersion int `json:"schemaVersion"`
		Paths         []struct {
			Status string `json:"status"`
		} `json:"paths"`
		Findings []struct {
			Code string `json:"code"`
			Line int    `json:"line"`
		} `json:"findings"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if doc.SchemaVersion != 1 || len(doc.Paths) != 1 || len(doc.Findings) != 1 || doc.Findings[0].Code != "dryrun_gate_without_data" || doc.Findings[0].Line == 0 {
		t.Errorf("got %+v", doc)
	}
}

func TestRunStubsDrivePath(t *testing.T) {
	dir := t.TempDir()
	stubs := filepath.Join(dir, "stubs.yaml")
	if err := os.WriteFile(stubs, []byte("nodes:\n  start:\n    mode: a\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "run", filepath.Join(runFixtures, "err", "dryrun_input_unavailable"), "--dry", "--stubs", stubs)
	if code != 0 || !strings.Contains(out, "explored 1 of 1 paths") || !strings.Contains(out, "no dryrun_* findings") {
		t.Errorf("exit %d, stderr %s, out\n%s", code, errOut, out)
	}
	if err := os.WriteFile(stubs, []byte("nodes:\n  nosuch:\n    x: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "run", filepath.Join(runFixtures, "err", "dryrun_input_unavailable"), "--dry", "--stubs", stubs)
	if code != 2 || !strings.Contains(errOut, `node "nosuch" is not a node`) {
		t.Errorf("unknown node: exit %d, stderr %s", code, errOut)
	}
	if err := os.WriteFile(stubs, []byte("nodes: [1]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, errOut = runCLI(t, "run", filepath.Join(runFixtures, "err", "dryrun_input_unavailable"), "--dry", "--stubs", stubs)
	if code != 2 || !strings.Contains(errOut, "must map node ids") {
		t.Errorf("bad shape: exit %d, stderr %s", code, errOut)
	}
}

func TestRunWithoutDry(t *testing.T) {
	code, _, errOut := runCLI(t, "run", filepath.Join(runFixtures, "ok", "dryrun_input_unavailable"))
	if code != 2 || !strings.Contains(errOut, "live runs are not supported") {
		t.Errorf("exit %d, stderr %s", code, errOut)
	}
	code, _, errOut = runCLI(t, "lint", "--mode", "bogus", filepath.Join(runFixtures, "ok", "dryrun_input_unavailable"))
	if code != 2 || !strings.Contains(errOut, "deterministic, advisory or full") {
		t.Errorf("exit %d, stderr %s", code, errOut)
	}
	code, out, _ := runCLI(t, "lint", "--mode", "full", "--format", "text", filepath.Join(runFixtures, "err", "dryrun_subflow_output_missing"))
	if code != 1 || !strings.Contains(out, "dryrun_subflow_output_missing") {
		t.Errorf("lint --mode full: exit %d\n%s", code, out)
	}
}

// TestRunJSONSchema: the JSON of every dryrun fixture and the example
// agent validates against dryrun.JSONSchema.
func TestRunJSONSchema(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(dryrun.JSONSchema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	if err := c.AddResource("run.json", doc); err != nil {
		t.Fatal(err)
	}
	schema, err := c.Compile("run.json")
	if err != nil {
		t.Fatal(err)
	}
	paths, _ := filepath.Glob(filepath.Join(runFixtures, "*", "dryrun_*"))
	paths = append(paths, filepath.Join("..", "..", "testdata", "agents", "oastui", "example-agent"))
	for _, p := range paths {
		if filepath.Ext(p) == ".golden" {
			continue
		}
		_, out, errOut := runCLI(t, "run", p, "--dry", "--format", "json")
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(out))
		if err != nil {
			t.Fatalf("%s: %v %s", p, err, errOut)
		}
		if err := schema.Validate(v); err != nil {
			t.Errorf("%s: %v", p, err)
		}
	}
}

// TestRunDryGolden pins the text trace of one fixture (go test
// ./cmd/oastui -run TestRunDryGolden -update rewrites it).
func TestRunDryGolden(t *testing.T) {
	_, out, _ := runCLI(t, "run", filepath.Join(runFixtures, "err", "dryrun_subflow_output_missing"), "--dry")
	golden.RequireEqual(t, out)
}
