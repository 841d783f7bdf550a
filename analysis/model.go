package analysis

import (
	"fmt"
	"sync"

	"github.com/oastui/oastui/flowgraph"
)

// flowModels holds the one graph model of each Flow of a snapshot
// (Snapshot.Graph), built on first use; the zero value is ready.
type flowModels struct {
	mu sync.Mutex
	m  map[string]*flowModel
}

type flowModel struct {
	once sync.Once
	g    *flowgraph.Graph
	err  error
}

// Graph is the graph model of the Flow at pointer ptr ("" the root): its
// nodes, control and data edges resolved through `$component_ref`s, built
// once per snapshot on first use and shared by every reader (the prompt
// report, the drawn graph, oastui graph, MCP agent_graph). It is not
// rendered, and readers must not modify it: a face that marks findings on
// it draws a copy (Flow.Drawn does).
func (s *Snapshot) Graph(ptr string) (*flowgraph.Graph, error) {
	if s == nil || s.Agent == nil {
		return nil, fmt.Errorf("no agent")
	}
	s.models.mu.Lock()
	if s.models.m == nil {
		s.models.m = map[string]*flowModel{}
	}
	fm := s.models.m[ptr]
	if fm == nil {
		fm = &flowModel{}
		s.models.m[ptr] = fm
	}
	s.models.mu.Unlock()
	fm.once.Do(func() {
		defer func() {
			if r := recover(); r != nil {
				fm.g, fm.err = nil, fmt.Errorf("internal error building the graph: %v", r)
			}
		}()
		fm.g, fm.err = flowgraph.Build(s.Agent, ptr)
	})
	return fm.g, fm.err
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
