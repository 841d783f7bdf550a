package lsp

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"go.lsp.dev/protocol"
)

// The server reviews what the client opens, wherever it is, but never
// returns an edit (a quick fix, fix all, a rename, a file move) naming a
// file outside the workspace folders (else rootUri): for a document
// outside them, code actions offer no edit and rename is refused.
func TestEditsConfined(t *testing.T) {
	path, src := exampleAgent(t)
	tree := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(path)))) // …/agents/oastui/example-agent/cinatra/oas.json → …
	broken := strings.Replace(string(src), `"packageVersion": "0.1.0"`, `"packageVersion": "9.9.9"`, 1)
	elsewhere := t.TempDir()
	for _, c := range []struct {
		name   string
		init   map[string]any
		inside bool
	}{
		{"rootUri elsewhere", map[string]any{"rootUri": uriOf(elsewhere)}, false},
		{"folders elsewhere", map[string]any{"rootUri": uriOf(tree), "workspaceFolders": []any{map[string]any{"uri": uriOf(elsewhere), "name": "w"}}}, false},
		{"rootPath elsewhere", map[string]any{"rootPath": elsewhere}, false},
		{"rootUri around", map[string]any{"rootUri": uriOf(tree)}, true},
		{"folders around", map[string]any{"workspaceFolders": []any{map[string]any{"uri": uriOf(elsewhere), "name": "w"}, map[string]any{"uri": uriOf(tree), "name": "t"}}}, true},
		{"no workspace", map[string]any{}, true}, // single-file mode: the package of the open file
	} {
		t.Run(c.name, func(t *testing.T) {
			out := &sink{}
			s := New(out, Options{Debounce: -1})
			c.init["capabilities"] = map[string]any{}
			s.Handle(req(0, "initialize", c.init))
			s.Handle(note("initialized", map[string]any{}))
			u := string(uriOf(path))
			s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": broken}}))
			if len(diagsOf(t, out, path, broken)["package_version_oas_pkg_drift"]) != 1 {
				t.Fatalf("the document is not reviewed")
			}
			a := call(t, s, out, 1, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
				"range": map[string]any{"start": pos(0, 0), "end": pos(100000, 0)}, "context": map[string]any{"diagnostics": []any{}}})
			var actions []protocol.CodeAction
			if err := json.Unmarshal(a.Result, &actions); err != nil {
				t.Fatal(err)
			}
			r := call(t, s, out, 2, "textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": u},
				"position": at(t, broken, `"announcer"`, 0, 1), "newName": "announcer2"})
			if c.inside {
				if len(actions) == 0 || r.Error != nil {
					t.Errorf("inside the workspace: %d actions, rename %+v", len(actions), r.Error)
				}
				return
			}
			if len(actions) != 0 {
				t.Errorf("edits outside the workspace offered: %s", a.Result)
			}
			if r.Error == nil || !strings.Contains(r.Error.Message, ": outside the workspace folders") || !strings.Contains(r.Error.Message, filepath.Base(path)) {
				t.Errorf("rename outside the workspace: %s %+v", r.Result, r.Error)
			}
		})
	}
}

// workspace/didChangeWorkspaceFolders moves the confinement: a folder
// added holds the document's edits, removed it no longer does.
func TestWorkspaceFoldersChange(t *testing.T) {
	path, src := exampleAgent(t)
	tree := filepath.Dir(filepath.Dir(filepath.Dir(filepath.Dir(path))))
	broken := strings.Replace(string(src), `"packageVersion": "0.1.0"`, `"packageVersion": "9.9.9"`, 1)
	elsewhere := t.TempDir()
	out := &sink{}
	s := New(out, Options{Debounce: -1})
	s.Handle(req(0, "initialize", map[string]any{"capabilities": map[string]any{}, "workspaceFolders": []any{map[string]any{"uri": uriOf(elsewhere), "name": "w"}}}))
	s.Handle(note("initialized", map[string]any{}))
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": broken}}))
	actions := func(id int) int {
		a := call(t, s, out, id, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
			"range": map[string]any{"start": pos(0, 0), "end": pos(100000, 0)}, "context": map[string]any{"diagnostics": []any{}}})
		var as []protocol.CodeAction
		if err := json.Unmarshal(a.Result, &as); err != nil {
			t.Fatal(err)
		}
		return len(as)
	}
	if n := actions(1); n != 0 {
		t.Fatalf("%d actions outside the workspace", n)
	}
	folder := map[string]any{"uri": uriOf(tree), "name": "t"}
	s.Handle(note("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": []any{folder}, "removed": []any{}}}))
	if n := actions(2); n == 0 {
		t.Fatalf("no actions once the folder holding the document is added")
	}
	s.Handle(note("workspace/didChangeWorkspaceFolders", map[string]any{"event": map[string]any{"added": []any{}, "removed": []any{folder}}}))
	if n := actions(3); n != 0 {
		t.Fatalf("%d actions once the folder is removed again", n)
	}
}
