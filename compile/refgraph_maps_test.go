package compile

import (
	"fmt"
	"math/rand/v2"
	"sort"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// TestRefGraphSameAsMaps: the graph of edge lists per definition (and its
// map past refGraphScan edges of one definition) gives the payloads and
// cycles the graph of two maps gave (oldRefGraph, below): random graphs of
// 1 to 40 definitions, sparse and dense, edges added again with another
// payload, self edges, a definition of more than refGraphScan edges, and
// edges from negative numbers (Via only).
func TestRefGraphSameAsMaps(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 2))
	indexed := 0
	for round := range 4000 / race.Stride(8) {
		n := 1 + rng.IntN(40)
		g, o := NewRefGraph[int](), newOldRefGraph[int]()
		m := rng.IntN(3 * n)
		if round%5 == 0 {
			m = rng.IntN(n * n)
		}
		for i := range m {
			from, to := rng.IntN(n), rng.IntN(n)
			if round%11 == 0 && rng.IntN(30) == 0 {
				from = -1 - rng.IntN(3)
			}
			g.Add(from, to, i+1)
			o.Add(from, to, i+1)
		}
		if g.edges != nil {
			indexed++
		}
		for from := -3; from < n; from++ {
			for to := range n {
				if a, b := g.Via(from, to), o.Via(from, to); a != b {
					t.Fatalf("round %d: Via(%d, %d) = %d, the maps %d", round, from, to, a, b)
				}
			}
		}
		if a, b := fmt.Sprint(g.Cycles(n)), fmt.Sprint(o.Cycles(n)); a != b {
			t.Fatalf("round %d: cycles %s, the maps %s", round, a, b)
		}
	}
	if indexed < 100/race.Stride(8) {
		t.Errorf("only %d graphs past refGraphScan", indexed)
	}
}

// oldRefGraph is RefGraph as it was: an adjacency map and an edge map.
type oldRefGraph[P any] struct {
	adj   map[int][]int
	edges map[[2]int]P
}

// newOldRefGraph is an empty graph.
func newOldRefGraph[P any]() *oldRefGraph[P] {
	return &oldRefGraph[P]{adj: map[int][]int{}, edges: map[[2]int]P{}}
}

// Add adds the edge from → to with p; an edge added before keeps its p.
func (g *oldRefGraph[P]) Add(from, to int, p P) {
	e := [2]int{from, to}
	if _, ok := g.edges[e]; ok {
		return
	}
	g.edges[e] = p
	g.adj[from] = append(g.adj[from], to)
}

// Via is what the edge from → to was added with (the zero P for none).
func (g *oldRefGraph[P]) Via(from, to int) P { return g.edges[[2]int{from, to}] }

// Cycles are the definitions among the first n that contain themselves:
// for each strongly connected group of definitions (of two or more, or
// one with an edge to itself), in the order a depth-first search from
// definition 0, 1, … completes them, the shortest cycle through the
// group's smallest definition, from it (ties: the smaller definitions
// first). A cycle [a b c] is a → b → c → a.
func (g *oldRefGraph[P]) Cycles(n int) [][]int {
	if len(g.edges) == 0 {
		return nil
	}
	index := make([]int, n)
	low := make([]int, n)
	on := make([]bool, n)
	for i := range index {
		index[i] = -1
	}
	var st []int
	counter := 0
	var cycles [][]int
	var strong func(u int)
	strong = func(u int) {
		index[u], low[u] = counter, counter
		counter++
		st = append(st, u)
		on[u] = true
		for _, x := range g.adj[u] {
			if index[x] < 0 {
				strong(x)
				low[u] = min(low[u], low[x])
			} else if on[x] {
				low[u] = min(low[u], index[x])
			}
		}
		if low[u] != index[u] {
			return
		}
		in := map[int]bool{}
		start := u
		for {
			x := st[len(st)-1]
			st = st[:len(st)-1]
			on[x] = false
			in[x] = true
			start = min(start, x)
			if x == u {
				break
			}
		}
		if _, self := g.edges[[2]int{u, u}]; len(in) > 1 || self {
			cycles = append(cycles, g.shortestCycle(start, in))
		}
	}
	for u := range n {
		if index[u] < 0 && len(g.adj[u]) > 0 {
			strong(u)
		}
	}
	return cycles
}

// shortestCycle is a shortest cycle through start inside the group in
// (breadth first, smaller definitions first).
func (g *oldRefGraph[P]) shortestCycle(start int, in map[int]bool) []int {
	if _, self := g.edges[[2]int{start, start}]; self {
		return []int{start}
	}
	prev := map[int]int{}
	queue := []int{start}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		next := append([]int(nil), g.adj[u]...)
		sort.Ints(next)
		for _, x := range next {
			if !in[x] {
				continue
			}
			if x == start {
				var rev []int
				for c := u; c != start; c = prev[c] {
					rev = append(rev, c)
				}
				rev = append(rev, start)
				for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
					rev[i], rev[j] = rev[j], rev[i]
				}
				return rev
			}
			if _, seen := prev[x]; !seen {
				prev[x] = u
				queue = append(queue, x)
			}
		}
	}
	return []int{start}
}
