package lsp

import (
	"encoding/json"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"
	"unicode/utf16"

	"go.lsp.dev/protocol"
)

// small is a flow whose lines put accented and astral characters before
// the refs, ports and types (UTF-16 columns differ from byte columns);
// metadata.cinatra makes it a cinatra flow (an Agent Spec review would
// compile the JSON Schemas: half a second under -race).
const small = `{"component_type": "Flow", "id": "f", "name": "F 😀é", "metadata": {"cinatra": {"type": "flow"}}, "start_node": {"$component_ref": "s"},
"nodes": [{"$component_ref": "s"}, {"$component_ref": "e"}],
"control_flow_connections": [{"component_type": "ControlFlowEdge", "name": "😀", "from_node": {"$component_ref": "s"}, "to_node": {"$component_ref": "e"}}],
"data_flow_connections": [{"component_type": "DataFlowEdge", "name": "é😀", "source_node": {"$component_ref": "s"}, "source_output": "q", "destination_node": {"$component_ref": "e"}, "destination_input": "q"}],
"$referenced_components": {
"s": {"component_type": "StartNode", "id": "s", "name": "S", "inputs": [{"title": "q", "type": "string"}], "outputs": [{"title": "q", "type": "string"}]},
"e": {"description": "😀", "component_type": "EndNode", "id": "e", "name": "E", "outputs": [{"title": "q", "type": "string"}]}}}
`

// at is the position of the n-th occurrence of needle in src, plus delta bytes.
func at(t *testing.T, src, needle string, n, delta int) protocol.Position {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(src[off+1:], needle)
		if j < 0 {
			t.Fatalf("%q #%d not found", needle, n)
		}
		off += 1 + j
	}
	return newText([]byte(src)).position(off + delta)
}

// applyEdits applies text edits (non-overlapping, any order) to src.
func applyEdits(src string, edits []protocol.TextEdit) string {
	tx := newText([]byte(src))
	sort.Slice(edits, func(i, j int) bool { return tx.offset(edits[i].Range.Start) > tx.offset(edits[j].Range.Start) })
	for _, e := range edits {
		a, b := tx.offset(e.Range.Start), tx.offset(e.Range.End)
		src = src[:a] + e.NewText + src[b:]
	}
	return src
}

type rpcAnswer struct {
	Result json.RawMessage `json:"result"`
	Error  *rpcError       `json:"error"`
}

func call(t *testing.T, s *Server, out *sink, id int, method string, params any) rpcAnswer {
	t.Helper()
	s.Handle(req(id, method, params))
	r := out.response(itoa(id))
	if r == nil {
		t.Fatalf("%s: no answer", method)
	}
	var a rpcAnswer
	a.Result = r["result"]
	if e := r["error"]; e != nil {
		a.Error = &rpcError{}
		_ = json.Unmarshal(e, a.Error)
	}
	return a
}

func TestRenameCompletion(t *testing.T) {
	out := &sink{}
	s := New(out, Options{Debounce: -1})
	init := call(t, s, out, 0, "initialize", map[string]any{"capabilities": map[string]any{
		"workspace":    map[string]any{"workspaceEdit": map[string]any{"documentChanges": true}},
		"textDocument": map[string]any{"rename": map[string]any{"prepareSupport": true}}}})
	var caps struct {
		Capabilities struct {
			RenameProvider     json.RawMessage `json:"renameProvider"`
			CompletionProvider struct {
				TriggerCharacters []string `json:"triggerCharacters"`
			} `json:"completionProvider"`
		} `json:"capabilities"`
	}
	_ = json.Unmarshal(init.Result, &caps)
	if string(caps.Capabilities.RenameProvider) != `{"prepareProvider":true}` || len(caps.Capabilities.CompletionProvider.TriggerCharacters) != 1 {
		t.Errorf("capabilities: %s", init.Result)
	}
	// without prepareSupport: renameProvider is true
	out2 := &sink{}
	s2 := New(out2, Options{Debounce: -1})
	if a := call(t, s2, out2, 0, "initialize", map[string]any{"capabilities": map[string]any{}}); !strings.Contains(string(a.Result), `"renameProvider":true`) {
		t.Errorf("capabilities without prepareSupport: %s", a.Result)
	}

	path := filepath.Join(t.TempDir(), "flow.json")
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 7, "text": small}}))
	doc := map[string]any{"uri": u}
	id := 1
	ask := func(method string, p protocol.Position, extra map[string]any) rpcAnswer {
		id++
		params := map[string]any{"textDocument": doc, "position": p}
		for k, v := range extra {
			params[k] = v
		}
		return call(t, s, out, id, method, params)
	}

	// prepareRename on the to_node ref "e" (after an astral char on its line)
	toE := at(t, small, `"to_node": {"$component_ref": "e"}`, 0, 31)
	// counted independently: UTF-16 units of the line before the "e"
	line := strings.Split(small, "\n")[2]
	if want := len(utf16.Encode([]rune(line[:strings.Index(line, `"to_node"`)+31]))); toE.Line != 2 || int(toE.Character) != want ||
		want == strings.Index(line, `"to_node"`)+31 {
		t.Fatalf("position of the to_node ref: %+v, want 2:%d (and fewer units than bytes)", toE, want)
	}
	var prep prepareRenameResult
	a := ask("textDocument/prepareRename", toE, nil)
	if a.Error != nil || json.Unmarshal(a.Result, &prep) != nil || prep.Placeholder != "e" || prep.Range.Start != toE ||
		prep.Range.End.Character != toE.Character+1 || prep.Range.End.Line != toE.Line {
		t.Errorf("prepareRename: %s %v (want at %+v)", a.Result, a.Error, toE)
	}
	for _, c := range []struct {
		what string
		p    protocol.Position
	}{
		{"whitespace", at(t, small, `"nodes": [`, 0, 9)},
		{"a name", at(t, small, `"F 😀é"`, 0, 3)},
		{"past the end", protocol.Position{Line: 999, Character: 999}},
		{"past a line's end", protocol.Position{Line: 1, Character: 9999}},
	} {
		if a := ask("textDocument/prepareRename", c.p, nil); a.Error != nil || string(a.Result) != "null" {
			t.Errorf("prepareRename on %s: %s %v", c.what, a.Result, a.Error)
		}
	}

	// rename e → finish: the key, its id, three refs; documentChanges with the version
	a = ask("textDocument/rename", toE, map[string]any{"newName": "finish"})
	var we struct {
		DocumentChanges []protocol.TextDocumentEdit `json:"documentChanges"`
	}
	if a.Error != nil || json.Unmarshal(a.Result, &we) != nil || len(we.DocumentChanges) != 1 {
		t.Fatalf("rename: %s %v", a.Result, a.Error)
	}
	dc := we.DocumentChanges[0]
	if dc.TextDocument.Version == nil || *dc.TextDocument.Version != 7 || string(dc.TextDocument.URI) != u || len(dc.Edits) != 5 {
		t.Errorf("rename edit: %+v", dc)
	}
	want := strings.NewReplacer(`"$component_ref": "e"`, `"$component_ref": "finish"`, `"e": {`, `"finish": {`, `"id": "e"`, `"id": "finish"`).Replace(small)
	if got := applyEdits(small, dc.Edits); got != want {
		t.Errorf("renamed:\n%s\nwant\n%s", got, want)
	}
	for _, c := range []struct{ name, msg string }{
		{"s", `"s" is already a component key in this scope`},
		{"a b", "not a valid component id"},
		{"", "not a valid component id"},
	} {
		a := ask("textDocument/rename", toE, map[string]any{"newName": c.name})
		if a.Error == nil || a.Error.Code != codeRequestFailed || !strings.Contains(a.Error.Message, c.msg) {
			t.Errorf("rename to %q: %s %+v", c.name, a.Result, a.Error)
		}
	}
	if a := ask("textDocument/rename", toE, map[string]any{"newName": "e"}); a.Error != nil || string(a.Result) != "{}" {
		t.Errorf("rename to the same name: %s %v", a.Result, a.Error)
	}
	if a := ask("textDocument/rename", protocol.Position{Line: 999, Character: 3}, map[string]any{"newName": "x"}); a.Error == nil || a.Error.Code != codeRequestFailed {
		t.Errorf("rename at a bad position: %s %v", a.Result, a.Error)
	}
	if a := ask("textDocument/rename", at(t, small, `"id": "f"`, 0, 7), map[string]any{"newName": "x"}); a.Error == nil {
		t.Errorf("rename of the root flow's id: %s", a.Result)
	}

	// completion
	complete := func(p protocol.Position) protocol.CompletionList {
		t.Helper()
		var l protocol.CompletionList
		a := ask("textDocument/completion", p, map[string]any{"context": map[string]any{"triggerKind": 1}})
		if a.Error != nil || json.Unmarshal(a.Result, &l) != nil {
			t.Fatalf("completion: %s %v", a.Result, a.Error)
		}
		return l
	}
	l := complete(toE)
	if len(l.Items) != 2 || l.Items[0].Label != "s" || l.Items[1].Label != "e" || l.Items[0].Kind != protocol.CompletionItemKindFunction ||
		l.Items[0].Detail != "StartNode · S — own scope" || l.Items[1].TextEdit == nil || l.Items[1].TextEdit.Range != prep.Range || l.Items[1].TextEdit.NewText != "e" {
		t.Errorf("ref completion: %+v", l.Items)
	}
	l = complete(at(t, small, `"source_output": "q"`, 0, 18))
	if len(l.Items) != 1 || l.Items[0].Label != "q" || l.Items[0].Kind != protocol.CompletionItemKindField || l.Items[0].Detail != "string" {
		t.Errorf("port completion: %+v", l.Items)
	}
	l = complete(at(t, small, `"component_type": "EndNode"`, 0, 19))
	found := false
	for _, it := range l.Items {
		found = found || it.Label == "EndNode" && it.Kind == protocol.CompletionItemKindClass
	}
	if !found {
		t.Errorf("component_type completion: %d items", len(l.Items))
	}
	for _, p := range []protocol.Position{at(t, small, `"nodes": [`, 0, 9), at(t, small, `"F 😀é"`, 0, 3), {Line: 999, Character: 1}} {
		if l := complete(p); len(l.Items) != 0 {
			t.Errorf("completion at %+v: %+v", p, l.Items)
		}
	}
	// typed without an auto-closed quote: the buffer does not parse
	open := strings.Replace(small, `"to_node": {"$component_ref": "e"}`, `"to_node": {"$component_ref": "}`, 1)
	s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 8}, "contentChanges": []any{map[string]any{"text": open}}}))
	cur := at(t, open, `"to_node": {"$component_ref": "}`, 0, 31)
	if l := complete(cur); len(l.Items) != 2 || l.Items[1].Label != "e" || l.Items[1].TextEdit.Range.Start != cur || l.Items[1].TextEdit.Range.End != cur {
		t.Errorf("completion in an open string: %+v", l.Items)
	}
	doc = map[string]any{"uri": "file:///nowhere/flow.json"}
	if l := complete(protocol.Position{}); len(l.Items) != 0 {
		t.Errorf("completion in an unknown file: %+v", l.Items)
	}
}

// findingsOf is the last diagnostics published for path as
// "code pointer message" lines, sorted.
func findingsOf(out *sink, path string) []string {
	var last []string
	for _, m := range out.all() {
		if string(m["method"]) != `"textDocument/publishDiagnostics"` {
			continue
		}
		var p struct {
			URI         string `json:"uri"`
			Diagnostics []struct {
				Code    string `json:"code"`
				Message string `json:"message"`
				Data    struct {
					Pointer string `json:"pointer"`
				} `json:"data"`
			} `json:"diagnostics"`
		}
		_ = json.Unmarshal(m["params"], &p)
		if p.URI != string(uriOf(path)) {
			continue
		}
		last = []string{}
		for _, d := range p.Diagnostics {
			last = append(last, d.Code+" "+d.Data.Pointer+" "+d.Message)
		}
	}
	sort.Strings(last)
	return last
}

// Renaming a node used by edges, in the bundled example agent and in the
// largest corpus agent, gives a document that reviews with the same
// findings as before, the name aside.
func TestRenameReviewsSame(t *testing.T) {
	type agent struct {
		name string
		load func(testing.TB) (string, []byte)
	}
	for _, ag := range []agent{{"example", exampleAgent}, {"corpus", corpusFlow}} {
		t.Run(ag.name, func(t *testing.T) {
			path, src := ag.load(t)
			out := &sink{}
			s := New(out, Options{Debounce: -1})
			call(t, s, out, 0, "initialize", map[string]any{"capabilities": map[string]any{}})
			u := string(uriOf(path))
			// the node the first control edge leads to
			m := regexp.MustCompile(`"to_node":\s*\{\s*"\$component_ref":\s*"([^"]+)"`).FindSubmatchIndex(src)
			if m == nil {
				t.Fatal("no control edge")
			}
			old := string(src[m[2]:m[3]])
			// findings about it: a second edge leaving it, to nowhere, written first
			cfc := regexp.MustCompile(`"control_flow_connections":\s*\[`).FindIndex(src)
			src = []byte(string(src[:cfc[1]]) + `{"component_type": "ControlFlowEdge", "name": "dangling", "from_node": {"$component_ref": "` + old +
				`"}, "to_node": {"$component_ref": "nowhere_x"}}, ` + string(src[cfc[1]:]))
			m = regexp.MustCompile(`"to_node":\s*\{\s*"\$component_ref":\s*"(` + regexp.QuoteMeta(old) + `)"`).FindSubmatchIndex(src)
			s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": string(src)}}))
			before := findingsOf(out, path)
			if len(before) == 0 {
				t.Fatal("no findings to compare")
			}
			name := old + "_renamed"
			a := call(t, s, out, 1, "textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": u},
				"position": newText(src).position(m[2] + 1), "newName": name})
			var we struct {
				Changes map[string][]protocol.TextEdit `json:"changes"`
			}
			if a.Error != nil || json.Unmarshal(a.Result, &we) != nil || len(we.Changes[u]) < 4 {
				t.Fatalf("rename %s: %s %v", old, a.Result, a.Error)
			}
			renamed := applyEdits(string(src), we.Changes[u])
			refs := regexp.MustCompile(`"\$component_ref":\s*"` + regexp.QuoteMeta(old) + `"`)
			if refs.MatchString(renamed) || strings.Contains(renamed, `"`+old+`": {`) {
				t.Errorf("%s is left in the renamed document", old)
			}
			s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2},
				"contentChanges": []any{map[string]any{"text": renamed}}}))
			after := findingsOf(out, path)
			// the name as a whole word (an edge named "<old>_to_x" is no reference: it keeps its name)
			word := regexp.MustCompile(`(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(old) + `($|[^A-Za-z0-9_-])`)
			for i, f := range before {
				before[i] = word.ReplaceAllString(f, "${1}"+name+"${2}")
			}
			sort.Strings(before)
			if strings.Join(before, "\n") != strings.Join(after, "\n") {
				t.Errorf("findings differ after renaming %s (%d edits):\nbefore:\n%s\nafter:\n%s", old, len(we.Changes[u]), strings.Join(before, "\n"), strings.Join(after, "\n"))
			}
			t.Logf("%s: renamed %s with %d edits; %d findings before and after", ag.name, old, len(we.Changes[u]), len(after))
		})
	}
}
