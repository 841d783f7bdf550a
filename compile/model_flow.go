package compile

import (
	"sync"
	"unsafe"
)

// FlowModel is one Flow of the model with its parts resolved
// (Model.Resolve): its `nodes` entries and the distinct nodes they name,
// its start node, and its control and data edges. Endpoints are kept when
// they do not resolve, with the ids the document writes, so that readers
// keyed by those ids (the graphs) and readers keyed by the components'
// identities (the linter) read the same model.
//
// Nodes, Control and Data are slices of values that never grow after the
// build: take an element's address (&fm.Nodes[i]) to keep its identity,
// which Entries, Endpoint.Node and FlowNode.Out/In point at.
type FlowModel struct {
	Flow      *Flow
	Entries   []NodeEntry   // every entry of nodes, in order
	Nodes     []FlowNode    // the distinct nodes (by identity) the entries resolve to, in nodes order
	Start     Endpoint      // start_node
	Control   []ControlEdge // the entries of control_flow_connections that resolve to an object, in order
	Data      []DataEdge    // the entries of data_flow_connections that resolve to an object, in order
	DataGiven bool          // data_flow_connections is a list (not null or absent)

	byID     map[string]*FlowNode // identity → node, for a flow with many nodes (NodeByID)
	mount    *SlotMount           // the document's mount, nil for a Flow of another document (View)
	viewOnce sync.Once
	view     *FlowView // built on first use (View)
	bfsOnce  sync.Once
	bfs      []string    // BFSOrder of the Flow, on first use (FlowModel.BFSOrder)
	order    *modelCache // the agent's cache, whose root order this Flow (the root) shares with the compiler; nil: none
}

// NodeEntry is one entry of a Flow's nodes.
type NodeEntry struct {
	Pointer  string    // the entry in nodes
	RawID    string    // the $component_ref key, or the id of a component written inline ("" when neither)
	Resolved Resolved  // the component it names (Model.Resolve)
	Node     *FlowNode // the node of the flow it is, nil when it resolves to no object
	ref      bool      // the entry is a $component_ref (RawID is its key)
}

// FlowNode is one node of a Flow after following references.
type FlowNode struct {
	ID      string // identity: the component's id, else "@" and where it is defined
	Comp    *Node  // the node component
	Pointer string // where it is defined (the entry itself when it comes from the registry): the place findings point at
	Type    string // its component_type
	Name    string // its name ("" when it has none)
	Entry   string // its first entry in nodes
	// Repeats are its later entries in nodes (another reference to the
	// same component, or one with the same id).
	Repeats []string
	Out, In []*ControlEdge // the control edges leaving and entering it, in edge order
}

// Label names the node in messages: its name, else its identity.
func (n *FlowNode) Label() string {
	if n.Name != "" {
		return n.Name
	}
	return n.ID
}

// Endpoint is a node an edge (or start_node) names.
//
// It does not hold the pointer of the object holding its field (the
// edge's Pointer, the Flow's for start_node), nor the field's name as a
// string: an edge holds two endpoints, and those two strings were 32 of
// an endpoint's 88 bytes, in every edge of every Flow (PointerIn).
type Endpoint struct {
	RawID string      // the $component_ref key, or the id of a component written inline ("" when neither)
	Given bool        // the field is there and not null
	key   endpointKey // the field (Key)
	Comp  *Node       // the component it resolves to; nil when it resolves to no object
	ID    string      // the identity of Comp
	// Node is the node of the flow with that identity; nil when Comp is
	// nil or is no node of the flow.
	Node *FlowNode
}

// endpointKey is the field of an endpoint (endpointKeys).
type endpointKey uint8

const (
	keyFromNode endpointKey = iota
	keyToNode
	keySourceNode
	keyDestinationNode
	keyStartNode
)

// endpointKeys are the fields' names, by endpointKey.
var endpointKeys = [...]string{keyFromNode: "from_node", keyToNode: "to_node", keySourceNode: "source_node",
	keyDestinationNode: "destination_node", keyStartNode: "start_node"}

// Key is the field: from_node, to_node, source_node, destination_node or
// start_node.
func (e *Endpoint) Key() string { return endpointKeys[e.key] }

// PointerIn is where the endpoint's value is in the document, given the
// pointer of the object holding its field (of): the edge's Pointer, or
// the Flow's for start_node.
func (e *Endpoint) PointerIn(of string) string { return Append(of, e.Key()) }

// ControlEdge is one ControlFlowEdge of a Flow.
type ControlEdge struct {
	Entry   string   // its entry in control_flow_connections
	Pointer string   // the edge component (in $referenced_components when referenced; the entry when from the registry)
	Scope   RefScope // how the entry resolved
	Comp    *Node    // the edge component
	Name    string
	// Branch is from_branch when it is a string (BranchGiven); readers
	// that follow the SDK read null or absent as "next".
	Branch      string
	BranchGiven bool
	From, To    Endpoint
}

// DataEdge is one DataFlowEdge of a Flow.
type DataEdge struct {
	Entry               string   // its entry in data_flow_connections
	Pointer             string   // the edge component (in $referenced_components when referenced; the entry when from the registry)
	Ref                 string   // the entry's $component_ref ("" when the edge is written inline)
	Scope               RefScope // how the entry resolved
	Comp                *Node    // the edge component
	Name                string
	Output, Input       string // source_output, destination_input ("" when not strings)
	Source, Destination Endpoint
}

// Label names the flow in messages: its name, else its id.
func (fm *FlowModel) Label() string {
	if n := fm.Flow.Node.Get("name").StringOr(""); n != "" {
		return n
	}
	return fm.Flow.ID()
}

// NodeByID is the node of the flow whose identity is id, or nil.
func (fm *FlowModel) NodeByID(id string) *FlowNode {
	if fm.byID != nil {
		return fm.byID[id]
	}
	for i := range fm.Nodes {
		if fm.Nodes[i].ID == id {
			return &fm.Nodes[i]
		}
	}
	return nil
}

// StartNode is the node start_node names, when it is a node of the flow.
func (fm *FlowModel) StartNode() *FlowNode { return fm.Start.Node }

// byIDFrom is the node count from which a flow indexes its nodes by
// identity; smaller flows scan (no map per flow).
const byIDFrom = 16

// buildFlow models Flow f.
func (m *Model) buildFlow(f *Flow) *FlowModel {
	fn := f.Node
	nodes := fn.Get("nodes").itemsOrNil()
	ctrl := fn.Get("control_flow_connections").itemsOrNil()
	dfc := fn.Get("data_flow_connections")
	data := dfc.itemsOrNil()
	mb := m.blocks
	fm := mb.flowModel() // cleared
	fm.Flow, fm.DataGiven, fm.mount = f, dfc.Is(Array), m.Mount
	fm.Entries, fm.Nodes = mb.entryList(len(nodes))[:0], mb.nodeList(len(nodes))[:0]
	fm.Control, fm.Data = mb.controlList(len(ctrl))[:0], mb.dataList(len(data))[:0]

	if len(nodes) > 0 {
		nodesPtrs := newIndexPointers(Append(f.Pointer, "nodes"), len(nodes))
		for _, it := range nodes {
			ptr := nodesPtrs.next()
			id, isRef := refIDFast(it)
			r := m.resolveRef(f, it, ptr, id, isRef)
			fm.Entries = append(fm.Entries, NodeEntry{Pointer: ptr, RawID: rawIDOf(it, id, isRef), Resolved: r, Node: fm.addNode(r, ptr), ref: isRef})
		}
	}
	fm.Start = m.endpoint(fm, fn, f.Pointer, keyStartNode)

	if len(ctrl) > 0 {
		cfPtrs := newIndexPointers(Append(f.Pointer, "control_flow_connections"), len(ctrl))
		for _, it := range ctrl {
			ptr := cfPtrs.next()
			id, isRef := refIDFast(it)
			r := m.resolveRef(f, it, ptr, id, isRef)
			if r.Node == nil || r.Node.Kind != Object {
				continue
			}
			e := r.Node
			ce := ControlEdge{Entry: ptr, Pointer: definedAt(r, ptr), Scope: r.Scope, Comp: e, Name: e.Get("name").StringOr("")}
			ce.Branch, ce.BranchGiven = e.Get("from_branch").Str()
			ce.From = m.endpoint(fm, e, ce.Pointer, keyFromNode)
			ce.To = m.endpoint(fm, e, ce.Pointer, keyToNode)
			fm.Control = append(fm.Control, ce)
		}
		fm.linkControl(mb)
	}

	if len(data) > 0 {
		dfPtrs := newIndexPointers(Append(f.Pointer, "data_flow_connections"), len(data))
		for _, it := range data {
			ptr := dfPtrs.next()
			id, isRef := refIDFast(it)
			r := m.resolveRef(f, it, ptr, id, isRef)
			if r.Node == nil || r.Node.Kind != Object {
				continue
			}
			e := r.Node
			de := DataEdge{Entry: ptr, Pointer: definedAt(r, ptr), Ref: id, Scope: r.Scope, Comp: e,
				Name: e.Get("name").StringOr(""), Output: e.Get("source_output").StringOr(""), Input: e.Get("destination_input").StringOr("")}
			de.Source = m.endpoint(fm, e, de.Pointer, keySourceNode)
			de.Destination = m.endpoint(fm, e, de.Pointer, keyDestinationNode)
			fm.Data = append(fm.Data, de)
		}
	}
	return fm
}

// linkControl appends each control edge to its nodes' Out and In, in edge
// order. The lists of the flow's nodes are carved from one array, each at
// its exact length and capacity (an append to one of them copies it), not
// grown edge by edge; a node that is not one of fm.Nodes (none is) would
// grow its own.
func (fm *FlowModel) linkControl(mb *modelBlocks) {
	var outs, ins []int32 // per node of fm.Nodes
	total := 0
	for i := range fm.Control {
		c := &fm.Control[i]
		if k := fm.NodeIndex(c.From.Node); k >= 0 {
			if outs == nil {
				outs, ins = make([]int32, len(fm.Nodes)), make([]int32, len(fm.Nodes))
			}
			outs[k]++
			total++
		}
		if k := fm.NodeIndex(c.To.Node); k >= 0 {
			if outs == nil {
				outs, ins = make([]int32, len(fm.Nodes)), make([]int32, len(fm.Nodes))
			}
			ins[k]++
			total++
		}
	}
	if total > 0 {
		all := mb.linkList(total)
		off := 0
		for k := range fm.Nodes {
			if n := int(outs[k]); n > 0 {
				fm.Nodes[k].Out = all[off : off : off+n]
				off += n
			}
			if n := int(ins[k]); n > 0 {
				fm.Nodes[k].In = all[off : off : off+n]
				off += n
			}
		}
	}
	for i := range fm.Control {
		c := &fm.Control[i]
		if c.From.Node != nil {
			c.From.Node.Out = append(c.From.Node.Out, c)
		}
		if c.To.Node != nil {
			c.To.Node.In = append(c.To.Node.In, c)
		}
	}
}

// NodeIndex is the index of n in fm.Nodes, -1 when n is not one of them
// (nil, or a node of another flow): a reader can keep a flag or a count per
// node in a slice rather than a map.
func (fm *FlowModel) NodeIndex(n *FlowNode) int {
	if n == nil || len(fm.Nodes) == 0 {
		return -1
	}
	d := uintptr(unsafe.Pointer(n)) - uintptr(unsafe.Pointer(&fm.Nodes[0]))
	k := d / unsafe.Sizeof(fm.Nodes[0])
	if k >= uintptr(len(fm.Nodes)) || &fm.Nodes[k] != n {
		return -1
	}
	return int(k)
}

// addNode adds the node the nodes entry at ptr resolves to (r), or
// records the entry as a repeat of a node already listed; nil when r is
// no object.
func (fm *FlowModel) addNode(r Resolved, ptr string) *FlowNode {
	if r.Node == nil || r.Node.Kind != Object {
		return nil
	}
	defPtr := definedAt(r, ptr)
	id := identity(r.Node, defPtr)
	if n := fm.NodeByID(id); n != nil {
		n.Repeats = append(n.Repeats, ptr)
		return n
	}
	fm.Nodes = append(fm.Nodes, FlowNode{ID: id, Comp: r.Node, Pointer: defPtr, Type: ComponentType(r.Node), Name: r.Node.Get("name").StringOr(""), Entry: ptr})
	n := &fm.Nodes[len(fm.Nodes)-1]
	switch {
	case fm.byID != nil:
		fm.byID[id] = n
	case len(fm.Nodes) >= byIDFrom:
		fm.byID = make(map[string]*FlowNode, cap(fm.Nodes))
		for i := range fm.Nodes {
			if _, dup := fm.byID[fm.Nodes[i].ID]; !dup {
				fm.byID[fm.Nodes[i].ID] = &fm.Nodes[i]
			}
		}
	}
	return n
}

// endpoint resolves the node field key of obj (at objPtr) inside the flow.
func (m *Model) endpoint(fm *FlowModel, obj *Node, objPtr string, key endpointKey) Endpoint {
	v := obj.Get(endpointKeys[key])
	id, isRef := refIDFast(v)
	ep := Endpoint{RawID: rawIDOf(v, id, isRef), Given: v != nil && v.Kind != Null, key: key}
	if !ep.Given {
		return ep
	}
	switch {
	case !isRef:
		if v.Kind != Object {
			return ep
		}
		ep.Comp = v
		if ep.ID = v.Get("id").StringOr(""); ep.ID == "" {
			ep.ID = "@" + ep.PointerIn(objPtr)
		}
	default:
		// A nodes entry that references the same id resolved it in the
		// same Flow: Flow.Lookup(id) is what it found (the Flow's own or
		// an enclosing scope), the identity and the node are the entry's.
		if !m.slowEndpoints {
			if en := fm.entryByRef(id); en != nil {
				if en.Node == nil {
					return ep // the definition is no object
				}
				ep.Comp, ep.ID, ep.Node = en.Resolved.Node, en.Node.ID, en.Node
				return ep
			}
		}
		// A reference to a definition of the Flow's own or an enclosing
		// scope (most endpoints) is resolved as Flow.Resolve would,
		// without building the definition's pointer (Flow.Lookup):
		// identity needs it only for a definition with no id.
		if c, s := fm.Flow.Lookup(id); c != nil {
			if c.Kind != Object {
				return ep
			}
			ep.Comp = c
			if ep.ID = c.Get("id").StringOr(""); ep.ID == "" {
				ep.ID = "@" + Append(s.RefsPointer(), id)
			}
		} else {
			ptr := ep.PointerIn(objPtr)
			r := m.resolveRef(fm.Flow, v, ptr, id, isRef)
			if r.Node == nil || r.Node.Kind != Object {
				return ep
			}
			ep.Comp, ep.ID = r.Node, identity(r.Node, definedAt(r, ptr))
		}
	}
	ep.Node = fm.NodeByID(ep.ID)
	return ep
}

// entryByRefMax is the number of nodes entries up to which an endpoint
// looks for an entry with its reference (entryByRef); a larger Flow
// resolves each endpoint (a scan per endpoint would be quadratic).
const entryByRefMax = 32

// entryByRef is the first nodes entry that is a $component_ref to id
// which the Flow's scopes resolved (Flow.Lookup: RefLocal or RefOuter),
// or nil.
func (fm *FlowModel) entryByRef(id string) *NodeEntry {
	if len(fm.Entries) > entryByRefMax {
		return nil
	}
	for i := range fm.Entries {
		en := &fm.Entries[i]
		if en.ref && en.RawID == id && (en.Resolved.Scope == RefLocal || en.Resolved.Scope == RefOuter) {
			return en
		}
	}
	return nil
}

// definedAt is where a resolved component is defined, the reference's own
// place (at) when it comes from the registry.
func definedAt(r Resolved, at string) string {
	if r.Pointer == "" {
		return at
	}
	return r.Pointer
}

// identity of a component: its id when it has one, else where it is defined.
func identity(comp *Node, ptr string) string {
	if id := comp.Get("id").StringOr(""); id != "" {
		return id
	}
	return "@" + ptr
}

// rawIDOf is the id a node reference n writes: the $component_ref key
// (id, isRef: RefID(n), which the caller has read), or the id of a node
// written inline.
func rawIDOf(n *Node, id string, isRef bool) string {
	if isRef {
		return id
	}
	if n.Is(Object) {
		return n.Get("id").StringOr("")
	}
	return ""
}
