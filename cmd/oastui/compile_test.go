package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/internal/testshared"
)

const exampleAgent = "../../testdata/agents/oastui/example-agent"

func runCLI(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var o, e bytes.Buffer
	code = run(args, &o, &e)
	return code, o.String(), e.String()
}

func TestCompileCommandOK(t *testing.T) {
	code, out, errOut := runCLI(t, "compile", exampleAgent)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errOut)
	}
	if !strings.HasPrefix(out, "{\n  \"ok\": true,\n  \"value\": {\n    \"approvalPolicy\": {") || !strings.HasSuffix(out, "}\n") {
		t.Errorf("unexpected layout:\n%.300s", out)
	}
	var doc struct {
		OK    bool           `json:"ok"`
		Value map[string]any `json:"value"`
	}
	if err := json.Unmarshal([]byte(out), &doc); err != nil || !doc.OK || doc.Value["packageName"] != "@oastui/example-agent" {
		t.Fatalf("bad document (%v): %.300s", err, out)
	}
	if strings.Contains(out, `\u003c`) || strings.Contains(out, `\u0026`) {
		t.Errorf("HTML-escaped output")
	}
	_, again, _ := runCLI(t, "compile", "--format", "json", exampleAgent)
	if again != out {
		t.Errorf("output not byte-identical on rerun")
	}
}

func TestCompileCommandOut(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "compiled.json")
	if err := os.WriteFile(dst, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := runCLI(t, "compile", "--out", dst, exampleAgent)
	if code != 0 || out != "" {
		t.Fatalf("exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	_, want, _ := runCLI(t, "compile", exampleAgent)
	got, err := os.ReadFile(dst)
	if err != nil || string(got) != want {
		t.Fatalf("--out file differs from stdout output (%v)", err)
	}
	ents, _ := os.ReadDir(filepath.Dir(dst))
	if len(ents) != 1 {
		t.Errorf("temporary files left behind: %v", ents)
	}
	if st, _ := os.Stat(dst); st.Mode().Perm() != 0o600 {
		t.Errorf("mode of the replaced file changed to %v", st.Mode().Perm())
	}
}

// noGate runs a test without the review gate, to exercise the compiler's
// own failures.
func noGate(t *testing.T) {
	saved := compileGate
	compileGate = nil
	t.Cleanup(func() { compileGate = saved })
}

func writeAgent(t *testing.T, oas string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "agents", "acme", "broken-agent")
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), []byte(oas), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(`{"name":"@acme/broken-agent","version":"1.0.0","license":"MIT"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestCompileCommandFailures(t *testing.T) {
	noGate(t)
	structural := writeAgent(t, `{"agentspec_version":"26.1.0","component_type":"Flow","id":"x","name":"X","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"control_flow_connections":[],"$referenced_components":{}}`)
	noEnd := writeAgent(t, `{"agentspec_version":"26.1.0","component_type":"Flow","id":"x","name":"X","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"}],"control_flow_connections":[],"$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"S","inputs":[]}}}`)
	badJSON := writeAgent(t, `{"agentspec_version": `)
	for _, tc := range []struct {
		name, dir, want string
	}{
		{"structural", structural, "OAS structural validation failed for @acme/broken-agent:\nnodes: Invalid input: expected array, received undefined"},
		{"no end node", noEnd, `flow has no EndNode (expected exactly one node with component_type: "EndNode")`},
		{"invalid JSON", badJSON, "is malformed JSON"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dst := filepath.Join(t.TempDir(), "out.json")
			code, out, _ := runCLI(t, "compile", "--out", dst, tc.dir)
			if code != 1 {
				t.Fatalf("exit %d, want 1", code)
			}
			var doc struct {
				OK    *bool  `json:"ok"`
				Error string `json:"error"`
			}
			if err := json.Unmarshal([]byte(out), &doc); err != nil || doc.OK == nil || *doc.OK || !strings.Contains(doc.Error, tc.want) {
				t.Fatalf("got %q, want an ok:false error containing %q", out, tc.want)
			}
			if !strings.HasPrefix(out, "{\n  \"ok\": false,\n  \"error\": ") {
				t.Errorf("layout: %q", out)
			}
			if _, err := os.Stat(dst); err == nil {
				t.Errorf("--out written although the agent does not compile")
			}
		})
	}
}

func TestCompileCommandUsageErrors(t *testing.T) {
	empty := t.TempDir()
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"not an agent", []string{"compile", empty}},
		{"missing path", []string{"compile", filepath.Join(empty, "nope")}},
		{"no path", []string{"compile"}},
		{"bad format", []string{"compile", "--format", "yaml", exampleAgent}},
		{"missing registry", []string{"compile", "--registry", filepath.Join(empty, "none.json"), exampleAgent}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := runCLI(t, tc.args...)
			if code != 2 || out != "" || errOut == "" {
				t.Fatalf("exit %d, stdout %q, stderr %q; want 2 with a message", code, out, errOut)
			}
		})
	}
}

func TestCompileCommandRegistryFlag(t *testing.T) {
	noGate(t)
	// A registry without shared-llm-config: the leaf agent's llmConfig is null.
	reg := filepath.Join(t.TempDir(), "components.json")
	if err := os.WriteFile(reg, []byte(`{"components":{}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, _ := runCLI(t, "compile", "--registry", reg, "../../testdata/agents/oastui/leaf-agent")
	if code != 0 || !strings.Contains(out, `"llmConfig": null`) {
		t.Fatalf("exit %d: %.400s", code, out)
	}
	code, out, _ = runCLI(t, "compile", "../../testdata/agents/oastui/leaf-agent")
	if code != 0 || !strings.Contains(out, `"modelId": "gpt-4o"`) {
		t.Fatalf("exit %d: %.400s", code, out)
	}
}

func TestCompileCommandGate(t *testing.T) {
	saved := compileGate
	defer func() { compileGate = saved }()
	blocked := []byte("{\n  \"error\": \"review_blocked: 1 deterministic blockers\",\n  \"code\": \"review_blocked\",\n  \"blockers\": []\n}\n")
	compileGate = func(s *analysis.Snapshot) ([]byte, bool) { return blocked, false }
	dst := filepath.Join(t.TempDir(), "out.json")
	code, out, _ := runCLI(t, "compile", "--out", dst, exampleAgent)
	if code != 1 || out != string(blocked) {
		t.Fatalf("exit %d, stdout %q", code, out)
	}
	if _, err := os.Stat(dst); err == nil {
		t.Errorf("--out written although the gate blocked")
	}
	compileGate = func(s *analysis.Snapshot) ([]byte, bool) { return nil, true }
	if code, _, _ := runCLI(t, "compile", exampleAgent); code != 0 {
		t.Errorf("passing gate: exit %d", code)
	}
}

// TestCompileCommandCorpus: the CLI's document equals the reference's
// `compile` for a corpus agent.
func TestCompileCommandCorpus(t *testing.T) {
	noGate(t)
	dir := testshared.Corpus(t)
	for slug, bound := range map[string]bool{"email-outreach-agent": false, "blog-pipeline-agent": true} {
		code, out, errOut := runCLI(t, "compile", filepath.Join(dir, "agents", "cinatra-ai", slug))
		if code != 0 {
			t.Fatalf("%s: exit %d %s", slug, code, errOut)
		}
		src, err := os.ReadFile(filepath.Join(dir, "expected", slug+".json"))
		if err != nil {
			t.Fatal(err)
		}
		var exp struct {
			Compile any `json:"compile"`
		}
		var got any
		if json.Unmarshal(src, &exp) != nil || json.Unmarshal([]byte(out), &got) != nil {
			t.Fatal("bad JSON")
		}
		// The reference is the pinned compiler's, older than
		// hasArtifactBindings (cinatra#2498): held on its own, then left out.
		if v, ok := got.(map[string]any)["value"].(map[string]any); ok {
			if v["hasArtifactBindings"] != bound {
				t.Errorf("%s: hasArtifactBindings %v, want %v", slug, v["hasArtifactBindings"], bound)
			}
			delete(v, "hasArtifactBindings")
		}
		if !reflect.DeepEqual(got, exp.Compile) {
			t.Errorf("%s: CLI output differs from the reference", slug)
		}
	}
}

// TestCompileCommandOutSpecialFile: -o over a FIFO (a device in the
// attack: -o /dev/full as root replaced the device with a regular file) or
// a symlink exits 2 with a clear message and leaves it as it was.
func TestCompileCommandOutSpecialFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "out.fifo")
	mkfifo(t, fifo)
	target := filepath.Join(dir, "target.json")
	if err := os.WriteFile(target, []byte("keep"), 0o644); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, want string
		mode       os.FileMode
	}{{fifo, "not a regular file (a FIFO); refusing to replace it", os.ModeNamedPipe}, {link, "is a symlink; refusing to write through it", os.ModeSymlink}} {
		code, out, errOut := runCLI(t, "compile", "-o", tc.path, exampleAgent)
		if code != exitUsage || out != "" || !strings.Contains(errOut, "compile: --out: "+tc.path+": ") || !strings.Contains(errOut, tc.want) {
			t.Errorf("-o %s: exit %d, stdout %q, stderr %q", tc.path, code, out, errOut)
		}
		if st, err := os.Lstat(tc.path); err != nil || st.Mode().Type() != tc.mode {
			t.Errorf("%s is now %v (%v)", tc.path, st.Mode(), err)
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "keep" {
		t.Errorf("the symlink's target was overwritten: %q", b)
	}
	if ents, _ := os.ReadDir(dir); len(ents) != 3 {
		t.Errorf("files left behind: %v", ents)
	}
}
