package flowgraph

import (
	"math"
	"math/rand"
	"sort"
)

// The layered layout (reference/tui.md §4):
//
//  1. cycle removal: the edges a depth-first search from start_node finds
//     closing a loop are reversed for the layout and drawn back up;
//  2. layering: longest path from the sources, so every forward edge points
//     down, then nodes with more edges out than in are pulled down next to
//     their successors;
//  3. normalisation: an edge spanning several layers gets a dummy element
//     per layer crossed (a vertical track);
//  4. ordering: the DFS discovery order, then alternating down/up sweeps by
//     barycenter (and, separately, by median) with a transpose pass,
//     keeping the order with the fewest crossings;
//  5. ports on each box side (one shared port for plain edges, one per
//     labelled or back edge) and x coordinates: each layer is placed by a
//     weighted isotonic regression towards its neighbours' ports
//     (order and minimum gaps kept), several sweeps;
//  6. routing: between two layers every group of segments leaving one port
//     gets a horizontal track; tracks are ordered so lines never overlap and
//     avoidable crossings are avoided.

// elem is a node box or a dummy in one layer.
type elem struct {
	node       int // index into Graph.Nodes; -1 for a dummy
	layer, pos int
	w, x       int
	up, down   []int // segments ending at this element from above / leaving it downwards
	top, bot   []port
	dfs        int
}

// port is an attachment point on a box side.
type port struct {
	off   int // column offset from the element's x
	kind  portKind
	label string
	lw    int // label width
	segs  []int
	key   float64
}

type portKind uint8

const (
	portIn      portKind = iota // forward edges arriving (▼ on the top border)
	portOut                     // forward edges leaving (┬ on the bottom border)
	portBackIn                  // a back edge arriving at the loop head (▲ on the bottom border)
	portBackOut                 // a back edge leaving the loop tail (┴ on the top border)
)

// seg joins an element of layer k (u, through bottom port up) to one of
// layer k+1 (l, through top port lp).
type seg struct {
	u, l   int
	e      int // layout edge
	up, lp int
}

// ledge is an edge of the layout (in layout direction: down).
type ledge struct {
	from, to int // elements of the two nodes (upper, lower)
	back     bool
	label    string
	segs     []int
}

// lay is the layout of one part of the graph (the reachable nodes, or the
// unreachable ones).
type lay struct {
	g      *Graph
	elems  []elem
	segs   []seg
	edges  []ledge
	layers [][]int
	// routing, per channel below layer k
	chans []channel
	// vertical positions
	layerY []int
	height int
	width  int
	cross  int
	// unreachable: the part of the nodes not reachable from start
	unreachable bool
	// tooBig: the long edges would need more than MaxDummies dummies
	tooBig bool
}

// MaxDummies bounds the work a drawing may take: a flow whose long edges
// would need more dummy elements than this (hostile input; real agents
// need a few dozen) is not drawn.
const MaxDummies = 200_000

type channel struct {
	y        int // first row
	h        int // rows
	labelTop bool
	labelBot bool
	tracks   int  // tracks (after assign; before, the fewest the groups need)
	exact    bool // tracks is the count assign gives
	groups   []group
}

// group is the lines of one channel that share a horizontal track: the
// segments leaving one port (a fan-out), or several single-target groups
// merging into one port (a fan-in bundle).
type group struct {
	x1s   []int // upper verticals (sorted)
	x2s   []int // lower verticals (sorted)
	l, r  int
	track int // -1 when straight
	back  bool
	segs  []int
}

// newLay lays out the nodes members (indices into g.Nodes, in node order)
// and the edges between them. back says which edges are reversed.
func newLay(g *Graph, idx map[string]int, members []int, back []bool, widthOf func(int) int, ellipsis string) *lay {
	L := &lay{g: g}
	local := make(map[int]int, len(members))
	for _, n := range members {
		local[n] = len(L.elems)
		L.elems = append(L.elems, elem{node: n})
	}
	// Layout edges, duplicates of an unlabelled edge merged.
	type key struct {
		u, v  int
		back  bool
		label string
	}
	seen := map[key]bool{}
	for ei, e := range g.Edges {
		fi, ok1 := idx[e.From]
		ti, ok2 := idx[e.To]
		if !ok1 || !ok2 || fi == ti {
			continue
		}
		u, ok1 := local[fi]
		v, ok2 := local[ti]
		if !ok1 || !ok2 {
			continue
		}
		if back[ei] {
			u, v = v, u
		}
		k := key{u, v, back[ei], e.Branch}
		if seen[k] {
			continue
		}
		seen[k] = true
		L.edges = append(L.edges, ledge{from: u, to: v, back: back[ei], label: truncate(e.Branch, MaxLabelWidth, ellipsis)})
	}
	L.layer()
	dummies := 0
	for _, e := range L.edges {
		if d := L.elems[e.to].layer - L.elems[e.from].layer - 1; d > 0 {
			dummies += d
		}
	}
	if dummies > MaxDummies {
		L.tooBig = true
		return L
	}
	L.normalize()
	L.order()
	L.cross = L.crossings()
	L.makePorts(widthOf)
	L.place()
	L.route()
	return L
}

// layer assigns layers: longest path from the sources over the (acyclic)
// layout edges, then a pull-down pass.
func (L *lay) layer() {
	n := len(L.elems)
	indeg := make([]int, n)
	out := make([][]int, n)
	in := make([][]int, n)
	for i, e := range L.edges {
		indeg[e.to]++
		out[e.from] = append(out[e.from], i)
		in[e.to] = append(in[e.to], i)
	}
	queue := make([]int, 0, n)
	for i := range L.elems {
		if indeg[i] == 0 {
			queue = append(queue, i)
		}
	}
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		for _, ei := range out[v] {
			t := L.edges[ei].to
			if L.elems[v].layer+1 > L.elems[t].layer {
				L.elems[t].layer = L.elems[v].layer + 1
			}
			indeg[t]--
			if indeg[t] == 0 {
				queue = append(queue, t)
			}
		}
	}
	// A cycle left (it cannot happen: back edges come from a DFS) would
	// leave nodes out of the queue; they keep layer 0 and their edges are
	// dropped below rather than looping.
	// Balance: a node with more edges out than in moves down next to its
	// nearest successor (shortening more edges than it lengthens), one
	// with more in than out up next to its lowest predecessor; repeated
	// until nothing moves (bounded), in reverse topological order.
	for pass := 0; pass < 8; pass++ {
		moved := false
		for h := len(queue) - 1; h >= 0; h-- {
			v := queue[h]
			lo, hi := 0, math.MaxInt
			for _, ei := range in[v] {
				lo = max(lo, L.elems[L.edges[ei].from].layer+1)
			}
			for _, ei := range out[v] {
				hi = min(hi, L.elems[L.edges[ei].to].layer-1)
			}
			cur := L.elems[v].layer
			switch {
			case len(out[v]) > len(in[v]) && hi != math.MaxInt && hi > cur:
				L.elems[v].layer, moved = hi, true
			case len(in[v]) > len(out[v]) && len(out[v]) > 0 && lo < cur:
				L.elems[v].layer, moved = lo, true
			}
		}
		if !moved {
			break
		}
	}
}

// normalize splits long edges with dummies and builds the layers.
func (L *lay) normalize() {
	// Drop empty layers the pull-down may have left.
	used := map[int]bool{}
	for i := range L.elems {
		used[L.elems[i].layer] = true
	}
	ls := make([]int, 0, len(used))
	for l := range used {
		ls = append(ls, l)
	}
	sort.Ints(ls)
	remap := make(map[int]int, len(ls))
	for i, l := range ls {
		remap[l] = i
	}
	maxL := 0
	for i := range L.elems {
		L.elems[i].layer = remap[L.elems[i].layer]
		if L.elems[i].layer > maxL {
			maxL = L.elems[i].layer
		}
	}
	for ei := range L.edges {
		e := &L.edges[ei]
		lu, lv := L.elems[e.from].layer, L.elems[e.to].layer
		if lv <= lu { // only possible with a leftover cycle: drop
			continue
		}
		prev := e.from
		for k := lu + 1; k <= lv; k++ {
			next := e.to
			if k < lv {
				next = len(L.elems)
				L.elems = append(L.elems, elem{node: -1, layer: k, w: 1})
			}
			si := len(L.segs)
			L.segs = append(L.segs, seg{u: prev, l: next, e: ei})
			L.elems[prev].down = append(L.elems[prev].down, si)
			L.elems[next].up = append(L.elems[next].up, si)
			e.segs = append(e.segs, si)
			prev = next
		}
	}
	L.layers = make([][]int, maxL+1)
	if len(L.elems) == 0 {
		L.layers = nil
	}
}

// order sets the order of every layer.
func (L *lay) order() {
	n := len(L.elems)
	for i := 0; i < n; i++ {
		k := L.elems[i].layer
		L.layers[k] = append(L.layers[k], i)
	}
	L.dfsOrder(false)
	L.setPos()
	if len(L.layers) < 2 {
		return
	}
	first := L.snapshot()
	best, bestC := first, L.crossings()
	if bestC == 0 {
		return
	}
	// Two starting orders (depth-first with children in edge order, and
	// reversed), each improved by barycenter and by median sweeps.
	L.dfsOrder(true)
	L.setPos()
	starts := [][][]int{first, L.snapshot()}
	maxIter, patience := 24, 4
	variants := []bool{false, true} // barycenter, median
	switch {
	case n > 4000:
		maxIter, variants, starts = 8, variants[:1], starts[:1]
	case n <= 300:
		maxIter, patience = 48, 8
		// Small graphs can afford a few more starts: shuffled layers
		// (a fixed seed keeps the result deterministic).
		r := rand.New(rand.NewSource(int64(n)))
		for i := 0; i < 6; i++ {
			L.restore(first)
			for _, layer := range L.layers {
				r.Shuffle(len(layer), func(a, b int) { layer[a], layer[b] = layer[b], layer[a] })
			}
			L.setPos()
			starts = append(starts, L.snapshot())
		}
	}
	for _, start := range starts {
		for _, median := range variants {
			L.restore(start)
			L.transpose()
			runBest, runC := L.snapshot(), L.crossings()
			still := 0
			for it := 0; it < maxIter && still < patience && runC > 0; it++ {
				if it%2 == 0 {
					for k := 1; k < len(L.layers); k++ {
						L.sortLayer(k, true, median)
					}
				} else {
					for k := len(L.layers) - 2; k >= 0; k-- {
						L.sortLayer(k, false, median)
					}
				}
				L.transpose()
				c := L.crossings()
				if c < runC {
					runBest, runC, still = L.snapshot(), c, 0
				} else {
					still++
				}
			}
			if runC < bestC {
				best, bestC = runBest, runC
			}
		}
	}
	L.restore(best)
	// Sifting: move each element to its best place in its layer.
	if n <= 3000 {
		for pass := 0; pass < 4 && bestC > 0; pass++ {
			for k := range L.layers {
				L.sift(k)
			}
			c := L.crossings()
			if c >= bestC {
				break
			}
			best, bestC = L.snapshot(), c
		}
		L.restore(best)
	}
}

// sift moves each element of layer k, one at a time, to the position in
// the layer where it crosses the fewest edges to the layers above and
// below (staying put on ties). Layers wider than 300 are left alone.
func (L *lay) sift(k int) {
	layer := L.layers[k]
	m := len(layer)
	if m < 2 || m > 300 {
		return
	}
	up := make(map[int][]int, m)
	dn := make(map[int][]int, m)
	for _, e := range layer {
		up[e] = L.neighbourPos(nil, e, true)
		dn[e] = L.neighbourPos(nil, e, false)
	}
	cross := func(a, b int) int { return pairCross(up[a], up[b]) + pairCross(dn[a], dn[b]) }
	ids := append([]int(nil), layer...)
	others := make([]int, 0, m)
	for _, v := range ids {
		others = others[:0]
		cur := 0
		for i, e := range layer {
			if e == v {
				cur = i
				continue
			}
			others = append(others, e)
		}
		cost := 0
		for _, u := range others {
			cost += cross(v, u)
		}
		bestP, bestCost := 0, cost
		costAt := make([]int, len(others)+1)
		costAt[0] = cost
		for p, u := range others {
			cost += cross(u, v) - cross(v, u)
			costAt[p+1] = cost
			if cost < bestCost {
				bestP, bestCost = p+1, cost
			}
		}
		if costAt[cur] == bestCost {
			bestP = cur
		}
		copy(layer, others[:bestP])
		layer[bestP] = v
		copy(layer[bestP+1:], others[bestP:])
	}
	for p, e := range layer {
		L.elems[e].pos = p
	}
}

// dfsOrder sorts every layer by depth-first discovery from the elements
// without predecessors, in element (node) order; reverse visits each
// element's successors last edge first.
func (L *lay) dfsOrder(reverse bool) {
	for i := range L.elems {
		L.elems[i].dfs = -1
	}
	t := 0
	stack := make([]int, 0, 64)
	for r := range L.elems {
		if L.elems[r].node < 0 || L.elems[r].dfs >= 0 || len(L.elems[r].up) > 0 {
			continue
		}
		stack = append(stack[:0], r)
		for len(stack) > 0 {
			v := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if L.elems[v].dfs >= 0 {
				continue
			}
			L.elems[v].dfs = t
			t++
			d := L.elems[v].down
			for i := range d {
				j := len(d) - 1 - i
				if reverse {
					j = i
				}
				if w := L.segs[d[j]].l; L.elems[w].dfs < 0 {
					stack = append(stack, w)
				}
			}
		}
	}
	for i := range L.elems {
		if L.elems[i].dfs < 0 {
			L.elems[i].dfs = t
			t++
		}
	}
	for _, layer := range L.layers {
		sort.Slice(layer, func(a, b int) bool { return L.elems[layer[a]].dfs < L.elems[layer[b]].dfs })
	}
}

func (L *lay) setPos() {
	for _, layer := range L.layers {
		for p, e := range layer {
			L.elems[e].pos = p
		}
	}
}

func (L *lay) snapshot() [][]int {
	s := make([][]int, len(L.layers))
	for k, layer := range L.layers {
		s[k] = append([]int(nil), layer...)
	}
	return s
}

func (L *lay) restore(s [][]int) {
	for k := range L.layers {
		copy(L.layers[k], s[k])
	}
	L.setPos()
}

// sortLayer reorders layer k by the barycenter (or median) of each
// element's neighbours in the layer above (fromAbove) or below. Elements
// without neighbours there keep their place.
func (L *lay) sortLayer(k int, fromAbove, median bool) {
	layer := L.layers[k]
	if len(layer) < 2 {
		return
	}
	keys := make([]float64, len(layer))
	var buf []int
	for i, e := range layer {
		el := &L.elems[e]
		ss := el.down
		if fromAbove {
			ss = el.up
		}
		if len(ss) == 0 {
			keys[i] = -1
			continue
		}
		buf = buf[:0]
		for _, si := range ss {
			if fromAbove {
				buf = append(buf, L.elems[L.segs[si].u].pos)
			} else {
				buf = append(buf, L.elems[L.segs[si].l].pos)
			}
		}
		if median {
			sort.Ints(buf)
			m := len(buf) / 2
			if len(buf)%2 == 1 {
				keys[i] = float64(buf[m])
			} else {
				keys[i] = float64(buf[m-1]+buf[m]) / 2
			}
		} else {
			s := 0
			for _, p := range buf {
				s += p
			}
			keys[i] = float64(s) / float64(len(buf))
		}
	}
	// Elements without neighbours stay where they are: give them the key
	// of their current position, between their neighbours.
	for i := range keys {
		if keys[i] < 0 {
			keys[i] = float64(i)
		}
	}
	idx := make([]int, len(layer))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return keys[idx[a]] < keys[idx[b]] })
	old := append([]int(nil), layer...)
	for i, j := range idx {
		layer[i] = old[j]
		L.elems[layer[i]].pos = i
	}
}

// transpose swaps neighbours in a layer while that lowers the crossings
// with the layers above and below.
func (L *lay) transpose() {
	var upA, upB, dnA, dnB []int
	for pass := 0; pass < 4; pass++ {
		improved := false
		for _, layer := range L.layers {
			for i := 0; i+1 < len(layer); i++ {
				a, b := layer[i], layer[i+1]
				upA = L.neighbourPos(upA[:0], a, true)
				upB = L.neighbourPos(upB[:0], b, true)
				dnA = L.neighbourPos(dnA[:0], a, false)
				dnB = L.neighbourPos(dnB[:0], b, false)
				keep := pairCross(upA, upB) + pairCross(dnA, dnB)
				swap := pairCross(upB, upA) + pairCross(dnB, dnA)
				if swap < keep {
					layer[i], layer[i+1] = b, a
					L.elems[a].pos, L.elems[b].pos = i+1, i
					improved = true
				}
			}
		}
		if !improved {
			return
		}
	}
}

func (L *lay) neighbourPos(buf []int, e int, above bool) []int {
	el := &L.elems[e]
	if above {
		for _, si := range el.up {
			buf = append(buf, L.elems[L.segs[si].u].pos)
		}
	} else {
		for _, si := range el.down {
			buf = append(buf, L.elems[L.segs[si].l].pos)
		}
	}
	sort.Ints(buf)
	return buf
}

// pairCross counts the crossings between the edges of a (left) and b
// (right) towards one neighbour layer: pairs with a's end right of b's.
// Both slices are sorted.
func pairCross(a, b []int) int {
	c, j := 0, 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		c += j
	}
	return c
}

// crossings counts the crossings between consecutive layers from the
// layer orders (inversions, with a Fenwick tree).
func (L *lay) crossings() int {
	total := 0
	var pairs [][2]int
	var tree []int
	for k := 0; k+1 < len(L.layers); k++ {
		pairs = pairs[:0]
		for _, e := range L.layers[k] {
			for _, si := range L.elems[e].down {
				pairs = append(pairs, [2]int{L.elems[e].pos, L.elems[L.segs[si].l].pos})
			}
		}
		total += countInversions(pairs, len(L.layers[k+1]), &tree)
	}
	return total
}

// countInversions counts pairs (a1,b1),(a2,b2) with a1<a2 and b1>b2.
func countInversions(pairs [][2]int, n int, tree *[]int) int {
	sort.Slice(pairs, func(i, j int) bool {
		if pairs[i][0] != pairs[j][0] {
			return pairs[i][0] < pairs[j][0]
		}
		return pairs[i][1] < pairs[j][1]
	})
	if cap(*tree) < n+1 {
		*tree = make([]int, n+1)
	}
	t := (*tree)[:n+1]
	for i := range t {
		t[i] = 0
	}
	c := 0
	for i, p := range pairs {
		// elements already inserted with b > p[1]: i - (count of b <= p[1])
		le := 0
		for j := p[1] + 1; j > 0; j -= j & -j {
			le += t[j]
		}
		c += i - le
		for j := p[1] + 1; j <= n; j += j & -j {
			t[j]++
		}
	}
	return c
}
