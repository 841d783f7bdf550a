package compile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// bfsOrderBefore is BFSOrder as it was before an id that is a key of the
// Flow's own $referenced_components was numbered by its member's place
// (every id numbered in a map of its own, as first seen): the oracle of
// TestBFSOrderRefsAsBefore.
func bfsOrderBefore(flow *Node) []string {
	// Ids are numbered as first seen and the search runs on the numbers:
	// a flow of 33,000 nodes is ordered on every side of a diff, by the
	// compiler, the flow model's view and the graph's step numbers.
	nodes := flow.Get("nodes").itemsOrNil()
	edges := flow.Get("control_flow_connections").itemsOrNil()
	num := make(map[string]int32, len(nodes)+1)
	ids := make([]string, 0, len(nodes)+1)
	intern := func(id string) int32 {
		k, ok := num[id]
		if !ok {
			k = int32(len(ids))
			num[id] = k
			ids = append(ids, id)
		}
		return k
	}
	// near is intern trying number g first: an id already numbered g is
	// ids[g], so one comparison answers for the look-up when the guess is
	// right (an edge from where the last one went; the next id of nodes)
	near := func(id string, g int32) int32 {
		if g >= 0 && int(g) < len(ids) && ids[g] == id {
			return g
		}
		return intern(id)
	}
	// the edges that name both ends, in order
	pairs := make([][2]int32, 0, len(edges))
	last := int32(-1) // where the last edge went
	for _, e := range edges {
		from, _ := RefID(get(e, "from_node"))
		to, _ := RefID(get(e, "to_node"))
		if from == "" || to == "" {
			continue
		}
		f := near(from, last)
		last = intern(to)
		pairs = append(pairs, [2]int32{f, last})
	}
	start, hasStart := RefID(flow.Get("start_node"))
	s := int32(-1)
	if hasStart {
		s = intern(start)
	}
	// successors of each id in edge order: a counting sort of the pairs by
	// source (a target listed twice changes nothing: it is visited once)
	first := make([]int32, len(ids)+1)
	for _, p := range pairs {
		first[p[0]+1]++
	}
	for i := 1; i < len(first); i++ {
		first[i] += first[i-1]
	}
	succ := make([]int32, len(pairs))
	end := append([]int32(nil), first[:len(ids)]...)
	for _, p := range pairs {
		succ[end[p[0]]] = p[1]
		end[p[0]]++
	}
	order := make([]string, 0, len(nodes))
	visited := make([]bool, len(ids))
	if s >= 0 {
		queue := make([]int32, 1, len(ids))
		queue[0] = s
		visited[s] = true
		for h := 0; h < len(queue); h++ {
			id := queue[h]
			order = append(order, ids[id])
			for _, t := range succ[first[id]:end[id]] {
				if !visited[t] {
					visited[t] = true
					queue = append(queue, t)
				}
			}
		}
	}
	next := int32(0) // the number nodes' next id is likely to have
	for _, n := range nodes {
		if id, ok := RefID(n); ok {
			k, known := next, int(next) < len(ids) && ids[next] == id
			if !known {
				k, known = num[id]
			}
			if known {
				next = k + 1
			}
			if !known || !visited[k] {
				order = append(order, id)
			}
		}
	}
	if len(order) == 0 {
		return nil // as before: no order is nil
	}
	return order
}

// TestBFSOrderRefsAsBefore: BFSOrder numbering the keys of the Flow's
// $referenced_components by their places orders as bfsOrderBefore (and
// the map-based search) on random flows whose definitions are many
// enough to be indexed by the parser (and some that are not), with keys
// repeated, ids defined nowhere, definitions no node names, nodes and
// edges in and out of the definitions' order, entries that are no
// reference; then on every Flow of the hostile flow, the corpus and the
// history.
func TestBFSOrderRefsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(35))
	ref := func(id string) string { return fmt.Sprintf(`{"$component_ref":%q}`, id) }
	same := func(t *testing.T, what string, flow *Node) {
		t.Helper()
		got, want := BFSOrder(flow), bfsOrderBefore(flow)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s\nBFSOrder %q\nbefore   %q", what, got, want)
		}
		if m := bfsOrderMaps(flow); len(m) > 0 && !reflect.DeepEqual(got, m) {
			t.Fatalf("%s\nBFSOrder %q\nmaps     %q", what, got, m)
		}
	}
	for c := 0; c < 1200/race.Stride(24); c++ {
		n := 1 + r.Intn(40)
		id := func() string {
			switch r.Intn(25) {
			case 0:
				return ""
			case 1:
				return fmt.Sprint("ghost", r.Intn(3))
			}
			return fmt.Sprint("n", r.Intn(n))
		}
		// the definitions: in order, shuffled, some left out, some
		// repeated, some defined nowhere else
		var defs []string
		perm := r.Perm(n)
		if r.Intn(2) == 0 {
			for i := range perm {
				perm[i] = i
			}
		}
		for _, i := range perm {
			if r.Intn(12) > 0 {
				defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":"FlowNode","id":"n%d"}`, i, i))
			}
			if r.Intn(30) == 0 {
				defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":"EndNode"}`, r.Intn(n)))
			}
		}
		for e := 0; e < r.Intn(n+1); e++ {
			defs = append(defs, fmt.Sprintf(`"e%d":{"component_type":"ControlFlowEdge"}`, e))
		}
		var nodes, edges []string
		for i := 0; i < n+r.Intn(3); i++ {
			switch r.Intn(15) {
			case 0:
				nodes = append(nodes, `{"id":"inline"}`)
			case 1:
				nodes = append(nodes, `"n0"`)
			case 2:
				nodes = append(nodes, ref(id()))
			default:
				nodes = append(nodes, ref(fmt.Sprint("n", i%n)))
			}
		}
		switch r.Intn(3) {
		case 0, 1: // a chain, in the definitions' order or not
			for i := 0; i+1 < n; i++ {
				if r.Intn(12) > 0 {
					edges = append(edges, fmt.Sprintf(`{"from_node":%s,"to_node":%s}`, ref(fmt.Sprint("n", i)), ref(fmt.Sprint("n", i+1))))
				}
			}
		}
		for i := 0; i < r.Intn(2*n); i++ {
			switch r.Intn(10) {
			case 0:
				edges = append(edges, fmt.Sprintf(`{"from_node":%s}`, ref(id())))
			case 1:
				edges = append(edges, ref(fmt.Sprint("e", i)))
			default:
				edges = append(edges, fmt.Sprintf(`{"from_node":%s,"to_node":%s}`, ref(id()), ref(id())))
			}
		}
		start := ""
		if r.Intn(8) > 0 {
			start = `"start_node":` + ref(id()) + `,`
		}
		src := `{"component_type":"Flow",` + start + `"nodes":[` + strings.Join(nodes, ",") + `],"control_flow_connections":[` +
			strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(defs, ",") + `}}`
		d := ParseDoc("f.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		same(t, fmt.Sprintf("case %d: %s", c, src), d.Root)
	}
	flows := func(t *testing.T, what string, src []byte) {
		t.Helper()
		d := ParseDoc(what, src)
		if d.Root == nil {
			return
		}
		for _, f := range Flows(d.Root) {
			same(t, what+" "+f.Pointer, f.Node)
		}
	}
	flows(t, "hostile", hostile.Flow(3000/race.Stride(8), true))
	// the corpus and the history need ../shared (each skipped alone without it)
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) {
		p := filepath.Join(dir, "cinatra", "oas.json")
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		flows(t, p, src)
	})
}
