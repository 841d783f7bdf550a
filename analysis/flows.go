package analysis

import (
	"fmt"
	"sync"

	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/present"
)

// Flow is one Flow of the document with its graph, drawing and where each
// node's box is.
type Flow struct {
	Pointer string // where the Flow is ("" for the root)
	Parent  string // pointer of the enclosing Flow ("" for the root's children and the root)
	Name    string // its name or id, sanitised
	Graph   *flowgraph.Graph
	Canvas  *flowgraph.Canvas
	Layout  *flowgraph.Layout
	Order   []int  // node indexes in reading order (top to bottom, left to right)
	Err     string // why it could not be drawn

	s    *Snapshot
	once sync.Once
}

// Drawn builds and draws the flow on first use and returns it. The root
// flow is drawn inside Run; nested flows are drawn when first shown
// (drill-down, a finding inside them), which keeps a save's re-analysis
// short for agents with many subflows. The snapshot stays immutable: the
// drawing is a pure function of it, computed once.
func (f *Flow) Drawn() *Flow {
	if f != nil {
		f.once.Do(f.draw)
	}
	return f
}

// Flow is the Flow at pointer ptr (its graph and drawing built on first use: Drawn), or nil.
func (s *Snapshot) Flow(ptr string) *Flow { return s.byPtr[ptr] }

// listFlows lists every Flow of the document and draws the top one.
func (s *Snapshot) listFlows() {
	for _, f := range s.Agent.Flows() {
		fl := &Flow{Pointer: f.Pointer, Name: present.Text(f.ID()), s: s}
		if f.Parent != nil {
			fl.Parent = f.Parent.Pointer
		}
		s.Flows = append(s.Flows, fl)
		s.byPtr[f.Pointer] = fl
	}
	if len(s.Flows) > 0 {
		s.Flows[0].Drawn()
	}
}

func (f *Flow) draw() {
	defer func() {
		if r := recover(); r != nil {
			f.Graph, f.Canvas, f.Layout = nil, nil, nil
			f.Err = fmt.Sprintf("internal error drawing the graph: %v", r)
		}
	}()
	model, err := f.s.Graph(f.Pointer) // the snapshot's one model of the flow
	if err != nil {
		f.Err = err.Error()
		return
	}
	g := graphCopy(model)
	g.SetFindings(f.s.Review.Findings)
	if g.FlowName != "" {
		f.Name = g.FlowName
	}
	c, l := flowgraph.Render(g, flowgraph.Options{})
	f.Graph, f.Canvas, f.Layout = g, c, l
	f.Order = readingOrder(g, l)
}

// readingOrder sorts node indexes by their box: top to bottom, then left
// to right (nodes without a box last, in declaration order).
func readingOrder(g *flowgraph.Graph, l *flowgraph.Layout) []int {
	idx := make([]int, len(g.Nodes))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) (int, int, int) {
		b := l.Box(i)
		if b.W == 0 {
			return 1 << 30, 0, i
		}
		return b.Y, b.X, i
	}
	for i := 1; i < len(idx); i++ { // insertion sort: small, stable
		for j := i; j > 0; j-- {
			ay, ax, ai := key(idx[j-1])
			by, bx, bi := key(idx[j])
			if ay < by || ay == by && (ax < bx || ax == bx && ai < bi) {
				break
			}
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
	return idx
}
