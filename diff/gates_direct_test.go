package diff

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// readStepGatesAsBefore is readGates' walk of the compiled steps as it
// was: every step's gate through the set's map (ref), so a key two steps
// share is one gate, the later step's values over the earlier's.
func readStepGatesAsBefore(v *sideView) gateSet {
	s := newGateSet(len(v.steps))
	for _, ks := range v.stepList {
		k, st := ks.k, ks.st
		key := k
		if st.GateIndex < 0 && st.NodeID != "" {
			key = st.NodeID
		}
		g := s.ref(key)
		g.node = st.NodeID
		g.approval = st.RequiresApproval
		setIf(&g.risk, st.RiskClass)
		setIf(&g.owner, st.HitlOwnedBy)
		setIf(&g.renderer, st.XRenderer)
		setIf(&g.surface, st.A2uiSurfaceID)
	}
	return s
}

// TestReadGatesDirectAsMap: readGates, which lists the steps' gates
// without the map when their keys are distinct, lists what the walk
// through the map listed (the same keys in the same order, the same
// gates), the setup step's gate sharing a node's key included; and a look-up
// afterwards (the map made then) finds every gate at its place.
func TestReadGatesDirectAsMap(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	shared := 0
	for c := 0; c < 3000/race.Stride(8); c++ {
		v := randomGateView(r)
		want := readStepGatesAsBefore(v)
		if !v.stepKeysDistinct() {
			shared++
		}
		v.readGates()
		if !reflect.DeepEqual(v.gates.list, want.list) && len(want.list)+len(v.gates.list) > 0 {
			t.Fatalf("case %d: gates %+v, want %+v", c, v.gates.list, want.list)
		}
		for i, kg := range want.list {
			if g, ok := v.gates.get(kg.k); !ok || g != kg.g {
				t.Fatalf("case %d: get(%q) = %+v, %v; want %+v (at %d)", c, kg.k, g, ok, kg.g, i)
			}
		}
		if _, ok := v.gates.get("absent"); ok {
			t.Fatalf("case %d: an absent key found", c)
		}
	}
	if shared < 10 {
		t.Fatalf("only %d views whose steps share a gate key", shared)
	}
}

// TestDifferingGatesPaired: two sides listing the same keys in the same
// order (their gates paired by place, no map made) name the keys the
// union did, as two sides listing them in other orders do.
func TestDifferingGatesPaired(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	vals := []string{"", "a", "b"}
	random := func() gate {
		return gate{node: "x", approval: r.Intn(2) == 0, risk: vals[r.Intn(3)], owner: vals[r.Intn(3)],
			renderer: vals[r.Intn(3)], surface: vals[r.Intn(3)], ptr: vals[r.Intn(3)]}
	}
	named := 0
	for c := 0; c < 2000/race.Stride(8); c++ {
		var keys []string
		for i := 0; i < r.Intn(12); i++ {
			keys = append(keys, fmt.Sprintf("k%d", i))
		}
		r.Shuffle(len(keys), func(i, j int) { keys[i], keys[j] = keys[j], keys[i] })
		var old, new gateSet
		for _, k := range keys {
			o := random()
			n := o
			if r.Intn(3) == 0 {
				n = random()
			}
			old.list = append(old.list, keyedGate{k, o})
			new.list = append(new.list, keyedGate{k, n})
		}
		got := differingGates(&old, &new)
		// the same sides through their maps, the new one listed backwards
		var om, nm gateSet
		for i := range old.list {
			om.set(old.list[i].k, old.list[i].g)
		}
		for i := len(new.list) - 1; i >= 0; i-- {
			nm.set(new.list[i].k, new.list[i].g)
		}
		want := differingGates(&om, &nm)
		if len(got)+len(want) > 0 && !reflect.DeepEqual(got, want) || !sort.StringsAreSorted(got) {
			t.Fatalf("case %d: %q, want %q", c, got, want)
		}
		named += len(want)
	}
	if named < 100 {
		t.Fatalf("only %d keys named", named)
	}
}
