// Package locate answers the position questions of an editor over a
// loaded agent: what is at a byte offset of one of its files (a
// $component_ref value, a component key, a flow node), where that is
// defined, who refers to it, the facts to show on hover (kind, compiled
// step, approval gate, inputs and outputs, data edges in and out), the
// document's outline of flows and nodes, what a rename there changes
// (Rename) and what may be written in the string there (Complete).
//
// It is pure: no I/O, no globals. It works in byte offsets of the files the
// analysis read (compile.Doc.Src); a face converts them to its own
// positions (the language server to UTF-16 line/character). Graph facts
// come from the snapshot's flow models when a face hands them in
// (NewWith: analysis.Flow.Model, built once per analysis and shared by
// every face), else from flowgraph.Build.
package locate

import (
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
)

// Span is a byte range [Start, End) of one file.
type Span struct {
	File       string
	Start, End int
}

// Kind is what a Symbol is.
type Kind string

const (
	KindRef  Kind = "ref"  // the value of a "$component_ref" (an edge's endpoint, a nodes entry, start_node, …)
	KindKey  Kind = "key"  // a key of a $referenced_components object: a component's declaration
	KindNode Kind = "node" // somewhere inside a flow node's component
	KindPort Kind = "port" // a data edge's source_output or destination_input value
)

// Symbol is what sits at an offset.
type Symbol struct {
	Kind    Kind
	ID      string // the component id it names ("" for KindNode: see Node)
	Span    Span   // the text under the cursor: the ref's string, the key, or the node's component
	Pointer string // the ref object, the component (key), or the node's component

	// Target is what the symbol names, resolved in the scope of the Flow
	// holding it (compile.Flow.Resolve).
	Target compile.Resolved

	// Port is "outputs" or "inputs" for KindPort: the list of the target
	// node's properties the port value names.
	Port string

	// Node and Graph are set when the target is a node of a flow.
	Node  *flowgraph.Node
	Graph *flowgraph.Graph
}

// Index answers questions over one loaded agent. Build it once per
// analysis; it is safe for concurrent use and builds the graphs it needs
// on first use.
type Index struct {
	a       *compile.Agent
	flows   []*compile.Flow
	graphOf GraphOf

	once   sync.Once
	graphs []*flowgraph.Graph   // one per flow, in flows order (nil when it could not be built)
	nodeAt map[string][]nodeRef // component pointer → the nodes (of any flow) it is
}

type nodeRef struct {
	g *flowgraph.Graph
	n *flowgraph.Node
}

// GraphOf gives the graph model of the Flow at a JSON pointer of the
// agent's flow file. Readers never modify it.
type GraphOf func(ptr string) (*flowgraph.Graph, error)

// New indexes a (nil or an agent whose flow did not parse gives an index
// that finds nothing), building the flow graphs it needs itself.
func New(a *compile.Agent) *Index { return NewWith(a, nil) }

// NewWith is New over the flow models a face already has: the language
// server hands in its snapshot's (analysis.Flow.Model), so no graph is
// built twice for one analysis. A nil graphOf builds them.
func NewWith(a *compile.Agent, graphOf GraphOf) *Index {
	x := &Index{a: a, graphOf: graphOf}
	if a != nil && a.Flow != nil && a.Flow.Root != nil {
		x.flows = a.Flows()
	}
	return x
}

func (x *Index) build() {
	x.once.Do(func() {
		x.nodeAt = map[string][]nodeRef{}
		for _, f := range x.flows {
			g, err := x.graph(f.Pointer)
			if err != nil {
				g = nil
			}
			x.graphs = append(x.graphs, g)
			if g == nil {
				continue
			}
			for _, n := range g.Nodes {
				if n.Pointer != "" {
					x.nodeAt[n.Pointer] = append(x.nodeAt[n.Pointer], nodeRef{g, n})
				}
			}
		}
	})
}

// graph is the model of the Flow at ptr, the face's when it handed them in.
func (x *Index) graph(ptr string) (*flowgraph.Graph, error) {
	if x.graphOf != nil {
		return x.graphOf(ptr)
	}
	return buildGraph(x.a, ptr)
}

// buildGraph never lets a panic of the graph builder out: a malformed
// flow gives no graph, not a crash of the face.
func buildGraph(a *compile.Agent, ptr string) (g *flowgraph.Graph, err error) {
	defer func() {
		if r := recover(); r != nil {
			g, err = nil, flowgraph.ErrNoFlow
		}
	}()
	return flowgraph.Build(a, ptr)
}

// doc returns the document of the agent at path (the flow file, the
// registry, package.json or cinatra.json), or nil.
func (x *Index) doc(path string) *compile.Doc {
	if x.a == nil {
		return nil
	}
	for _, d := range x.a.Docs() {
		if d != nil && samePath(d.Path, path) {
			return d
		}
	}
	return nil
}

func samePath(a, b string) bool {
	if a == b {
		return true
	}
	if a == "" || b == "" {
		return false
	}
	aa, err1 := filepath.Abs(a)
	bb, err2 := filepath.Abs(b)
	return err1 == nil && err2 == nil && aa == bb
}

// flowOf is the innermost Flow whose object holds ptr (nil outside every Flow).
func (x *Index) flowOf(ptr string) *compile.Flow {
	var best *compile.Flow
	for _, f := range x.flows {
		if (f.Pointer == "" || ptr == f.Pointer || strings.HasPrefix(ptr, f.Pointer+"/")) && (best == nil || len(f.Pointer) > len(best.Pointer)) {
			best = f
		}
	}
	return best
}

// At returns the symbol at byte offset off of file, and false when there
// is none (whitespace, a value that names nothing, a file the agent did
// not read).
func (x *Index) At(file string, off int) (Symbol, bool) {
	d := x.doc(file)
	if d == nil || d.Root == nil {
		return Symbol{}, false
	}
	n, onKey := d.NodeAt(off)
	if n == nil {
		return Symbol{}, false
	}
	if d == x.a.Flow {
		if s, ok := x.refAt(d, n); ok {
			return s, true
		}
		if s, ok := x.portAt(d, n); ok && !onKey {
			return s, true
		}
		if onKey {
			if s, ok := x.keyAt(d, n); ok {
				return s, true
			}
		}
		if s, ok := x.nodeOf(d, n); ok {
			return s, true
		}
	}
	return Symbol{}, false
}

// refAt: n is the string of a "$component_ref" member (or the ref object).
func (x *Index) refAt(d *compile.Doc, n *compile.Node) (Symbol, bool) {
	obj := n
	if n.Kind == compile.String && n.Key() == "$component_ref" {
		obj = n.Parent()
	}
	id, ok := compile.RefID(obj)
	if !ok {
		return Symbol{}, false
	}
	str := obj.Get("$component_ref")
	ptr := compile.PointerOf(obj)
	s := Symbol{Kind: KindRef, ID: id, Pointer: ptr,
		Span: Span{File: d.Path, Start: str.Offset, End: d.ValueEnd(str)}}
	if f := x.flowOf(ptr); f != nil {
		s.Target = f.Resolve(obj, ptr, x.a.RegistryComponents())
	} else if c := x.a.RegistryComponents().Get(id); c != nil {
		s.Target = compile.Resolved{Node: c, Scope: compile.RefRegistry}
	}
	x.attachNode(&s)
	return s, true
}

// portAt: n is the source_output or destination_input string of a data
// edge; its target is the node at the other end of that side of the edge.
func (x *Index) portAt(d *compile.Doc, n *compile.Node) (Symbol, bool) {
	side, port := "", ""
	switch n.Key() {
	case "source_output":
		side, port = "source_node", "outputs"
	case "destination_input":
		side, port = "destination_node", "inputs"
	default:
		return Symbol{}, false
	}
	edge := n.Parent()
	if n.Kind != compile.String || compile.ComponentType(edge) != "DataFlowEdge" {
		return Symbol{}, false
	}
	end := edge.Get(side)
	_, isRef := compile.RefID(end)
	if !isRef {
		return Symbol{}, false
	}
	ptr := compile.PointerOf(end)
	s := Symbol{Kind: KindPort, ID: n.Text, Port: port, Pointer: compile.PointerOf(n),
		Span: Span{File: d.Path, Start: n.Offset, End: d.ValueEnd(n)}}
	if f := x.flowOf(ptr); f != nil {
		s.Target = f.Resolve(end, ptr, x.a.RegistryComponents())
	}
	x.attachNode(&s)
	return s, true
}

// keyAt: n is the value of a member whose key is under the cursor; a
// symbol when that member is a component of a $referenced_components.
func (x *Index) keyAt(d *compile.Doc, n *compile.Node) (Symbol, bool) {
	refs := n.Parent()
	if refs == nil || refs.Kind != compile.Object || refs.Key() != "$referenced_components" {
		return Symbol{}, false
	}
	ptr := compile.PointerOf(n)
	start, end, _ := d.KeySpan(n)
	s := Symbol{Kind: KindKey, ID: n.Key(), Pointer: ptr, Span: Span{File: d.Path, Start: start, End: end}}
	var owner *compile.Flow
	for _, f := range x.flows {
		if f.Refs() == refs {
			owner = f
		}
	}
	s.Target = compile.Resolved{Node: n, Pointer: ptr, Scope: compile.RefLocal, Owner: owner}
	x.attachNode(&s)
	return s, true
}

// nodeOf: the innermost flow node component holding n.
func (x *Index) nodeOf(d *compile.Doc, n *compile.Node) (Symbol, bool) {
	x.build()
	for c := n; c != nil; c = c.Parent() {
		if c.Kind != compile.Object {
			continue
		}
		ptr := compile.PointerOf(c)
		if nodes := x.nodeAt[ptr]; len(nodes) > 0 {
			id := nodes[0].n.ID
			if p := c.Parent(); p != nil && p.Key() == "$referenced_components" {
				id = c.Key() // the raw id refs name (a node's ID is its sanitised label)
			}
			s := Symbol{Kind: KindNode, ID: id, Pointer: ptr, Span: Span{File: d.Path, Start: c.Offset, End: d.ValueEnd(c)},
				Target: compile.Resolved{Node: c, Pointer: ptr, Scope: compile.RefInline}}
			x.attachNode(&s)
			return s, true
		}
	}
	return Symbol{}, false
}

// attachNode sets Node and Graph when the target is a flow node: the node
// of the innermost flow holding the symbol, else of any flow.
func (x *Index) attachNode(s *Symbol) {
	if s.Target.Node == nil || s.Target.Pointer == "" {
		return
	}
	x.build()
	nodes := x.nodeAt[s.Target.Pointer]
	if len(nodes) == 0 {
		return
	}
	pick := nodes[0]
	if f := x.flowOf(s.Pointer); f != nil {
		for _, nr := range nodes {
			if nr.g.FlowPointer == f.Pointer {
				pick = nr
			}
		}
	}
	s.Node, s.Graph = pick.n, pick.g
}

// Definition is where the symbol's target is declared: the key of its
// member in a $referenced_components (own or outer scope), or in the
// registry file's components. False for an unresolved reference and for a
// component of the built-in registry (no file).
func (x *Index) Definition(s Symbol) (Span, bool) {
	if s.Kind == KindPort {
		return x.portDefinition(s)
	}
	switch s.Target.Scope {
	case compile.RefLocal, compile.RefOuter, compile.RefInline:
		d := x.a.Flow
		if s.Target.Pointer == "" {
			return Span{}, false
		}
		n := d.Lookup(s.Target.Pointer)
		if n == nil {
			return Span{}, false
		}
		if start, end, ok := d.KeySpan(n); ok {
			return Span{File: d.Path, Start: start, End: end}, true
		}
		return Span{File: d.Path, Start: n.Offset, End: d.ValueEnd(n)}, true
	case compile.RefRegistry:
		d := x.a.Registry
		if d == nil || d.Root == nil {
			return Span{}, false
		}
		n := d.Root.Path("components", s.ID)
		if n == nil {
			return Span{}, false
		}
		start, end, _ := d.KeySpan(n)
		return Span{File: d.Path, Start: start, End: end}, true
	}
	return Span{}, false
}

// portDefinition is the title of the property a data edge's port names
// in its node's outputs (source_output) or inputs (destination_input).
func (x *Index) portDefinition(s Symbol) (Span, bool) {
	props, d := x.portList(s.Target, s.Port, 0)
	for _, p := range props {
		if t := p.Get("title"); t.StringOr("") == s.ID && t.Offset < len(d.Src) {
			return Span{File: d.Path, Start: t.Offset, End: d.ValueEnd(t)}, true
		}
	}
	return Span{}, false
}

// portList is what a data edge's port may name on the node r, and the
// document holding it: the node's outputs (port "outputs", for
// source_output) or inputs ("inputs", for destination_input); a
// StartNode's or EndNode's other list after them (Agent Spec: their
// inputs are their outputs); for a node without such a list (a FlowNode, a
// MapNode), its subflow's.
func (x *Index) portList(r compile.Resolved, port string, depth int) ([]*compile.Node, *compile.Doc) {
	var d *compile.Doc
	switch r.Scope {
	case compile.RefLocal, compile.RefOuter, compile.RefInline:
		d = x.a.Flow
	case compile.RefRegistry:
		d = x.a.Registry
	}
	comp := r.Node
	if d == nil || comp == nil || depth > 8 {
		return nil, nil
	}
	props := itemsOf(comp.Get(port))
	if ct := compile.ComponentType(comp); ct == "StartNode" || ct == "EndNode" {
		// Clip: never append into the document's own array
		props = append(slices.Clip(props), itemsOf(comp.Get(map[string]string{"outputs": "inputs", "inputs": "outputs"}[port]))...)
	}
	if len(props) > 0 {
		return props, d
	}
	if sub := comp.Get("subflow"); sub != nil && d == x.a.Flow && r.Pointer != "" {
		ptr := compile.PointerOf(sub)
		if f := x.flowOf(ptr); f != nil {
			if rr := f.Resolve(sub, ptr, x.a.RegistryComponents()); rr.Node != nil && rr.Pointer != "" && rr.Node != comp {
				return x.portList(rr, port, depth+1)
			}
		}
	}
	return nil, nil
}

// References lists every $component_ref of the flow file that resolves to
// the symbol's target, in source order (the ref strings), with the
// declaration first when includeDecl is set.
func (x *Index) References(s Symbol, includeDecl bool) []Span {
	var out []Span
	if s.Kind == KindPort || s.Target.Node == nil || x.a == nil || x.a.Flow == nil || x.a.Flow.Root == nil {
		return nil
	}
	if includeDecl {
		if def, ok := x.Definition(s); ok {
			out = append(out, def)
		}
	}
	d := x.a.Flow
	reg := x.a.RegistryComponents()
	compile.WalkNodes(d.Root, func(n *compile.Node) bool {
		id, ok := compile.RefID(n)
		if !ok || id != s.ID {
			return true
		}
		ptr := compile.PointerOf(n)
		f := x.flowOf(ptr)
		var r compile.Resolved
		if f != nil {
			r = f.Resolve(n, ptr, reg)
		} else if c := reg.Get(id); c != nil {
			r = compile.Resolved{Node: c, Scope: compile.RefRegistry}
		}
		if r.Node == s.Target.Node || (r.Scope == compile.RefRegistry && s.Target.Scope == compile.RefRegistry) {
			str := n.Get("$component_ref")
			out = append(out, Span{File: d.Path, Start: str.Offset, End: d.ValueEnd(str)})
		}
		return true
	})
	return out
}

// Outline item kinds.
const (
	OutlineFlow = "flow"
	OutlineNode = "node"
)

// Item is one entry of the outline: a flow with its nodes and nested
// flows, or a node.
type Item struct {
	Kind     string // OutlineFlow or OutlineNode
	Name     string // the id (sanitised, credentials masked)
	Detail   string // "Flow", or the component type and the node's display name
	Span     Span   // the whole component
	Select   Span   // its key, or its "id" value
	Children []Item
}

// Outline lists the flows of the flow file, each with its nodes (in
// `nodes` order) and the flows nested in it. Nodes defined outside the
// flow file (the registry) are left out.
func (x *Index) Outline() []Item {
	if len(x.flows) == 0 {
		return nil
	}
	x.build()
	d := x.a.Flow
	items := make([]*Item, len(x.flows))
	byPtr := map[string]int{}
	for i, f := range x.flows {
		it := &Item{Kind: OutlineFlow, Name: clean(f.ID()), Detail: "Flow",
			Span: Span{File: d.Path, Start: f.Node.Offset, End: d.ValueEnd(f.Node)}}
		it.Select = selectSpan(d, f.Node)
		if g := x.graphs[i]; g != nil {
			if g.FlowID != "" {
				it.Name = g.FlowID
			}
			for _, n := range g.Nodes {
				c := d.Lookup(n.Pointer)
				if n.Pointer == "" || c == nil {
					continue
				}
				detail := n.ComponentType
				if n.Name != n.ID {
					detail += " · " + n.Name
				}
				it.Children = append(it.Children, Item{Kind: OutlineNode, Name: n.ID, Detail: detail,
					Span: Span{File: d.Path, Start: c.Offset, End: d.ValueEnd(c)}, Select: selectSpan(d, c)})
			}
		}
		items[i] = it
		byPtr[f.Pointer] = i
	}
	// nest flows under their parent, innermost first
	for i := len(x.flows) - 1; i >= 0; i-- {
		if p := x.flows[i].Parent; p != nil {
			pi := byPtr[p.Pointer]
			items[pi].Children = append(items[pi].Children, *items[i])
		}
	}
	var out []Item
	for i, f := range x.flows {
		if f.Parent == nil {
			out = append(out, *items[i])
		}
	}
	sortItems(out)
	return out
}

func sortItems(items []Item) {
	sort.SliceStable(items, func(i, j int) bool { return items[i].Span.Start < items[j].Span.Start })
	for i := range items {
		sortItems(items[i].Children)
	}
}

// selectSpan is the name of a component: its key in the enclosing object,
// else its "id" value, else its first character.
func selectSpan(d *compile.Doc, c *compile.Node) Span {
	if s, e, ok := d.KeySpan(c); ok {
		return Span{File: d.Path, Start: s, End: e}
	}
	if id := c.Get("id"); id != nil {
		return Span{File: d.Path, Start: id.Offset, End: d.ValueEnd(id)}
	}
	return Span{File: d.Path, Start: c.Offset, End: min(c.Offset+1, len(d.Src))}
}

func itemsOf(n *compile.Node) []*compile.Node {
	if n == nil || n.Kind != compile.Array {
		return nil
	}
	return n.Items
}
