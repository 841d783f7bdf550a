package diff

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"
)

// asMap is the set's gates by key.
func (s *gateSet) asMap() map[string]gate {
	m := make(map[string]gate, len(s.list))
	for _, kg := range s.list {
		m[kg.k] = kg.g
	}
	return m
}

// gateSetOf is a set of m's gates (in the map's order).
func gateSetOf(m map[string]gate) gateSet {
	var s gateSet
	for k, g := range m {
		s.set(k, g)
	}
	return s
}

// TestGateSetAsMap: a gate set, set, got and changed in place key by key,
// holds what a map of the gates holds (each key once, the last value set),
// and its list and index agree.
func TestGateSetAsMap(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	for c := 0; c < 300; c++ {
		s := newGateSet(r.Intn(4))
		if r.Intn(3) == 0 {
			s = gateSet{}
		}
		want := map[string]gate{}
		for i := 0; i < r.Intn(40); i++ {
			k := fmt.Sprintf("k%d", r.Intn(12))
			switch r.Intn(3) {
			case 0:
				g := gate{node: k, approval: r.Intn(2) == 0, risk: fmt.Sprint(r.Intn(3))}
				s.set(k, g)
				want[k] = g
			case 1:
				p := s.ref(k)
				p.owner += "o"
				g := want[k]
				g.owner += "o"
				want[k] = g
			default:
				got, ok := s.get(k)
				w, wok := want[k]
				if ok != wok || got != w {
					t.Fatalf("case %d: get(%q) = %+v, %v; want %+v, %v", c, k, got, ok, w, wok)
				}
			}
		}
		if !reflect.DeepEqual(s.asMap(), want) && len(want) > 0 {
			t.Fatalf("case %d: %+v, want %+v", c, s.asMap(), want)
		}
		if len(s.list) != len(want) || len(s.at) != len(want) {
			t.Fatalf("case %d: %d gates listed, %d indexed, want %d", c, len(s.list), len(s.at), len(want))
		}
		for k, i := range s.at {
			if s.list[i].k != k {
				t.Fatalf("case %d: key %q indexed at %d, which holds %q", c, k, i, s.list[i].k)
			}
		}
	}
}
