package lsp

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// legacyAgent copies the legacy_agent_filename rule fixture (its flow at
// cinatra/agent.json) into a temp agents/ tree and returns the flow file.
func legacyAgent(t testing.TB) (string, []byte) {
	t.Helper()
	from := filepath.Join("..", "lint", "testdata", "rules", "err", "legacy_agent_filename")
	dir := filepath.Join(t.TempDir(), "agents", "oastui-test", "rule-fixture")
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		to := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
			return err
		}
		return os.WriteFile(to, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "cinatra", "agent.json")
	src, _ := os.ReadFile(p)
	return p, src
}

// wireAction is a code action as a client decodes it, documentChanges
// kept raw (text document edits and resource operations mixed).
type wireAction struct {
	Title string `json:"title"`
	Kind  string `json:"kind"`
	Edit  struct {
		DocumentChanges []map[string]any `json:"documentChanges"`
	} `json:"edit"`
}

// The move of a legacy flow file is a quick fix with a RenameFile
// operation, offered only to a client that advertises the "rename"
// resource operation (as gopls requires; Neovim lists it without
// documentChanges, which carry it); applying
// it (the client renames the file, closes the old buffer and opens the
// new one) leaves no legacy_agent_filename finding.
func TestMoveFixes(t *testing.T) {
	for _, c := range []struct {
		name string
		caps map[string]any
		want bool
	}{
		{"no workspaceEdit capability", map[string]any{}, false},
		{"documentChanges only", map[string]any{"documentChanges": true}, false},
		{"create and delete, no rename", map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "delete"}}, false},
		{"rename without documentChanges (Neovim)", map[string]any{"resourceOperations": []string{"rename", "create", "delete"}}, true},
		{"rename with documentChanges", map[string]any{"documentChanges": true, "resourceOperations": []string{"create", "rename", "delete"}}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			path, src := legacyAgent(t)
			out := &sink{}
			s := New(out, Options{Debounce: -1})
			s.Handle(req(0, "initialize", map[string]any{"capabilities": map[string]any{"workspace": map[string]any{"workspaceEdit": c.caps}}}))
			s.Handle(note("initialized", map[string]any{}))
			u := string(uriOf(path))
			s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": string(src)}}))
			if d := diagsOf(t, out, path, string(src)); len(d["legacy_agent_filename"]) != 1 {
				t.Fatalf("diagnostics: %v %s", d, mustJSON(out.all()))
			}
			s.Handle(req(1, "textDocument/codeAction", map[string]any{"textDocument": map[string]any{"uri": u},
				"range": map[string]any{"start": pos(0, 0), "end": pos(0, 1)}, "context": map[string]any{"diagnostics": []any{}}}))
			var actions []wireAction
			if err := json.Unmarshal(out.response("1")["result"], &actions); err != nil {
				t.Fatal(err)
			}
			var move *wireAction
			for i, a := range actions {
				if strings.Contains(a.Title, "move the flow file") {
					move = &actions[i]
				}
			}
			if (move != nil) != c.want {
				t.Fatalf("move offered %v, want %v: %s", move != nil, c.want, out.response("1")["result"])
			}
			if move == nil {
				return
			}
			to := filepath.Join(filepath.Dir(path), "oas.json")
			dc := move.Edit.DocumentChanges
			if move.Kind != "quickfix" || len(dc) != 1 || dc[0]["kind"] != "rename" || dc[0]["oldUri"] != u || dc[0]["newUri"] != string(uriOf(to)) || dc[0]["options"] != nil {
				t.Fatalf("move action: %+v", move)
			}
			// the client applies it
			if err := os.Rename(path, to); err != nil {
				t.Fatal(err)
			}
			s.Handle(note("textDocument/didClose", map[string]any{"textDocument": map[string]any{"uri": u}}))
			s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(to)), "version": 1, "text": string(src)}}))
			if d := diagsOf(t, out, to, string(src)); len(d["legacy_agent_filename"]) != 0 {
				t.Errorf("after the move: %v", d)
			}
		})
	}
}
