package lsp

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
)

// TestTokenAsIDMasked: a token used as a component key and id (the node
// "notify") is masked in everything the server sends — diagnostics (their
// messages and the pointer in their data), code actions, hover (issue 26
// item 10: the pointers carried it raw) — while the server still knows the
// finding each diagnostic came from.
func TestTokenAsIDMasked(t *testing.T) {
	path, src := exampleAgent(t)
	s, out, _ := newTestServer(t, -1)
	text := strings.ReplaceAll(string(src), `"notify"`, `"`+hostile.Token+`"`)
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": text}}))
	if d := diagsOf(t, out, path, text); len(d["literal_credential_detected"]) == 0 {
		t.Fatalf("no literal_credential_detected diagnostic: %v", d)
	}
	line := strings.Count(text[:strings.Index(text, `"`+hostile.Token+`": {`)], "\n")
	s.Handle(req(7, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": pos(line, 8)}))
	s.Handle(req(8, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
		"range": map[string]any{"start": pos(0, 0), "end": pos(line+40, 0)}, "context": map[string]any{"diagnostics": []any{}}}))
	if out.response("7")["result"] == nil || string(out.response("7")["result"]) == "null" {
		t.Errorf("no hover on the node key")
	}
	all, err := json.Marshal(out.all())
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(all), hostile.Token[4:]) {
		t.Errorf("the server sent the token:\n%.2000s", all)
	}
}
