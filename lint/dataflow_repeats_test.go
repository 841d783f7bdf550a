package lint

import (
	"math/rand/v2"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestDataEdgeRepeatsScanSameAsMap: the comparison of each data edge with
// those before it (small flows) finds the same first edge and the same
// "its $component_ref seen" as the maps, on random edges of few ids,
// outputs and refs (unresolved endpoints among them).
func TestDataEdgeRepeatsScanSameAsMap(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 6))
	pick := func(of ...string) string { return of[r.IntN(len(of))] }
	for range 2000 {
		data := make([]compile.DataEdge, 1+r.IntN(dataEdgeSmall))
		for i := range data {
			data[i] = compile.DataEdge{Ref: pick("", "", "e1", "e2"), Output: pick("a", "b"), Input: pick("x", "y")}
			data[i].Source.ID = pick("", "n1", "n2", "m2")
			data[i].Destination.ID = pick("", "n1", "n3")
		}
		scan, byMap := dataEdgeRepeatsScan(data), dataEdgeRepeatsMap(data)
		for i := range data {
			if a, b := scan(i), byMap(i); a != b {
				t.Fatalf("edge %d of %+v: scan %+v, maps %+v", i, data, a, b)
			}
		}
	}
}
