package lsp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"go.lsp.dev/protocol"

	"github.com/oastui/oastui/internal/testshared"
)

// sink collects the server's messages.
type sink struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	msgs []map[string]json.RawMessage
	note chan string // methods of notifications, as they come (when non-nil)
}

func (s *sink) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.buf.Write(p)
	r := bufio.NewReader(bytes.NewReader(s.buf.Bytes()))
	consumed := 0
	for {
		body, err := readMessage(r)
		if err != nil {
			break
		}
		consumed = s.buf.Len() - r.Buffered()
		var m map[string]json.RawMessage
		_ = json.Unmarshal(body, &m)
		s.msgs = append(s.msgs, m)
		if s.note != nil && m["method"] != nil {
			s.note <- string(m["method"])
		}
	}
	s.buf.Next(consumed)
	return len(p), nil
}

func (s *sink) all() []map[string]json.RawMessage {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]map[string]json.RawMessage(nil), s.msgs...)
}

// response is the response to id, or nil.
func (s *sink) response(id string) map[string]json.RawMessage {
	for _, m := range s.all() {
		if string(m["id"]) == id && m["method"] == nil {
			return m
		}
	}
	return nil
}

func mustJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return b
}

func req(id int, method string, params any) []byte {
	return mustJSON(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
}

func note(method string, params any) []byte {
	return mustJSON(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// newTestServer is an initialized server that reviews at once.
func newTestServer(t testing.TB, debounce time.Duration) (*Server, *sink, *strings.Builder) {
	out := &sink{}
	var log strings.Builder
	s := New(out, Options{Debounce: debounce, Log: &syncWriter{w: &log}})
	s.Handle(req(0, "initialize", map[string]any{"capabilities": map[string]any{}}))
	s.Handle(note("initialized", map[string]any{}))
	return s, out, &log
}

type syncWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (w *syncWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.w.Write(p)
}

// A panic in a request is that request's InternalError; the server
// answers the next request; bad messages get protocol errors.
func TestPanicAndBadInput(t *testing.T) {
	s, out, log := newTestServer(t, -1)
	s.panicOn = "textDocument/hover"
	s.Handle(req(1, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": "file:///x.json"}, "position": map[string]any{"line": 0, "character": 0}}))
	if r := out.response("1"); r == nil || !strings.Contains(string(r["error"]), "-32603") {
		t.Fatalf("panicking request: %v", r)
	}
	if !strings.Contains(log.String(), "panic answering textDocument/hover") {
		t.Errorf("the panic is not logged: %q", log.String())
	}
	s.panicOn = "textDocument/didOpen"
	s.Handle(note("textDocument/didOpen", map[string]any{}))
	s.panicOn = ""
	for i, c := range []struct{ body, id, code string }{
		{`{"jsonrpc":"2.0","id":2,"method":`, "null", "-32700"},
		{`[1,2]`, "null", "-32700"},
		{`{"jsonrpc":"2.0","id":3}`, "3", "-32600"},
		{`{"jsonrpc":"2.0","id":{"a":1},"method":"shutdown"}`, "null", "-32600"},
		{`{"jsonrpc":"2.0","id":4,"method":"textDocument/definition","params":"nope"}`, "4", "-32602"},
		{`{"jsonrpc":"2.0","id":5,"method":"textDocument/definition"}`, "5", "-32602"},
		{`{"jsonrpc":"2.0","id":6,"method":"workspace/unknown","params":{}}`, "6", "-32601"},
	} {
		before := len(out.all())
		s.Handle([]byte(c.body))
		msgs := out.all()[before:]
		if len(msgs) != 1 || string(msgs[0]["id"]) != c.id || !strings.Contains(string(msgs[0]["error"]), c.code) {
			t.Errorf("case %d %s: got %v, want id %s error %s", i, c.body, msgs, c.id, c.code)
		}
	}
	s.Handle(req(9, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": "file:///nowhere.json"}}))
	if r := out.response("9"); r == nil || string(r["result"]) != "[]" {
		t.Errorf("still serving: %v", r)
	}
	// before initialize: ServerNotInitialized
	fresh := New(out, Options{})
	fresh.Handle(req(10, "textDocument/hover", map[string]any{}))
	if r := out.response("10"); r == nil || !strings.Contains(string(r["error"]), "-32002") {
		t.Errorf("before initialize: %v", r)
	}
}

// Serve answers a framing error with a parse error and keeps reading.
func TestServeFraming(t *testing.T) {
	out := &sink{}
	s := New(out, Options{Debounce: -1})
	var in bytes.Buffer
	frame := func(b []byte) { in.WriteString("Content-Length: " + itoa(len(b)) + "\r\n\r\n"); in.Write(b) }
	frame(req(1, "initialize", map[string]any{"capabilities": map[string]any{}}))
	in.WriteString("Garbage-Without-Colon\r\n\r\n")
	frame(req(2, "shutdown", nil))
	frame(note("exit", nil))
	if err := s.Serve(t.Context(), &in); err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if out.response("1") == nil || out.response("2") == nil || out.response("null") == nil {
		t.Errorf("messages: %v", out.all())
	}
}

func itoa(n int) string { return strings.TrimSpace(string(mustJSON(n))) }

// The buffer after incremental changes is the text the editor has, also
// across CRLF lines and astral characters.
func TestIncrementalSync(t *testing.T) {
	s, _, _ := newTestServer(t, time.Hour)
	path := filepath.Join(t.TempDir(), "f.json")
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": "{\r\n  \"a😀\": \"é\"\r\n}\r\n"}}))
	change := func(v int, sl, sc, el, ec int, text string) {
		s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": v},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": map[string]int{"line": sl, "character": sc}, "end": map[string]int{"line": el, "character": ec}}, "text": text}}}))
	}
	change(2, 1, 6, 1, 6, "b")         // after the astral char (2 units)
	change(3, 1, 11, 1, 12, "ü")       // replace é
	change(4, 2, 0, 2, 1, "}")         // same
	change(5, 0, 1, 1, 0, "\n")        // CRLF → LF
	change(6, 9, 0, 9, 0, "\n// tail") // past the end: appended
	s.mu.Lock()
	got := string(s.docs[path].src)
	s.mu.Unlock()
	if want := "{\n  \"a😀b\": \"ü\"\r\n}\r\n\n// tail"; got != want {
		t.Errorf("buffer %q, want %q", got, want)
	}
	s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 7}, "contentChanges": []any{map[string]any{"text": "{}"}}}))
	s.mu.Lock()
	got = string(s.docs[path].src)
	s.mu.Unlock()
	if got != "{}" {
		t.Errorf("full sync: %q", got)
	}
}

// corpusFlow is the largest corpus agent's flow file copied into a temp
// agents/ tree (skips without ../shared).
func corpusFlow(t testing.TB) (path string, src []byte) {
	from := testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "blog-pipeline-agent")
	dir := filepath.Join(t.TempDir(), "agents", "cinatra-ai", "blog-pipeline-agent")
	for _, rel := range []string{"package.json", filepath.Join("cinatra", "oas.json")} {
		b, err := os.ReadFile(filepath.Join(from, rel))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path = filepath.Join(dir, "cinatra", "oas.json")
	src, _ = os.ReadFile(path)
	return path, src
}

// A JSON file that is no agent file gets no review; a flow buffer that
// stops looking like one is still reviewed (its diagnostics stay current).
func TestOnlyAgentFiles(t *testing.T) {
	s, out, _ := newTestServer(t, -1)
	dir := t.TempDir()
	ts := filepath.Join(dir, "tsconfig.json")
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(ts)), "version": 1, "text": `{"compilerOptions": {}}`}}))
	flow := filepath.Join(dir, "flow.json")
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(flow)), "version": 1, "text": `{"component_type": "Flow"`}}))
	s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(flow)), "version": 2}, "contentChanges": []any{map[string]any{"text": "{"}}}))
	var uris []string
	for _, m := range out.all() {
		if string(m["method"]) == `"textDocument/publishDiagnostics"` {
			var p struct {
				URI     string `json:"uri"`
				Version int    `json:"version"`
			}
			_ = json.Unmarshal(m["params"], &p)
			uris = append(uris, filepath.Base(p.URI)+"@"+itoa(p.Version))
		}
	}
	if got := strings.Join(uris, " "); got != "flow.json@1 flow.json@2" {
		t.Errorf("published for %s, want flow.json@1 flow.json@2", got)
	}
}

// diagsOf is the last diagnostics published for path, with the text each
// range covers in src.
func diagsOf(t *testing.T, out *sink, path string, src string) map[string][]string {
	t.Helper()
	var last []protocolDiag
	for _, m := range out.all() {
		if string(m["method"]) != `"textDocument/publishDiagnostics"` {
			continue
		}
		var p struct {
			URI         string         `json:"uri"`
			Diagnostics []protocolDiag `json:"diagnostics"`
		}
		_ = json.Unmarshal(m["params"], &p)
		if p.URI == string(uriOf(path)) {
			last = p.Diagnostics
		}
	}
	tx := newText([]byte(src))
	got := map[string][]string{}
	for _, d := range last {
		a, b := tx.offset(d.Range.Start), tx.offset(d.Range.End)
		got[d.Code] = append(got[d.Code], src[a:b])
	}
	return got
}

type protocolDiag struct {
	Range struct {
		Start protocol.Position `json:"start"`
		End   protocol.Position `json:"end"`
	} `json:"range"`
	Code string `json:"code"`
}

// Each diagnostic's range covers the offending value: a string with its
// quotes, a repeated key, the token where JSON stops parsing.
func TestDiagnosticRanges(t *testing.T) {
	path, src := exampleAgent(t)
	s, out, _ := newTestServer(t, -1)
	broken := strings.Replace(string(src), `"packageVersion": "0.1.0"`, `"packageVersion": "7.0.0", "packageVersion": "7.0.0"`, 1)
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 1, "text": broken}}))
	got := diagsOf(t, out, path, broken)
	if d := got["package_version_oas_pkg_drift"]; len(d) != 1 || d[0] != `"7.0.0"` {
		t.Errorf("drift covers %q, want the value", d)
	}
	if d := got["duplicate_key"]; len(d) != 1 || d[0] != `"packageVersion"` {
		t.Errorf("duplicate_key covers %q, want the repeated key", d)
	}
	bad := `{"component_type": "Flow", "id": tru }`
	s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 2}, "contentChanges": []any{map[string]any{"text": bad}}}))
	if d := diagsOf(t, out, path, bad)["invalid_json"]; len(d) != 1 || d[0] == "" {
		t.Errorf("invalid_json covers %q, want a token", d)
	}
}

// A client that can watch files is asked to; a package.json changed on
// disk (not open in the editor) reviews its agent again.
func TestWatchedFiles(t *testing.T) {
	path, src := exampleAgent(t)
	out := &sink{}
	s := New(out, Options{Debounce: -1})
	s.Handle(req(0, "initialize", map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"didChangeWatchedFiles": map[string]any{"dynamicRegistration": true}}}}))
	s.Handle(note("initialized", map[string]any{}))
	var reg bool
	for _, m := range out.all() {
		reg = reg || string(m["method"]) == `"client/registerCapability"` && strings.Contains(string(m["params"]), "**/package.json")
	}
	if !reg {
		t.Fatalf("no client/registerCapability: %v", out.all())
	}
	s.Handle([]byte(`{"jsonrpc":"2.0","id":"oastui-watch","result":null}`)) // the client's answer
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 1, "text": string(src)}}))
	if d := diagsOf(t, out, path, string(src)); len(d["package_version_oas_pkg_drift"]) != 0 {
		t.Fatalf("drift before the change: %v", d)
	}
	pkg := filepath.Join(filepath.Dir(filepath.Dir(path)), "package.json")
	b, _ := os.ReadFile(pkg)
	if err := os.WriteFile(pkg, []byte(strings.Replace(string(b), `"version": "0.1.0"`, `"version": "0.3.0"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	s.Handle(note("workspace/didChangeWatchedFiles", map[string]any{"changes": []any{map[string]any{"uri": string(uriOf(pkg)), "type": 2}}}))
	if d := diagsOf(t, out, path, string(src)); len(d["package_version_oas_pkg_drift"]) != 1 {
		t.Errorf("no drift after package.json changed on disk: %v", d)
	}
}

type failingReader struct{}

func (failingReader) Read([]byte) (int, error) { return 0, os.ErrClosed }

// A reader that fails ends Serve with its error (no loop of parse errors);
// a stream cut inside a message ends it as EOF.
func TestServeReadErrors(t *testing.T) {
	s := New(&sink{}, Options{})
	if err := s.Serve(t.Context(), failingReader{}); !errors.Is(err, os.ErrClosed) {
		t.Errorf("Serve on a failing reader: %v", err)
	}
	if err := s.Serve(t.Context(), strings.NewReader("Content-Length: 10\r\n\r\n{")); !errors.Is(err, io.EOF) {
		t.Errorf("Serve on a cut message: %v", err)
	}
}

// Diagnostics name an open file by the URI the client gave, whatever its
// percent-encoding.
func TestClientURIKept(t *testing.T) {
	s, out, _ := newTestServer(t, -1)
	dir := t.TempDir()
	u := "file://" + filepath.ToSlash(dir) + "/my%2Dflow.json" // my-flow.json, encoded
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": `{"component_type": "Flow"`}}))
	var got []string
	for _, m := range out.all() {
		if string(m["method"]) == `"textDocument/publishDiagnostics"` {
			var p struct{ URI string }
			_ = json.Unmarshal(m["params"], &p)
			got = append(got, p.URI)
		}
	}
	if len(got) != 1 || got[0] != u {
		t.Errorf("published for %q, want %q", got, u)
	}
}

// source.fixAll.oastui applies the first fix of every finding of the
// document at once; the buffer it makes has none of them left.
func TestFixAll(t *testing.T) {
	path, src := exampleAgent(t)
	s, out, _ := newTestServer(t, -1)
	broken := strings.Replace(string(src), `"packageVersion": "0.1.0"`, `"packageVersion": "9.9.9"`, 1)
	broken = strings.Replace(broken, `"packageName": "@oastui/example-agent"`, `"packageName": "@oastui/other"`, 1)
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": broken}}))
	before := diagsOf(t, out, path, broken)
	if len(before["package_version_oas_pkg_drift"]) != 1 || len(before["package_name_mismatch"]) != 1 {
		t.Fatalf("findings before: %v", before)
	}
	s.Handle(req(5, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": map[string]any{"start": pos(0, 0), "end": pos(0, 0)}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"source.fixAll"}}}))
	var actions []protocol.CodeAction
	if err := json.Unmarshal(out.response("5")["result"], &actions); err != nil || len(actions) != 1 || actions[0].Kind != FixAll {
		t.Fatalf("fix all: %s", out.response("5")["result"])
	}
	edits := actions[0].Edit.Changes[protocol.DocumentURI(u)]
	if len(edits) != 2 {
		t.Fatalf("edits: %+v", actions[0].Edit)
	}
	tx := newText([]byte(broken))
	fixed := broken
	for i := len(edits) - 1; i >= 0; i-- { // the edits come in file order
		a, b := tx.offset(edits[i].Range.Start), tx.offset(edits[i].Range.End)
		fixed = fixed[:a] + edits[i].NewText + fixed[b:]
	}
	s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": []any{map[string]any{"text": fixed}}}))
	after := diagsOf(t, out, path, fixed)
	if len(after["package_version_oas_pkg_drift"])+len(after["package_name_mismatch"]) != 0 {
		t.Errorf("findings after fix all: %v", after)
	}
}

// TestFixAllSafeOnly: source.fixAll takes safe fixes only (gopls' "fix
// all" of indisputably safe fixes): a finding whose only fix is unsafe
// (the bridge's prompt renamed to user) is left to its quick fix, which
// says its tier in its title and is not preferred.
func TestFixAllSafeOnly(t *testing.T) {
	path, src := exampleAgent(t)
	s, out, _ := newTestServer(t, -1)
	broken := strings.Replace(string(src), `"packageVersion": "0.1.0"`, `"packageVersion": "9.9.9"`, 1)
	broken = strings.Replace(broken, `"user": "Write release notes`, `"prompt": "Write release notes`, 1)
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": broken}}))
	before := diagsOf(t, out, path, broken)
	if len(before["package_version_oas_pkg_drift"]) != 1 || len(before["llm_bridge_user_missing"]) != 1 {
		t.Fatalf("findings before: %v", before)
	}
	s.Handle(req(5, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": map[string]any{"start": pos(0, 0), "end": pos(0, 0)}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"source.fixAll"}}}))
	var actions []protocol.CodeAction
	if err := json.Unmarshal(out.response("5")["result"], &actions); err != nil || len(actions) != 1 {
		t.Fatalf("fix all: %s", out.response("5")["result"])
	}
	edits := actions[0].Edit.Changes[protocol.DocumentURI(u)]
	if len(edits) != 1 || edits[0].NewText != "" || actions[0].Title != "oastui: apply 1 safe automatic fix(es)" {
		t.Fatalf("fix all applies more than the safe drift fix: %s %+v", actions[0].Title, edits)
	}
	s.Handle(req(6, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": map[string]any{"start": pos(0, 0), "end": pos(100000, 0)}, "context": map[string]any{"diagnostics": []any{}, "only": []string{"quickfix"}}}))
	actions = nil
	if err := json.Unmarshal(out.response("6")["result"], &actions); err != nil {
		t.Fatal(err)
	}
	found := false
	for _, a := range actions {
		if strings.HasPrefix(a.Title, "(unsafe) rename `prompt` to `user`") {
			found = true
			if a.IsPreferred {
				t.Error("an unsafe quick fix is preferred")
			}
		}
	}
	if !found {
		t.Errorf("no labelled unsafe quick fix: %s", out.response("6")["result"])
	}
}

// TestPolicyDiagnostics: a team policy of the .oastui.yaml in force is a
// diagnostic like a rule's, its id the code, at the node it is about.
func TestPolicyDiagnostics(t *testing.T) {
	path, src := exampleAgent(t)
	cfg := "policies:\n  - id: bridge-posts-twice\n    severity: warning\n    message: an llm-bridge call\n    match: node.url.endsWith('/api/llm-bridge')\n    assert: 'false'\n"
	if err := os.WriteFile(filepath.Join(filepath.Dir(filepath.Dir(path)), ".oastui.yaml"), []byte(cfg), 0o644); err != nil {
		t.Fatal(err)
	}
	s, out, _ := newTestServer(t, -1)
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": string(src)}}))
	got := diagsOf(t, out, path, string(src))
	if len(got["bridge-posts-twice"]) == 0 {
		t.Fatalf("no policy diagnostic: %v", got)
	}
}
