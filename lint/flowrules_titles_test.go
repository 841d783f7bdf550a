package lint

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestTitleShortcuts: hasTitle answers as titleSet does, and two property
// lists sameTitles accepts have equal titleSets, on random lists of
// properties with and without a string title (a number, a null, none, a
// repeated "title" member).
func TestTitleShortcuts(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 5))
	prop := func() string {
		switch r.IntN(6) {
		case 0:
			return `{"type":"string"}`
		case 1:
			return `{"title":7}`
		case 2:
			return `{"title":null}`
		case 3:
			return fmt.Sprintf(`{"title":"x","title":"t%d"}`, r.IntN(3))
		}
		return fmt.Sprintf(`{"title":"t%d"}`, r.IntN(4))
	}
	list := func() []*compile.Node {
		var ps []string
		for range r.IntN(5) {
			ps = append(ps, prop())
		}
		d := compile.ParseDoc("p.json", []byte("["+strings.Join(ps, ",")+"]"))
		if d.Root == nil {
			t.Fatal(d.Err)
		}
		return d.Root.Items
	}
	agreed := 0
	for range 3000 {
		a, b := list(), list()
		if sameTitles(a, b) {
			agreed++
			if !maps.Equal(titleSet(a), titleSet(b)) {
				t.Fatalf("sameTitles, but the sets differ: %v, %v", titleSet(a), titleSet(b))
			}
		}
		for _, title := range []string{"t0", "t1", "t3", "x", ""} {
			if hasTitle(a, title) != titleSet(a)[title] {
				t.Fatalf("hasTitle(%q) = %v, titleSet %v", title, hasTitle(a, title), titleSet(a))
			}
		}
	}
	if agreed < 100 {
		t.Fatalf("only %d pairs with the same titles: the test draws too few", agreed)
	}
}
