package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/oastui/oastui/internal/testshared"
)

// TestMCPHelperProcess is the oastui binary in TestMCPEndToEnd: this test
// binary re-executed with OASTUI_MCP_HELPER set runs `oastui mcp` (main's
// run) on its own stdin and stdout and exits.
func TestMCPHelperProcess(t *testing.T) {
	if os.Getenv("OASTUI_MCP_HELPER") != "1" {
		return
	}
	if word := os.Getenv("OASTUI_MCP_PANIC_ON"); word != "" {
		// a fault only this test binary can inject: a tool call whose
		// arguments hold word panics inside the server
		mcpBeforeCall = func(tool string, args []byte) {
			if bytes.Contains(args, []byte(word)) {
				panic("injected panic in " + tool)
			}
		}
	}
	os.Exit(run(strings.Fields(os.Getenv("OASTUI_MCP_ARGS")), os.Stdout, os.Stderr))
}

// TestMCPEndToEnd drives `oastui mcp` as a client does: the SDK's own
// client over the command transport lists the tools and calls each one on
// a corpus agent copied to a temporary root (with a fake token planted in
// it), checks that escapes are refused, that the token is masked, and that
// a fix is written only when asked.
func TestMCPEndToEnd(t *testing.T) {
	corpus := testshared.Corpus(t)
	root := t.TempDir()
	agent := filepath.Join(root, "agents", "cinatra-ai", "email-outreach-agent")
	copyTree(t, filepath.Join(corpus, "agents", "cinatra-ai", "email-outreach-agent"), agent)
	token := testshared.FakeGitHub
	flow := filepath.Join(agent, "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	const name = `"name": "Campaign setup"`
	if !bytes.Contains(src, []byte(name)) {
		t.Fatalf("%s: no %s", flow, name)
	}
	src = bytes.Replace(src, []byte(name), []byte(`"name": "Campaign setup `+token+`"`), 1)
	if err := os.WriteFile(flow, src, 0o644); err != nil {
		t.Fatal(err)
	}

	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil { // the repository root fingerprints are relative to
		t.Fatal(err)
	}

	cmd := exec.Command(os.Args[0], "-test.run=^TestMCPHelperProcess$")
	cmd.Env = append(os.Environ(), "OASTUI_MCP_HELPER=1", "OASTUI_MCP_PANIC_ON=boom-injected", "OASTUI_MCP_ARGS=mcp --root "+root)
	cmd.Stderr = os.Stderr
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "oastui-e2e", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.CommandTransport{Command: cmd}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()

	tools, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(tools.Tools) != 6 {
		t.Errorf("%d tools", len(tools.Tools))
	}
	for _, tool := range tools.Tools {
		if tool.InputSchema == nil || tool.OutputSchema == nil {
			t.Errorf("%s has no input or output schema", tool.Name)
		}
	}

	call := func(name string, args map[string]any) (*mcp.CallToolResult, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, _ := json.Marshal(res)
		if strings.Contains(string(b), token) {
			t.Errorf("%s: the fake token is in the result unmasked", name)
		}
		var out map[string]any
		if !res.IsError {
			sb, _ := json.Marshal(res.StructuredContent)
			if err := json.Unmarshal(sb, &out); err != nil {
				t.Fatalf("%s: %v", name, err)
			}
		}
		return res, out
	}
	errText := func(res *mcp.CallToolResult) string {
		if !res.IsError || len(res.Content) == 0 {
			return ""
		}
		tc, _ := res.Content[0].(*mcp.TextContent)
		if tc == nil {
			return ""
		}
		return tc.Text
	}

	rel := "agents/cinatra-ai/email-outreach-agent"
	// A tool call that panics inside the server process (a fault the
	// test binary injects: mcpBeforeCall) is that call's error result;
	// the same process answers every call after it.
	for tool, args := range map[string]map[string]any{
		"agent_source_review": {"path": "boom-injected"},
		"agent_graph":         {"path": rel, "flow": "boom-injected"},
	} {
		if res, _ := call(tool, args); !strings.Contains(errText(res), "internal error in "+tool+": injected panic") {
			t.Errorf("%s with a panic: %v %q", tool, res.IsError, errText(res))
		}
	}
	res, rev := call("agent_source_review", map[string]any{"path": rel})
	if res.IsError || len(rev["findings"].([]any)) == 0 || rev["gate"] == nil {
		t.Fatalf("review: %v", rev)
	}
	var fixID, altFP string
	for _, f := range rev["fixes"].([]any) {
		fo := f.(map[string]any)
		if fo["code"] == "flow_duplicate_node_name" && fixID == "" {
			fixID = fo["id"].(string)
		}
		if fo["alternatives"] != nil && altFP == "" {
			altFP = fo["fingerprint"].(string)
		}
	}
	// The fingerprints are the CLI's: oastui baseline holds each of them.
	var out, errb bytes.Buffer
	if code := run([]string{"baseline", agent}, &out, &errb); code != exitClean && code != exitFindings {
		t.Fatalf("baseline: exit %d: %s", code, errb.String())
	}
	var bl Baseline
	if err := json.Unmarshal(out.Bytes(), &bl); err != nil {
		t.Fatal(err)
	}
	inBaseline := map[string]bool{}
	for _, e := range bl.Findings {
		inBaseline[e.Fingerprint] = true
	}
	for _, f := range rev["fixes"].([]any) {
		if fp := f.(map[string]any)["fingerprint"].(string); !inBaseline[fp] {
			t.Errorf("fingerprint %s of %v is not in oastui baseline's %d", fp, f.(map[string]any)["id"], len(bl.Findings))
		}
	}
	if altFP == "" {
		t.Errorf("no finding with alternative fixes: %v", rev["fixes"])
	} else {
		_, first := call("agent_fix", map[string]any{"path": rel, "fix": altFP})
		_, second := call("agent_fix", map[string]any{"path": rel, "fix": altFP, "choice": 1})
		if first["diff"] == "" || first["diff"] == second["diff"] {
			t.Errorf("choice 1 gives the same diff as the first fix:\n%v", second["diff"])
		}
	}
	if fixID == "" {
		t.Fatalf("no flow_duplicate_node_name fix on offer: %v", rev["fixes"])
	}
	if res, out := call("agent_compile", map[string]any{"path": rel}); res.IsError || out["ok"] == nil {
		t.Errorf("compile: %v %s", out, errText(res))
	}
	res, g := call("agent_graph", map[string]any{"path": rel})
	if res.IsError || len(g["nodes"].([]any)) == 0 || len(g["order"].([]any)) != len(g["nodes"].([]any)) || !strings.Contains(g["drawing"].(string), "ghp_…") {
		t.Errorf("graph: %v %s", g["order"], errText(res))
	}
	res, _ = call("context_resolve", map[string]any{"path": rel, "slot": "nope"})
	if !strings.Contains(errText(res), "the agent's context slots: offeringContext") {
		t.Errorf("resolve of an unknown slot: %q", errText(res))
	}
	// The slot against the demo catalog, as oastui resolve prints it.
	catalog := filepath.Join(root, ".oastui", "catalog.json")
	copyTree(t, filepath.Join("..", "..", "testdata", ".oastui"), filepath.Dir(catalog))
	var want bytes.Buffer
	if code := run([]string{"resolve", agent, "--slot", "offeringContext", "--catalog", catalog}, &want, io.Discard); code != exitClean {
		t.Fatalf("oastui resolve: exit %d", code)
	}
	res, rs := call("context_resolve", map[string]any{"path": rel, "slot": "offeringContext", "catalog": ".oastui/catalog.json"})
	var wantRS map[string]any
	if err := json.Unmarshal(want.Bytes(), &wantRS); err != nil {
		t.Fatal(err)
	}
	if res.IsError || len(rs["refs"].([]any)) == 0 || !reflect.DeepEqual(rs["refs"], wantRS["refs"]) || rs["slotId"] != wantRS["slotId"] {
		t.Errorf("context_resolve: %v %s\nwant %v", rs, errText(res), wantRS)
	}
	for _, p := range []string{"../", "/etc", filepath.Join(root, "..")} {
		res, _ := call("agent_source_review", map[string]any{"path": p})
		if !strings.Contains(errText(res), "outside the workspace roots") {
			t.Errorf("%s: %q", p, errText(res))
		}
	}

	before, _ := os.ReadFile(flow)
	res, fx := call("agent_fix", map[string]any{"path": rel, "fix": fixID})
	if res.IsError || !strings.Contains(fx["diff"].(string), "+      \"name\": ") {
		t.Fatalf("fix preview: %v %s", fx, errText(res))
	}
	if after, _ := os.ReadFile(flow); !bytes.Equal(before, after) {
		t.Fatal("the preview wrote the flow file")
	}
	res, fx = call("agent_fix", map[string]any{"path": rel, "fix": fixID, "apply": true})
	if res.IsError || fx["applied"] != true {
		t.Fatalf("fix apply: %v %s", fx, errText(res))
	}
	if after, _ := os.ReadFile(flow); bytes.Equal(before, after) {
		t.Fatal("apply wrote nothing")
	}
}

func TestMCPUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"mcp", "--root", filepath.Join(t.TempDir(), "missing")},
		{"mcp", "--registry", t.TempDir()},
		{"mcp", "extra"},
	} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != exitUsage || out.Len() != 0 {
			t.Errorf("%v: exit %d, stdout %q, stderr %q", args, code, out.String(), errb.String())
		}
	}
}
