package lint

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestOrderedSetSameAsList: the set (its names inline up to rtSetInline,
// then grown, then with a map past 16) holds what a plain list without
// repeats holds, in order, and answers contains and minus as it does,
// for random sequences of names with repeats across every size; two sets
// never share their names.
func TestOrderedSetSameAsList(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 39))
	for round := range 2000 {
		n := r.IntN(40)
		pool := 1 + r.IntN(30)
		a, b := &rtOrderedSet{}, &rtOrderedSet{}
		var la, lb []string
		for range n {
			x := fmt.Sprintf("n%d", r.IntN(pool))
			a.add(x)
			if !slices.Contains(la, x) {
				la = append(la, x)
			}
			y := fmt.Sprintf("n%d", r.IntN(pool))
			b.add(y)
			if !slices.Contains(lb, y) {
				lb = append(lb, y)
			}
		}
		if !slices.Equal(a.list, la) || !slices.Equal(b.list, lb) {
			t.Fatalf("round %d: lists %q, %q; want %q, %q", round, a.list, b.list, la, lb)
		}
		for k := range pool + 2 {
			x := fmt.Sprintf("n%d", k)
			if a.contains(x) != slices.Contains(la, x) {
				t.Fatalf("round %d: contains(%q) = %v", round, x, a.contains(x))
			}
		}
		var want []string
		for _, x := range la {
			if !slices.Contains(lb, x) {
				want = append(want, x)
			}
		}
		if got := a.minus(b); !slices.Equal(got, want) {
			t.Fatalf("round %d: minus %q, want %q", round, got, want)
		}
	}
	var nilSet *rtOrderedSet
	if nilSet.contains("x") {
		t.Error("a nil set contains x")
	}
}
