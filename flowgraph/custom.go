package flowgraph

// New builds a graph that does not come from a flow file (the workspace's
// call graph between agents): nodes and edges as given, start the id of the
// node the layout starts from. It indexes the nodes, numbers them in
// breadth-first order from start, marks reachability and the edges that
// close loops exactly as Build does, so Render, DOT and Mermaid draw it
// like a flow. Names and labels are the caller's to sanitise.
func New(id, name, start string, nodes []*Node, edges []Edge) *Graph {
	g := &Graph{FlowID: id, FlowName: name, Start: start, Nodes: nodes, Edges: edges, index: make(map[string]int, len(nodes))}
	for i, n := range nodes {
		if _, dup := g.index[n.ID]; !dup {
			g.index[n.ID] = i
		}
	}
	for i := range g.Edges {
		e := &g.Edges[i]
		if e.From == e.To {
			if k, ok := g.index[e.From]; ok {
				g.Nodes[k].SelfLoop = true
			}
		}
	}
	// Breadth-first order and reachability from start.
	for _, n := range g.Nodes {
		n.BFS = -1
	}
	out := make([][]int, len(nodes))
	for _, e := range g.Edges {
		f, ok1 := g.index[e.From]
		t, ok2 := g.index[e.To]
		if ok1 && ok2 {
			out[f] = append(out[f], t)
		}
	}
	order := 0
	if s, ok := g.index[start]; ok {
		queue := []int{s}
		g.Nodes[s].BFS, g.Nodes[s].Reachable = 0, true
		order = 1
		for h := 0; h < len(queue); h++ {
			for _, t := range out[queue[h]] {
				if !g.Nodes[t].Reachable {
					g.Nodes[t].Reachable, g.Nodes[t].BFS = true, order
					order++
					queue = append(queue, t)
				}
			}
		}
	}
	for _, n := range g.Nodes {
		if n.BFS < 0 {
			n.BFS = order
			order++
		}
	}
	g.markBackEdges(g.edgesBySource())
	return g
}
