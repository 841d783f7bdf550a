package lsp

import (
	"strings"
	"testing"
)

// Through the server: flow_duplicate_node_name squiggles the repeated
// name, on one line, not the whole node component.
func TestContainerDiagnostic(t *testing.T) {
	path, src := exampleAgent(t)
	s, out, _ := newTestServer(t, -1)
	dup := strings.Replace(string(src), `"name": "Collect merged changes"`, `"name": "Release setup"`, 1)
	if dup == string(src) {
		t.Fatal("example agent changed: update this test")
	}
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 1, "text": dup}}))
	if got := diagsOf(t, out, path, dup)["flow_duplicate_node_name"]; len(got) != 1 || got[0] != `"Release setup"` {
		t.Errorf("flow_duplicate_node_name covers %q", got)
	}
}
