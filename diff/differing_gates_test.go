package diff

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"
)

// TestDifferingGatesSameAsUnion: differingGates names the keys the union
// of both sides' gates, filtered by what the approval check compares,
// named (the walk as it was: five look-ups a key), with gates on one side,
// on both alike, and on both differing in each value.
func TestDifferingGatesSameAsUnion(t *testing.T) {
	r := rand.New(rand.NewSource(8))
	before := func(old, new map[string]gate) []string {
		differs := func(k string) bool {
			o, inOld := old[k]
			n, inNew := new[k]
			oa, na := inOld && o.approval, inNew && n.approval
			return oa != na || inOld && inNew && (o.risk != n.risk || o.owner != n.owner || o.renderer != n.renderer || o.surface != n.surface)
		}
		var out []string
		for k := range old {
			if differs(k) {
				out = append(out, k)
			}
		}
		for k := range new {
			if _, both := old[k]; !both && differs(k) {
				out = append(out, k)
			}
		}
		sort.Strings(out)
		return out
	}
	vals := []string{"", "a", "b"}
	random := func() gate {
		return gate{node: "x", approval: r.Intn(2) == 0, risk: vals[r.Intn(3)], owner: vals[r.Intn(3)],
			renderer: vals[r.Intn(3)], surface: vals[r.Intn(3)], ptr: vals[r.Intn(3)]}
	}
	named := 0
	for c := 0; c < 500; c++ {
		old, new := map[string]gate{}, map[string]gate{}
		for i := 0; i < r.Intn(12); i++ {
			k := fmt.Sprintf("k%d", r.Intn(10))
			switch r.Intn(4) {
			case 0:
				old[k] = random()
			case 1:
				new[k] = random()
			case 2: // alike on both sides
				g := random()
				old[k], new[k] = g, g
			default:
				old[k], new[k] = random(), random()
			}
		}
		os, ns := gateSetOf(old), gateSetOf(new)
		got, want := differingGates(&os, &ns), before(old, new)
		if len(got) != len(want) || len(want) > 0 && !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: %q, the union filtered %q\nold %v\nnew %v", c, got, want, old, new)
		}
		named += len(want)
	}
	if named < 500 {
		t.Fatalf("only %d keys named", named)
	}
}
