package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
)

// sweepKey is a provider key used inside identifiers of the hostile agent
// (a placeholder name and the input titles it matches).
const sweepKey = "AKIAZ4R7M2KQ9X3B5T6W"

// sweepHexKey is a provider key with a hex body, the id of a node: in a
// JSON Pointer it is a path segment (issue 26's leftover: a key inside a
// path was shown raw).
const sweepHexKey = "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"

// sweepRaw is what no face may show of the hostile agent: the parts of
// hostile.Secrets, the key inside identifiers and an escape character.
var sweepRaw = append(append([]string{}, hostile.Raw...), sweepKey, sweepHexKey, "\x1b")

// hostileAgent is the example agent with secrets and terminal controls
// in its ids and component keys (the node "publish" is named by a GitHub
// token, the node "collect_changes" by a key with a hex body, the node
// "notify" by an id with controls), a placeholder name
// and the input titles it matches (a key inside an identifier), the
// flow's name and description, an input's title, an LLM's system prompt
// and a note beside a drifted packageVersion (a fix on offer): each holds
// hostile.Secrets and an escape sequence.
func hostileAgent(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "agents", "oastui", "example-agent")
	copyTree(t, exampleAgent, dir)
	p := filepath.Join(dir, "cinatra", "oas.json")
	b, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	lit := func(s string) string { // s as the inside of a JSON string
		q, _ := json.Marshal(s)
		return string(q[1 : len(q)-1])
	}
	bad := lit("\x1b[31m " + hostile.Secrets)
	s := string(b)
	for _, r := range [][2]string{
		{`"publish"`, `"` + hostile.Token + `"`},
		{`"collect_changes"`, `"` + sweepHexKey + `"`},
		{`"notify"`, `"notify` + lit("\u202e\x1b[2J\u009b1m") + `"`},
		// a fixable finding on a line holding the secrets: every fix
		// preview shows them
		{`"packageVersion": "0.1.0"`, `"x_note": "` + bad + `", "packageVersion": "9.9.9"`},
		{`releaseUrl`, `secret_` + sweepKey},
		{`"name": "Release Notes Agent"`, `"name": "Release Notes Agent ` + bad + `"`},
		{`"description": "Drafts release notes`, `"description": "` + bad + ` Drafts release notes`},
		{`"title": "From tag"`, `"title": "From tag ` + bad + `"`},
		{`"system_prompt": "You announce software releases to the team.`, `"system_prompt": "You announce software releases to the team. ` + bad},
	} {
		if !strings.Contains(s, r[0]) {
			t.Fatalf("the example agent has no %s", r[0])
		}
		s = strings.ReplaceAll(s, r[0], r[1])
	}
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestSweepHelperProcess is the oastui binary of TestHostileSweep: this
// test binary re-executed with OASTUI_SWEEP_ARGS runs main's run on them.
func TestSweepHelperProcess(t *testing.T) {
	args := os.Getenv("OASTUI_SWEEP_ARGS")
	if args == "" {
		t.Skip("the binary of TestHostileSweep")
	}
	os.Exit(run(strings.Split(args, "\x1f"), os.Stdout, os.Stderr))
}

// runBinary runs the oastui binary (this test binary as main) with args in
// dir and returns its stdout and stderr.
func runBinary(t *testing.T, dir string, args ...string) (string, string) {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweepHelperProcess$")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "OASTUI_SWEEP_ARGS="+strings.Join(args, "\x1f"))
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil && out.Len()+errb.Len() == 0 {
		t.Logf("%v", err)
	}
	return out.String(), errb.String()
}

// shown lists what of sweepRaw out shows: as it is, and — when out is
// JSON or JSON lines — in the strings a client decodes from it.
func shown(out string) []string {
	text := out
	dec := json.NewDecoder(strings.NewReader(out))
	for {
		var v any
		if dec.Decode(&v) != nil {
			break
		}
		text += "\n" + strings.Join(jsonStrings(v, nil), "\n")
	}
	var found []string
	for _, r := range sweepRaw {
		if strings.Contains(text, r) {
			found = append(found, r)
		}
	}
	for _, r := range text {
		if r < 0x20 && r != '\n' && r != '\t' && r != '\r' && r != 0x1b {
			found = append(found, string(r))
			break
		}
	}
	return found
}

func jsonStrings(v any, acc []string) []string {
	switch v := v.(type) {
	case string:
		acc = append(acc, v)
	case map[string]any:
		for k, e := range v {
			acc = jsonStrings(e, append(acc, k))
		}
	case []any:
		for _, e := range v {
			acc = jsonStrings(e, acc)
		}
	}
	return acc
}

// TestHostileSweep runs every CLI face on the hostile agent and finds no
// raw secret and no control character in what it prints (stdout and
// stderr).
func TestHostileSweep(t *testing.T) {
	t.Parallel() // among the package's slowest: run together at its tail, where one core would idle; only run(), no chdir, env or package variable
	dir := hostileAgent(t)
	base := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
	old := filepath.Join(t.TempDir(), "old")
	copyTree(t, exampleAgent, old)
	for i, args := range [][]string{
		{"lint", "--format", "text", dir},
		{"lint", "--format", "json", dir},
		{"lint", "--format", "sarif", dir},
		{"lint", "--format", "github", dir},
		{"lint", "--format", "summary", dir},
		{"lint", "--diff", dir},
		{"compile", dir},
		{"graph", dir},
		{"graph", "--format", "dot", dir},
		{"graph", "--format", "mermaid", dir},
		{"prompts", dir},
		{"prompts", "--format", "json", dir},
		{"run", "--dry", dir},
		{"diff", "--no-index", old, dir},
		{"diff", "--no-index", "--format", "json", old, dir},
		{"diff", "--no-index", "--format", "markdown", old, dir},
		{"diff", "--no-index", "--format", "github", old, dir},
		{"diff", "--no-index", dir, old},
		{"baseline", dir},
	} {
		// Each face a process of its own (the test binary again). Under
		// -race lint's JSON face (the report writes from goroutines) and
		// every second of the others (every lint face masks on the same
		// goroutines; the rest are single-goroutine renders); all of them
		// in CI's run without -race.
		if i%race.Stride(2) != 0 && !(len(args) > 2 && args[0] == "lint" && args[2] == "json") {
			continue
		}
		t.Run(strings.Join(args[:len(args)-1], " "), func(t *testing.T) {
			out, errOut := runBinary(t, base, args...)
			if out == "" && errOut == "" {
				t.Fatal("no output")
			}
			if s := shown(out); len(s) > 0 {
				t.Errorf("stdout shows %q:\n%.30000s", s, out)
			}
			if s := shown(errOut); len(s) > 0 {
				t.Errorf("stderr shows %q:\n%.3000s", s, errOut)
			}
		})
	}
}

// TestHostileSweepServers: the language server (diagnostics, hovers on
// the hostile ids, names and placeholder, the code actions of every
// diagnostic) and the MCP server (every tool; agent_fix on every fix the
// review offers; agent_diff against the clean agent committed to git)
// show no raw secret and no control character on the hostile agent.
func TestHostileSweepServers(t *testing.T) {
	if testing.Short() {
		t.Skip("starts processes")
	}
	dir := hostileAgent(t)
	agents := filepath.Dir(filepath.Dir(dir))
	root := filepath.Dir(agents)
	flow := filepath.Join(dir, "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	if s := shown(string(src)); len(s) != len(sweepRaw) {
		t.Fatalf("the hostile agent holds %q of %q", s, sweepRaw)
	}
	check := func(what, out string) {
		t.Helper()
		if s := shown(out); len(s) > 0 {
			t.Errorf("%s shows %q:\n%.3000s", what, s, out)
		}
	}

	t.Run("lsp", func(t *testing.T) {
		c := startLSP(t)
		uri := fileURI(flow)
		if _, rerr := c.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(agents), "capabilities": map[string]any{}}); rerr != nil {
			t.Fatal(string(rerr))
		}
		c.notify("initialized", map[string]any{})
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": uri, "languageId": "json", "version": 1, "text": string(src)}})
		ds := c.diagnostics(uri, func(ds []lspDiag) bool { return len(ds) > 0 })
		js, _ := json.Marshal(ds)
		check("diagnostics", string(js))
		text := string(src)
		hovers := 0
		for _, at := range []string{hostile.Token, `"` + hostile.Token + `": {`, `"id": "` + hostile.Token, `"id": "notify`, `"notify`, "secret_" + sweepKey, "{{ secret_" + sweepKey, "Release Notes Agent", "From tag", "You announce"} {
			i := strings.Index(text, at)
			if i < 0 {
				t.Fatalf("no %q in the hostile flow", at)
			}
			res, rerr := c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": uri}, "position": posOf(text, i+len(at)/2)})
			check("hover on "+at[:4], string(res)+string(rerr))
			if len(res) > 10 {
				hovers++
			}
		}
		if hovers < 4 {
			t.Errorf("%d hovers answered on the hostile nodes", hovers)
		}
		res, rerr := c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": uri},
			"range": lspRange{End: posOf(text, len(text))}, "context": map[string]any{"diagnostics": ds}})
		if len(res) < 10 {
			t.Errorf("no code actions: %s %s", res, rerr)
		}
		check("code actions", string(res)+string(rerr))
	})

	t.Run("mcp", func(t *testing.T) {
		// agent_diff compares the working tree with HEAD: the clean agent
		// committed, the hostile one on disk
		git := func(args ...string) {
			cmd := exec.Command("git", args...)
			cmd.Dir = root
			cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
			if out, err := cmd.CombinedOutput(); err != nil {
				t.Skipf("git %v: %v %s", args, err, out)
			}
		}
		clean, err := os.ReadFile(filepath.Join(exampleAgent, "cinatra", "oas.json"))
		if err != nil {
			t.Fatal(err)
		}
		git("init", "-q")
		if err := os.WriteFile(flow, clean, 0o644); err != nil {
			t.Fatal(err)
		}
		git("add", "-A")
		git("commit", "-qm", "clean")
		if err := os.WriteFile(flow, src, 0o644); err != nil {
			t.Fatal(err)
		}

		cmd := exec.Command(os.Args[0], "-test.run=^TestMCPHelperProcess$")
		cmd.Env = append(os.Environ(), "OASTUI_MCP_HELPER=1", "OASTUI_MCP_ARGS=mcp --root "+root)
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "sweep", Version: "1"}, nil).Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cs.Close()
		call := func(name string, args map[string]any) map[string]any {
			t.Helper()
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			js, _ := json.Marshal(res)
			check(name, string(js))
			var out map[string]any
			if b, err := json.Marshal(res.StructuredContent); err == nil {
				_ = json.Unmarshal(b, &out)
			}
			return out
		}
		tools, err := cs.ListTools(ctx, nil)
		if err != nil {
			t.Fatal(err)
		}
		rel := "agents/oastui/example-agent"
		called := map[string]bool{}
		rev := call("agent_source_review", map[string]any{"path": rel})
		called["agent_source_review"] = true
		fixes, _ := rev["fixes"].([]any)
		if len(fixes) == 0 {
			t.Errorf("the review offers no fix: %v", rev)
		}
		for _, f := range fixes {
			call("agent_fix", map[string]any{"path": rel, "fix": f.(map[string]any)["fingerprint"]})
		}
		call("agent_fix", map[string]any{"path": rel, "fix": "all"})
		called["agent_fix"] = true
		for name, args := range map[string]map[string]any{
			"agent_compile":   {"path": rel},
			"agent_graph":     {"path": rel},
			"context_resolve": {"path": rel, "slot": "styleContext"},
			"agent_diff":      {"path": rel},
		} {
			call(name, args)
			called[name] = true
		}
		for _, tl := range tools.Tools {
			if !called[tl.Name] {
				t.Errorf("tool %s is not swept", tl.Name)
			}
		}
	})
}

// TestSweepShown: the sweep's check sees each part of sweepRaw, as it is
// and as a JSON client decodes it.
func TestSweepShown(t *testing.T) {
	for _, r := range sweepRaw {
		q, _ := json.Marshal(map[string]string{"k": "a" + r + "b"})
		if len(shown("x"+r+"y")) == 0 || len(shown(string(q))) == 0 {
			t.Errorf("%q is not seen", r)
		}
	}
	if s := shown("ok ghp_…40 \t\n"); len(s) > 0 {
		t.Errorf("clean text: %q", s)
	}
}
