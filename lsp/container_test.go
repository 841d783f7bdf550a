package lsp

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// A finding on a multi-line object or array covers the token that names
// it (the "name" or "id" the message quotes), else its first line; a
// one-line container and a scalar keep their whole value.
func TestNarrowContainers(t *testing.T) {
	src := `{
  "node": {
    "component_type": "LlmNode",
    "id": "draft",
    "name": "Draft notes"
  },
  "anon": {   "a": 1,
    "b": 2 },
  "list": [
    1, 2
  ],
  "one": {"id": "x", "name": "y"},
  "s": "text"
}`
	doc := compile.ParseDoc("f.json", []byte(src))
	if doc.Root == nil {
		t.Fatal(doc.Err)
	}
	for _, c := range []struct {
		ptr, code, msg, want string
	}{
		{"/node", "flow_duplicate_node_name", `flow "f" has two nodes named "Draft notes" (ids "x" and "draft")`, `"Draft notes"`},
		{"/node", "some_rule", `node "draft" is unreachable`, `"draft"`},
		{"/node", "node_id_reused", `a node reuses an identifier`, `"draft"`},
		{"/node", "some_rule", `something about the node`, `"Draft notes"`},
		{"/anon", "some_rule", `an object`, `{   "a": 1,`},
		{"/list", "some_rule", `a list`, `[`},
	} {
		n := doc.Lookup(c.ptr)
		a, b := narrow(doc, n, compile.Finding{Code: c.code, Message: c.msg, Location: c.ptr})
		if got := src[a:b]; got != c.want {
			t.Errorf("%s %s: %q, want %q", c.ptr, c.code, got, c.want)
		}
	}
}

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
