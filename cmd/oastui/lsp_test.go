package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/oastui/oastui/internal/testshared"
)

// TestLSPHelperProcess is `oastui lsp` itself when the LSP test starts the
// test binary as a child process (the os/exec TestHelperProcess pattern:
// the real main, the real stdin and stdout, no TestMain shared with the
// other subcommands' tests).
func TestLSPHelperProcess(t *testing.T) {
	if os.Getenv("OASTUI_LSP_HELPER") != "1" {
		t.Skip("the language server of TestLSPStdio")
	}
	os.Exit(run([]string{"lsp", "--stdio"}, os.Stdout, os.Stderr))
}

// lspClient speaks JSON-RPC to the server over its stdin and stdout.
type lspClient struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     io.WriteCloser
	msgs   chan map[string]json.RawMessage
	stash  []map[string]json.RawMessage // notifications read while waiting for a response
	nextID int
}

func startLSP(t *testing.T) *lspClient {
	t.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestLSPHelperProcess$")
	cmd.Env = append(os.Environ(), "OASTUI_LSP_HELPER=1")
	in, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	c := &lspClient{t: t, cmd: cmd, in: in, msgs: make(chan map[string]json.RawMessage, 64)}
	go func() {
		defer close(c.msgs)
		r := bufio.NewReader(out)
		for {
			body, err := readFramed(r)
			if err != nil {
				return
			}
			var m map[string]json.RawMessage
			if json.Unmarshal(body, &m) != nil {
				c.msgs <- map[string]json.RawMessage{"unparsed": json.RawMessage(strconv.Quote(string(body)))}
				continue
			}
			c.msgs <- m
		}
	}()
	t.Cleanup(func() {
		_ = in.Close()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			_ = cmd.Process.Kill()
			<-done
		}
		if t.Failed() {
			t.Logf("server stderr:\n%s", stderr.String())
		}
	})
	return c
}

func readFramed(r *bufio.Reader) ([]byte, error) {
	n := -1
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			break
		}
		if v, ok := strings.CutPrefix(line, "Content-Length:"); ok {
			n, _ = strconv.Atoi(strings.TrimSpace(v))
		}
	}
	if n < 0 {
		return nil, fmt.Errorf("no Content-Length")
	}
	body := make([]byte, n)
	_, err := io.ReadFull(r, body)
	return body, err
}

func (c *lspClient) writeRaw(body []byte) {
	c.t.Helper()
	if _, err := fmt.Fprintf(c.in, "Content-Length: %d\r\n\r\n%s", len(body), body); err != nil {
		c.t.Fatal(err)
	}
}

func (c *lspClient) send(v any) {
	c.t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		c.t.Fatal(err)
	}
	c.writeRaw(b)
}

func (c *lspClient) notify(method string, params any) {
	c.t.Helper()
	c.send(map[string]any{"jsonrpc": "2.0", "method": method, "params": params})
}

// next is the next message from the server (fails after 20 s).
func (c *lspClient) next() map[string]json.RawMessage {
	c.t.Helper()
	select {
	case m, ok := <-c.msgs:
		if !ok {
			c.t.Fatal("the server closed its stdout")
		}
		return m
	case <-time.After(20 * time.Second):
		c.t.Fatal("no message from the server in 20 s")
	}
	return nil
}

// call sends a request and returns its response (result or error).
func (c *lspClient) call(method string, params any) (result json.RawMessage, rpcErr json.RawMessage) {
	c.t.Helper()
	c.nextID++
	id := c.nextID
	c.send(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": params})
	return c.responseTo(strconv.Itoa(id))
}

func (c *lspClient) responseTo(id string) (json.RawMessage, json.RawMessage) {
	c.t.Helper()
	for {
		m := c.next()
		if _, isNote := m["method"]; isNote {
			c.stash = append(c.stash, m)
			continue
		}
		if string(m["id"]) == id {
			return m["result"], m["error"]
		}
		c.t.Fatalf("unexpected response %v", m)
	}
}

type lspRange struct {
	Start lspPos `json:"start"`
	End   lspPos `json:"end"`
}

type lspPos struct {
	Line      int `json:"line"`
	Character int `json:"character"`
}

type lspDiag struct {
	Range           lspRange `json:"range"`
	Severity        int      `json:"severity"`
	Code            string   `json:"code"`
	Source          string   `json:"source"`
	Message         string   `json:"message"`
	CodeDescription struct {
		Href string `json:"href"`
	} `json:"codeDescription"`
}

// diagnostics waits for the next publishDiagnostics of uri for which ok
// holds (earlier ones, stale, are skipped).
func (c *lspClient) diagnostics(uri string, ok func([]lspDiag) bool) []lspDiag {
	c.t.Helper()
	for {
		var m map[string]json.RawMessage
		if len(c.stash) > 0 {
			m, c.stash = c.stash[0], c.stash[1:]
		} else {
			m = c.next()
		}
		if string(m["method"]) != `"textDocument/publishDiagnostics"` {
			continue
		}
		var p struct {
			URI         string    `json:"uri"`
			Diagnostics []lspDiag `json:"diagnostics"`
		}
		if err := json.Unmarshal(m["params"], &p); err != nil {
			c.t.Fatal(err)
		}
		if p.URI == uri && ok(p.Diagnostics) {
			return p.Diagnostics
		}
	}
}

func hasCode(ds []lspDiag, code string) bool {
	for _, d := range ds {
		if d.Code == code {
			return true
		}
	}
	return false
}

// utf16Offset is the byte offset of an LSP position in s.
func utf16Offset(s string, p lspPos) int {
	off := 0
	for l := 0; l < p.Line; l++ {
		i := strings.IndexByte(s[off:], '\n')
		if i < 0 {
			return len(s)
		}
		off += i + 1
	}
	for n := 0; n < p.Character && off < len(s) && s[off] != '\n'; {
		r, size := utf8.DecodeRuneInString(s[off:])
		n += len(utf16.Encode([]rune{r}))
		off += size
	}
	return off
}

// posOf is the LSP position of byte offset off of s.
func posOf(s string, off int) lspPos {
	line := strings.Count(s[:off], "\n")
	start := strings.LastIndexByte(s[:off], '\n') + 1
	return lspPos{Line: line, Character: len(utf16.Encode([]rune(s[start:off])))}
}

type textEdit struct {
	Range   lspRange `json:"range"`
	NewText string   `json:"newText"`
}

// applyEdits applies non-overlapping edits to s, last first.
func applyEdits(s string, edits []textEdit) string {
	sort.Slice(edits, func(i, j int) bool {
		a, b := edits[i].Range.Start, edits[j].Range.Start
		return a.Line > b.Line || a.Line == b.Line && a.Character > b.Character
	})
	for _, e := range edits {
		start, end := utf16Offset(s, e.Range.Start), utf16Offset(s, e.Range.End)
		s = s[:start] + e.NewText + s[end:]
	}
	return s
}

func fileURI(p string) string { return "file://" + filepath.ToSlash(p) }

// TestLSPStdio drives `oastui lsp` over stdio as an editor does: an
// unsaved broken buffer gets its diagnostic with the value's range, the
// quick fix repairs the buffer, the next diagnostics are clean of it; an
// unsaved package.json buffer is reviewed instead of the disk file;
// definition, hover, rename and completion on the agent; bad input gets
// protocol errors and the server keeps serving.
func TestLSPStdio(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a process")
	}
	dir := filepath.Join(t.TempDir(), "agents", "oastui", "example-agent")
	copyTree(t, filepath.Join("..", "..", "testdata", "agents", "oastui", "example-agent"), dir)
	flow := filepath.Join(dir, "cinatra", "oas.json")
	pkg := filepath.Join(dir, "package.json")
	disk, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	flowURI, pkgURI := fileURI(flow), fileURI(pkg)

	c := startLSP(t)
	// the workspace is the agents/ tree: it holds the legacy fixture below
	// (edits name no file outside the workspace)
	res, rerr := c.call("initialize", map[string]any{"processId": nil, "rootUri": fileURI(filepath.Dir(filepath.Dir(dir))),
		"capabilities": map[string]any{
			"workspace":    map[string]any{"workspaceEdit": map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}}},
			"textDocument": map[string]any{"hover": map[string]any{"contentFormat": []string{"markdown", "plaintext"}}},
		}})
	if rerr != nil || !strings.Contains(string(res), `"codeActionProvider"`) || !strings.Contains(string(res), `"name":"oastui"`) {
		t.Fatalf("initialize: %s %s", res, rerr)
	}
	c.notify("initialized", map[string]any{})

	// An unsaved buffer whose packageVersion drifts from package.json
	// (with a non-ASCII character before it on its line, so the UTF-16
	// columns matter).
	broken := strings.Replace(string(disk), `"packageVersion": "0.1.0"`, `"x": "é😀", "packageVersion": "9.9.9"`, 1)
	if broken == string(disk) {
		t.Fatal("the example agent has no packageVersion to break")
	}
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": flowURI, "languageId": "json", "version": 1, "text": broken}})
	ds := c.diagnostics(flowURI, func(ds []lspDiag) bool { return len(ds) > 0 })
	var drift *lspDiag
	for i, d := range ds {
		if d.Code == "package_version_oas_pkg_drift" {
			drift = &ds[i]
		}
	}
	if drift == nil {
		t.Fatalf("no package_version_oas_pkg_drift in %+v", ds)
	}
	at := strings.Index(broken, `"9.9.9"`)
	want := lspRange{Start: posOf(broken, at), End: posOf(broken, at+len(`"9.9.9"`))}
	if drift.Range != want || drift.Severity != 1 || drift.Source != "oastui" ||
		drift.CodeDescription.Href != "https://github.com/oastui/oastui/blob/main/docs/rules.md#package_version_oas_pkg_drift" {
		t.Fatalf("diagnostic %+v, want range %+v, severity 1 (Error), the rule's doc link", drift, want)
	}

	// The quick fixes: remove packageVersion (the flow buffer; safe, preferred), set it, or set package.json's version.
	res, rerr = c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": flowURI},
		"range": drift.Range, "context": map[string]any{"diagnostics": []lspDiag{*drift}}})
	var actions []struct {
		Title       string `json:"title"`
		Kind        string `json:"kind"`
		IsPreferred bool   `json:"isPreferred"`
		Edit        struct {
			DocumentChanges []struct {
				TextDocument struct {
					URI     string `json:"uri"`
					Version *int   `json:"version"`
				} `json:"textDocument"`
				Edits []textEdit `json:"edits"`
			} `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(res, &actions); err != nil || rerr != nil {
		t.Fatalf("codeAction: %s %s %v", res, rerr, err)
	}
	var toPkg bool
	for _, a := range actions[1:] {
		for _, dc := range a.Edit.DocumentChanges {
			toPkg = toPkg || dc.TextDocument.URI == pkgURI && dc.TextDocument.Version == nil
		}
	}
	if len(actions) < 2 || actions[0].Kind != "quickfix" || !actions[0].IsPreferred || !toPkg {
		t.Fatalf("code actions: %s", res)
	}
	dc := actions[0].Edit.DocumentChanges
	if len(dc) != 1 || dc[0].TextDocument.URI != flowURI || dc[0].TextDocument.Version == nil || *dc[0].TextDocument.Version != 1 {
		t.Fatalf("the first fix edits %+v, want the flow buffer at version 1", dc)
	}
	fixed := applyEdits(broken, dc[0].Edits)
	if strings.Contains(fixed, `"packageVersion"`) { // the preferred fix is the authors': the redundant copy removed
		t.Fatalf("the fix did not remove packageVersion: %q", fixed[at-40:at+40])
	}
	c.notify("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": flowURI, "version": 2},
		"contentChanges": []any{map[string]any{"range": dc[0].Edits[0].Range, "text": dc[0].Edits[0].NewText}}})
	c.diagnostics(flowURI, func(ds []lspDiag) bool { return !hasCode(ds, "package_version_oas_pkg_drift") })

	// An unsaved package.json buffer is reviewed instead of the disk file.
	pkgSrc, _ := os.ReadFile(pkg)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": pkgURI, "languageId": "json", "version": 1,
		"text": strings.Replace(string(pkgSrc), `"name": "@oastui/example-agent"`, `"name": "@oastui/renamed-agent"`, 1)}})
	c.diagnostics(flowURI, func(ds []lspDiag) bool { return hasCode(ds, "package_name_mismatch") })
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": pkgURI}})
	c.diagnostics(flowURI, func(ds []lspDiag) bool { return !hasCode(ds, "package_name_mismatch") })

	// A flow file at a legacy place: its move is a quick fix renaming the file.
	legacy := filepath.Join(filepath.Dir(filepath.Dir(dir)), "oastui-test", "rule-fixture")
	copyTree(t, filepath.Join("..", "..", "lint", "testdata", "rules", "err", "legacy_agent_filename"), legacy)
	legacyFlow := filepath.Join(legacy, "cinatra", "agent.json")
	legacySrc, _ := os.ReadFile(legacyFlow)
	legacyURI := fileURI(legacyFlow)
	c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": legacyURI, "languageId": "json", "version": 1, "text": string(legacySrc)}})
	c.diagnostics(legacyURI, func(ds []lspDiag) bool { return hasCode(ds, "legacy_agent_filename") })
	res, rerr = c.call("textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": legacyURI},
		"range": map[string]any{"start": map[string]int{"line": 0, "character": 0}, "end": map[string]int{"line": 0, "character": 1}}, "context": map[string]any{"diagnostics": []any{}}})
	var moves []struct {
		Edit struct {
			DocumentChanges []map[string]any `json:"documentChanges"`
		} `json:"edit"`
	}
	if err := json.Unmarshal(res, &moves); err != nil || rerr != nil {
		t.Fatalf("codeAction on the legacy flow: %s %s %v", res, rerr, err)
	}
	var renamed bool
	for _, a := range moves {
		for _, dc := range a.Edit.DocumentChanges {
			renamed = renamed || dc["kind"] == "rename" && dc["oldUri"] == legacyURI && dc["newUri"] == fileURI(filepath.Join(legacy, "cinatra", "oas.json"))
		}
	}
	if !renamed {
		t.Errorf("no RenameFile quick fix for the legacy flow file: %s", res)
	}
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": legacyURI}})

	// Bad input: a body that is not JSON, a message that is no request.
	c.writeRaw([]byte(`{"jsonrpc": "2.0", "id": 1, "method": `))
	if _, e := c.responseTo("null"); !strings.Contains(string(e), "-32700") {
		t.Errorf("bad JSON: error %s, want a parse error", e)
	}
	c.writeRaw([]byte(`{"jsonrpc": "2.0", "id": 7}`))
	if _, e := c.responseTo("7"); !strings.Contains(string(e), "-32600") {
		t.Errorf("no method: error %s, want invalid request", e)
	}
	if _, e := c.call("textDocument/nonsense", map[string]any{}); !strings.Contains(string(e), "-32601") {
		t.Errorf("unknown method: %s", e)
	}

	// Definition: a control edge's node id → its component's key.
	edge := strings.Index(fixed, `"control_flow_connections"`)
	ref := edge + strings.Index(fixed[edge:], `"$component_ref": "scope_gate"`) + len(`"$component_ref": "`) + 2
	res, rerr = c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": flowURI}, "position": posOf(fixed, ref)})
	var locs []struct {
		URI   string   `json:"uri"`
		Range lspRange `json:"range"`
	}
	if err := json.Unmarshal(res, &locs); err != nil || len(locs) != 1 || locs[0].URI != flowURI {
		t.Fatalf("definition: %s %s", res, rerr)
	}
	key := strings.Index(fixed, `"scope_gate": {`)
	if got := locs[0].Range; got.Start != posOf(fixed, key) || got.End != posOf(fixed, key+len(`"scope_gate"`)) {
		t.Errorf("definition range %+v, want the key at %+v", got, posOf(fixed, key))
	}
	// Hover on the same ref: the node's facts.
	res, _ = c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": flowURI}, "position": posOf(fixed, ref)})
	var h struct {
		Contents struct{ Kind, Value string } `json:"contents"`
	}
	if err := json.Unmarshal(res, &h); err != nil || h.Contents.Kind != "markdown" ||
		!strings.Contains(h.Contents.Value, "node `scope_gate`") || !strings.Contains(h.Contents.Value, "in the compiled order") ||
		!strings.Contains(h.Contents.Value, "approval gate") || !strings.Contains(h.Contents.Value, "data out") {
		t.Errorf("hover: %s", res)
	}
	// References of the key; the outline.
	res, _ = c.call("textDocument/references", map[string]any{"textDocument": map[string]any{"uri": flowURI},
		"position": posOf(fixed, key+2), "context": map[string]any{"includeDeclaration": false}})
	if n := strings.Count(string(res), `"uri"`); n != strings.Count(fixed, `"$component_ref": "scope_gate"`) {
		t.Errorf("references: %d, want every ref: %s", n, res)
	}
	res, _ = c.call("textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": flowURI}})
	if !strings.Contains(string(res), `"name":"scope_gate"`) || !strings.Contains(string(res), `"children"`) {
		t.Errorf("documentSymbol: %.300s", res)
	}
	// Rename the node from a ref (the key, its id, every ref); complete the ref.
	res, rerr = c.call("textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": flowURI}, "position": posOf(fixed, ref), "newName": "scope_check"})
	if n := strings.Count(string(res), `"newText":"scope_check"`); n != strings.Count(fixed, `"$component_ref": "scope_gate"`)+2 {
		t.Errorf("rename: %d edits: %.300s %s", n, res, rerr)
	}
	res, _ = c.call("textDocument/completion", map[string]any{"textDocument": map[string]any{"uri": flowURI}, "position": posOf(fixed, ref)})
	if !strings.Contains(string(res), `"label":"scope_gate"`) || !strings.Contains(string(res), `"label":"collect_changes"`) {
		t.Errorf("completion: %.300s", res)
	}

	// Definition and hover on the largest corpus agent (when ../shared is there).
	t.Run("corpus", func(t *testing.T) {
		from := testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "blog-pipeline-agent")
		cdir := filepath.Join(t.TempDir(), "agents", "cinatra-ai", "blog-pipeline-agent")
		copyTree(t, from, cdir)
		cflow := filepath.Join(cdir, "cinatra", "oas.json")
		csrc, err := os.ReadFile(cflow)
		if err != nil {
			t.Fatal(err)
		}
		cs := string(csrc)
		c.notify("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": fileURI(cflow), "languageId": "json", "version": 1, "text": cs}})
		edges := strings.Index(cs, `"data_flow_connections"`)
		src := edges + strings.Index(cs[edges:], `"source_node"`)
		ref := src + strings.Index(cs[src:], `"$component_ref": "`) + len(`"$component_ref": "`) + 1
		id := cs[ref-1 : ref-1+strings.IndexByte(cs[ref-1:], '"')]
		res, _ := c.call("textDocument/definition", map[string]any{"textDocument": map[string]any{"uri": fileURI(cflow)}, "position": posOf(cs, ref)})
		var locs []struct {
			Range lspRange `json:"range"`
		}
		refs := strings.Index(cs, `"$referenced_components"`)
		key := refs + strings.Index(cs[refs:], `"`+id+`": {`)
		if err := json.Unmarshal(res, &locs); err != nil || len(locs) != 1 || locs[0].Range.Start != posOf(cs, key) {
			t.Errorf("corpus definition of %s: %s, want %+v", id, res, posOf(cs, key))
		}
		res, _ = c.call("textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": fileURI(cflow)}, "position": posOf(cs, ref)})
		if !strings.Contains(string(res), "node `"+id+"`") || !strings.Contains(string(res), "data out") {
			t.Errorf("corpus hover of %s: %s", id, res)
		}
		c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": fileURI(cflow)}})
	})

	// Closing clears the diagnostics; shutdown and exit end the process cleanly.
	c.notify("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": flowURI}})
	c.diagnostics(flowURI, func(ds []lspDiag) bool { return len(ds) == 0 })
	if res, rerr := c.call("shutdown", nil); rerr != nil || string(res) != "null" {
		t.Errorf("shutdown: %s %s", res, rerr)
	}
	c.notify("exit", nil)
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("exit after shutdown: %v, want status 0", err)
		}
	case <-time.After(10 * time.Second):
		t.Error("the server did not exit")
	}
}
