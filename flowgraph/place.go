package flowgraph

import (
	"container/heap"
	"math"
	"slices"
	"sort"
)

// makePorts gives every element its ports and width. widthOf returns the
// width a node's box needs for its text.
func (L *lay) makePorts(widthOf func(node int) int) {
	for i := range L.elems {
		el := &L.elems[i]
		if el.node < 0 {
			el.top = []port{{}}
			el.bot = []port{{}}
			for _, si := range el.up {
				L.segs[si].lp = 0
				el.top[0].segs = append(el.top[0].segs, si)
			}
			for _, si := range el.down {
				L.segs[si].up = 0
				el.bot[0].segs = append(el.bot[0].segs, si)
			}
			continue
		}
		shared := -1
		for _, si := range el.down {
			e := &L.edges[L.segs[si].e]
			p := -1
			switch {
			case e.back:
				el.bot = append(el.bot, port{kind: portBackIn})
			case e.label != "":
				el.bot = append(el.bot, port{kind: portOut, label: e.label, lw: textWidth(e.label)})
			case shared >= 0:
				p = shared
			default:
				el.bot = append(el.bot, port{kind: portOut})
				shared = len(el.bot) - 1
			}
			if p < 0 {
				p = len(el.bot) - 1
			}
			el.bot[p].segs = append(el.bot[p].segs, si)
		}
		shared = -1
		for _, si := range el.up {
			e := &L.edges[L.segs[si].e]
			p := -1
			switch {
			case e.back:
				el.top = append(el.top, port{kind: portBackOut, label: e.label, lw: textWidth(e.label)})
			case shared >= 0:
				p = shared
			default:
				el.top = append(el.top, port{kind: portIn})
				shared = len(el.top) - 1
			}
			if p < 0 {
				p = len(el.top) - 1
			}
			el.top[p].segs = append(el.top[p].segs, si)
		}
		// Order the ports by where their other ends are.
		for pi := range el.bot {
			s := 0
			for _, si := range el.bot[pi].segs {
				s += L.elems[L.segs[si].l].pos
			}
			el.bot[pi].key = float64(s) / float64(len(el.bot[pi].segs))
		}
		for pi := range el.top {
			s := 0
			for _, si := range el.top[pi].segs {
				s += L.elems[L.segs[si].u].pos
			}
			el.top[pi].key = float64(s) / float64(len(el.top[pi].segs))
		}
		sort.SliceStable(el.bot, func(a, b int) bool { return el.bot[a].key < el.bot[b].key })
		sort.SliceStable(el.top, func(a, b int) bool { return el.top[a].key < el.top[b].key })
		for pi := range el.bot {
			for _, si := range el.bot[pi].segs {
				L.segs[si].up = pi
			}
		}
		for pi := range el.top {
			for _, si := range el.top[pi].segs {
				L.segs[si].lp = pi
			}
		}
		w := widthOf(el.node)
		if n := spreadPorts(el.top); n > w {
			w = n
		}
		if n := spreadPorts(el.bot); n > w {
			w = n
		}
		el.w = w
		centerPorts(el.top, w)
		centerPorts(el.bot, w)
	}
}

// portExtent is the last column a port and its label use.
func portExtent(p port) int {
	if p.lw > 0 {
		return p.off + 1 + p.lw
	}
	return p.off
}

// spreadPorts sets port offsets left to right (labels drawn right of their
// port) and returns the box width they need.
func spreadPorts(ps []port) int {
	if len(ps) == 0 {
		return 0
	}
	off := 2
	for i := range ps {
		ps[i].off = off
		off = portExtent(ps[i]) + 2
	}
	return portExtent(ps[len(ps)-1]) + 3
}

// centerPorts shifts the ports so their group is centred in the box.
func centerPorts(ps []port, w int) {
	if len(ps) == 0 {
		return
	}
	a, b := ps[0].off, portExtent(ps[len(ps)-1])
	shift := ((w - 2 - b) - (a - 1)) / 2
	if shift <= 0 {
		return
	}
	for i := range ps {
		ps[i].off += shift
	}
}

func gapBetween(a, b *elem) int {
	if a.node < 0 || b.node < 0 {
		return 1
	}
	return 2
}

// place assigns x coordinates: packed left, then sweeps that move each
// layer towards the ports of its neighbours.
func (L *lay) place() {
	for _, layer := range L.layers {
		x := 0
		for i, e := range layer {
			if i > 0 {
				x += gapBetween(&L.elems[layer[i-1]], &L.elems[e])
			}
			L.elems[e].x = x
			x += L.elems[e].w
		}
	}
	if len(L.layers) > 1 {
		for round := 0; round < 4; round++ {
			for k := 1; k < len(L.layers); k++ {
				L.placeLayer(k, true, false)
			}
			for k := len(L.layers) - 2; k >= 0; k-- {
				L.placeLayer(k, false, true)
			}
		}
		for k := 1; k < len(L.layers); k++ {
			L.placeLayer(k, true, false)
		}
		L.straighten()
		L.compactBridges()
	}
	minX := math.MaxInt
	for i := range L.elems {
		if L.elems[i].x < minX {
			minX = L.elems[i].x
		}
	}
	L.width = 0
	for i := range L.elems {
		L.elems[i].x -= minX
		if r := L.elems[i].x + L.elems[i].w; r > L.width {
			L.width = r
		}
	}
}

func segWeight(a, b *elem) float64 {
	switch {
	case a.node < 0 && b.node < 0:
		return 8
	case a.node < 0 || b.node < 0:
		return 2
	}
	return 1
}

// placeLayer moves layer k as close as it can to where its ports line up
// with its neighbours' (weighted least squares), keeping order and gaps.
func (L *lay) placeLayer(k int, useUp, useDown bool) {
	layer := L.layers[k]
	n := len(layer)
	target := make([]float64, n)
	weight := make([]float64, n)
	offset := make([]int, n)
	o := 0
	for i, e := range layer {
		el := &L.elems[e]
		if i > 0 {
			prev := &L.elems[layer[i-1]]
			o += prev.w + gapBetween(prev, el)
		}
		offset[i] = o
		var sx, sw float64
		if useUp {
			for _, si := range el.up {
				s := &L.segs[si]
				nb := &L.elems[s.u]
				w := segWeight(el, nb)
				sx += w * float64(nb.x+nb.bot[s.up].off-el.top[s.lp].off)
				sw += w
			}
		}
		if useDown {
			for _, si := range el.down {
				s := &L.segs[si]
				nb := &L.elems[s.l]
				w := segWeight(el, nb)
				sx += w * float64(nb.x+nb.top[s.lp].off-el.bot[s.up].off)
				sw += w
			}
		}
		if sw == 0 {
			target[i], weight[i] = float64(el.x-o), 1e-3
		} else {
			target[i], weight[i] = sx/sw-float64(o), sw
		}
	}
	y := isotonic(target, weight)
	for i, e := range layer {
		L.elems[e].x = int(math.Round(y[i])) + offset[i]
	}
}

// isotonic returns the non-decreasing sequence closest to t in weighted
// least squares (pool adjacent violators).
func isotonic(t, w []float64) []float64 {
	type block struct {
		sw, swt float64
		n       int
	}
	bs := make([]block, 0, len(t))
	for i := range t {
		bs = append(bs, block{w[i], w[i] * t[i], 1})
		for len(bs) > 1 {
			a, b := bs[len(bs)-2], bs[len(bs)-1]
			if a.swt/a.sw <= b.swt/b.sw {
				break
			}
			bs = bs[:len(bs)-2]
			bs = append(bs, block{a.sw + b.sw, a.swt + b.swt, a.n + b.n})
		}
	}
	out := make([]float64, 0, len(t))
	for _, b := range bs {
		m := b.swt / b.sw
		for j := 0; j < b.n; j++ {
			out = append(out, m)
		}
	}
	return out
}

// route builds the channels between layers: groups of segments sharing an
// upper port and their label rows. Each channel's height is first the
// fewest tracks its groups need (trackBound: a lower bound, computed
// without the pairwise order of the groups, which is Θ(n²) when n groups
// overlap); assign gives the tracks and the rows for a drawing.
func (L *lay) route() {
	nl := len(L.layers)
	L.layerY = make([]int, nl)
	if nl == 0 {
		return
	}
	L.chans = make([]channel, nl-1)
	for k := 0; k+1 < nl; k++ {
		ch := &L.chans[k]
		for _, e := range L.layers[k] {
			el := &L.elems[e]
			for _, p := range el.bot {
				if p.lw > 0 {
					ch.labelTop = true
				}
				if len(p.segs) == 0 {
					continue
				}
				x1 := el.x + p.off
				g := group{x1s: []int{x1}, track: -1, back: true}
				for _, si := range p.segs {
					s := &L.segs[si]
					lo := &L.elems[s.l]
					g.x2s = append(g.x2s, lo.x+lo.top[s.lp].off)
					g.segs = append(g.segs, si)
					if !L.edges[s.e].back {
						g.back = false
					}
				}
				sort.Ints(g.x2s)
				g.x2s = slices.Compact(g.x2s)
				g.l, g.r = x1, x1
				if g.x2s[0] < g.l {
					g.l = g.x2s[0]
				}
				if x := g.x2s[len(g.x2s)-1]; x > g.r {
					g.r = x
				}
				if g.l != g.r {
					g.track = 0
				}
				ch.groups = append(ch.groups, g)
			}
		}
		ch.groups = bundle(ch.groups)
		for _, e := range L.layers[k+1] {
			for _, p := range L.elems[e].top {
				if p.lw > 0 {
					ch.labelBot = true
				}
			}
		}
		ch.tracks, ch.exact = trackBound(ch.groups)
	}
	L.rows()
}

// assign gives every bending group its track (assignTracks) and sets the
// rows of the channels and layers from the track counts.
func (L *lay) assign() {
	for k := range L.chans {
		ch := &L.chans[k]
		ch.tracks = assignTracks(ch.groups)
		ch.exact = true
	}
	L.rows()
}

// rows sets each channel's height from its tracks and label rows, the
// first row of every layer and channel, and the part's height.
func (L *lay) rows() {
	y := 0
	for k := range L.layers {
		L.layerY[k] = y
		y += 3
		if k == len(L.chans) {
			break
		}
		ch := &L.chans[k]
		ch.y = y
		ch.h = ch.tracks
		if ch.labelTop {
			ch.h++
		}
		if ch.labelBot {
			ch.h++
		}
		y += ch.h
	}
	L.height = y
}

// trackBound is the fewest tracks assignTracks can give the bending
// groups gs: groups whose spans [l, r] overlap get different tracks, so
// there are at least as many as the most spans that share a column (a
// sweep over the ends). exact says the bound is the count assignTracks
// returns: every bending group overlaps every other (or there are none),
// so each gets a track of its own.
func trackBound(gs []group) (tracks int, exact bool) {
	var ends []int // 2l (a span opens) and 2r+1 (it closes), sorted: opens first at one column
	for i := range gs {
		if gs[i].track >= 0 {
			ends = append(ends, 2*gs[i].l, 2*gs[i].r+1)
		}
	}
	sort.Ints(ends)
	open := 0
	for _, v := range ends {
		if v&1 == 0 {
			open++
			tracks = max(tracks, open)
		} else {
			open--
		}
	}
	return tracks, 2*tracks == len(ends)
}

func contains(xs []int, x int) bool {
	i := sort.SearchInts(xs, x)
	return i < len(xs) && xs[i] == x
}

// aboveCost is the cost of putting group a's track above b's: 1 per
// crossing that order makes, a large number when lines would overlap.
func aboveCost(a, b *group) int {
	const overlap = 1 << 20
	c := 0
	for _, x1 := range b.x1s {
		if contains(b.x2s, x1) {
			continue // b runs straight through there
		}
		// b's line from its port down to its track passes a's track.
		if x1 > a.l && x1 < a.r {
			c++
		}
		// b starts where a arrives: b's upper vertical would run into a's lower one.
		if contains(a.x2s, x1) {
			c += overlap
		}
	}
	// a's lines from its track down pass b's track.
	for _, x := range a.x2s {
		if x > b.l && x < b.r && !contains(b.x2s, x) && !contains(a.x1s, x) {
			c++
		}
	}
	return c
}

// bundle merges the bending groups that each go to one single port into
// one group per port, so lines merging into a box share a track.
func bundle(gs []group) []group {
	out := gs[:0:0]
	at := map[int]int{} // x2 → index in out of its bundle
	for _, g := range gs {
		if g.track < 0 || len(g.x2s) != 1 {
			out = append(out, g)
			continue
		}
		i, ok := at[g.x2s[0]]
		if !ok {
			at[g.x2s[0]] = len(out)
			out = append(out, g)
			continue
		}
		b := &out[i]
		b.x1s = append(b.x1s, g.x1s...)
		sort.Ints(b.x1s)
		b.segs = append(b.segs, g.segs...)
		b.back = b.back && g.back
		b.l, b.r = min(b.l, g.l), max(b.r, g.r)
	}
	return out
}

// assignTracks gives each bending group a track so that groups whose
// horizontal spans overlap get different tracks, ordered to avoid overlaps
// and crossings. It returns the number of tracks.
func assignTracks(gs []group) int {
	var idx []int
	for i := range gs {
		if gs[i].track >= 0 {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return 0
	}
	sort.SliceStable(idx, func(a, b int) bool { return gs[idx[a]].l < gs[idx[b]].l })
	n := len(idx)
	succ := make([][]int, n)
	indeg := make([]int, n)
	overl := make([][]int, n)
	for a := 0; a < n; a++ {
		ga := &gs[idx[a]]
		for b := a + 1; b < n; b++ {
			gb := &gs[idx[b]]
			if gb.l > ga.r {
				break
			}
			overl[a] = append(overl[a], b)
			overl[b] = append(overl[b], a)
			if aboveCost(ga, gb) <= aboveCost(gb, ga) {
				succ[a] = append(succ[a], b)
				indeg[b]++
			} else {
				succ[b] = append(succ[b], a)
				indeg[a]++
			}
		}
	}
	// Topological order; a cycle is broken at the group with the fewest
	// pending predecessors.
	done := make([]bool, n)
	order := make([]int, 0, n)
	ready := &intHeap{}
	for i := 0; i < n; i++ {
		if indeg[i] == 0 {
			heap.Push(ready, i)
		}
	}
	next := 0 // lowest index that may still be pending (cycle breaking)
	for len(order) < n {
		if ready.Len() == 0 {
			best := -1
			for i := next; i < n; i++ {
				if !done[i] && (best < 0 || indeg[i] < indeg[best]) {
					best = i
				}
			}
			heap.Push(ready, best)
		}
		v := heap.Pop(ready).(int)
		if done[v] {
			continue
		}
		done[v] = true
		for next < n && done[next] {
			next++
		}
		order = append(order, v)
		for _, w := range succ[v] {
			indeg[w]--
			if indeg[w] == 0 && !done[w] {
				heap.Push(ready, w)
			}
		}
	}
	track := make([]int, n)
	placed := make([]bool, n)
	tracks := 0
	for _, v := range order {
		t := 0
		for _, w := range overl[v] {
			if placed[w] && track[w]+1 > t {
				t = track[w] + 1
			}
		}
		track[v] = t
		placed[v] = true
		gs[idx[v]].track = t
		if t+1 > tracks {
			tracks = t + 1
		}
	}
	return tracks
}

// straighten moves the dummies of each long edge onto one column when the
// layers they cross leave room there, preferring the column of the edge's
// source or target port (no bend at that end).
func (L *lay) straighten() {
	for ei := range L.edges {
		e := &L.edges[ei]
		if len(e.segs) < 2 {
			continue
		}
		var dums []int
		for _, si := range e.segs[1:] {
			dums = append(dums, L.segs[si].u)
		}
		first, last := &L.segs[e.segs[0]], &L.segs[e.segs[len(e.segs)-1]]
		src := L.elems[first.u].x + L.elems[first.u].bot[first.up].off
		dst := L.elems[last.l].x + L.elems[last.l].top[last.lp].off
		cands := []int{src, dst}
		for _, d := range dums {
			cands = append(cands, L.elems[d].x)
		}
		best, bestCost := -1, math.MaxInt
		for _, c := range cands {
			if !L.fits(dums, c) {
				continue
			}
			cost := 0
			if c != src {
				cost += 1000
			}
			if c != dst {
				cost += 1000
			}
			for _, d := range dums {
				if L.elems[d].x != c {
					cost++
				}
			}
			if cost < bestCost {
				best, bestCost = c, cost
			}
		}
		if best >= 0 {
			for _, d := range dums {
				L.elems[d].x = best
			}
		}
	}
}

// fits reports whether every dummy of dums can stand at column x between
// its neighbours in its layer.
func (L *lay) fits(dums []int, x int) bool {
	for _, d := range dums {
		el := &L.elems[d]
		layer := L.layers[el.layer]
		if el.pos > 0 {
			p := &L.elems[layer[el.pos-1]]
			if p.x+p.w+gapBetween(p, el) > x {
				return false
			}
		}
		if el.pos+1 < len(layer) {
			n := &L.elems[layer[el.pos+1]]
			if x+el.w+gapBetween(el, n) > n.x {
				return false
			}
		}
	}
	return true
}

// compactBridges removes the sideways drift of long drawings. Where a
// single segment joins layer k to layer k+1 (a bridge: nothing else
// crosses that channel), everything below may slide sideways at the cost
// of one bend. A section between two bridges that sticks out of the
// columns used so far by 8 or more, but would fit inside them, slides in.
func (L *lay) compactBridges() {
	nl := len(L.layers)
	if nl < 2 {
		return
	}
	lmin := make([]int, nl)
	lmax := make([]int, nl)
	for k, layer := range L.layers {
		lmin[k], lmax[k] = math.MaxInt, math.MinInt
		for _, e := range layer {
			el := &L.elems[e]
			lmin[k] = min(lmin[k], el.x)
			lmax[k] = max(lmax[k], el.x+el.w)
		}
	}
	bridge := make([]bool, nl-1)
	for k := 0; k+1 < nl; k++ {
		n := 0
		for _, e := range L.layers[k] {
			n += len(L.elems[e].down)
		}
		bridge[k] = n == 1
	}
	shift := 0
	minX, maxX := lmin[0], lmax[0]
	for k := 0; k+1 < nl; k++ {
		if bridge[k] {
			a, b := math.MaxInt, math.MinInt
			for j := k + 1; j < nl; j++ {
				a, b = min(a, lmin[j]+shift), max(b, lmax[j]+shift)
				if j < nl-1 && bridge[j] {
					break
				}
			}
			// A small overhang is not worth a bend.
			const worth = 8
			if b-a <= maxX-minX {
				switch {
				case minX-a >= worth:
					shift += minX - a
				case b-maxX >= worth:
					shift -= b - maxX
				}
			}
		}
		if shift != 0 {
			for _, e := range L.layers[k+1] {
				L.elems[e].x += shift
			}
		}
		minX, maxX = min(minX, lmin[k+1]+shift), max(maxX, lmax[k+1]+shift)
	}
}

// intHeap is a min-heap of ints.
type intHeap []int

func (h intHeap) Len() int           { return len(h) }
func (h intHeap) Less(i, j int) bool { return h[i] < h[j] }
func (h intHeap) Swap(i, j int)      { h[i], h[j] = h[j], h[i] }
func (h *intHeap) Push(x any)        { *h = append(*h, x.(int)) }
func (h *intHeap) Pop() any {
	old := *h
	x := old[len(old)-1]
	*h = old[:len(old)-1]
	return x
}
