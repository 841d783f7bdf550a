package diff

import (
	"math/rand"
	"slices"
	"strconv"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// TestSortStringsAsSlicesSort: sortStrings orders as slices.Sort (the old
// code of sortedIDs), on graph-like ids, ids sharing long prefixes, with
// zero bytes (a padded key equals a real zero byte), repeats and high bytes.
func TestSortStringsAsSlicesSort(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	alpha := []byte{0, 1, 'a', 'b', 'n', '0', '9', 0x7f, 0x80, 0xff}
	for c := 0; c < 400; c += race.Stride(8) { // a sample under -race
		n := r.Intn(3000)
		ids := make([]string, n)
		for i := range ids {
			switch r.Intn(4) {
			case 0:
				ids[i] = "n" + strconv.Itoa(r.Intn(n+1))
			case 1:
				ids[i] = "a_long_shared_prefix_" + strconv.Itoa(r.Intn(50))
			default:
				b := make([]byte, r.Intn(12))
				for j := range b {
					b[j] = alpha[r.Intn(len(alpha))]
				}
				ids[i] = string(b)
			}
		}
		want := slices.Clone(ids)
		slices.Sort(want)
		sortStrings(ids)
		if !slices.Equal(ids, want) {
			t.Fatalf("case %d: sorted differently", c)
		}
	}
}

// sortStrings sorts ids in place, as slices.Sort does (sortOrder).
func sortStrings(ids []string) {
	out := make([]string, len(ids))
	for j, i := range sortOrder(ids) {
		out[j] = ids[i]
	}
	copy(ids, out)
}
