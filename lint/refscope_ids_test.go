package lint

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// idRepeatsRef is how checkDuplicateDefinitions found the repeated ids
// before the table (the oracle): each id's first index and count in a
// map, the ids seen twice sorted by their first index, each id's indices
// in order.
func idRepeatsRef(typedIDs []string) [][]int32 {
	type seen struct{ first, count int32 }
	byID := make(map[string]seen, len(typedIDs))
	var order []string
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
	if len(order) == 0 {
		return nil
	}
	slices.SortFunc(order, func(a, b string) int { return int(byID[a].first - byID[b].first) })
	ids := make(map[string][]int32, len(order))
	for _, id := range order {
		ids[id] = make([]int32, 0, byID[id].count)
	}
	for i, id := range typedIDs {
		if l, ok := ids[id]; ok && id != "" {
			ids[id] = append(l, int32(i))
		}
	}
	var out [][]int32
	for _, id := range order {
		out = append(out, ids[id])
	}
	return out
}

// TestIDRepeatsSameAsMap: the pooled table finds the ids the map found,
// in the same order, with the same indices, over 3,000 random lists of
// ids (empty ids, none repeated, a few repeated many times, many
// repeated twice, ids differing only in their last byte, lists past the
// pool's limit; one in eight under -race) read one after the other into
// one table (a long list then a short one), and the TypedIDs of every
// corpus agent (one in four under -race).
func TestIDRepeatsSameAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 17))
	tbl := idRepeatsPool.New().(*idRepeats)
	names := make([]string, 2*idRepeatsKeep+300)
	for k := range names {
		names[k] = fmt.Sprintf("component_%d", k)
	}
	found := 0
	for i := 0; i < 3000; i += race.Stride(8) {
		n := r.IntN(60)
		switch {
		case i == 0:
			n = idRepeatsKeep + 1 + r.IntN(100) // past the pool's limit
		case r.IntN(10) == 0:
			n = 200 + r.IntN(400)
		}
		pool := 1 + r.IntN(2*n+1)
		ids := make([]string, n)
		for k := range ids {
			if r.IntN(6) == 0 {
				continue // ""
			}
			ids[k] = names[r.IntN(pool)]
		}
		got, want := tbl.find(ids), idRepeatsRef(ids)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("list %d (%d ids):\ngot  %v\nwant %v\n%q", i, n, got, want, ids)
		}
		found += len(want)
	}
	if found < 3000/race.Stride(8) {
		t.Errorf("only %d repeated ids: the lists do not exercise the table", found)
	}
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for k := 0; k < len(slugs); k += race.Stride(4) {
			slug := slugs[k]
			a, err := compile.Load(filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			ids := a.Model().TypedIDs()
			if got, want := tbl.find(ids), idRepeatsRef(ids); !reflect.DeepEqual(got, want) {
				t.Errorf("%s:\ngot  %v\nwant %v", slug, got, want)
			}
		}
	})
}
