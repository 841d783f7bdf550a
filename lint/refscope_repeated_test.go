package lint

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// repeatedIDsByMap is repeatedIDs as checkDuplicateDefinitions counted
// before (one map sized for every typed object): the oracle of
// TestRepeatedIDs.
func repeatedIDsByMap(typedIDs []string) (order []string, counts []int32) {
	type seen struct{ first, count int32 }
	byID := make(map[string]seen, len(typedIDs))
	for i, id := range typedIDs {
		if id == "" {
			continue
		}
		e, ok := byID[id]
		if !ok {
			byID[id] = seen{first: int32(i), count: 1}
			continue
		}
		if e.count == 1 {
			order = append(order, id)
		}
		e.count++
		byID[id] = e
	}
	slices.SortFunc(order, func(a, b string) int { return int(byID[a].first - byID[b].first) })
	for _, id := range order {
		counts = append(counts, byID[id].count)
	}
	return order, counts
}

func checkRepeatedIDs(t *testing.T, what string, ids []string) {
	t.Helper()
	order, counts := repeatedIDs(ids)
	wantOrder, wantCounts := repeatedIDsByMap(ids)
	if !slices.Equal(order, wantOrder) || !slices.Equal(counts, wantCounts) {
		t.Fatalf("%s: repeatedIDs(%q) = %q %v, want %q %v", what, ids, order, counts, wantOrder, wantCounts)
	}
}

// TestRepeatedIDs: the repeated ids and their counts, compared pairwise
// (few ids) or counted in a map (many), are the map's of before, in
// random lists on both sides of repeatedScanMax and in every agent of the
// corpus and its history.
func TestRepeatedIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 23))
	for range 1000 / race.Stride(10) {
		n := rng.IntN(3 * repeatedScanMax)
		alphabet := 1 + rng.IntN(2*repeatedScanMax)
		ids := make([]string, n)
		for i := range ids {
			if rng.IntN(3) > 0 { // a typed object without an id
				ids[i] = "id" + strconv.Itoa(rng.IntN(alphabet))
			}
		}
		checkRepeatedIDs(t, "random", ids)
	}
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) {
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil || a.Flow == nil {
			return
		}
		checkRepeatedIDs(t, dir, a.Model().TypedIDs())
	})
}
