package diff

import (
	"slices"
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
}
