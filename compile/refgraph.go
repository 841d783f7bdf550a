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
	adj   map[int][]int
	edges map[[2]int]P
}

// NewRefGraph is an empty graph.
func NewRefGraph[P any]() *RefGraph[P] {
	return &RefGraph[P]{adj: map[int][]int{}, edges: map[[2]int]P{}}
}

// Add adds the edge from → to with p; an edge added before keeps its p.
func (g *RefGraph[P]) Add(from, to int, p P) {
	e := [2]int{from, to}
	if _, ok := g.edges[e]; ok {
		return
	}
	g.edges[e] = p
	g.adj[from] = append(g.adj[from], to)
}

// Via is what the edge from → to was added with (the zero P for none).
func (g *RefGraph[P]) Via(from, to int) P { return g.edges[[2]int{from, to}] }

// Cycles are the definitions among the first n that contain themselves:
// for each strongly connected group of definitions (of two or more, or
// one with an edge to itself), in the order a depth-first search from
// definition 0, 1, … completes them, the shortest cycle through the
// group's smallest definition, from it (ties: the smaller definitions
// first). A cycle [a b c] is a → b → c → a.
func (g *RefGraph[P]) Cycles(n int) [][]int {
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
func (g *RefGraph[P]) shortestCycle(start int, in map[int]bool) []int {
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
