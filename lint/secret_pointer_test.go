package lint

import (
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// TestSecretPointers: the walker's pointers (from parent links, without a
// path of its own) are the documents' pointers, in a parsed document and
// in the same tree built by hand, whose nodes have no parent links.
func TestSecretPointers(t *testing.T) {
	reports := func(root *compile.Node) []string {
		var out []string
		w := secretWalker{report: func(ptr string, _ present.KeyClass, _ present.Detection, _ string) {
			out = append(out, ptr)
		}}
		w.walk(root, "", present.KeyNeutral)
		return out
	}
	want := []string{"/a/0", "/a/1/k", "/b~1c", "/d~0e/x/2"}
	src := `{"a": ["` + fakeGH + `", {"k": "` + fakeGH + `"}], "b/c": "` + fakeGH + `", "d~e": {"x": [1, "z", "` + fakeGH + `"]}}`
	d := compile.ParseDoc("x.json", []byte(src))
	if d.Err != nil {
		t.Fatal(d.Err)
	}
	if got := reports(d.Root); !slices.Equal(got, want) {
		t.Errorf("parsed: %q, want %q", got, want)
	}
	str := func(s string) *compile.Node { return &compile.Node{Kind: compile.String, Text: s} }
	byHand := &compile.Node{Kind: compile.Object, Members: []compile.Member{
		{Key: "a", Value: &compile.Node{Kind: compile.Array, Items: []*compile.Node{str(fakeGH),
			{Kind: compile.Object, Members: []compile.Member{{Key: "k", Value: str(fakeGH)}}}}}},
		{Key: "b/c", Value: str(fakeGH)},
		{Key: "d~e", Value: &compile.Node{Kind: compile.Object, Members: []compile.Member{{Key: "x", Value: &compile.Node{Kind: compile.Array,
			Items: []*compile.Node{{Kind: compile.Number, Text: "1"}, str("z"), str(fakeGH)}}}}}},
	}}
	if got := reports(byHand); !slices.Equal(got, want) {
		t.Errorf("built by hand: %q, want %q", got, want)
	}
}
