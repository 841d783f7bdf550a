package analysis

import (
	"fmt"
	"sync"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/present"
)

// Flow is one Flow of the document: its graph model (Model), that graph
// with the review's findings counted on its nodes (Marked), and that graph
// drawn, where each node's box is (Drawn). Each is built on first use,
// once.
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

	markedOnce sync.Once
	marked     *flowgraph.Graph
	markedErr  string

	flow      *compile.Flow
	modelOnce sync.Once
	model     *flowgraph.Graph
	modelErr  error
}

// Drawn builds and draws the flow on first use and returns it. The root
// flow is drawn inside Run (StageDrawTop); nested flows are drawn when first shown
// (drill-down, a finding inside them), which keeps a save's re-analysis
// short for agents with many subflows. The snapshot stays immutable: the
// drawing is a pure function of it, computed once.
func (f *Flow) Drawn() *Flow {
	if f != nil {
		f.once.Do(f.draw)
	}
	return f
}

// Model is the graph model of the Flow: its nodes, control and data edges
// resolved through `$component_ref`s (from the view of the agent's flow
// model, compile.FlowModel.View), built once per snapshot on first use and
// shared by every reader (the prompt report, the drawn graph, oastui
// graph, MCP agent_graph, the diff). It is not rendered, and readers must
// not modify it: a face that marks findings on it draws a copy (Drawn
// does). A nil Flow (Snapshot.Flow of no Flow) has none.
func (f *Flow) Model() (*flowgraph.Graph, error) {
	if f == nil {
		return nil, flowgraph.ErrNoFlow
	}
	f.modelOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				f.model, f.modelErr = nil, fmt.Errorf("internal error building the graph: %v", r)
			}
		}()
		f.model = flowgraph.BuildFlow(f.s.Agent, f.flow)
	})
	return f.model, f.modelErr
}

// Flow is the Flow at pointer ptr, or nil. Its graph model and drawing
// are built on first use (Model, Drawn).
func (s *Snapshot) Flow(ptr string) *Flow {
	s.listed.Do(s.list)
	return s.byPtr[ptr]
}

// FlowModels builds the graph model of every Flow (Flow.Model) now rather
// than on first use: a diff builds the new side's, which its prompt report
// reads, beside the old side's analysis (Snapshot.AddPromptText).
func (s *Snapshot) FlowModels() {
	if s == nil || s.Agent == nil || s.Agent.Flow == nil || s.Agent.Flow.Root == nil {
		return
	}
	s.listed.Do(s.list)
	for _, f := range s.all {
		f.Model()
	}
}

// list lists every Flow of the document, once.
func (s *Snapshot) list() {
	flows := s.Agent.Flows()
	s.byPtr = make(map[string]*Flow, len(flows))
	s.all = make([]*Flow, 0, len(flows))
	for _, f := range flows {
		fl := &Flow{Pointer: f.Pointer, Name: present.Text(f.ID()), s: s, flow: f}
		if f.Parent != nil {
			fl.Parent = f.Parent.Pointer
		}
		s.all = append(s.all, fl)
		s.byPtr[f.Pointer] = fl
	}
}

// listFlows lists every Flow of the document (Flows) and, with draw,
// draws the top one.
func (s *Snapshot) listFlows(draw bool) {
	s.listed.Do(s.list)
	s.Flows = s.all
	if draw && len(s.Flows) > 0 {
		s.Flows[0].Drawn()
	}
}

// Marked is the flow's graph as Drawn draws it, not laid out: a copy of
// the model with the review's findings counted on its nodes, built once
// (Drawn's Graph is this graph). err says why there is none (Drawn's
// Err). Readers must not modify it.
func (f *Flow) Marked() (g *flowgraph.Graph, err string) {
	if f == nil {
		return nil, flowgraph.ErrNoFlow.Error()
	}
	f.markedOnce.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				f.marked, f.markedErr = nil, fmt.Sprintf("internal error drawing the graph: %v", r)
			}
		}()
		model, err := f.Model() // the snapshot's one model of the flow
		if err != nil {
			f.markedErr = err.Error()
			return
		}
		g := graphCopy(model)
		g.SetFindings(f.s.Review.Findings)
		f.marked = g
	})
	return f.marked, f.markedErr
}

func (f *Flow) draw() {
	defer func() {
		if r := recover(); r != nil {
			f.Graph, f.Canvas, f.Layout = nil, nil, nil
			f.Err = fmt.Sprintf("internal error drawing the graph: %v", r)
		}
	}()
	g, why := f.Marked()
	if g == nil {
		f.Err = why
		return
	}
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

// graphCopy is g with its own nodes and edges, for a face that marks
// findings on them or lays them out (the shared model stays as built).
func graphCopy(g *flowgraph.Graph) *flowgraph.Graph {
	c := *g
	c.Nodes = make([]*flowgraph.Node, len(g.Nodes))
	for i, n := range g.Nodes {
		cp := *n
		c.Nodes[i] = &cp
	}
	c.Edges = append([]flowgraph.Edge(nil), g.Edges...)
	c.Data = append([]flowgraph.DataEdge(nil), g.Data...)
	return &c
}
