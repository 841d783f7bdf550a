// Package flowgraph builds the control-flow graph of one Flow of an agent,
// lays it out in layers (a Sugiyama-style layout of our own) and draws it on
// a character canvas whose cells carry style classes. It is pure: no
// terminal, no colours (the view maps classes to styles), deterministic.
//
// Measuring it (numbers in the closing note):
//
//	go test ./flowgraph -run 'TestQualityVsDot' -v      # crossings and widths against Graphviz dot (skips without dot)
//	go test ./flowgraph -run '^$' -bench 'Layout10k|Generated'  # 10k-node time and memory; growth per node
//	go test ./flowgraph -run XXX -bench . -benchtime 2s  # corpus and generated flows, 10 to 10,240 nodes
//	go test ./flowgraph -update                          # rewrite the goldens (testdata/), then review the diff
package flowgraph

import (
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// NodeKind is the family of a flow node, derived from its component_type.
type NodeKind string

const (
	KindStart    NodeKind = "start"
	KindEnd      NodeKind = "end"
	KindAgent    NodeKind = "agent"
	KindAPI      NodeKind = "api"
	KindLLM      NodeKind = "llm"
	KindInput    NodeKind = "input"
	KindOutput   NodeKind = "output"
	KindBranch   NodeKind = "branch"
	KindFlow     NodeKind = "flow"
	KindMap      NodeKind = "map"
	KindParallel NodeKind = "parallel"
	KindTool     NodeKind = "tool"
	KindOther    NodeKind = "other"
)

// KindOf maps a component_type to its NodeKind. Agent Spec plugin and
// extended variants (PluginInputMessageNode, ExtendedToolNode, …) map to the
// kind of the node they extend.
func KindOf(componentType string) NodeKind {
	t := componentType
	for _, p := range []string{"Plugin", "Extended"} {
		if len(t) > len(p) && strings.HasPrefix(t, p) {
			t = t[len(p):]
		}
	}
	switch t {
	case "StartNode":
		return KindStart
	case "EndNode":
		return KindEnd
	case "AgentNode":
		return KindAgent
	case "ApiNode":
		return KindAPI
	case "LlmNode":
		return KindLLM
	case "InputMessageNode":
		return KindInput
	case "OutputMessageNode":
		return KindOutput
	case "BranchingNode":
		return KindBranch
	case "FlowNode":
		return KindFlow
	case "MapNode", "ParallelMapNode":
		return KindMap
	case "ParallelFlowNode":
		return KindParallel
	case "ToolNode":
		return KindTool
	}
	return KindOther
}

// Node is one node of a Flow.
type Node struct {
	ID            string // the $referenced_components key (or the inline node's id)
	Name          string // display name (component name, else ID), sanitised
	Kind          NodeKind
	ComponentType string // sanitised
	Pointer       string // JSON Pointer of the component object in the flow file ("" when it comes from the registry or is unresolved)
	BFS           int    // position in BFS order (seed 001), 0-based
	Step          int    // first compiled approval step number, 0 when not a step
	Steps         []int  // every step number of the node (a FlowNode with gateSteps has several; the StartNode holds 0 when the implicit setup step exists)
	Approval      bool   // requires approval (✋)
	Risk          string // riskClass, sanitised
	Reachable     bool   // reachable from start_node over control edges
	Blockers      int    // finding counts (SetFindings)
	Warnings      int
	Suggestions   int
	Subflow       string   // pointer of the child Flow (FlowNode, MapNode, ParallelFlowNode), "" if none
	Subflows      []string // every child Flow (ParallelFlowNode has several); Subflow is the first
	SelfLoop      bool     // has a control edge to itself
	// Injected: the WayFlow loader adds this step at mount (a slim context
	// slot's context FlowNode); it is not in the file, and its name ends
	// with compile.InjectedSuffix.
	Injected bool

	related []string // pointers whose findings count for this node
	// comp is the component object Pointer names in the flow file (nil
	// when Pointer is ""): Component.
	comp *compile.Node
	// meta is comp's metadata.cinatra (nil when none, or no comp), read
	// once for the approval: CinatraMeta.
	meta *compile.Node
}

// CinatraMeta is the node's component's metadata.cinatra
// (Component().Path("metadata", "cinatra")), as BuildFlow read it for the
// node's approval: nil when there is none, or no Component.
func (n *Node) CinatraMeta() *compile.Node { return n.meta }

// Component is the node's component object in the flow file, the one
// Pointer names (nil when Pointer is "", or for a graph not built from a
// flow): the readers that compare or walk each node's fields need not look
// the pointer up in the document again.
func (n *Node) Component() *compile.Node { return n.comp }

// Edge is a control edge. Back marks an edge reversed for the layout
// because it closes a loop (found by depth-first search from start_node);
// self-loops are Back too.
type Edge struct {
	From, To string
	Branch   string // from_branch, sanitised ("" when none)
	Back     bool
	Pointer  string // the ControlFlowEdge in the flow file
}

// DataEdge is a data-flow connection.
type DataEdge struct {
	From, Output, To, Input string
	Pointer                 string
}

// Graph is the control-flow graph of one Flow.
type Graph struct {
	FlowID      string // the Flow's id, sanitised
	FlowName    string // the Flow's name, sanitised
	FlowPointer string // "" for the top-level flow
	File        string // path of the flow file (findings of other files are not counted)
	Start       string // id of start_node ("" when missing)
	Nodes       []*Node
	Edges       []Edge
	Data        []DataEdge

	index map[string]int
	view  *compile.FlowView // the flow model's view the graph is drawn from
	// resolve resolves a reference inside the Flow (BuildFlow), for the
	// pointers whose findings count for each node: gathered by SetFindings,
	// the only reader (a diff or a prompt report never counts findings).
	resolve resolver
	related bool // relate ran
}

// NodeIndex returns the index of the node with id, or -1.
func (g *Graph) NodeIndex(id string) int {
	if i, ok := g.index[id]; ok {
		return i
	}
	if i, ok := g.index[label(id)]; ok { // a raw id from the document
		return i
	}
	return -1
}

// NodeOf returns the node whose ID is id as the graph shows it, nil when
// none: one look-up in the graph's index, no presentation of id (a raw id
// from the document is NodeIndex's).
func (g *Graph) NodeOf(id string) *Node {
	if i, ok := g.index[id]; ok && i < len(g.Nodes) && g.Nodes[i].ID == id {
		return g.Nodes[i]
	}
	return nil
}

// ErrNoFlow is returned by Build when the pointer names no Flow.
var ErrNoFlow = errors.New("no Flow")

// FindFlow returns the pointer of the Flow whose id is id ("" matches the
// top-level flow), and whether there is one.
func FindFlow(a *compile.Agent, id string) (string, bool) {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return "", false
	}
	flows := a.Flows()
	for _, f := range flows {
		if f.ID() == id {
			return f.Pointer, true
		}
	}
	// an id or pointer as our faces show it (present.Text: a token in it
	// masked) names the flow it was shown for
	for _, f := range flows {
		if present.Text(f.ID()) == id || present.Text(f.Pointer) == id {
			return f.Pointer, true
		}
	}
	return "", false
}

// Build builds the graph of the Flow at flowPointer ("" is the top-level
// flow: the root when it is a Flow, else the first Flow of the document).
// It never panics on malformed input: nodes and edges it cannot make sense
// of are skipped (the linter reports them).
func Build(a *compile.Agent, flowPointer string) (*Graph, error) {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return nil, errors.New("the flow file did not parse")
	}
	f := flowAt(a.Flow.Root, flowPointer)
	if f == nil && flowPointer == "" {
		if flows := a.Flows(); len(flows) > 0 {
			f = flows[0]
		}
	}
	if f == nil {
		if flowPointer == "" {
			return nil, fmt.Errorf("%w in the document", ErrNoFlow)
		}
		return nil, fmt.Errorf("%w at %q", ErrNoFlow, flowPointer)
	}
	return BuildFlow(a, f), nil
}

// BuildFlow builds the graph of the Flow f of agent a (a Flow of its
// document, or one its references resolve to, such as a registry
// component's); Build finds f from a pointer. It draws from the view of
// the agent's flow model (compile.FlowModel.View), which resolved the
// Flow's entries once for every reader, the dry run included: the graph
// keys nodes by the ids the document writes, and takes a component only
// where the Flow's scopes or the registry define it
// (compile.Resolved.FlowScoped).
func BuildFlow(a *compile.Agent, f *compile.Flow) *Graph {
	var registry *compile.Node
	file := ""
	if a != nil {
		registry = a.RegistryComponents()
		if a.Flow != nil {
			file = a.Flow.Path
		}
	}
	resolve := func(n *compile.Node, ptr string) compile.Resolved { return f.Resolve(n, ptr, registry) }
	fm := a.Model().FlowOf(f)
	v := fm.View()
	// Every id appears in nodes and again at each edge's ends: its label
	// (present.Text, which scans for secrets) is the view's key, presented
	// once per view, and the edges take the node's; the strings many nodes
	// or edges share (types, branches, ports) once each through the labeler.
	labelOnce := labeler()
	subRefs := &subflowRefs{at: map[string]string{}}
	var subSlab slab[string]
	g := &Graph{
		view:        v,
		FlowID:      label(f.ID()),
		FlowName:    label(f.Node.Get("name").StringOr("")),
		FlowPointer: f.Pointer,
		File:        file,
		Nodes:       make([]*Node, 0, len(v.Nodes)),
		Edges:       make([]Edge, 0, len(v.Edges)),
		Data:        make([]DataEdge, 0, len(v.Data)),
		index:       v.Index,
		resolve:     resolve,
	}
	backing := make([]Node, len(v.Nodes)) // the nodes, one allocation for all
	for i := range v.Nodes {
		vn := &v.Nodes[i]
		r := vn.Resolved
		// the view's key is the id as shown (present.Text, in buildView):
		// the graph's id is that key, not presented again (the graph's index
		// is the view's, keyed by it)
		id := vn.Key
		n := &backing[i]
		*n = Node{ID: id, Name: id, Kind: KindOther, Injected: vn.Injected}
		if r.Node != nil && r.Node.Kind == compile.Object {
			ct := compile.ComponentType(r.Node)
			n.ComponentType = labelOnce(ct)
			n.Kind = KindOf(ct)
			if name := strings.TrimSpace(label(r.Node.Get("name").StringOr(""))); name != "" {
				n.Name = name
			}
			n.Pointer = r.Pointer
			if r.Pointer != "" {
				n.comp = r.Node
			}
			addSubflows(n, r, resolve, subRefs, &subSlab)
		}
		g.Nodes = append(g.Nodes, n)
	}
	for _, ve := range v.Edges {
		g.Edges = append(g.Edges, Edge{From: g.Nodes[ve.From].ID, To: g.Nodes[ve.To].ID, Branch: labelOnce(ve.Branch), Pointer: ve.Pointer})
		if ve.From == ve.To {
			g.Nodes[ve.From].SelfLoop = true
		}
	}
	for _, vd := range v.Data {
		g.Data = append(g.Data, DataEdge{From: g.Nodes[vd.From].ID, To: g.Nodes[vd.To].ID, Pointer: vd.Pointer,
			Output: labelOnce(vd.Output), Input: labelOnce(vd.Input)})
	}
	if v.Start >= 0 {
		g.Start = g.Nodes[v.Start].ID
	}

	var oe outEdges // once for both walks: the edges do not change between them
	from, to, uninjected := viewEdgeEnds(v)
	if uninjected {
		oe = g.edgesBySourceOf(from, to)
	} else {
		oe = g.edgesBySource()
	}
	g.order(oe)
	g.markBackEdges(oe)
	for i, n := range g.Nodes {
		r := v.Nodes[i].Resolved
		meta := cinatraMeta(r.Node)
		if n.comp != nil { // r.Node
			n.meta = meta
		}
		n.Approval, n.Risk = approvalOf(r, meta, n.Kind, resolve) // n.Kind: KindOf its component's type
	}
	if a != nil && a.Profile == compile.ProfileCinatra && f.Parent == nil {
		counts, setup := fm.StepCounts()
		g.numberSteps(fm.BFSOrder(), counts, setup, uninjected)
	}
	return g
}

// labeler is label with a memory: each distinct string is presented once.
// It holds the strings many nodes and edges share (types, branches,
// ports): a few, whatever the flow's size, so its map starts small and
// grows only for a flow whose edges are labelled each its own way (sized
// for every node, it was 1.5 MB of a 33,000-node flow's graph, nearly all
// of it empty).
//
// The last string asked for is answered without the map: a type or a
// branch is mostly asked for again by the next node or edge.
func labeler() func(string) string {
	labels := make(map[string]string, 16)
	var last, lastL string // last != "" once asked
	return func(s string) string {
		if s == "" {
			return ""
		}
		if s == last {
			return lastL
		}
		l, ok := labels[s]
		if !ok {
			l = label(s)
			labels[s] = l
		}
		last, lastL = s, l
		return l
	}
}

// resolver resolves a component reference inside one Flow.
type resolver func(n *compile.Node, ptr string) compile.Resolved

// flowAt returns the Flow at ptr with its chain of enclosing Flows (as
// compile.Flows would), walking only down the pointer; nil when ptr does
// not name a Flow object.
func flowAt(root *compile.Node, ptr string) *compile.Flow {
	var last *compile.Flow
	depth := 0
	visit := func(n *compile.Node, p string) {
		if n.Is(compile.Object) && compile.ComponentType(n) == "Flow" {
			last = &compile.Flow{Node: n, Pointer: p, Parent: last, Depth: depth}
			depth++
		}
	}
	n, p := root, ""
	visit(n, p)
	for _, tok := range compile.SplitPointer(ptr) {
		switch {
		case n.Is(compile.Object):
			n = n.Get(tok)
		case n.Is(compile.Array):
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n.Items) || strconv.Itoa(i) != tok {
				return nil
			}
			n = n.Items[i]
		default:
			return nil
		}
		if n == nil {
			return nil
		}
		p = compile.Append(p, tok)
		visit(n, p)
	}
	if last == nil || last.Pointer != ptr {
		return nil
	}
	return last
}

// label is how a string from the agent appears in a graph (node ids and
// names, edge labels, flow id and name): through present.Text, the one
// presentation function (sanitised, then masked), so that every face that draws a graph — the TUI's pane,
// `oastui graph` text, DOT and Mermaid — shows neither escape sequences nor
// raw tokens. Node ids are keyed by their label throughout, so lookups
// stay consistent.
func label(s string) string {
	if s == "" {
		return ""
	}
	return present.Text(s)
}

// addSubflows records the child flows of a node (FlowNode, MapNode,
// ParallelFlowNode).
func addSubflows(n *Node, r compile.Resolved, resolve resolver, refs *subflowRefs, one *slab[string]) {
	if r.Pointer == "" {
		return
	}
	sub := func(v *compile.Node, ptr func() string) {
		var at string
		if id, isRef := compile.RefID(v); isRef {
			at = refs.of(id, v, resolve)
		} else {
			at = subflowAt(resolve(v, ptr()))
		}
		switch {
		case at == "":
		case n.Subflows == nil:
			n.Subflows = one.one(at) // most nodes have one: from a shared array
		default:
			n.Subflows = append(n.Subflows, at)
		}
	}
	switch n.Kind {
	case KindFlow, KindMap:
		if v := r.Node.Get("subflow"); v != nil {
			sub(v, func() string { return compile.Append(r.Pointer, "subflow") })
		}
	case KindParallel:
		for i, v := range items(r.Node.Get("subflows")) {
			sub(v, func() string { return compile.AppendIndex(compile.Append(r.Pointer, "subflows"), i) })
		}
	}
	if len(n.Subflows) > 0 {
		n.Subflow = n.Subflows[0]
	}
}

// slab hands out one-element slices from shared arrays: many small lists
// (a node's one subflow) without an allocation each. Each slice is capped
// at its element: an append to it copies, never writing into another's.
type slab[T any] struct{ buf []T }

func (s *slab[T]) one(v T) []T {
	if len(s.buf) == cap(s.buf) {
		s.buf = make([]T, 0, 256)
	}
	s.buf = append(s.buf, v)
	n := len(s.buf)
	return s.buf[n-1 : n : n]
}

// subflowAt is the pointer of the child Flow a subflow resolved to, "" when
// it is none (unresolved, from the registry, or no Flow).
func subflowAt(s compile.Resolved) string {
	if s.Node != nil && s.Pointer != "" && compile.ComponentType(s.Node) == "Flow" {
		return s.Pointer
	}
	return ""
}

// subflowRefs remembers, within one Build, the child Flow each referenced
// subflow id resolved to: a reference resolves by its id alone in the
// Flow (not by where it is written), and the FlowNodes of a large flow
// often share one subflow (each resolved it, built its pointer and read
// its type again). The last id asked for is answered without the map
// (the FlowNodes sharing a subflow come one after another).
type subflowRefs struct {
	at             map[string]string
	lastID, lastAt string
	last           bool // lastID and lastAt hold an answer
}

func (m *subflowRefs) of(id string, v *compile.Node, resolve resolver) string {
	if m.last && id == m.lastID {
		return m.lastAt
	}
	at, ok := m.at[id]
	if !ok {
		at = subflowAt(resolve(v, "")) // a reference's resolution reads no pointer of it
		m.at[id] = at
	}
	m.lastID, m.lastAt, m.last = id, at, true
	return at
}

// relate records, for each node, the pointers whose findings count for
// it: its `nodes` entry, its component, its child flows and the
// components it refers to (its agent, tools, …), and its repeated
// entries. A graph not built from a flow (New) has none.
func (g *Graph) relate() {
	if g.view == nil || g.related {
		return
	}
	g.related = true
	for i, n := range g.Nodes {
		if i >= len(g.view.Nodes) {
			break
		}
		vn := &g.view.Nodes[i]
		n.related = []string{vn.Entry}
		if r := vn.Resolved; r.Node != nil && r.Node.Kind == compile.Object && r.Pointer != "" {
			n.related = append(n.related, r.Pointer)
			seen := map[string]bool{}
			compile.WalkNodes(r.Node, func(v *compile.Node) bool {
				if _, ok := compile.RefID(v); ok {
					res := g.resolve(v, compile.PointerOf(v))
					if res.Pointer != "" && !seen[res.Pointer] && res.Scope != compile.RefInline {
						seen[res.Pointer] = true
						n.related = append(n.related, res.Pointer)
					}
					return false
				}
				return true
			})
		}
		n.related = append(n.related, vn.Repeats...)
	}
}

// order sets BFS positions from the compiler's own order (compile.BFSOrder:
// seed 001, SPEC §4), appending inline nodes it does not list, and marks the
// nodes reachable from start_node over control edges.
func (g *Graph) order(oe outEdges) {
	// the compiler's BFS order first (the view's BFS, the index in it),
	// then the nodes it does not reach, in `nodes` order
	byBFS := make([]int, 0, len(g.Nodes))
	for i := range g.Nodes {
		if g.view.Nodes[i].BFS >= 0 {
			byBFS = append(byBFS, i)
		}
	}
	slices.SortFunc(byBFS, func(i, j int) int { return g.view.Nodes[i].BFS - g.view.Nodes[j].BFS })
	pos := 0
	placed := make([]bool, len(g.Nodes))
	for _, i := range byBFS {
		placed[i] = true
		g.Nodes[i].BFS = pos
		pos++
	}
	for i, n := range g.Nodes {
		if !placed[i] {
			n.BFS = pos
			pos++
		}
	}
	adj := g.adjacency(oe)
	seen := make([]bool, len(g.Nodes))
	queue := make([]int, 0, len(g.Nodes)) // each node is queued once at most: sized once, not grown by copies
	if s := g.NodeIndex(g.Start); s >= 0 {
		seen[s] = true
		queue = append(queue, s)
	}
	for h := 0; h < len(queue); h++ {
		for _, t := range adj[queue[h]] {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	for _, i := range queue {
		g.Nodes[i].Reachable = true
	}
}

// adjacency lists each node's successors in edge order, duplicates dropped.
func (g *Graph) adjacency(oe outEdges) [][]int {
	to, first, byFrom := oe.to, oe.first, oe.byFrom
	adj := make([][]int, len(g.Nodes))
	targets := make([]int, 0, len(g.Edges))
	added := make([]int32, len(g.Nodes)) // source+1 that last added the node as a target
	for f := range g.Nodes {
		start := len(targets)
		for _, ei := range byFrom[first[f]:first[f+1]] {
			if t := to[ei]; added[t] != int32(f)+1 {
				added[t] = int32(f) + 1
				targets = append(targets, int(t))
			}
		}
		if len(targets) > start {
			adj[f] = targets[start:len(targets):len(targets)]
		}
	}
	return adj
}

// edgesBySource numbers each edge's target once (to: node indexes) and
// groups the edges by source in edge order: byFrom[first[f]:first[f+1]]
// are the indexes of node f's out-edges. Counting sort, no per-node slice:
// a node with tens of thousands of out-edges costs as much as a chain.
func (g *Graph) edgesBySource() outEdges {
	from := make([]int32, len(g.Edges))
	to := make([]int32, len(g.Edges))
	for i := range g.Edges {
		e := &g.Edges[i]
		from[i], to[i] = int32(g.index[e.From]), int32(g.index[e.To])
	}
	return g.edgesBySourceOf(from, to)
}

// viewEdgeEnds are the view's control edges' ends as node indexes, which
// are what the graph's index finds for the ends' ids (edgesBySource: two
// look-ups an edge) when each node is its own id's place in the index:
// the view gives every node a key of its own, unless a step injected at
// mount took a node's id. ok is false when a step is injected.
func viewEdgeEnds(v *compile.FlowView) (from, to []int32, ok bool) {
	for i := range v.Nodes {
		if v.Nodes[i].Injected {
			return nil, nil, false
		}
	}
	from, to = make([]int32, len(v.Edges)), make([]int32, len(v.Edges))
	for i, e := range v.Edges {
		from[i], to[i] = int32(e.From), int32(e.To)
	}
	return from, to, true
}

// edgesBySourceOf is edgesBySource of the edges whose ends' indexes (what
// the graph's index finds for their ids) are from and to.
func (g *Graph) edgesBySourceOf(from, to []int32) outEdges {
	first := make([]int32, len(g.Nodes)+1)
	for _, f := range from {
		first[f+1]++
	}
	for i := 1; i < len(first); i++ {
		first[i] += first[i-1]
	}
	byFrom := make([]int32, len(g.Edges))
	next := append([]int32(nil), first[:len(g.Nodes)]...)
	for i, f := range from {
		byFrom[next[f]] = int32(i)
		next[f]++
	}
	return outEdges{to, first, byFrom}
}

// outEdges are edgesBySource's lists: to, first and byFrom.
type outEdges struct{ to, first, byFrom []int32 }

// markBackEdges runs an iterative depth-first search from start_node, then
// from every unvisited node in `nodes` order, and marks the edges that reach
// a node still on the stack (and self-loops) as Back.
func (g *Graph) markBackEdges(oe outEdges) {
	to, first, byFrom := oe.to, oe.first, oe.byFrom // out-edges per source, in edge order (edgesBySource of g)
	const (
		white = iota
		grey
		black
	)
	color := make([]uint8, len(g.Nodes))
	type frame struct{ node, next int }
	// one stack for every root, sized once: a node is pushed when it turns
	// grey, so at most every node is on it (a chain of 33,000 nodes grew
	// it by doubling, 1 MB of copies a graph)
	stack := make([]frame, 0, len(g.Nodes))
	visit := func(root int) {
		stack = append(stack[:0], frame{root, 0})
		color[root] = grey
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			out := byFrom[first[top.node]:first[top.node+1]]
			if top.next >= len(out) {
				color[top.node] = black
				stack = stack[:len(stack)-1]
				continue
			}
			ei := out[top.next]
			top.next++
			t := int(to[ei])
			switch color[t] {
			case grey:
				g.Edges[ei].Back = true
			case white:
				color[t] = grey
				stack = append(stack, frame{t, 0})
			}
		}
	}
	if s := g.NodeIndex(g.Start); s >= 0 {
		visit(s)
	}
	for i := range g.Nodes {
		if color[i] == white {
			visit(i)
		}
	}
}

// cinatraMeta is metadata.cinatra of a component.
func cinatraMeta(n *compile.Node) *compile.Node { return n.Path("metadata", "cinatra") }

func boolField(n *compile.Node, key string) (bool, bool) {
	v := n.Get(key)
	if v.Is(compile.Bool) {
		return v.Bool, true
	}
	return false, false
}

// approvalOf derives the approval marker and risk class the compiler would
// give the node (reference §11.6–11.7), for any Flow; kind is KindOf the
// type of r's component (the graph node's Kind, not read again).
//
// meta is cinatraMeta(r.Node), read once by the caller.
func approvalOf(r compile.Resolved, meta *compile.Node, kind NodeKind, resolve resolver) (bool, string) {
	if r.Node == nil {
		return false, ""
	}
	if meta == nil && kind != KindInput && kind != KindAgent {
		return false, "" // nothing to read: no approval, no risk (label of "")
	}
	risk := meta.Get("riskClass").StringOr("")
	switch kind {
	case KindInput:
		return true, "read_only"
	case KindAgent:
		appr, ok := boolField(meta, "requiresApproval")
		agent := resolve(r.Node.Get("agent"), compile.Append(r.Pointer, "agent"))
		leaf := cinatraMeta(agent.Node)
		if !ok {
			appr, _ = boolField(leaf, "requiresApproval")
		}
		if risk == "" {
			risk = leaf.Get("riskClass").StringOr("")
		}
		return appr, label(risk)
	case KindFlow:
		appr, _ := boolField(meta, "requiresApproval")
		for _, gs := range items(meta.Get("gateSteps")) {
			if v, ok := boolField(gs, "requiresApproval"); ok && v {
				appr = true
			}
			if risk == "" {
				risk = gs.Get("riskClass").StringOr("")
			}
		}
		return appr, label(risk)
	}
	appr, _ := boolField(meta, "requiresApproval")
	return appr, label(risk)
}

// numberSteps gives the top-level flow's nodes the compiler's step numbers
// (reference §11.4–11.5): the model's step counts (StepCounts) of the ids
// of its BFS order (ids), numbered on from 1, the setup step 0 before
// them at place setup. The StartNode holding the implicit setup step 0 is
// marked as an approval. The node of an id is the one its NodeIndex
// finds: the node the view ranked at its place, when that node is keyed by
// the id itself and no step was injected at mount (uninjected: the graph's
// index then holds each node under its own key), without a look-up.
func (g *Graph) numberSteps(ids []string, counts []int32, setup int, uninjected bool) {
	total := 0
	for _, c := range counts {
		total += int(c)
	}
	if setup >= 0 {
		total++
	}
	var at []int32 // the node the view ranked at each place, -1: none
	if uninjected && g.view != nil && len(g.view.Nodes) == len(g.Nodes) {
		at = make([]int32, len(ids))
		for k := range at {
			at[k] = -1
		}
		for i := range g.view.Nodes {
			if b := g.view.Nodes[i].BFS; b >= 0 && b < len(at) {
				at[b] = int32(i)
			}
		}
	}
	steps := make([]int, 0, total) // the nodes' Steps, one array for all (each capped at its end)
	next := 1
	for k, id := range ids {
		c := int(counts[k])
		first := next
		next += c
		if c == 0 && k != setup {
			continue
		}
		i := -1
		if at != nil && at[k] >= 0 && g.view.Nodes[at[k]].Key == id {
			i = int(at[k])
		} else {
			i = g.NodeIndex(id)
		}
		if i < 0 || len(g.Nodes[i].Steps) > 0 {
			continue
		}
		n := g.Nodes[i]
		from := len(steps)
		if k == setup {
			steps = append(steps, 0)
		}
		for st := first; st < next; st++ {
			steps = append(steps, st)
		}
		n.Steps = steps[from:len(steps):len(steps)]
		if c > 0 {
			n.Step = first
		}
		if n.Kind == KindStart && k == setup {
			n.Approval = true
		}
	}
}

// SetFindings counts, per node, the findings of the flow file located at
// the node's component, its `nodes` entry, the components it references,
// its child flows, or a control edge leaving it. Earlier counts are reset.
//
// The pointers that count for a node are indexed once, and a finding
// looks up its location and each of its ancestors (the prefixes that end
// before a "/"), so the cost is the findings' depth, not findings × nodes:
// a flow of 10,000 nodes with a finding on each took 8 s to draw.
func (g *Graph) SetFindings(fs []compile.Finding) {
	g.relate()
	// control edges by pointer: the last edge with a pointer names the node
	edgeFrom := make(map[string]int, len(g.Edges))
	for _, e := range g.Edges {
		edgeFrom[e.Pointer] = g.index[e.From]
	}
	owners := make(map[string][]int32, len(g.Nodes)+len(edgeFrom))
	for i, n := range g.Nodes {
		n.Blockers, n.Warnings, n.Suggestions = 0, 0, 0
		for _, p := range n.related {
			if p != "" {
				owners[p] = append(owners[p], int32(i))
			}
		}
	}
	for p, i := range edgeFrom {
		if p != "" {
			owners[p] = append(owners[p], int32(i))
		}
	}
	counted := make([]int, len(g.Nodes)) // the finding (its index + 1) a node last counted
	for k, f := range fs {
		if f.File != "" && g.File != "" && f.File != g.File {
			continue
		}
		loc := f.Location
		if loc == "" {
			continue
		}
		count := func(p string) {
			for _, i := range owners[p] {
				if counted[i] == k+1 {
					continue
				}
				counted[i] = k + 1
				switch n := g.Nodes[i]; f.Severity {
				case compile.Blocker:
					n.Blockers++
				case compile.Warning:
					n.Warnings++
				default:
					n.Suggestions++
				}
			}
		}
		// a finding at loc is under p (p = loc, or loc starts with p+"/")
		// exactly for p = loc and for p = loc[:j]
		// where loc[j] is a "/" (j > 0: p is never "")
		for j := 1; j < len(loc); j++ {
			if loc[j] == '/' {
				count(loc[:j])
			}
		}
		count(loc)
	}
}

// items returns the elements of an array node, or nil.
func items(n *compile.Node) []*compile.Node {
	if n.Is(compile.Array) {
		return n.Items
	}
	return nil
}
