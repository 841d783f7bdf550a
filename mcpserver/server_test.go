package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"github.com/oastui/oastui/lint"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/present"
)

// token is a fake credential planted in the test agent: no result may
// carry it.
var token = testshared.FakeGitHub

// rawControl finds a C0 control, C1 control or bidi override that the
// result's JSON encoding escaped: one that a client would decode.
var rawControl = regexp.MustCompile(`(^|[^\\])\\u(00[01][0-9a-fA-F]|009[bB]|202[eE])`)

// exampleAgent is the bundled example agent, relative to this package.
var exampleAgent = filepath.Join("..", "testdata", "agents", "oastui", "example-agent")

// workspace copies the example agent to dir/agents/oastui/<slug> with the
// catalog at dir/.oastui/catalog.json. dirty: without its license (a
// fixable blocker) and with the fake token in its description and in a
// node's name.
func workspace(t testing.TB, dir, slug string, dirty bool) string {
	t.Helper()
	agent := filepath.Join(dir, "agents", "oastui", slug)
	copyTree(t, exampleAgent, agent)
	copyFile(t, filepath.Join("..", "testdata", ".oastui", "catalog.json"), filepath.Join(dir, ".oastui", "catalog.json"))
	if dirty {
		pkg := filepath.Join(agent, "package.json")
		rewrite(t, pkg, `  "license": "Apache-2.0",`+"\n", "")
		rewrite(t, pkg, "    ]\n  }\n}", "    ],\n    \"note\": \"token "+token+"\"\n  }\n}")
		flow := filepath.Join(agent, "cinatra", "oas.json")
		rewrite(t, flow, `"description": "Drafts release notes for a repository:`, `"description": "Drafts release notes (token `+token+`) for a repository:`)
		rewrite(t, flow, `"name": "Choose release scope"`, `"name": "Choose \u001b]0;pwned\u0007\u009b2J\u202e `+token+`"`)
	}
	return agent
}

// tempDir is t.TempDir with its symlinks resolved (macOS's /var is one),
// as the server names the files it resolved.
func tempDir(t testing.TB) string {
	t.Helper()
	d, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func copyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		copyFile(t, p, filepath.Join(to, rel))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func copyFile(t testing.TB, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func rewrite(t testing.TB, path, old, new string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s: %q not found", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

// connect serves a new server with roots over an in-memory transport and
// returns the client session (protocol "" is the SDK's latest).
// testHook is the BeforeCall of the servers connect builds (nil: none).
var testHook func(tool string, args []byte)

func connect(t testing.TB, roots []string, client *mcp.Client, protocol string) *mcp.ClientSession {
	t.Helper()
	s, err := New(Options{Roots: roots, Version: "test", BeforeCall: testHook})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	ct, st := mcp.NewInMemoryTransports()
	ss, err := s.Connect(ctx, st, nil)
	if err != nil {
		t.Fatal(err)
	}
	if client == nil {
		client = mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	}
	cs, err := client.Connect(ctx, ct, &mcp.ClientSessionOptions{ProtocolVersion: protocol})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cs.Close(); ss.Close() })
	return cs
}

// callTool calls a tool and returns the result and its JSON (the whole
// result, for the masking checks).
func callTool(t testing.TB, cs *mcp.ClientSession, name string, args map[string]any) (*mcp.CallToolResult, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: name, Arguments: args})
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	b, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(b), token) {
		t.Errorf("%s: the result holds the fake token unmasked:\n%s", name, b)
	}
	// A control decoded from the agent shows as \u001b in the result's JSON;
	// one kept escaped in a JSON text content shows as \\u001b (harmless).
	if m := rawControl.FindString(string(b)); m != "" || strings.ContainsAny(string(b), "\u009b\u202e") {
		t.Errorf("%s: the result holds a control character %q (not sanitised):\n%.2000s", name, m, b)
	}
	return res, string(b)
}

// structured decodes a result's structured content into v.
func structured(t testing.TB, res *mcp.CallToolResult, v any) {
	t.Helper()
	if res.IsError {
		t.Fatalf("tool error: %s", text(res))
	}
	b, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%v\n%s", err, b)
	}
}

func text(res *mcp.CallToolResult) string {
	var parts []string
	for _, c := range res.Content {
		if tc, ok := c.(*mcp.TextContent); ok {
			parts = append(parts, tc.Text)
		}
	}
	return strings.Join(parts, "\n")
}

func wantError(t testing.TB, res *mcp.CallToolResult, sub string) {
	t.Helper()
	if !res.IsError {
		t.Fatalf("want a tool error containing %q, got success: %s", sub, text(res))
	}
	if !strings.Contains(text(res), sub) {
		t.Fatalf("want a tool error containing %q, got %q", sub, text(res))
	}
}

func TestToolsHaveSchemas(t *testing.T) {
	cs := connect(t, []string{tempDir(t)}, nil, "")
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]bool{"agent_source_review": true, "agent_compile": true, "agent_graph": true, "agent_fix": true, "context_resolve": true, "agent_diff": true}
	for _, tool := range res.Tools {
		if !want[tool.Name] {
			t.Errorf("unexpected tool %s", tool.Name)
		}
		delete(want, tool.Name)
		if tool.InputSchema == nil || tool.OutputSchema == nil || tool.Description == "" {
			t.Errorf("%s: input schema %v, output schema %v, description %q", tool.Name, tool.InputSchema != nil, tool.OutputSchema != nil, tool.Description)
		}
	}
	if len(want) > 0 {
		t.Errorf("missing tools: %v", want)
	}
}

func TestReviewCompileGraphResolve(t *testing.T) {
	dir := tempDir(t)
	agent := workspace(t, dir, "dirty-agent", true)
	clean := workspace(t, dir, "clean-agent", false)
	cs := connect(t, []string{dir}, nil, "")

	// The review: the lint JSON document, buckets, fixes on offer, the gate.
	res, _ := callTool(t, cs, "agent_source_review", map[string]any{"path": "agents/oastui/dirty-agent"})
	var rev ReviewOutput
	structured(t, res, &rev)
	snap := analysis.Run(agent, analysis.Options{})
	if len(rev.Findings) != len(snap.Review.Findings) || rev.SchemaVersion != 1 || rev.Summary.Files != 1 {
		t.Fatalf("review: %d findings (schema %d), the engine has %d", len(rev.Findings), rev.SchemaVersion, len(snap.Review.Findings))
	}
	for i, f := range rev.Findings {
		e := snap.Review.Findings[i]
		if f.Code != e.Code || f.Line != e.Line || f.Column != e.Column || f.Location != e.Location || f.Message != present.Redact(e.Message) {
			t.Errorf("finding %d: %+v, the engine: %+v", i, f, e)
		}
	}
	if len(rev.Buckets.Blockers) != len(snap.Review.Blockers) || len(rev.Buckets.Warnings) != len(snap.Review.Warnings) {
		t.Errorf("buckets %+v", rev.Buckets)
	}
	if !rev.Gate.Blocked || rev.Gate.Response == nil || rev.Gate.Response.Code != "review_blocked" {
		t.Errorf("gate %+v", rev.Gate)
	}
	var licence *FixOffer
	for i, f := range rev.Fixes {
		if f.Code == "agent_package_missing_license" {
			licence = &rev.Fixes[i]
		}
	}
	if licence == nil {
		t.Fatalf("no license fix on offer: %+v", rev.Fixes)
	}

	// Inline JSON, reviewed as the file at path: the same findings.
	src, err := os.ReadFile(filepath.Join(agent, "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": agent, "source": string(src), "mode": "advisory"})
	var inl ReviewOutput
	structured(t, res, &inl)
	if inl.Mode != "advisory" || inl.Summary.Blockers < rev.Summary.Blockers {
		t.Errorf("inline review: mode %s, %+v (disk: %+v)", inl.Mode, inl.Summary, rev.Summary)
	}
	// Inline JSON without a path, broken: an invalid_json blocker, no crash.
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"source": `{"component_type": "Flow",`})
	var broken ReviewOutput
	structured(t, res, &broken)
	if broken.Summary.Blockers == 0 || broken.Findings[0].Code != "invalid_json" {
		t.Errorf("broken inline source: %+v", broken.Findings)
	}
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": clean, "mode": "loud"})
	wantError(t, res, "mode must be")
	// Mode full: the review the CLI's --mode full gives (the dry run joins).
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": clean, "mode": "full"})
	var full ReviewOutput
	structured(t, res, &full)
	want := analysis.Run(clean, analysis.Options{Mode: lint.ModeFull})
	if full.Mode != "full" || len(full.Findings) != len(want.Review.Findings) {
		t.Errorf("mode full: mode %s, %d findings, want %d", full.Mode, len(full.Findings), len(want.Review.Findings))
	}

	// Compile: blocked by the gate (the response of oastui compile), then a
	// clean agent compiles; the text content is the CLI's document.
	res, _ = callTool(t, cs, "agent_compile", map[string]any{"path": agent})
	var co CompileOutput
	structured(t, res, &co)
	if co.OK || co.Code != "review_blocked" || len(co.Blockers) == 0 {
		t.Errorf("compile of the dirty agent: %+v", co)
	}
	res, _ = callTool(t, cs, "agent_compile", map[string]any{"path": clean})
	structured(t, res, &co)
	cleanSnap := analysis.Run(clean, analysis.Options{Stages: analysis.StageCompile})
	doc, ok, err := cleanSnap.CompileDocument()
	if err != nil || !ok || !co.OK || co.Value == nil {
		t.Fatalf("compile of the clean agent: ok %v %v, err %v", co.OK, ok, err)
	}
	if text(res) != string(doc) {
		t.Errorf("compile text differs from the CLI's document")
	}
	// A name with escape sequences and bidi controls compiles; they are
	// gone from both the structured value and the text.
	esc := workspace(t, dir, "esc-agent", false)
	rewrite(t, filepath.Join(esc, "cinatra", "oas.json"), `"name": "Choose release scope"`, `"name": "Choose \u001b]0;pwned\u0007\u009b2J\u202e scope"`)
	res, _ = callTool(t, cs, "agent_compile", map[string]any{"path": esc})
	structured(t, res, &co)
	if !co.OK || !strings.Contains(text(res), `"name": "Choose  scope"`) {
		t.Errorf("compile of a name with escapes: ok %v\n%.600s", co.OK, text(res))
	}

	// Graph: the snapshot's graph, in BFS order, drawn as oastui graph draws it.
	res, _ = callTool(t, cs, "agent_graph", map[string]any{"path": agent})
	var g GraphOutput
	structured(t, res, &g)
	gs := analysis.Run(agent, analysis.Options{Stages: analysis.StageGraphs})
	fg := gs.Flow("").Drawn().Graph
	if len(g.Nodes) != len(fg.Nodes) || len(g.Edges) != len(fg.Edges) || len(g.Order) != len(fg.Nodes) || g.Order[0] != fg.Start {
		t.Errorf("graph: %d nodes %d edges order %v; engine %d nodes %d edges start %s", len(g.Nodes), len(g.Edges), g.Order, len(fg.Nodes), len(fg.Edges), fg.Start)
	}
	if want := maskText(flowgraph.Text(fg, flowgraph.Options{})); g.Drawing != want {
		t.Errorf("drawing differs from oastui graph's:\n%s\nwant\n%s", g.Drawing, want)
	}
	if len(g.Flows) < 2 {
		t.Fatalf("flows: %+v", g.Flows)
	}
	res, _ = callTool(t, cs, "agent_graph", map[string]any{"path": agent, "flow": g.Flows[1].Pointer, "ascii": true})
	var sub GraphOutput
	structured(t, res, &sub)
	if sub.FlowPointer != g.Flows[1].Pointer || strings.ContainsAny(sub.Drawing, "╭│") {
		t.Errorf("subflow: %s", sub.FlowPointer)
	}
	res, _ = callTool(t, cs, "agent_graph", map[string]any{"path": agent, "flow": "nope"})
	wantError(t, res, "no Flow with id")

	// context_resolve: what oastui resolve prints.
	res, _ = callTool(t, cs, "context_resolve", map[string]any{"path": clean, "slot": "styleContext"})
	var rs ResolveOutput
	structured(t, res, &rs)
	_, prep, err := analysis.PrepareSlot(clean, analysis.Options{}, analysis.SlotQuery{Slot: "styleContext"})
	if err != nil {
		t.Fatal(err)
	}
	if rs.SlotID != "styleContext" || len(rs.Refs) != len(prep.Candidates) || len(rs.Refs) == 0 {
		t.Errorf("resolve: %+v, want %d refs", rs, len(prep.Candidates))
	}
	res, _ = callTool(t, cs, "context_resolve", map[string]any{"path": clean, "slot": "nope"})
	wantError(t, res, "the agent's context slots: styleContext")
}

func TestFix(t *testing.T) {
	dir := tempDir(t)
	agent := workspace(t, dir, "dirty-agent", true)
	cs := connect(t, []string{dir}, nil, "")
	pkg := filepath.Join(agent, "package.json")
	before, _ := os.ReadFile(pkg)

	// A rule code is a batch: the license fix is unsafe, held back.
	res, _ := callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": "agent_package_missing_license"})
	var fo FixOutput
	structured(t, res, &fo)
	if fo.Diff != "" || len(fo.Fixed) != 0 || len(fo.Skipped) != 1 || !strings.Contains(fo.Skipped[0].Reason, "unsafe_fixes") {
		t.Fatalf("a batch applied an unsafe fix: %+v", fo)
	}
	res, _ = callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": "all", "dangerous": true})
	wantError(t, res, "never applied in a batch")
	res, _ = callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": "agent_package_missing_license", "unsafe_fixes": true})
	fo = FixOutput{}
	structured(t, res, &fo)
	if fo.Applied || !strings.Contains(fo.Diff, `+  "license": `) || len(fo.Fixed) != 1 {
		t.Fatalf("preview: %+v", fo)
	}
	if !strings.Contains(fo.Diff, "ghp_…") {
		t.Errorf("the diff's context line with the token is not masked:\n%s", fo.Diff)
	}
	if after, _ := os.ReadFile(pkg); !bytes.Equal(after, before) {
		t.Fatal("a preview wrote the file")
	}

	res, _ = callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": fo.Fixed[0], "choice": 5})
	wantError(t, res, "alternative fixes")
	res, _ = callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": "all", "choice": 1})
	wantError(t, res, "choice needs a fix that names one finding")

	// By fingerprint, applied.
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": agent})
	var rev ReviewOutput
	structured(t, res, &rev)
	fp := ""
	for _, f := range rev.Fixes {
		if f.Code == "agent_package_missing_license" {
			fp = f.Fingerprint
		}
	}
	res, _ = callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": fp, "apply": true})
	structured(t, res, &fo)
	if rel, _ := filepath.Rel(dir, pkg); !fo.Applied || len(fo.Written) != 1 || fo.Written[0] != filepath.ToSlash(rel) || fo.Remaining == nil || fo.Remaining.Blockers >= rev.Summary.Blockers {
		t.Fatalf("apply: %+v", fo)
	}
	for _, f := range analysis.Run(agent, analysis.Options{}).Review.Findings {
		if f.Code == "agent_package_missing_license" {
			t.Fatalf("still reported after the fix: %+v", f)
		}
	}
	res, _ = callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": "agent_package_missing_license"})
	wantError(t, res, "no automatic fix")
}

func TestPathsConfined(t *testing.T) {
	base := tempDir(t)
	root := filepath.Join(base, "root")
	outside := filepath.Join(base, "outside")
	workspace(t, root, "a", false)
	workspace(t, outside, "b", false)
	if err := os.Symlink(filepath.Join(outside, "agents", "oastui", "b"), filepath.Join(root, "escape")); err != nil {
		t.Skip("no symlinks here:", err)
	}
	if err := os.Symlink(filepath.Join(root, "agents", "oastui", "a"), filepath.Join(root, "inside")); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, []string{root}, nil, "")
	for _, p := range []string{"../outside/agents/oastui/b", filepath.Join(outside, "agents", "oastui", "b"), "escape", "escape/cinatra/oas.json", "agents/../../outside/agents/oastui/b", "/"} {
		for _, tool := range []string{"agent_source_review", "agent_compile", "agent_graph"} {
			res, _ := callTool(t, cs, tool, map[string]any{"path": p})
			wantError(t, res, "outside the workspace roots")
		}
		res, _ := callTool(t, cs, "agent_fix", map[string]any{"path": p, "fix": "all", "apply": true})
		wantError(t, res, "outside the workspace roots")
		res, _ = callTool(t, cs, "context_resolve", map[string]any{"path": p, "slot": "styleContext"})
		wantError(t, res, "outside the workspace roots")
	}
	// A catalog outside, named or found: refused.
	res, _ := callTool(t, cs, "context_resolve", map[string]any{"path": "agents/oastui/a", "slot": "styleContext", "catalog": filepath.Join(outside, ".oastui", "catalog.json")})
	wantError(t, res, "outside the workspace roots")
	inner := connect(t, []string{filepath.Join(root, "agents")}, nil, "")
	res, _ = callTool(t, inner, "context_resolve", map[string]any{"path": "oastui/a", "slot": "styleContext"})
	wantError(t, res, "outside the workspace roots")
	// A symlink that stays inside is followed.
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": "inside"})
	var rev ReviewOutput
	structured(t, res, &rev)
	if !strings.HasPrefix(rev.File, root) && !strings.Contains(rev.File, filepath.Join("agents", "oastui", "a")) {
		t.Errorf("reviewed %s", rev.File)
	}
}

func TestClientRoots(t *testing.T) {
	base := tempDir(t)
	a, b := filepath.Join(base, "a"), filepath.Join(base, "b")
	workspace(t, a, "x", false)
	workspace(t, b, "y", false)
	client := mcp.NewClient(&mcp.Implementation{Name: "test", Version: "1"}, nil)
	client.AddRoots(&mcp.Root{URI: "file://" + filepath.ToSlash(a)})
	// roots/list is a server request: the protocols before 2026-07-28 have it.
	cs := connect(t, []string{b}, client, "2025-11-25")
	agentA := filepath.Join(a, "agents", "oastui", "x")
	agentB := filepath.Join(b, "agents", "oastui", "y")
	res, _ := callTool(t, cs, "agent_source_review", map[string]any{"path": agentA})
	if res.IsError {
		t.Fatalf("a path in the client's root was refused: %s", text(res))
	}
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": agentB})
	wantError(t, res, "outside the workspace roots")
	// The client's roots change: the server asks again.
	client.RemoveRoots("file://" + filepath.ToSlash(a))
	client.AddRoots(&mcp.Root{URI: "file://" + filepath.ToSlash(b)})
	deadline := time.Now().Add(5 * time.Second)
	for {
		res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": agentB})
		if !res.IsError {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the new root was never used: %s", text(res))
		}
		time.Sleep(10 * time.Millisecond)
	}
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": agentA})
	wantError(t, res, "outside the workspace roots")
}

func TestPanicIsAToolError(t *testing.T) {
	dir := tempDir(t)
	workspace(t, dir, "a", false)
	testHook = func(tool string, args []byte) {
		if bytes.Contains(args, []byte("boom")) {
			panic("boom " + token)
		}
	}
	t.Cleanup(func() { testHook = nil })
	cs := connect(t, []string{dir}, nil, "")
	for tool, args := range map[string]map[string]any{
		"agent_source_review": {"path": "boom"},
		"agent_compile":       {"path": "boom"},
		"agent_graph":         {"path": "boom"},
		"agent_fix":           {"path": "boom", "fix": "all"},
		"context_resolve":     {"path": "boom", "slot": "x"},
	} {
		res, _ := callTool(t, cs, tool, args)
		wantError(t, res, "internal error in "+tool)
		if strings.Contains(text(res), token) {
			t.Errorf("the panic's message is not masked")
		}
	}
	res, _ := callTool(t, cs, "agent_source_review", map[string]any{"path": "agents/oastui/a"})
	if res.IsError {
		t.Fatalf("the server did not survive: %s", text(res))
	}
}

func TestBadInput(t *testing.T) {
	dir := tempDir(t)
	workspace(t, dir, "a", false)
	cs := connect(t, []string{dir}, nil, "")
	cases := []struct {
		tool string
		args map[string]any
		want string
	}{
		{"agent_source_review", map[string]any{}, "path is required"},
		{"agent_source_review", map[string]any{"path": 7}, "validating"},
		{"agent_source_review", map[string]any{"path": "nope"}, "no such file"},
		{"agent_source_review", map[string]any{"path": "a\x00b"}, "NUL"},
		{"agent_source_review", map[string]any{"path": "x", "extra": true}, "validating"},
		{"agent_fix", map[string]any{"path": "agents/oastui/a"}, "validating"},
		{"agent_fix", map[string]any{"path": "agents/oastui/a", "fix": ""}, "fix is required"},
		{"agent_fix", map[string]any{"path": "agents/oastui/a", "fix": "all"}, "no automatic fix"},
		{"context_resolve", map[string]any{"path": "agents/oastui/a", "slot": ""}, "slot is required"},
		{"agent_graph", map[string]any{"source": "[1,2"}, "invalid JSON"},
		{"agent_compile", map[string]any{"path": "agents"}, "not an agent"},
	}
	for _, c := range cases {
		res, _ := callTool(t, cs, c.tool, c.args)
		wantError(t, res, c.want)
	}
}

func TestResolveInsideRoots(t *testing.T) {
	dir := tempDir(t)
	r, err := NewRoots([]string{dir})
	if err != nil {
		t.Fatal(err)
	}
	real := r.Dirs[0]
	for p, want := range map[string]string{
		"x/y.json":               filepath.Join(real, "x", "y.json"),
		"x/../y":                 filepath.Join(real, "y"),
		filepath.Join(dir, "z"):  filepath.Join(real, "z"),
		".":                      real,
		"not/yet/there/oas.json": filepath.Join(real, "not", "yet", "there", "oas.json"),
	} {
		got, err := r.Resolve(p)
		if err != nil || got != want {
			t.Errorf("Resolve(%q) = %q, %v; want %q", p, got, err, want)
		}
	}
	for _, p := range []string{"..", "../x", "/etc/passwd", filepath.Dir(dir)} {
		if _, err := r.Resolve(p); err == nil {
			t.Errorf("Resolve(%q) was not refused", p)
		}
	}
	if _, err := NewRoots([]string{filepath.Join(dir, "missing")}); err == nil {
		t.Error("a missing root was accepted")
	}
}

func TestReviewConfig(t *testing.T) {
	dir := tempDir(t)
	workspace(t, dir, "a", false)
	cs := connect(t, []string{dir}, nil, "")
	cfg := filepath.Join(dir, ".oastui.yaml")
	if err := os.WriteFile(cfg, []byte("rules:\n  untrusted_external_url:\n    severity: off\n    reason: vetted by the gateway\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ := callTool(t, cs, "agent_source_review", map[string]any{"path": "agents/oastui/a"})
	var rev ReviewOutput
	structured(t, res, &rev)
	if rev.Config != ".oastui.yaml" || len(rev.Notices) != 1 || !strings.Contains(rev.Notices[0], "untrusted_external_url") {
		t.Errorf("config %q, notices %q", rev.Config, rev.Notices)
	}
	if err := os.WriteFile(cfg, []byte("rules: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": "agents/oastui/a"})
	wantError(t, res, "config:")
}

// TestReviewPolicyFindings: agent_source_review reports the team's
// policies of the .oastui.yaml in force like rules: the id as code, the
// configured severity.
func TestReviewPolicyFindings(t *testing.T) {
	dir := tempDir(t)
	agent := workspace(t, dir, "policy-agent", false)
	cfg := "policies:\n  - id: bridge-calls\n    severity: blocker\n    message: an llm-bridge call\n    match: node.url.endsWith('/api/llm-bridge')\n    assert: 'false'\n"
	if err := os.WriteFile(filepath.Join(dir, ".oastui.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, []string{dir}, nil, "")
	res, _ := callTool(t, cs, "agent_source_review", map[string]any{"path": agent})
	var rev ReviewOutput
	structured(t, res, &rev)
	n := 0
	for _, f := range rev.Findings {
		if f.Code == "bridge-calls" {
			n++
			if f.Severity != "blocker" {
				t.Errorf("severity %s", f.Severity)
			}
		}
	}
	if n == 0 || len(rev.Buckets.Blockers) == 0 {
		t.Errorf("no policy finding in the review: %+v", rev.Findings)
	}
}
