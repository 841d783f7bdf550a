package diff

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

// TestSameOrderInputs: two sides that sameOrderInputs says read the same
// orders have equal step and BFS orders (readOrder), over the case
// fixtures' sides paired every way; and the fixtures have pairs both ways
// (a side with itself, sides whose nodes were added, removed or moved).
func TestSameOrderInputs(t *testing.T) {
	ents, err := os.ReadDir(filepath.Join("testdata", "cases"))
	if err != nil {
		t.Fatal(err)
	}
	same, other := 0, 0
	for _, e := range ents {
		dir := filepath.Join("testdata", "cases", e.Name())
		var sides []*sideView
		for _, s := range []string{"old", "new"} {
			// two views of each side: readOrder runs once a view
			sides = append(sides, view(Analyze(filepath.Join(dir, s), nil, nil)), view(Analyze(filepath.Join(dir, s), nil, nil)))
		}
		for i, a := range sides {
			for j, b := range sides {
				if i == j {
					continue
				}
				if !sameOrderInputs(a, b) {
					other++
					continue
				}
				same++
				a.readOrder()
				b.readOrder()
				if !slices.Equal(a.order, b.order) || !slices.Equal(a.bfs, b.bfs) {
					t.Errorf("%s, sides %d and %d: same inputs, orders\n%q\n%q\nBFS\n%q\n%q", e.Name(), i, j, a.order, b.order, a.bfs, b.bfs)
				}
			}
		}
	}
	if same == 0 || other == 0 {
		t.Fatalf("%d pairs with the same inputs, %d without: the fixtures do not tell the two apart", same, other)
	}
}
