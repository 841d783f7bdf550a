package flowgraph

import (
	"github.com/oastui/oastui/compile"
)

// Raw is the model of a Graph in the document's own terms: the same
// nodes and edges, resolved once by Build, with the raw ids, branches and
// components that the graph's labels (sanitised and masked for display)
// no longer carry. The engines that read the document through the flow
// model (the dry run) read it; a Graph's readers never modify it.
type Raw struct {
	Flow  *compile.Flow // the Flow the graph is of
	Nodes []RawNode     // Nodes[i] is Graph.Nodes[i]
	Edges []RawEdge     // Edges[i] is Graph.Edges[i]
	Data  []RawData     // Data[i] is Graph.Data[i]
	Start int           // index of the start node in Nodes, -1 when start_node names none
}

// RawNode is one node: the reference or inline id its `nodes` entry
// names, and the component it resolves to.
type RawNode struct {
	ID      string
	Comp    *compile.Node // the resolved component (nil when the reference does not resolve)
	Pointer string        // where the component is defined ("" from the registry or unresolved)
	Entry   string        // its entry in the Flow's nodes
	BFS     int           // its first index in the compiler's order (compile.BFSOrder), -1 when not in it
	// Injected: the WayFlow loader adds the node at mount (a slim context
	// slot's context step); it is not in the file (no Pointer, no Entry).
	Injected bool
}

// RawEdge is one control edge between nodes of the flow (indices in Nodes).
type RawEdge struct {
	From, To int
	Branch   string // from_branch as written ("" when null or absent)
	Pointer  string // the edge's entry in control_flow_connections
}

// RawData is one data edge between nodes of the flow (indices in Nodes).
type RawData struct {
	From, To      int
	Output, Input string // source_output, destination_input ("" when not strings)
	Pointer       string // the edge's entry in data_flow_connections
}

// Raw returns the graph's model in the document's terms (nil for a graph
// not made by Build).
func (g *Graph) Raw() *Raw { return g.raw }
