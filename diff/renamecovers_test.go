package diff

import (
	"slices"
	"strconv"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestRenameCovers: what a rename explains, made once for a node renamed in
// place and taken by the new side, is coveredAt of each side, after what
// the list held (a node's pointer, a field's, an entry of nodes[], the
// files apart).
func TestRenameCovers(t *testing.T) {
	d := &differ{old: &sideView{flow: &compile.Doc{Path: "old/oas.json"}}, new: &sideView{flow: &compile.Doc{Path: "new/oas.json"}}}
	held := covered{true, "x", "/held"}
	for _, p := range [][2]string{{"/$referenced_components/n1", "/$referenced_components/n1"}, {"/nodes/3", "/nodes/3"},
		{"/$referenced_components/n1/data", "/$referenced_components/n1/data"}, {"/$referenced_components/a", "/$referenced_components/b"}, {"", ""}} {
		want := coveredAt(coveredAt([]covered{held}, CheckNodeRenamed.ID, true, "old/oas.json", p[0]), CheckNodeRenamed.ID, false, "new/oas.json", p[1])
		if got := d.renameCovers([]covered{held}, p[0], p[1]); !slices.Equal(got, want) {
			t.Errorf("%q: %+v, want %+v", p, got, want)
		}
	}
	// many renames in place, checked after all of them: what names grew
	// past keeps the places cut from it before
	var got [][]covered
	var ptrs []string
	for i := range 2000 {
		p := "/nodes/" + strconv.Itoa(i)
		if i%3 == 0 {
			p = "/$referenced_components/n" + strconv.Itoa(i)
		}
		ptrs = append(ptrs, p)
		got = append(got, d.renameCovers(nil, p, p))
	}
	for i, p := range ptrs {
		want := coveredAt(coveredAt(nil, CheckNodeRenamed.ID, true, "old/oas.json", p), CheckNodeRenamed.ID, false, "new/oas.json", p)
		if !slices.Equal(got[i], want) {
			t.Fatalf("%q: %+v, want %+v", p, got[i], want)
		}
	}
}
