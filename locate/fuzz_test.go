package locate

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// FuzzLocate: at any offset of any flow file, the symbol, its definition,
// references, hover, the outline, completion, prepareRename and rename
// never panic; every span they return lies inside its file; a rename to a
// valid id is edits that apply to the file (in range, not overlapping),
// keep a JSON file JSON and put the new name where the old one was. The
// seed corpus (testdata/fuzz/FuzzLocate) is real agents' flow files with
// offsets on refs, keys and ports; the test run replays it.
func FuzzLocate(f *testing.F) {
	f.Add(scoped, uint32(strings.Index(scoped, `"sub_node"}`)+2), "renamed_node")
	f.Add(scoped, uint32(strings.Index(scoped, `"source_output": "q"`)+18), "x")
	f.Add(scoped, uint32(strings.Index(scoped, `"shared_tool": {`)+3), "tool-2")
	f.Add(`{"component_type": "Flow", "start_node": {"$component_ref": "`, uint32(60), "s")
	f.Fuzz(func(t *testing.T, src string, off uint32, name string) {
		path := filepath.Join(string(filepath.Separator), "fuzz", "agents", "v", "a", "cinatra", "oas.json")
		a, err := compile.Load(path, compile.LoadOptions{Overlay: map[string][]byte{path: []byte(src)}, NoSiblings: true})
		if err != nil {
			t.Skip(err)
		}
		x := New(a)
		pos := int(off) % (len(src) + 1)
		inFile := func(what string, sp Span) {
			t.Helper()
			d := x.doc(sp.File)
			if d == nil {
				t.Fatalf("%s: span in an unknown file %q", what, sp.File)
			}
			if sp.Start < 0 || sp.End < sp.Start || sp.End > len(d.Src) {
				t.Fatalf("%s: span [%d,%d) outside %s (%d bytes)", what, sp.Start, sp.End, sp.File, len(d.Src))
			}
		}
		var walk func(items []Item)
		walk = func(items []Item) {
			for _, it := range items {
				inFile("outline", it.Span)
				inFile("outline select", it.Select)
				walk(it.Children)
			}
		}
		walk(x.Outline())
		if s, ok := x.At(path, pos); ok {
			inFile("symbol", s.Span)
			if sp, ok := x.Definition(s); ok {
				inFile("definition", sp)
			}
			for _, sp := range x.References(s, true) {
				inFile("reference", sp)
			}
			x.Hover(s)
			x.ComponentFacts(s)
		}
		if c, ok := x.Complete(path, pos); ok {
			inFile("completion", c.Span)
		}
		r, err := x.PrepareRename(path, pos)
		if err != nil {
			return
		}
		inFile("prepareRename", r.Span)
		fx, err := x.Rename(path, pos, name)
		if err != nil {
			return
		}
		if !ValidID(name) {
			t.Fatalf("renamed to %q, not a valid id", name)
		}
		for _, file := range fx.Files() {
			d := x.doc(file)
			if d == nil {
				t.Fatalf("the rename edits %s, a file the agent did not read", file)
			}
			edits := edit.EditsOf(fx.Edits, file)
			out, err := edit.Apply(d.Src, edits)
			if err != nil {
				t.Fatalf("the rename's edits do not apply: %v", err)
			}
			for _, e := range edits {
				if e.New != name {
					t.Fatalf("an edit writes %q, not the new name %q", e.New, name)
				}
				if old := string(d.Src[e.Start:e.End]); old != r.ID {
					t.Fatalf("an edit replaces %q, not the old name %q", old, r.ID)
				}
			}
			if strings.EqualFold(filepath.Ext(file), ".json") && json.Valid(d.Src) && !json.Valid(out) {
				t.Fatalf("the rename breaks the JSON of %s", file)
			}
		}
	})
}
