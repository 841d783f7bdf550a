package compile

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// typedByWalk is what Model.Typed stands in for: a walk of the whole
// document asking every object for its component_type.
func typedByWalk(root *Node) []*Node {
	var out []*Node
	WalkNodes(root, func(n *Node) bool {
		if _, ok := n.Get("component_type").Str(); ok && n.Kind == Object {
			out = append(out, n)
		}
		return true
	})
	return out
}

func sameTyped(t *testing.T, name string, doc *Doc) int {
	t.Helper()
	a := &Agent{Flow: doc}
	got, want := a.Model().Typed(), typedByWalk(doc.Root)
	if len(got) != len(want) {
		t.Fatalf("%s: %d typed objects, a walk finds %d", name, len(got), len(want))
	}
	ids := a.Model().TypedIDs()
	if len(ids) != len(got) {
		t.Fatalf("%s: %d ids for %d typed objects", name, len(ids), len(got))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("%s: typed object %d is %s, a walk finds %s", name, i, PointerOf(got[i]), PointerOf(want[i]))
		}
		if id := want[i].Get("id").StringOr(""); ids[i] != id {
			t.Fatalf("%s: typed object %d has id %q, TypedIDs says %q", name, i, id, ids[i])
		}
	}
	return len(got)
}

// TestModelTypedCases: the model's list of typed objects is the walk's,
// in its order, for the shapes that could tell them apart: an empty or
// non-string component_type, a repeated key (the last wins), objects in
// arrays, nested under members of every kind, and the root itself.
func TestModelTypedCases(t *testing.T) {
	cases := map[string]string{
		"root":      `{"component_type": "Flow", "nodes": [{"component_type": "StartNode"}]}`,
		"empty":     `{"a": {"component_type": ""}, "b": {"component_type": 3}, "c": {"component_type": null}}`,
		"repeated":  `{"x": {"component_type": "A", "component_type": 1}, "y": {"component_type": 1, "component_type": "B"}}`,
		"arrays":    `[[{"component_type": "A"}], {"k": [{"component_type": "B", "v": {"component_type": "C"}}]}]`,
		"refs":      `{"$referenced_components": {"a": {"component_type": "LlmNode", "$component_ref": "x"}}, "n": {"$component_ref": "a"}}`,
		"nested":    `{"component_type": "Flow", "nodes": [{"component_type": "FlowNode", "subflow": {"component_type": "Flow", "nodes": [{"component_type": "EndNode"}]}}]}`,
		"scalar":    `"component_type"`,
		"not typed": `{"componentType": "A", "component_type ": "B"}`,
		"ids":       `[{"component_type": "A", "id": "x"}, {"id": 1, "component_type": "A"}, {"component_type": "A", "id": "x", "id": "y"}, {"id": "y", "component_type": "A", "id": null}]`,
	}
	total := 0
	for name, src := range cases {
		doc := ParseDoc(name+".json", []byte(src))
		if doc.Root == nil {
			t.Fatalf("%s: did not parse", name)
		}
		total += sameTyped(t, name, doc)
	}
	if total != 16 {
		t.Errorf("%d typed objects in the cases, want 16", total)
	}
}

// TestModelTypedFiles: the same over every JSON file of testdata and of
// the shared corpus with its history.
func TestModelTypedFiles(t *testing.T) {
	stride := race.Stride(5) // every fifth file under -race
	check := func(t *testing.T, dir string) (files, typed int) {
		seen := 0
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			if seen++; seen%stride != 0 {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if doc := ParseDoc(path, src); doc.Root != nil {
				files++
				typed += sameTyped(t, path, doc)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return files, typed
	}
	if files, typed := check(t, filepath.Join("..", "testdata")); files < 15/stride || typed == 0 {
		t.Errorf("testdata: %d JSON files, %d typed objects", files, typed)
	}
	t.Run("shared", func(t *testing.T) {
		if files, typed := check(t, testshared.Dir(t, "corpus")); files < 200/stride || typed < 1000/stride {
			t.Errorf("shared corpus: %d JSON files, %d typed objects", files, typed)
		}
	})
}

// TestModelIgnoring: the model's list of objects holding an IgnoreKey
// member is what a walk asking every object for one finds, in its order,
// repeated members and escaped keys included, and on every JSON file of
// testdata and the shared corpus.
func TestModelIgnoring(t *testing.T) {
	byWalk := func(root *Node) []*Node {
		var out []*Node
		WalkNodes(root, func(n *Node) bool {
			for _, m := range n.Members {
				if m.Key == IgnoreKey {
					out = append(out, n)
					break
				}
			}
			return true
		})
		return out
	}
	same := func(t *testing.T, name string, doc *Doc) int {
		got, want := (&Agent{Flow: doc}).Model().Ignoring(), byWalk(doc.Root)
		if !slices.Equal(got, want) {
			t.Fatalf("%s: %d objects with an ignore, a walk finds %d", name, len(got), len(want))
		}
		return len(got)
	}
	src := `{"x-oastui-ignore": [], "a": [{"x-oastui-ignore": 1, "x-oastui-ignore": 2}],
		"b": {"x-oastui\u002dignore": []}, "c": {"x-oastui-ignore ": []}, "d": ["x-oastui-ignore"]}`
	if n := same(t, "cases", ParseDoc("cases.json", []byte(src))); n != 3 {
		t.Errorf("%d objects with an ignore in the cases, want 3", n)
	}
	found := 0
	for i, dir := range []string{filepath.Join("..", "lint", "testdata"), filepath.Join("..", "testdata"), testshared.Dir(t, "corpus")} {
		stride, seen := race.Stride(5), 0 // every fifth file under -race, and every file with an ignore
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if seen++; seen%stride != 0 && (i != 0 || !bytes.Contains(src, []byte(IgnoreKey))) {
				return nil
			}
			if doc := ParseDoc(path, src); doc.Root != nil {
				found += same(t, path, doc)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if found < 2 {
		t.Errorf("%d objects with an inline ignore in the fixtures, want 2 or more", found)
	}
}
