package compile

import (
	"encoding/json"

	"github.com/oastui/oastui/present"
)

// FlowView is a Flow of the model as its graph is drawn and walked: the
// nodes its `nodes` entries name, keyed by how their ids are shown
// (present.Text: two ids shown alike are one node), the control and data
// edges between them, the start node, the compiler's BFS order and the
// context steps the WayFlow loader adds at mount. The graph (flowgraph)
// and the dry run read it in the document's own terms; FlowModel.View
// builds it once per flow model. Readers never modify it.
type FlowView struct {
	Nodes []ViewNode
	Edges []ViewEdge
	Data  []ViewData
	Start int            // index of the start node in Nodes, -1 when start_node names none
	Index map[string]int // a node's Key → its index in Nodes
}

// ViewNode is one node: the reference or inline id its first `nodes`
// entry names, and the component it resolves to in the Flow's scopes.
type ViewNode struct {
	ID       string   // as the document writes it
	Key      string   // ID as shown (present.Text), which the node is found by
	Resolved Resolved // the component, resolved as Flow.Resolve would (Resolved.FlowScoped)
	Entry    string   // its entry in the Flow's nodes ("" when Injected)
	Repeats  []string // later entries whose id is shown alike
	BFS      int      // its first index in the compiler's order (BFSOrder), -1 when not in it
	// Injected: the WayFlow loader adds the node at mount (a slim context
	// slot's context step); it is not in the file (no Pointer, no Entry).
	Injected bool
}

// ViewEdge is one control edge between nodes of the view (indices in Nodes).
type ViewEdge struct {
	From, To int
	Branch   string // from_branch as written ("" when null or absent)
	Pointer  string // the edge's entry in control_flow_connections
}

// ViewData is one data edge between nodes of the view (indices in Nodes).
type ViewData struct {
	From, To      int
	Output, Input string // source_output, destination_input ("" when not strings)
	Pointer       string // the edge's entry in data_flow_connections
}

// InjectedSuffix marks the name of a step the WayFlow loader adds when it
// mounts the agent: it is not in the file.
const InjectedSuffix = " (at mount)"

// View is the Flow's view, built on first use and shared by every reader.
func (fm *FlowModel) View() *FlowView {
	fm.viewOnce.Do(func() { fm.view = fm.buildView() })
	return fm.view
}

// buildView resolves the view's nodes and edges from the flow model: the
// nodes in `nodes` order (a node listed twice is kept once), the control
// and data edges between them (components of the Flow's scopes only), the
// start node, the injected context steps and the compiler's BFS order.
func (fm *FlowModel) buildView() *FlowView {
	keys := map[string]string{} // each distinct id not in nodes is presented once
	key := func(s string) string {
		if s == "" {
			return ""
		}
		k, ok := keys[s]
		if !ok {
			k = present.Text(s)
			keys[s] = k
		}
		return k
	}
	nn := len(fm.Entries)
	v := &FlowView{Start: -1, Nodes: make([]ViewNode, 0, nn), Edges: make([]ViewEdge, 0, len(fm.Control)),
		Data: make([]ViewData, 0, len(fm.Data)), Index: make(map[string]int, nn)}
	// raw is the node of each id as nodes writes it: an edge's end (or the
	// start, a BFS id) written as a node's entry is found by one look-up,
	// not two (its key, then the key's node); an id written otherwise is
	// found by its key, as it is shown. While every id nodes writes is its
	// own key (the usual flow), raw would hold what Index holds: it is
	// Index itself until the first id that is not, then a copy of Index
	// that goes on apart (one map of every node fewer to fill and hold).
	raw, apart := v.Index, false
	at := func(s string) (int, bool) {
		if i, ok := raw[s]; ok {
			return i, true
		}
		i, ok := v.Index[key(s)]
		return i, ok
	}
	for _, en := range fm.Entries {
		// While raw is Index, an id that is its own key (the usual flow) is
		// looked up once for both: seen as written is a repeat of its key.
		// "" is never in raw (nor a key).
		if en.RawID == "" {
			continue
		}
		id := ""
		if !apart {
			id = present.Text(en.RawID)
			if id == en.RawID {
				if j, seen := v.Index[id]; seen {
					v.Nodes[j].Repeats = append(v.Nodes[j].Repeats, en.Pointer)
					continue
				}
				v.Index[id] = len(v.Nodes)
				v.Nodes = append(v.Nodes, ViewNode{ID: en.RawID, Key: id, Resolved: en.Resolved.FlowScoped(), Entry: en.Pointer, BFS: -1})
				continue
			}
		}
		if j, seen := raw[en.RawID]; seen {
			v.Nodes[j].Repeats = append(v.Nodes[j].Repeats, en.Pointer)
			continue
		}
		if apart {
			id = present.Text(en.RawID)
		}
		if id == "" {
			continue
		}
		if !apart && id != en.RawID {
			raw, apart = make(map[string]int, nn), true
			for k, j := range v.Index {
				raw[k] = j
			}
		}
		if j, dup := v.Index[id]; dup {
			raw[en.RawID] = j
			v.Nodes[j].Repeats = append(v.Nodes[j].Repeats, en.Pointer)
			continue
		}
		if apart {
			raw[en.RawID] = len(v.Nodes)
		}
		v.Index[id] = len(v.Nodes)
		v.Nodes = append(v.Nodes, ViewNode{ID: en.RawID, Key: id, Resolved: en.Resolved.FlowScoped(), Entry: en.Pointer, BFS: -1})
	}
	// near is at, trying node g first: a node whose id s is as nodes
	// writes it is raw[s] (each node is made with raw[its ID] = its
	// place, and raw's entries are never set again), so one comparison
	// of ids answers for the look-up when the guess is right (an edge
	// from where the last one went, to the next node; the next id in BFS
	// order). Injected steps are not in raw: no guess is taken once one
	// is added.
	near := func(s string, g int) (int, bool) {
		if g >= 0 && g < len(v.Nodes) && v.Nodes[g].ID == s && !v.Nodes[g].Injected {
			return g, true
		}
		return at(s)
	}
	guess := -1 // where the last edge went
	for i := range fm.Control {
		e := &fm.Control[i]
		if e.Scope.OutsideFlowScopes() {
			continue // a component of the Flow's scopes only
		}
		fi, ok1 := near(e.From.RawID, guess)
		ti, ok2 := near(e.To.RawID, fi+1)
		if ok2 {
			guess = ti
		}
		if !ok1 || !ok2 {
			continue
		}
		branch := ""
		if e.BranchGiven {
			branch = e.Branch
		}
		v.Edges = append(v.Edges, ViewEdge{From: fi, To: ti, Branch: branch, Pointer: e.Entry})
	}
	for i := range fm.Data {
		e := &fm.Data[i]
		if e.Scope.OutsideFlowScopes() {
			continue
		}
		fi, ok1 := at(e.Source.RawID)
		ti, ok2 := at(e.Destination.RawID)
		if !ok1 || !ok2 {
			continue
		}
		v.Data = append(v.Data, ViewData{From: fi, To: ti, Output: e.Output, Input: e.Input, Pointer: e.Entry})
	}
	if i, ok := at(fm.Start.RawID); ok {
		v.Start = i
	}
	n := len(v.Nodes)
	v.injectSlots(fm.Flow, fm.mount, key)
	if len(v.Nodes) != n {
		// an injected step takes its id's place in Index (it may be a node's
		// too): the BFS ids are found as shown, by their keys
		at = func(s string) (int, bool) {
			i, ok := v.Index[key(s)]
			return i, ok
		}
	}
	next := v.Start // the BFS order's first id is the start's, the next ones often the next nodes
	for k, id := range fm.BFSOrder() {
		var i int
		var ok bool
		if len(v.Nodes) == n {
			i, ok = near(id, next)
		} else {
			i, ok = at(id)
		}
		if ok {
			next = i + 1
			if v.Nodes[i].BFS < 0 {
				v.Nodes[i].BFS = k
			}
		}
	}
	return v
}

// injectSlots adds the context steps the WayFlow loader injects at mount
// for the slim context slots of Flow f (mount: the document's MountSlots,
// nil for a Flow of another document; after cinatra-ai/cinatra
// docker/wayflow/context_subflow_injection.py @b76ddc22): a FlowNode
// context_<slot> per slot, chained after the start node (the start node's
// former successors follow the last one), with a data edge
// contextSlotBindings into each consumer. The nodes are marked Injected,
// have no place in the file, and a component that exists only here (its
// name ends with InjectedSuffix). A refused mount injects nothing.
func (v *FlowView) injectSlots(f *Flow, mount *SlotMount, key func(string) string) {
	if mount == nil {
		return
	}
	def := ""
	if f.Pointer != "" {
		def = f.ID()
	}
	var slots []MountedSlot
	for _, s := range mount.Slots {
		if s.Definition == def && s.DefPointer == f.Pointer && s.Form == SlotSlim && !s.Refused {
			slots = append(slots, s)
		}
	}
	start, ok := v.Index[key(rawStartID(f))]
	if len(slots) == 0 || !ok {
		return
	}
	var out []int // the start node's original control edges
	for i, e := range v.Edges {
		if e.From == start {
			out = append(out, i)
		}
	}
	prev := start
	for _, s := range slots {
		i := len(v.Nodes)
		id := key(s.Node)
		v.Index[id] = i
		v.Nodes = append(v.Nodes, ViewNode{ID: s.Node, Key: id, Resolved: Resolved{Node: injectedComponent(s), Scope: RefLocal}, BFS: -1, Injected: true})
		v.Edges = append(v.Edges, ViewEdge{From: prev, To: i})
		for _, c := range s.Consumers {
			if to, ok := v.Index[key(c.Node)]; ok {
				v.Data = append(v.Data, ViewData{From: i, To: to, Output: "contextSlotBindings", Input: c.Input})
			}
		}
		prev = i
	}
	for _, j := range out {
		v.Edges[j].From = prev
	}
}

func rawStartID(f *Flow) string {
	if id, ok := RefID(f.Node.Get("start_node")); ok {
		return id
	}
	return f.Node.Get("start_node").StringOr("")
}

// injectedComponent is the context FlowNode the loader adds for slot s, as
// much of it as the faces show: its id, name, purpose marker and output.
func injectedComponent(s MountedSlot) *Node {
	b, _ := json.Marshal(map[string]any{
		"component_type": "FlowNode",
		"id":             s.Node,
		"name":           "Resolve " + s.Slot + InjectedSuffix,
		"metadata":       map[string]any{"cinatra": map[string]any{"purpose": LoaderInjectedPurpose + s.Slot}},
		"inputs":         []any{},
		"outputs":        []any{map[string]any{"title": "contextSlotBindings", "type": "array"}},
	})
	n, err := Parse(b)
	if err != nil {
		return nil
	}
	return n
}
