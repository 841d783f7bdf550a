package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.lsp.dev/protocol"
)

// exampleAgent copies the bundled example agent into a temp agents/ tree
// and returns its flow file.
func exampleAgent(t testing.TB) (string, []byte) {
	from := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	dir := filepath.Join(t.TempDir(), "agents", "oastui", "example-agent")
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
	p := filepath.Join(dir, "cinatra", "oas.json")
	src, _ := os.ReadFile(p)
	return p, src
}

// FuzzHandle feeds the message handler an open agent buffer, then random
// incremental and full edits, requests at random positions and random
// message bodies: no panic (a recovered one is logged and fails), the
// buffer is the text the edits make, and the server still answers.
func FuzzHandle(f *testing.F) {
	f.Add([]byte{0, 3, 10, 3, 12, 2, 'x', 'y', 2, 0, 3, 12, 4})
	f.Add([]byte{1, 5, '{', '"', 'a', '"', ':', 2, 3, 0, 1, 4})
	f.Add([]byte{3, 7, '{', '"', 'i', 'd', '"', ':', '1', 2, 1, 40, 20, 2, 4, 200, 9})
	f.Add([]byte("\x00\x28\x05\x28\x09\x04\xf0\x9f\x98\x80\x02\x02\x28\x07\x04"))
	f.Add([]byte{2, 5, 19, 26, 0, 2, 6, 19, 26, 0, 2, 7, 19, 26}) // prepareRename, rename, completion inside the "start" of nodes[0]
	path, src := exampleAgent(f)
	u := string(uriOf(path))
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) > 256 {
			data = data[:256]
		}
		out := &sink{}
		var log strings.Builder
		s := New(out, Options{Debounce: time.Hour, Log: &syncWriter{w: &log}})
		s.Handle(req(0, "initialize", map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}}}}))
		s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": string(src)}}))
		model := append([]byte(nil), src...)
		next := func() int {
			if len(data) == 0 {
				return 0
			}
			b := int(data[0])
			data = data[1:]
			return b
		}
		version, id, ops := 1, 1, 0
		for len(data) > 0 && ops < 12 {
			ops++
			switch next() % 5 {
			case 0: // an incremental edit
				sl, sc, el, ec := next()%64, next()*2, next()%64, next()*2
				n := next() % 16
				text := viaJSON(data[:min(n, len(data))])
				data = data[min(n, len(data)):]
				version++
				rng := map[string]any{"start": map[string]int{"line": sl, "character": sc}, "end": map[string]int{"line": el, "character": ec}}
				s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": version},
					"contentChanges": []any{map[string]any{"range": rng, "text": text}}}))
				tx := newText(model)
				a, b := tx.offset(protocol.Position{Line: uint32(sl), Character: uint32(sc)}), tx.offset(protocol.Position{Line: uint32(el), Character: uint32(ec)})
				if b < a {
					a, b = b, a
				}
				model = append(append(append([]byte(nil), model[:a]...), text...), model[b:]...)
			case 1: // a full change
				n := next() % 32
				text := viaJSON(data[:min(n, len(data))])
				data = data[min(n, len(data)):]
				version++
				s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": version},
					"contentChanges": []any{map[string]any{"text": text}}}))
				model = []byte(text)
			case 2: // a request at a position
				methods := []string{"textDocument/hover", "textDocument/definition", "textDocument/references", "textDocument/codeAction", "textDocument/documentSymbol",
					"textDocument/prepareRename", "textDocument/rename", "textDocument/completion"}
				m := methods[next()%len(methods)]
				p := pos(next()*4, next())
				names := []string{"renamed", "", "a b", "start", "x-1"}
				id++
				s.Handle(req(id, m, map[string]any{"textDocument": map[string]any{"uri": u}, "position": p, "newName": names[next()%len(names)],
					"range": map[string]any{"start": p, "end": p}, "context": map[string]any{"diagnostics": []any{}, "includeDeclaration": true}}))
				r := out.response(itoa(id))
				refused := r != nil && r["error"] != nil && m == "textDocument/rename" && strings.Contains(string(r["error"]), itoa(codeRequestFailed))
				if r == nil || r["error"] != nil && !refused {
					t.Fatalf("%s: %v", m, r)
				}
			case 3: // random bytes as a message
				n := next() % 24
				s.Handle(data[:min(n, len(data))])
				data = data[min(n, len(data)):]
			case 4:
				s.Flush()
			}
		}
		s.Flush()
		s.mu.Lock()
		got := string(s.docs[path].src)
		s.mu.Unlock()
		if got != string(model) {
			t.Fatalf("buffer differs from the edits' result")
		}
		s.Handle(req(99999, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}))
		if r := out.response("99999"); r == nil || r["result"] == nil {
			t.Fatalf("no answer after the edits: %v", r)
		}
		if strings.Contains(log.String(), "panic") {
			t.Fatalf("a handler panicked:\n%s", log.String())
		}
		s.stopTimer()
	})
}

func pos(line, char int) map[string]int { return map[string]int{"line": line, "character": char} }

// viaJSON is the string the server decodes from b sent in a JSON string
// (invalid UTF-8 becomes U+FFFD).
func viaJSON(b []byte) string {
	var s string
	_ = json.Unmarshal(mustJSON(string(b)), &s)
	return s
}
