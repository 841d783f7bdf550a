package compile

import "sort"

// RefGraph is the "contains or refers to" graph between the definitions
// of a document ($referenced_components entries, numbered by the check
// that builds it): an edge from → to says that definition from holds
// definition to, or a $component_ref that resolves to it. Which
// definitions there are and where a reference resolves is the check's
// scope policy (the Cinatra validator's Flow scopes, the Agent Spec
// loader's document-wide table); the cycle search is this one. P is what
// the check keeps of an edge (the reference that made it).
type RefGraph[P any] struct {
	// out holds each definition's edges (by from, in the order added):
	// most definitions have a few, found again by a scan; edges, every
	// edge by its ends, is built once some definition has more than
	// refGraphScan (or an edge leaves a negative number), and is then
	// what Add and Via ask.
	out   [][]refEdge[P]
	edges map[[2]int]P
	n     int // edges
}

type refEdge[P any] struct {
	to int
	p  P
}

// refGraphScan is the edge count of one definition up to which its edges
// are scanned rather than looked up.
const refGraphScan = 16

// NewRefGraph is an empty graph.
func NewRefGraph[P any]() *RefGraph[P] { return &RefGraph[P]{} }

// find is the edge from → to's p and whether there is one.
func (g *RefGraph[P]) find(from, to int) (P, bool) {
	if g.edges != nil {
		p, ok := g.edges[[2]int{from, to}]
		return p, ok
	}
	if from >= 0 && from < len(g.out) {
		for _, e := range g.out[from] {
			if e.to == to {
				return e.p, true
			}
		}
	}
	var zero P
	return zero, false
}

// index builds edges from out.
func (g *RefGraph[P]) index() {
	g.edges = make(map[[2]int]P, 2*g.n)
	for from, es := range g.out {
		for _, e := range es {
			g.edges[[2]int{from, e.to}] = e.p
		}
	}
}

// Add adds the edge from → to with p; an edge added before keeps its p.
func (g *RefGraph[P]) Add(from, to int, p P) {
	if _, ok := g.find(from, to); ok {
		return
	}
	g.n++
	if from < 0 { // not a definition's number: no list, only the map
		if g.edges == nil {
			g.index()
		}
		g.edges[[2]int{from, to}] = p
		return
	}
	if from >= len(g.out) {
		g.out = append(g.out, make([][]refEdge[P], from+1-len(g.out))...)
	}
	g.out[from] = append(g.out[from], refEdge[P]{to, p})
	switch {
	case g.edges != nil:
		g.edges[[2]int{from, to}] = p
	case len(g.out[from]) > refGraphScan:
		g.index()
	}
}

// Via is what the edge from → to was added with (the zero P for none).
func (g *RefGraph[P]) Via(from, to int) P {
	p, _ := g.find(from, to)
	return p
}

// adj is definition u's edges.
func (g *RefGraph[P]) adj(u int) []refEdge[P] {
	if u >= 0 && u < len(g.out) {
		return g.out[u]
	}
	return nil
}

// Cycles are the definitions among the first n that contain themselves:
// for each strongly connected group of definitions (of two or more, or
// one with an edge to itself), in the order a depth-first search from
// definition 0, 1, … completes them, the shortest cycle through the
// group's smallest definition, from it (ties: the smaller definitions
// first). A cycle [a b c] is a → b → c → a.
func (g *RefGraph[P]) Cycles(n int) [][]int {
	if g.n == 0 {
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
		for _, e := range g.adj(u) {
			x := e.to
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
		if _, self := g.find(u, u); len(in) > 1 || self {
			cycles = append(cycles, g.shortestCycle(start, in))
		}
	}
	for u := range n {
		if index[u] < 0 && len(g.adj(u)) > 0 {
			strong(u)
		}
	}
	return cycles
}

// shortestCycle is a shortest cycle through start inside the group in
// (breadth first, smaller definitions first).
func (g *RefGraph[P]) shortestCycle(start int, in map[int]bool) []int {
	if _, self := g.find(start, start); self {
		return []int{start}
	}
	prev := map[int]int{}
	queue := []int{start}
	for len(queue) > 0 {
		u := queue[0]
		queue = queue[1:]
		var next []int
		for _, e := range g.adj(u) {
			next = append(next, e.to)
		}
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
