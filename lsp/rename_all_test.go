package lsp

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"go.lsp.dev/protocol"
)

// TestRenameEveryID renames, one at a time, every component a
// $component_ref of the example agent and of the largest corpus agent
// names, and reviews each result: the findings must stay the same, and
// the only refusals are of the registry's components. About 2.5 s: under
// -race every 25th id (internal/race; CI runs it whole without -race).
//
// OASTUI_RENAME_FILES (a path list) adds flow files, each reviewed alone:
//
//	OASTUI_RENAME_FILES=a.json:b.json go test ./lsp -run TestRenameEveryID -v
func TestRenameEveryID(t *testing.T) {
	loads := []func(testing.TB) (string, []byte){exampleAgent, corpusFlow}
	for _, f := range filepath.SplitList(os.Getenv("OASTUI_RENAME_FILES")) { // more flow files, each reviewed alone
		loads = append(loads, func(t testing.TB) (string, []byte) {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			p := filepath.Join(t.TempDir(), filepath.Base(f))
			if err := os.WriteFile(p, src, 0o644); err != nil {
				t.Fatal(err)
			}
			return p, src
		})
	}
	for _, load := range loads {
		path, src := load(t)
		keys := regexp.MustCompile(`"\$component_ref":\s*"([^"]+)"`).FindAllSubmatchIndex(src, -1)
		seen := map[string]bool{}
		renamed, refused := 0, 0
		for _, m := range keys {
			old := string(src[m[2]:m[3]])
			if seen[old] {
				continue
			}
			seen[old] = true
			if len(seen)%race.Stride(25) != 0 {
				continue
			}
			out := &sink{}
			s := New(out, Options{Debounce: -1})
			call(t, s, out, 0, "initialize", map[string]any{"capabilities": map[string]any{}})
			u := string(uriOf(path))
			s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": string(src)}}))
			before := findingsOf(out, path)
			name := "zz" + old
			a := call(t, s, out, 1, "textDocument/rename", map[string]any{"textDocument": map[string]any{"uri": u}, "position": newText(src).position(m[2] + 1), "newName": name})
			if a.Error != nil {
				if !strings.Contains(a.Error.Message, "is a component of the registry") {
					t.Errorf("%s: refused: %s", old, a.Error.Message)
				}
				refused++
				continue
			}
			renamed++
			var we struct {
				Changes map[string][]protocol.TextEdit `json:"changes"`
			}
			_ = json.Unmarshal(a.Result, &we)
			renamed := applyEdits(string(src), we.Changes[u])
			s.Handle(note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": []any{map[string]any{"text": renamed}}}))
			after := findingsOf(out, path)
			word := regexp.MustCompile(`(^|[^A-Za-z0-9_-])` + regexp.QuoteMeta(old) + `($|[^A-Za-z0-9_-])`)
			for i, f := range before {
				before[i] = word.ReplaceAllString(f, "${1}"+name+"${2}")
			}
			sort.Strings(before)
			if strings.Join(before, "\n") != strings.Join(after, "\n") {
				t.Errorf("%s (%d edits):\nbefore:\n%s\nafter:\n%s", old, len(we.Changes[u]), strings.Join(before, "\n"), strings.Join(after, "\n"))
			}
		}
		if renamed == 0 {
			t.Errorf("%s: no id renamed", path)
		}
		t.Logf("%s: %d ids: %d renamed with the same findings, %d refused", path, len(seen), renamed, refused)
	}
}
