package compile

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// TestBFSOrderNearAsMaps: BFSOrder, which tries an edge's start at the
// number where the last edge went and nodes' next id at the number after
// the last one before looking either up, orders as the map-based search
// (bfsOrderMaps) on flows made of chains (forwards, backwards, broken,
// revisiting), nodes listed in order, shuffled, repeated and missing,
// and random edges between them.
func TestBFSOrderNearAsMaps(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	ref := func(id string) string { return fmt.Sprintf(`{"$component_ref":%q}`, id) }
	for c := 0; c < 3000/race.Stride(8); c++ {
		n := 1 + r.Intn(12)
		name := func(i int) string {
			if r.Intn(15) == 0 {
				return "ghost"
			}
			return fmt.Sprint("n", i)
		}
		var nodes, edges []string
		perm := r.Perm(n)
		if r.Intn(2) == 0 {
			for i := range perm {
				perm[i] = i
			}
		}
		for _, i := range perm {
			if r.Intn(10) > 0 {
				nodes = append(nodes, ref(name(i)))
			}
			if r.Intn(10) == 0 {
				nodes = append(nodes, ref(name(r.Intn(n))))
			}
		}
		switch r.Intn(4) {
		case 0, 1: // a chain
			for i := 0; i+1 < n; i++ {
				if r.Intn(12) > 0 {
					edges = append(edges, fmt.Sprintf(`{"from_node":%s,"to_node":%s}`, ref(name(i)), ref(name(i+1))))
				}
			}
		case 2: // backwards
			for i := n - 1; i > 0; i-- {
				edges = append(edges, fmt.Sprintf(`{"from_node":%s,"to_node":%s}`, ref(name(i)), ref(name(i-1))))
			}
		}
		for e := 0; e < r.Intn(n); e++ {
			edges = append(edges, fmt.Sprintf(`{"from_node":%s,"to_node":%s}`, ref(name(r.Intn(n))), ref(name(r.Intn(n)))))
		}
		start := ""
		if r.Intn(8) > 0 {
			start = `"start_node":` + ref(name(r.Intn(n))) + `,`
		}
		src := `{"component_type":"Flow",` + start + `"nodes":[` + strings.Join(nodes, ",") + `],"control_flow_connections":[` + strings.Join(edges, ",") + `]}`
		d := ParseDoc("f.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		if got, want := BFSOrder(d.Root), bfsOrderMaps(d.Root); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: %s\nBFSOrder %q\nwant     %q", c, src, got, want)
		}
	}
}
