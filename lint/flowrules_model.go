package lint

import (
	"sort"
	"strings"
	"sync/atomic"

	"github.com/oastui/oastui/compile"
)

// This file builds the model the Agent Spec flow-graph and data-flow rules
// (SPEC §3.2, reference/agentspec.md §5.4–5.5) work on: every Flow of the
// document with its nodes, control edges and data edges resolved through
// `$component_ref`s.

// fnode is one node of a Flow after following references.
type fnode struct {
	id    string        // identity: the component's id, else where it is defined
	comp  *compile.Node // the node component
	ptr   string        // where it is defined: the place findings point at
	ctype string
	name  string
}

// label names a node in messages: its name, else its id.
func (n *fnode) label() string {
	if n.name != "" {
		return n.name
	}
	return n.id
}

// cedge is one ControlFlowEdge.
type cedge struct {
	ptr        string // the edge object
	name       string
	from, to   *fnode // nil when the endpoint is not a node of the flow
	fromRef    endpoint
	toRef      endpoint
	branch     string // from_branch; "next" when null or absent
	branchPtr  string
	explicitBr bool // from_branch was a string
}

// dedge is one DataFlowEdge.
type dedge struct {
	ptr      string // the edge component (in $referenced_components when referenced)
	entry    string // its entry in data_flow_connections (= ptr when inline)
	ref      string // the entry's $component_ref, "" when inline
	name     string
	src, dst *fnode
	srcRef   endpoint
	dstRef   endpoint
	output   string // source_output
	input    string // destination_input
}

// endpoint is an edge's from/to value resolved to a component.
type endpoint struct {
	ptr   string        // pointer of the value in the edge
	comp  *compile.Node // resolved component; nil when unresolved
	id    string        // identity of comp
	given bool          // the edge has the field at all
}

// flowModel is one Flow with its parts resolved.
type flowModel struct {
	f         *compile.Flow
	nodes     []*fnode            // distinct nodes in `nodes` order
	byID      map[string]*fnode   // identity → node
	listed    map[string][]string // identity → pointers of its entries in `nodes`
	start     endpoint            // start_node
	ctrl      []*cedge
	data      []*dedge
	dataGiven bool // data_flow_connections is a list (not null/absent)
	out       map[*fnode][]*cedge
	in        map[*fnode][]*cedge
}

// docModel holds what every rule of one document shares: the flows and a
// resolver for references.
type docModel struct {
	doc      *compile.Doc
	registry *compile.Node
	flows    []*flowModel
	byNode   map[*compile.Node]*flowModel
	refs     *refIndex
}

// docModelBuilds counts buildDocModel calls (the tests that hold one
// model per review read it).
var docModelBuilds atomic.Uint64

// docModel is the model of the agent's flow file, built on first use and
// shared by every check of the review (the flow-graph rules and the
// Agent Spec I/O rules read the same one).
func (p *Pass) docModel() *docModel {
	if p.dm == nil {
		p.dm = buildDocModel(p.Agent, p.defs())
	}
	return p.dm
}

// defs is the index of the flow file's `$referenced_components`
// definitions, built once per review for the model and the duplicate
// definitions check.
func (p *Pass) defs() *refIndex {
	if p.ri == nil {
		p.ri = buildRefIndex(p.Agent.Flow.Root, false)
	}
	return p.ri
}

// buildDocModel models every Flow of the agent's flow file.
func buildDocModel(a *compile.Agent, refs *refIndex) *docModel {
	docModelBuilds.Add(1)
	dm := &docModel{doc: a.Flow, registry: a.RegistryComponents(), byNode: map[*compile.Node]*flowModel{}, refs: refs}
	for _, f := range compile.Flows(a.Flow.Root) {
		m := dm.buildFlow(f)
		dm.flows = append(dm.flows, m)
		dm.byNode[f.Node] = m
	}
	return dm
}

// resolve follows a reference found at ptr inside Flow f: the Flow's own and
// enclosing scopes and the registry first (compile.Flow.Resolve), then any
// ancestor component's `$referenced_components`, then — as the SDKs do —
// any definition in the document. n itself when it is not a reference.
func (dm *docModel) resolve(f *compile.Flow, n *compile.Node, ptr string) (*compile.Node, string) {
	if _, isRef := compile.RefID(n); !isRef {
		return n, ptr
	}
	if f != nil {
		if r := f.Resolve(n, ptr, dm.registry); r.Node != nil {
			if r.Pointer == "" {
				return r.Node, ptr
			}
			return r.Node, r.Pointer
		}
	}
	id, _ := compile.RefID(n)
	if d := dm.refs.lexical(id, ptr); d != nil {
		return d.node, d.ptr
	}
	if ds := dm.refs.defs[id]; len(ds) > 0 {
		return ds[0].node, ds[0].ptr
	}
	return nil, ""
}

// identity of a component: its id when it has one, else where it is defined.
func identity(comp *compile.Node, ptr string) string {
	if id := comp.Get("id").StringOr(""); id != "" {
		return id
	}
	return "@" + ptr
}

func items(n *compile.Node) []*compile.Node {
	if n == nil || n.Kind != compile.Array {
		return nil
	}
	return n.Items
}

func (dm *docModel) endpoint(f *compile.Flow, obj *compile.Node, objPtr, key string) endpoint {
	v := obj.Get(key)
	ep := endpoint{ptr: compile.Append(objPtr, key), given: v != nil && v.Kind != compile.Null}
	if !ep.given {
		return ep
	}
	// A reference to a definition of the Flow's own or an enclosing scope
	// (most endpoints) is resolved here as f.Resolve would, without
	// building the definition's pointer: identity needs it only for a
	// definition with no id.
	if id, isRef := compile.RefID(v); isRef && f != nil {
		for s := f; s != nil; s = s.Parent {
			if c := s.Refs().Get(id); c != nil {
				if c.Kind != compile.Object {
					return ep
				}
				ep.comp = c
				if ep.id = c.Get("id").StringOr(""); ep.id == "" {
					ep.id = identity(c, compile.Append(s.RefsPointer(), id))
				}
				return ep
			}
		}
	}
	comp, defPtr := dm.resolve(f, v, ep.ptr)
	if comp == nil || comp.Kind != compile.Object {
		return ep
	}
	ep.comp, ep.id = comp, identity(comp, defPtr)
	return ep
}

func (dm *docModel) buildFlow(f *compile.Flow) *flowModel {
	m := &flowModel{f: f, byID: map[string]*fnode{}, listed: map[string][]string{},
		out: map[*fnode][]*cedge{}, in: map[*fnode][]*cedge{}}
	fn := f.Node
	for i, it := range items(fn.Get("nodes")) {
		ptr := compile.AppendIndex(compile.Append(f.Pointer, "nodes"), i)
		comp, defPtr := dm.resolve(f, it, ptr)
		if comp == nil || comp.Kind != compile.Object {
			continue
		}
		id := identity(comp, defPtr)
		m.listed[id] = append(m.listed[id], ptr)
		if m.byID[id] != nil {
			continue
		}
		n := &fnode{id: id, comp: comp, ptr: defPtr, ctype: compile.ComponentType(comp), name: comp.Get("name").StringOr("")}
		m.nodes = append(m.nodes, n)
		m.byID[id] = n
	}
	m.start = dm.endpoint(f, fn, f.Pointer, "start_node")
	for i, it := range items(fn.Get("control_flow_connections")) {
		ptr := compile.AppendIndex(compile.Append(f.Pointer, "control_flow_connections"), i)
		e, ePtr := dm.resolve(f, it, ptr)
		if e == nil || e.Kind != compile.Object {
			continue
		}
		ce := &cedge{ptr: ePtr, name: e.Get("name").StringOr(""), branch: "next", branchPtr: compile.Append(ePtr, "from_branch")}
		if b, ok := e.Get("from_branch").Str(); ok {
			ce.branch, ce.explicitBr = b, true
		}
		ce.fromRef = dm.endpoint(f, e, ePtr, "from_node")
		ce.toRef = dm.endpoint(f, e, ePtr, "to_node")
		ce.from, ce.to = m.byID[ce.fromRef.id], m.byID[ce.toRef.id]
		m.ctrl = append(m.ctrl, ce)
		if ce.from != nil {
			m.out[ce.from] = append(m.out[ce.from], ce)
		}
		if ce.to != nil {
			m.in[ce.to] = append(m.in[ce.to], ce)
		}
	}
	dfc := fn.Get("data_flow_connections")
	m.dataGiven = dfc.Is(compile.Array)
	for i, it := range items(dfc) {
		ptr := compile.AppendIndex(compile.Append(f.Pointer, "data_flow_connections"), i)
		e, ePtr := dm.resolve(f, it, ptr)
		if e == nil || e.Kind != compile.Object {
			continue
		}
		de := &dedge{ptr: ePtr, entry: ptr, ref: it.Get("$component_ref").StringOr(""), name: e.Get("name").StringOr(""),
			output: e.Get("source_output").StringOr(""), input: e.Get("destination_input").StringOr("")}
		de.srcRef = dm.endpoint(f, e, ePtr, "source_node")
		de.dstRef = dm.endpoint(f, e, ePtr, "destination_node")
		de.src, de.dst = m.byID[de.srcRef.id], m.byID[de.dstRef.id]
		m.data = append(m.data, de)
	}
	return m
}

// label names the flow in messages.
func (m *flowModel) label() string {
	if n := m.f.Node.Get("name").StringOr(""); n != "" {
		return n
	}
	return m.f.ID()
}

// startNode is the node start_node names, when it is a node of the flow.
func (m *flowModel) startNode() *fnode {
	if m.start.comp == nil {
		return nil
	}
	return m.byID[m.start.id]
}

// reachable returns the nodes reachable from the start node over control edges.
func (m *flowModel) reachable() map[*fnode]bool {
	seen := map[*fnode]bool{}
	s := m.startNode()
	if s == nil {
		return seen
	}
	queue := []*fnode{s}
	seen[s] = true
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range m.out[n] {
			if e.to != nil && !seen[e.to] {
				seen[e.to] = true
				queue = append(queue, e.to)
			}
		}
	}
	return seen
}

// subflowModel returns the model of the Flow a FlowNode-like node runs.
func (dm *docModel) subflowModel(m *flowModel, n *fnode, key string) *flowModel {
	v := n.comp.Get(key)
	if v == nil {
		return nil
	}
	comp, _ := dm.resolve(m.f, v, compile.Append(n.ptr, key))
	if comp == nil {
		return nil
	}
	return dm.byNode[comp]
}

// Node types whose branches and I/O pyagentspec infers, as in
// reference/agentspec.md §4.6.
var nextOnlyNodes = map[string]bool{
	"StartNode": true, "LlmNode": true, "ToolNode": true, "ApiNode": true,
	"InputMessageNode": true, "OutputMessageNode": true, "MapNode": true,
	"ParallelMapNode": true, "ParallelFlowNode": true,
}

const caughtExceptionBranch = "caught_exception_branch"

// branches returns the branches of a node as the SDK infers them, and
// whether they are known (an unknown or plugin node without a declared
// list is not).
func (dm *docModel) branches(m *flowModel, n *fnode) ([]string, bool) {
	switch {
	case n.ctype == "EndNode":
		return nil, true
	case nextOnlyNodes[n.ctype]:
		return []string{"next"}, true
	case n.ctype == "BranchingNode":
		mp := n.comp.Get("mapping")
		if !mp.Is(compile.Object) {
			return nil, false
		}
		set := map[string]bool{"default": true}
		for _, mem := range mp.Members {
			if s, ok := mem.Value.Str(); ok {
				set[s] = true
			}
		}
		return sortedKeys(set), true
	case n.ctype == "FlowNode" || n.ctype == "CatchExceptionNode":
		sub := dm.subflowModel(m, n, "subflow")
		if sub == nil {
			return nil, false
		}
		set := map[string]bool{}
		for _, sn := range sub.nodes {
			if sn.ctype == "EndNode" {
				set[sn.comp.Get("branch_name").StringOr("next")] = true
			}
		}
		if len(set) == 0 {
			set["next"] = true
		}
		if n.ctype == "CatchExceptionNode" {
			set[caughtExceptionBranch] = true
		}
		return sortedKeys(set), true
	}
	// AgentNode (custom branches allowed), plugins, unknown types: the
	// declared list when there is one.
	if bs := n.comp.Get("branches"); bs.Is(compile.Array) && len(bs.Items) > 0 {
		var out []string
		for _, b := range bs.Items {
			if s, ok := b.Str(); ok {
				out = append(out, s)
			}
		}
		return out, true
	}
	if n.ctype == "AgentNode" {
		return []string{"next"}, true
	}
	return nil, false
}

func sortedKeys(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func quoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = "\"" + s + "\""
	}
	return "[" + strings.Join(q, ", ") + "]"
}
