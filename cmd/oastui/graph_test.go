package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

func runGraphCmd(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := run(append([]string{"graph"}, args...), &out, &errb)
	return code, out.String(), errb.String()
}

// writeGraphAgent writes a small flow with a branch, a loop and a nested
// Flow, and returns its path.
func writeGraphAgent(t *testing.T) string {
	t.Helper()
	src := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"g-flow","name":"G",
  "start_node":{"$component_ref":"s"},
  "nodes":[{"$component_ref":"s"},{"$component_ref":"a"},{"$component_ref":"b"},{"$component_ref":"f"},{"$component_ref":"e"}],
  "control_flow_connections":[
    {"component_type":"ControlFlowEdge","name":"1","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"a"}},
    {"component_type":"ControlFlowEdge","name":"2","from_node":{"$component_ref":"a"},"to_node":{"$component_ref":"b"}},
    {"component_type":"ControlFlowEdge","name":"3","from_node":{"$component_ref":"b"},"to_node":{"$component_ref":"a"},"from_branch":"again"},
    {"component_type":"ControlFlowEdge","name":"4","from_node":{"$component_ref":"b"},"to_node":{"$component_ref":"f"},"from_branch":"default"},
    {"component_type":"ControlFlowEdge","name":"5","from_node":{"$component_ref":"f"},"to_node":{"$component_ref":"e"}}],
  "$referenced_components":{
    "s":{"component_type":"StartNode","id":"s","name":"Begin"},
    "a":{"component_type":"ApiNode","id":"a","name":"Call \u001b[2Jthe API","url":"/api/x","http_method":"GET"},
    "b":{"component_type":"BranchingNode","id":"b","name":"Again?","branches":["again"]},
    "f":{"component_type":"FlowNode","id":"f","name":"Nested","subflow":{"$component_ref":"inner"}},
    "inner":{"component_type":"Flow","id":"inner-flow","name":"Inner",
      "start_node":{"$component_ref":"is"},"nodes":[{"$component_ref":"is"},{"$component_ref":"ie"}],
      "control_flow_connections":[{"component_type":"ControlFlowEdge","name":"x","from_node":{"$component_ref":"is"},"to_node":{"$component_ref":"ie"}}],
      "$referenced_components":{"is":{"component_type":"StartNode","id":"is","name":"Inner start"},"ie":{"component_type":"EndNode","id":"ie","name":"Inner end"}}},
    "e":{"component_type":"EndNode","id":"e","name":"Finish"}}}`
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestGraphText(t *testing.T) {
	p := writeGraphAgent(t)
	code, out, errs := runGraphCmd(t, p)
	if code != exitClean {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{"flow g-flow · G  (5 nodes, 5 control edges)", "▶ Begin", "■ Finish", "Call the API  api",
		"Nested  flow ⊞", "again", "default", "▼", "▲", "▲ loop back"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if strings.ContainsRune(out, 0x1b) {
		t.Errorf("escape sequence from the agent reached the output")
	}
	code, out, _ = runGraphCmd(t, "--ascii", "--data", p)
	if code != exitClean {
		t.Fatalf("ascii exit %d", code)
	}
	for _, r := range out {
		if r > 0x7e && r != '·' { // the title separator is turned to '-'
			t.Fatalf("non-ASCII %q in --ascii output:\n%s", r, out)
		}
	}
	code, out, _ = runGraphCmd(t, "--flow", "inner-flow", p)
	if code != exitClean || !strings.Contains(out, "Inner start") || strings.Contains(out, "Finish") {
		t.Fatalf("--flow: exit %d\n%s", code, out)
	}
}

// TestGraphNoFindings: the drawing counts the review's findings on their
// nodes; --no-findings draws the flow's model, without them, in every
// format, and still refuses a flow that does not exist.
func TestGraphNoFindings(t *testing.T) {
	p := filepath.Join("..", "..", "testdata", "agents", "oastui", "orchestrator-agent")
	code, out, errs := runGraphCmd(t, p)
	if code != exitClean || !strings.Contains(out, "Research  flow ⊞ ⚠2") || !strings.Contains(out, "⚠n warnings") {
		t.Fatalf("exit %d (%s): the fixture's two warnings are not counted on its node:\n%s", code, errs, out)
	}
	for _, args := range [][]string{{"--no-findings"}, {"--no-findings", "--ascii"}, {"--no-findings", "--data"}} {
		code, out, errs = runGraphCmd(t, append(args, p)...)
		if code != exitClean || strings.Contains(out, "⚠") || strings.Contains(out, "warnings") || !strings.Contains(out, "Research  flow") {
			t.Errorf("%v: exit %d (%s): counts drawn or the node lost:\n%s", args, code, errs, out)
		}
	}
	for _, f := range []string{"dot", "mermaid"} {
		_, with, _ := runGraphCmd(t, "--format", f, p)
		code, without, _ := runGraphCmd(t, "--format", f, "--no-findings", p)
		if code != exitClean || !strings.Contains(without, "Research") || without != with {
			t.Errorf("--format %s --no-findings: exit %d; it differs from the same format with findings (which it counts on no node):\n%s", f, code, without)
		}
	}
	if code, _, errs := runGraphCmd(t, "--no-findings", "--flow", "no-such-flow", p); code == exitClean || !strings.Contains(errs, "no-such-flow") {
		t.Errorf("--no-findings of a missing flow: exit %d: %s", code, errs)
	}
}

func TestGraphDOTAndMermaid(t *testing.T) {
	p := writeGraphAgent(t)
	code, out, _ := runGraphCmd(t, "--format", "dot", p)
	if code != exitClean || !strings.HasPrefix(out, `digraph "g-flow" {`) || strings.Count(out, " -> ") != 5 {
		t.Fatalf("dot: exit %d\n%s", code, out)
	}
	code, out, _ = runGraphCmd(t, "--format", "mermaid", "--flow", "inner-flow", p)
	if code != exitClean || !strings.HasPrefix(out, "flowchart TD\n") || strings.Count(out, "-->") != 1 {
		t.Fatalf("mermaid: exit %d\n%s", code, out)
	}
}

func TestGraphErrors(t *testing.T) {
	p := writeGraphAgent(t)
	bad := filepath.Join(t.TempDir(), "bad.json")
	if err := os.WriteFile(bad, []byte(`{"component_type": "Flow",`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		msg  string
	}{
		{[]string{"--format", "svg", p}, "unknown --format"},
		{[]string{"--flow", "nope", p}, `no Flow with id "nope"`},
		{[]string{filepath.Join(t.TempDir(), "missing")}, "graph:"},
		{[]string{bad}, "invalid JSON"},
		{[]string{}, "accepts 1 arg"},
	} {
		code, _, errs := runGraphCmd(t, tc.args...)
		if code != exitUsage || !strings.Contains(errs, tc.msg) {
			t.Errorf("%v: exit %d, stderr %q (want %q)", tc.args, code, errs, tc.msg)
		}
	}
}

// TestGraphCorpusAndTestdata: every corpus and testdata agent draws, in
// each format (the drawings themselves are flowgraph's goldens).
func TestGraphCorpusAndTestdata(t *testing.T) {
	dirs, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "agents", "oastui", "*"))
	corpus, _ := filepath.Glob(filepath.Join(testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai"), "*"))
	// Under -race every third agent (each a single-goroutine render); the
	// pass without -race draws them all.
	for i, d := range append(dirs, corpus...) {
		if i%race.Stride(3) != 0 {
			continue
		}
		for _, f := range []string{"text", "dot", "mermaid"} {
			code, out, errs := runGraphCmd(t, "--format", f, d)
			if code != exitClean || out == "" {
				t.Errorf("%s %s: exit %d %s", d, f, code, errs)
			}
		}
	}
}
