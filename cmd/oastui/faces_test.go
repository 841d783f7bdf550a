package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/present"
)

// The attack of issue 11 item 5: OSC 0 (window title), OSC 52 (clipboard)
// and ESC [ 2 J (clear screen), plus the 8-bit CSI, in a component id, a
// URL and the agent's directory name.
const facesPayload = "\x1b]0;title\x07\x1b]52;c;cHduZWQ=\x07\x1b[2J\u009b2J"

// copyTree copies the regular files of src below dst.
func copyTree(t *testing.T, src, dst string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// writeInjectionAgent copies the urls-everywhere fixture into a directory
// whose name holds the payload, with the payload in a node id and a URL.
func writeInjectionAgent(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "agent"+facesPayload)
	copyTree(t, "../../lint/testdata/rules/err/untrusted_external_url/urls-everywhere", dir)
	p := filepath.Join(dir, "cinatra", "oas.json")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	q, _ := json.Marshal(facesPayload)
	j := strings.Trim(string(q), `"`)
	s := strings.ReplaceAll(string(src), `"inline_call"`, `"inline`+j+`"`)
	s = strings.ReplaceAll(s, "http://inline.evil.example/hook", "http://inline.evil.example/"+j+"hook")
	if s == string(src) || !strings.Contains(s, `\u001b`) {
		t.Fatal("fixture not patched")
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// rawControls counts ESC, BEL and C1 characters (U+0080–U+009F).
func rawControls(s string) int {
	n := 0
	for _, r := range s {
		if r == 0x1b || r == 0x07 || (r >= 0x80 && r <= 0x9f) {
			n++
		}
	}
	return n
}

// TestNoEscapeInAnyFace: no CLI face writes a raw ESC, BEL or C1 control
// from the agent or a PATH argument, to stdout or stderr (issue 11 item 5;
// before, `lint --format github` wrote 54 ESC and 36 BEL bytes on this
// fixture and json 18 raw C1 characters).
func TestNoEscapeInAnyFace(t *testing.T) {
	dir := writeInjectionAgent(t)
	faces := map[string][]string{
		"lint text":     {"lint", "--format", "text", dir},
		"lint json":     {"lint", "--format", "json", dir},
		"lint sarif":    {"lint", "--format", "sarif", dir},
		"lint github":   {"lint", "--format", "github", dir},
		"graph text":    {"graph", dir},
		"graph dot":     {"graph", "--format", "dot", dir},
		"graph mermaid": {"graph", "--format", "mermaid", dir},
		"lint missing":  {"lint", dir + "-missing"},
		"graph missing": {"graph", dir + "-missing"},
		"lint format":   {"lint", "--format", facesPayload, dir},
	}
	for name, args := range faces {
		_, out, errOut := runCLI(t, args...)
		if out == "" && errOut == "" {
			t.Errorf("%s: no output", name)
		}
		if n := rawControls(out); n > 0 {
			t.Errorf("%s: %d raw ESC/BEL/C1 characters on stdout", name, n)
		}
		if n := rawControls(errOut); n > 0 {
			t.Errorf("%s: %d raw ESC/BEL/C1 characters on stderr: %q", name, n, errOut)
		}
	}
	// The payload reached the findings (the test is not vacuous): the json
	// face carries it escaped.
	_, out, _ := runCLI(t, "lint", "--format", "json", dir)
	if !strings.Contains(out, `\u001b]52`) || !strings.Contains(out, `\u009b`) {
		t.Errorf("the payload is not in the json output at all:\n%.600s", out)
	}
}

var (
	facesAnthropicRe = regexp.MustCompile(`sk-ant-api03-[\w-]{93}AA`)
	facesGitHubRe    = regexp.MustCompile(`ghp_[A-Za-z0-9]{36}`)
	facesURLPwRe     = regexp.MustCompile(`://[^:/"@]+:([^@/"]+)@`)
)

// facesSecrets returns labelled secrets of the shared sample set that the
// detector knows (Redact masks them in a name), at most n.
func facesSecrets(t *testing.T, n int) []string {
	t.Helper()
	f, err := os.Open(filepath.Join(testshared.Dir(t, "corpus", "secrets"), "gitleaks-samples.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	seen := map[string]bool{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<24)
	for sc.Scan() && len(out) < n {
		var r struct{ Value, Label string }
		if json.Unmarshal(sc.Bytes(), &r) != nil || r.Label != "secret" || len(r.Value) < 20 || len(r.Value) > 200 ||
			strings.ContainsAny(r.Value, "\n\r\"\\ ") || seen[r.Value[:8]] {
			continue
		}
		if red := present.Redact("tok " + r.Value); red == "tok "+r.Value || strings.Contains(red, r.Value[4:16]) {
			continue // not something the detector knows
		}
		seen[r.Value[:8]] = true
		out = append(out, r.Value)
	}
	if len(out) < 10 {
		t.Fatalf("only %d labelled secrets usable", len(out))
	}
	return out
}

// writeSecretFlow writes an agent whose node names, one node id, a URL in
// a minified line (slashes escaped) and a prompt hold the present.
func writeSecretFlow(t *testing.T, secs []string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "sec-agent")
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	nodes := []any{map[string]any{"component_type": "StartNode", "id": "s", "name": "start"}}
	var edges []any
	for i, s := range secs {
		id := fmt.Sprintf("n%d", i)
		if i == 0 {
			id = s
		}
		nodes = append(nodes, map[string]any{"component_type": "LlmNode", "id": id, "name": "tok " + s,
			"prompt_template": "use key " + s})
		edges = append(edges, map[string]any{"component_type": "ControlFlowEdge", "name": fmt.Sprintf("e%d", i),
			"from_node": map[string]any{"$component_ref": "s"}, "to_node": map[string]any{"$component_ref": id}})
	}
	nodes = append(nodes, map[string]any{"component_type": "ApiNode", "id": "api", "name": "api",
		"url": "https://admin:" + secs[1] + "@db.evil.example/hook", "http_method": "GET"})
	flow := map[string]any{"agentspec_version": "26.1.0", "component_type": "Flow", "id": "sec-flow", "name": "sec",
		"start_node": map[string]any{"$component_ref": "s"}, "nodes": nodes, "control_flow_connections": edges,
		"data_flow_connections": []any{}, "inputs": []any{}, "outputs": []any{}}
	b, _ := json.Marshal(flow) // minified: one line
	b = []byte(strings.ReplaceAll(string(b), "/", `\/`))
	if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestNoRawSecretInAnyFace greps every CLI face (lint text/json/sarif/
// github, graph text/dot/mermaid, compile's refusal) for every secret of
// the fixtures: the four of secrets-everywhere, and labelled secrets of
// the shared sample set put in node names, a node id, prompts and a URL
// of a minified file. Any 12 characters of a secret past the first four
// (what a mask may show) count as a leak.
func TestNoRawSecretInAnyFace(t *testing.T) {
	t.Parallel() // among the package's slowest: run together at its tail, where one core would idle; only run(), no chdir, env or package variable
	everywhere := "../../lint/testdata/rules/err/literal_credential_detected/secrets-everywhere"
	src, err := os.ReadFile(filepath.Join(everywhere, "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	fixed := append(facesAnthropicRe.FindAllString(string(src), -1), facesGitHubRe.FindAllString(string(src), -1)...)
	for _, m := range facesURLPwRe.FindAllStringSubmatch(string(src), -1) {
		if len(m[1]) >= 16 {
			fixed = append(fixed, m[1])
		}
	}
	if len(fixed) < 4 {
		t.Fatalf("found %d secrets in %s", len(fixed), everywhere)
	}
	labelled := facesSecrets(t, 24)
	cases := map[string][]string{everywhere: fixed, writeSecretFlow(t, labelled): labelled}
	for dir, secs := range cases {
		faces := map[string][]string{
			"lint text":     {"lint", "--format", "text", dir},
			"lint json":     {"lint", "--format", "json", dir},
			"lint sarif":    {"lint", "--format", "sarif", dir},
			"lint github":   {"lint", "--format", "github", dir},
			"graph text":    {"graph", dir},
			"graph dot":     {"graph", "--format", "dot", dir},
			"graph mermaid": {"graph", "--format", "mermaid", dir},
			"compile":       {"compile", dir},
		}
		for name, args := range faces {
			code, out, errOut := runCLI(t, args...)
			if name == "compile" && code == 0 {
				// not refused: the compiled artefact is the compiler's own
				// face, outside this test (issue 11 item 4, TUI/compile part)
				continue
			}
			if len(out)+len(errOut) < 40 {
				t.Errorf("%s %s: no output: %q %q", name, filepath.Base(dir), out, errOut)
			}
			leaks := 0
			for _, s := range secs {
				for i := 4; i+12 <= len(s); i += 4 {
					if part := s[i : i+12]; strings.Contains(out, part) || strings.Contains(errOut, part) {
						leaks++
						t.Logf("%s: %s… (%d chars) shown", name, s[:4], len(s))
						break
					}
				}
			}
			if leaks > 0 {
				t.Errorf("%s on %s: %d of %d secrets shown raw", name, filepath.Base(dir), leaks, len(secs))
			}
		}
	}
}
