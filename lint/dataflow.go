package lint

import (
	"fmt"
	"sync"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// The Agent Spec data-flow rules (SPEC §3.2; reference/agentspec.md §5.5):
// data edges name real outputs and inputs of compatible types, every input
// without a default is produced on every path that reaches its node, and
// `data_flow_connections: []` is flagged because WayFlow reads it as null.

var (
	RuleDataFlowUnknownOutput = &Rule{Code: "dataflow_unknown_output", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "E1: a data edge's source_output is not an output of its source_node"}
	RuleDataFlowUnknownInput = &Rule{Code: "dataflow_unknown_input", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "E2: a data edge's destination_input is not an input of its destination_node"}
	RuleDataFlowTypeIncompatible = &Rule{Code: "dataflow_type_incompatible", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "E3: a data edge connects an output to an input whose type it cannot be cast to (spec §Type compatibility)"}
	RuleDataFlowInputUnsatisfied = &Rule{Code: "dataflow_input_unsatisfied", Severity: compile.Warning, Group: "flowgraph",
		Doc: "E4: an input without a default has no producer on some control path that reaches its node; WayFlow refuses to mount such a flow (a blocker in the cinatra profile, as the platform's mount contract test has it; a warning in agentspec)"}
	RuleDataFlowEmptyList = &Rule{Code: "dataflow_empty_list", Severity: compile.Warning, Group: "flowgraph",
		Doc: "E5: data_flow_connections is [] (spec: no data edges at all) — WayFlow reads it as null (name-based data flow); write null or the edges"}
	RuleDataEdgeDuplicate = &Rule{Code: "data_edge_duplicate", Severity: compile.Warning, Group: "flowgraph",
		Doc:       "E6: a Flow lists the same data edge twice (same source node and output, same destination node and input); the repeat does nothing but hide edits to one copy",
		AutoFixes: []string{"remove the later entry of data_flow_connections (when it is inline or a second reference to the same edge; an entry naming another edge component is left to the author)"},
		// Unsafe: the edge list is what the runtime wires, and the fix's
		// effect on the compiled output cannot be shown identical (an
		// invalid document's errors index the edges: TestFixTierProof).
		FixTiers: []edit.Tier{edit.Unsafe}}
)

// prop builds a synthetic property schema for an inferred input or output.
func prop(title, typ string) *compile.Node {
	n := &compile.Node{Kind: compile.Object, Offset: -1}
	n.Members = append(n.Members, compile.Member{Key: "title", Value: &compile.Node{Kind: compile.String, Text: title}})
	if typ != "" {
		n.Members = append(n.Members, compile.Member{Key: "type", Value: &compile.Node{Kind: compile.String, Text: typ}})
	}
	return n
}

// outputsOf returns a node's outputs: declared, or inferred for the node
// types whose outputs do not depend on other components.
func outputsOf(n *compile.FlowNode) ([]*compile.Node, bool) {
	if ps, ok := nodeProps(n, "outputs"); ok {
		return ps, true
	}
	if n.Comp.Get("outputs") != nil && !n.Comp.Get("outputs").Is(compile.Null) {
		return nil, false
	}
	switch n.Type {
	case "LlmNode":
		return []*compile.Node{prop("generated_text", "string")}, true
	case "InputMessageNode":
		return []*compile.Node{prop("user_input", "string")}, true
	case "ApiNode":
		return []*compile.Node{prop("response", "")}, true
	case "BranchingNode", "OutputMessageNode":
		return nil, true
	}
	return nil, false
}

// inputsOf returns a node's inputs: declared, or inferred where that needs
// no template parsing.
func inputsOf(n *compile.FlowNode) ([]*compile.Node, bool) {
	if ps, ok := nodeProps(n, "inputs"); ok {
		return ps, true
	}
	if n.Comp.Get("inputs") != nil && !n.Comp.Get("inputs").Is(compile.Null) {
		return nil, false
	}
	if n.Type == "BranchingNode" {
		return []*compile.Node{prop("branching_mapping_key", "string")}, true
	}
	return nil, false
}

func propByTitle(ps []*compile.Node, title string) *compile.Node {
	for _, p := range ps {
		if p.Get("title").StringOr("") == title {
			return p
		}
	}
	return nil
}

// portIndex answers propByTitle for a node's outputs or inputs, read once
// per node: a node with n ports fed by n data edges was read and scanned
// per edge (5,000 edges in and out of one node: 0.8 s, 20,000: over 20 s).
type portIndex struct {
	of func(*compile.FlowNode) ([]*compile.Node, bool)
	// keys are the nodes read, in order, all their ports at the same index
	// (one slice per flow, not one allocation per node); nodes indexes keys
	// from portIndexMapFrom of them, a scan before
	keys  []*compile.FlowNode
	all   []ports
	nodes map[*compile.FlowNode]int
	plain bool // Options.plainPorts: every find a scan
}

// portIndexMapFrom is the node count from which a portIndex finds a node
// by a map.
const portIndexMapFrom = 16

type ports struct {
	list    []*compile.Node
	ok      bool
	byTitle map[string]*compile.Node // the first of each title; built for long lists
	plain   bool                     // Options.plainPorts
}

// get is n's ports. The pointer is into x.all: good until the next get of
// another node (an append may move x.all; a stale copy only loses its
// byTitle, which is built again).
func (x *portIndex) get(n *compile.FlowNode) *ports {
	if x.nodes != nil {
		if i, ok := x.nodes[n]; ok {
			return &x.all[i]
		}
	} else {
		for i, k := range x.keys {
			if k == n {
				return &x.all[i]
			}
		}
	}
	x.keys = append(x.keys, n)
	x.all = append(x.all, ports{plain: x.plain})
	ps := &x.all[len(x.all)-1]
	ps.list, ps.ok = x.of(n)
	switch {
	case x.nodes != nil:
		x.nodes[n] = len(x.keys) - 1
	case len(x.keys) >= portIndexMapFrom:
		x.nodes = make(map[*compile.FlowNode]int, 2*len(x.keys))
		for i, k := range x.keys {
			x.nodes[k] = i
		}
	}
	return ps
}

// find is propByTitle(ps.list, title).
func (ps *ports) find(title string) *compile.Node {
	if len(ps.list) <= 8 || ps.plain {
		return propByTitle(ps.list, title)
	}
	if ps.byTitle == nil {
		ps.byTitle = make(map[string]*compile.Node, len(ps.list))
		for _, p := range ps.list {
			t := p.Get("title").StringOr("")
			if _, ok := ps.byTitle[t]; !ok {
				ps.byTitle[t] = p
			}
		}
	}
	return ps.byTitle[title]
}

// portScratch lends dataFlowRules' port indexes (portIndex.all and
// keys) from one flow to the next: they were made anew for every flow
// with data edges (about 0.8 MB of the 1,000-agent lint). They hold a
// document's nodes and ports: release clears them to their capacity
// before they go back, and lists grown past portScratchKeep are dropped.
type portScratch struct {
	outs, ins       []ports
	outKeys, inKeys []*compile.FlowNode
}

const portScratchKeep = 1024

var portScratchPool = sync.Pool{New: func() any { return new(portScratch) }}

// release takes back the lists of outs and ins (grown or not) and returns
// the scratch to portScratchPool.
func (sc *portScratch) release(outs, ins *portIndex) {
	sc.outs, sc.ins, sc.outKeys, sc.inKeys = outs.all, ins.all, outs.keys, ins.keys
	outs.all, ins.all, outs.keys, ins.keys = nil, nil, nil, nil
	if max(cap(sc.outs), cap(sc.ins), cap(sc.outKeys), cap(sc.inKeys)) > portScratchKeep {
		return
	}
	clear(sc.outs[:cap(sc.outs)])
	clear(sc.ins[:cap(sc.ins)])
	clear(sc.outKeys[:cap(sc.outKeys)])
	clear(sc.inKeys[:cap(sc.inKeys)])
	portScratchPool.Put(sc)
}

func dataFlowRules(p *Pass, m *compile.FlowModel) {
	var sc *portScratch
	if len(m.Data) > 0 {
		sc = portScratchPool.Get().(*portScratch)
	}
	dataFlowRulesWith(p, m, sc)
}

// dataFlowRulesWith is dataFlowRules with its port lists lent from sc
// (nil for a Flow without data edges), which it releases to the pool.
func dataFlowRulesWith(p *Pass, m *compile.FlowModel, sc *portScratch) {
	doc := p.Agent.Flow
	fl := m.Label()
	if m.DataGiven && len(m.Flow.Node.Get("data_flow_connections").Items) == 0 {
		p.Report(doc, compile.Append(m.Flow.Pointer, "data_flow_connections"), RuleDataFlowEmptyList, fmt.Sprintf(
			"flow %q has data_flow_connections: [] — the spec reads it as \"no data edges\", WayFlow as null (name-based); write null, or list the edges", fl))
	}
	outsOf, insOf := portIndex{of: outputsOf, plain: p.plainPorts}, portIndex{of: inputsOf, plain: p.plainPorts}
	if sc != nil {
		defer sc.release(&outsOf, &insOf)
		outsOf.all, insOf.all = sc.outs[:0], sc.ins[:0]
		outsOf.keys, insOf.keys = sc.outKeys[:0], sc.inKeys[:0]
	}
	for i := range m.Data {
		e := &m.Data[i]
		src, dst := e.Source.Node, e.Destination.Node
		var sp, dp *compile.Node
		if src != nil {
			if ps := outsOf.get(src); ps.ok {
				outs := ps.list
				if sp = ps.find(e.Output); sp == nil {
					p.Report(doc, compile.Append(e.Pointer, "source_output"), RuleDataFlowUnknownOutput, fmt.Sprintf(
						"data edge %q reads output %q of %q, which has outputs %s", e.Name, e.Output, src.Label(), quoteList(sortedKeys(titleSet(outs)))))
				}
			}
		}
		if dst != nil {
			if ps := insOf.get(dst); ps.ok {
				ins := ps.list
				if dp = ps.find(e.Input); dp == nil {
					p.Report(doc, compile.Append(e.Pointer, "destination_input"), RuleDataFlowUnknownInput, fmt.Sprintf(
						"data edge %q writes input %q of %q, which has inputs %s", e.Name, e.Input, dst.Label(), quoteList(sortedKeys(titleSet(ins)))))
				}
			}
		}
		if sp != nil && dp != nil && !castable(sp, dp, 0) {
			p.Report(doc, e.Pointer, RuleDataFlowTypeIncompatible, fmt.Sprintf(
				"data edge %q passes output %q of %q (%s) to input %q of %q (%s), which cannot take it",
				e.Name, e.Output, src.Label(), typeText(sp), e.Input, dst.Label(), typeText(dp)))
		}
	}
	duplicateDataEdges(p, m)
	unsatisfiedInputs(p, m)
}

// duplicateDataEdges is E6's special case: a data edge that repeats an
// earlier one of the flow (same resolved source node and output, same
// destination node and input). Reported at the later entry; its fix
// removes that entry when nothing else is lost with it: it is inline, or
// it references the same component as the first.
func duplicateDataEdges(p *Pass, m *compile.FlowModel) {
	if len(m.Data) < 2 {
		return
	}
	doc := p.Agent.Flow
	repeats := dataEdgeRepeats(m.Data)
	for i := range m.Data {
		e := &m.Data[i]
		r := repeats(i)
		f, seen := r.first, r.seen
		if f == nil {
			continue
		}
		var fx edit.Fix
		if e.Ref == "" || seen {
			fx = newFix(edit.Unsafe, "remove this repeated entry of data_flow_connections").add(fix.Remove(doc, e.Entry)).fix()
		}
		src, dst := e.Source.ID, e.Destination.ID
		if e.Source.Node != nil {
			src = e.Source.Node.Label()
		}
		if e.Destination.Node != nil {
			dst = e.Destination.Node.Label()
		}
		p.ReportFix(doc, e.Entry, RuleDataEdgeDuplicate, fmt.Sprintf(
			"data edge %q of flow %q repeats data edge %q: output %q of %q to input %q of %q",
			e.Name, m.Label(), f.Name, e.Output, src, e.Input, dst), fx)
	}
}

// dataEdgeRepeat is what duplicateDataEdges needs of a data edge: the
// first edge before it with the same resolved endpoints, output and input
// (nil: none, or it is unresolved), and whether one before it with those
// also had its $component_ref.
type dataEdgeRepeat struct {
	first *compile.DataEdge
	seen  bool
}

// dataEdgeKey is what makes two data edges the same connection.
type dataEdgeKey struct{ src, out, dst, in string }

func dataKey(e *compile.DataEdge) dataEdgeKey {
	return dataEdgeKey{e.Source.ID, e.Output, e.Destination.ID, e.Input}
}

// dataEdgeSmall: up to this many edges a flow's repeats are found by
// comparing each edge with those before it, without the two maps: a
// 64-bit sketch of each edge's connection (the length and last byte of
// each of its four strings) is compared first, the strings only when the
// sketches are equal.
const dataEdgeSmall = 48

// dataEdgeRepeats returns, for data edges called in order 0, 1, 2, …,
// each one's dataEdgeRepeat. Edges whose endpoints did not resolve (an ID
// "") are edge_unknown_node's: they repeat nothing and nothing repeats
// them.
func dataEdgeRepeats(data []compile.DataEdge) func(i int) dataEdgeRepeat {
	if len(data) <= dataEdgeSmall {
		return dataEdgeRepeatsScan(data)
	}
	return dataEdgeRepeatsMap(data)
}

// dataSketch is 16 bits of each string of e's connection: its length's
// low byte and its last byte. Two edges of the same connection have the
// same sketch.
func dataSketch(e *compile.DataEdge) uint64 {
	part := func(s string) uint64 {
		if s == "" {
			return 0
		}
		return uint64(uint8(len(s)))<<8 | uint64(s[len(s)-1])
	}
	return part(e.Source.ID) | part(e.Output)<<16 | part(e.Destination.ID)<<32 | part(e.Input)<<48
}

// dataEdgeRepeatsScan is dataEdgeRepeats by comparing each edge with those
// before it (at most dataEdgeSmall edges).
func dataEdgeRepeatsScan(data []compile.DataEdge) func(i int) dataEdgeRepeat {
	sketch := make([]uint64, len(data))
	for i := range data {
		if e := &data[i]; e.Source.ID != "" && e.Destination.ID != "" {
			sketch[i] = dataSketch(e) | 1 // never 0: 0 is an unresolved edge
		}
	}
	return func(i int) dataEdgeRepeat {
		e := &data[i]
		h := sketch[i]
		if h == 0 {
			return dataEdgeRepeat{}
		}
		var r dataEdgeRepeat
		for j, hj := range sketch[:i] {
			if hj != h {
				continue
			}
			d := &data[j]
			if d.Source.ID != e.Source.ID || d.Destination.ID != e.Destination.ID || d.Output != e.Output || d.Input != e.Input {
				continue
			}
			if r.first == nil {
				r.first = d
			}
			if d.Ref == e.Ref {
				r.seen = true
				break
			}
		}
		return r
	}
}

// dataEdgeRepeatsMap is dataEdgeRepeats with a map of the first edge of
// each connection and one of the connections' $component_refs seen.
func dataEdgeRepeatsMap(data []compile.DataEdge) func(i int) dataEdgeRepeat {
	type keyRef struct {
		dataEdgeKey
		ref string
	}
	first := make(map[dataEdgeKey]*compile.DataEdge, len(data))
	refs := make(map[keyRef]bool, len(data)) // the $component_refs of the entries seen, per edge (one map, not one per edge)
	return func(i int) dataEdgeRepeat {
		e := &data[i]
		if e.Source.ID == "" || e.Destination.ID == "" {
			return dataEdgeRepeat{}
		}
		k := dataKey(e)
		f := first[k]
		seen := refs[keyRef{k, e.Ref}]
		refs[keyRef{k, e.Ref}] = true
		if f == nil {
			first[k] = e
		}
		return dataEdgeRepeat{f, seen}
	}
}

// unsatisfiedInputs is E4: for each input without a default, is there a
// path from the start to its node that runs none of its producers?
func unsatisfiedInputs(p *Pass, m *compile.FlowModel) {
	start := m.StartNode()
	if start == nil || start.Type != "StartNode" {
		return
	}
	explicit := m.DataGiven
	if explicit && len(m.Data) == 0 {
		return // [] is E5's business
	}
	reach := reachable(m)
	mount, def := p.Agent.Model().Mount, ""
	if m.Flow.Pointer != "" {
		def = m.Flow.ID()
	}
	// the explicit data edges' sources by destination and input, gathered
	// once rather than per input (a node with n inputs scanned n edges each)
	var feeds dataFeeds
	if explicit && !p.plainPorts {
		feeds = feedsOf(m)
	}
	// one set of producers and one search's scratch for every input
	producers, search := newNodeSet(m), newNodeSet(m)
	var queue []*compile.FlowNode
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n == start || !reach.has(n) {
			continue
		}
		ins, ok := inputsOf(n)
		if !ok {
			continue
		}
		for _, in := range ins {
			title, ok := in.Get("title").Str()
			if !ok || in.Get("default") != nil || mount.SlimInput(def, title) {
				continue // the loader's injected context step feeds a slim slot's consumer
			}
			producers.reset()
			if explicit {
				if p.plainPorts {
					for j := range m.Data {
						if e := &m.Data[j]; e.Destination.Node == n && e.Input == title && e.Source.Node != nil {
							producers.add(e.Source.Node)
						}
					}
				}
				feeds.each(m, n, title, producers.add)
			} else {
				for j := range m.Nodes {
					o := &m.Nodes[j]
					if o == n {
						continue
					}
					outs, ok := outputsOf(o)
					if !ok || propByTitle(outs, title) != nil {
						producers.add(o) // unknown outputs: assume it may produce it
					}
				}
			}
			var avoiding bool
			if avoiding, queue = pathAvoiding(start, n, &producers, &search, queue); avoiding {
				how := "no data edge feeds it"
				if producers.n > 0 {
					how = "some control path reaches the node without running any node that feeds it"
				}
				if !explicit {
					how = "no node on some control path before it has an output of that name"
				}
				p.Report(p.Agent.Flow, n.Pointer, RuleDataFlowInputUnsatisfied, fmt.Sprintf(
					"input %q of %q in flow %q has no default and %s", title, n.Label(), m.Label(), how))
				if p.Agent.Profile == compile.ProfileCinatra {
					// The platform's severity: wayflowcore refuses to mount
					// such a flow (cinatra-ai/email-outreach-agent
					// tests/wayflow-mount-contract.test.mjs @ca080d7a).
					p.found[len(p.found)-1].Severity = compile.Blocker
				}
			}
		}
	}
}

// dataFeeds are a flow's explicit data edges with both ends resolved, by
// destination node and input: for each, its last edge (head) and, per
// edge, the one before it with the same destination and input (prev),
// as indices + 1 into the flow's Data (0: none). A chain through the edges
// rather than a list per port: most ports have one edge, and a list grown
// from nil for each was an allocation apiece.
//
// When every destination is one of the flow's nodes (NodeIndex) and none
// has more than feedsChainMax edges into it, the chain is per node
// (byNode, by node index; prev links the node's edges of any input) and
// each filters it by input: no map of (node, input) keys to hash.
type dataFeeds struct {
	head   map[dataPort]int
	prev   []int
	byNode []int
}

// feedsChainMax bounds the edges into one node that each walks to find
// an input's: past it (a node fed by thousands of edges) the map.
const feedsChainMax = 32

type dataPort struct {
	n     *compile.FlowNode
	title string
}

func feedsOf(m *compile.FlowModel) dataFeeds {
	f := dataFeeds{prev: make([]int, len(m.Data)), byNode: make([]int, len(m.Nodes))}
	var count []int32 // edges into each node, counted once the chain is tried
	if len(m.Nodes) > 0 {
		count = make([]int32, len(m.Nodes))
	}
	for j := range m.Data {
		if e := &m.Data[j]; e.Destination.Node != nil && e.Source.Node != nil {
			k := m.NodeIndex(e.Destination.Node)
			if k < 0 || count[k] == feedsChainMax {
				f.byNode = nil
				break
			}
			count[k]++
			f.prev[j] = f.byNode[k]
			f.byNode[k] = j + 1
		}
	}
	if f.byNode != nil {
		return f
	}
	clear(f.prev)
	f.head = make(map[dataPort]int, len(m.Data))
	for j := range m.Data {
		if e := &m.Data[j]; e.Destination.Node != nil && e.Source.Node != nil {
			k := dataPort{e.Destination.Node, e.Input}
			f.prev[j] = f.head[k]
			f.head[k] = j + 1
		}
	}
	return f
}

// each calls fn with the source node of every edge feeding input title of
// n (last edge first; the caller gathers them in a set).
func (f dataFeeds) each(m *compile.FlowModel, n *compile.FlowNode, title string, fn func(*compile.FlowNode)) {
	if f.byNode != nil {
		k := m.NodeIndex(n)
		if k < 0 {
			return // every edge's destination is one of the nodes
		}
		for j := f.byNode[k]; j != 0; j = f.prev[j-1] {
			if e := &m.Data[j-1]; e.Input == title {
				fn(e.Source.Node)
			}
		}
		return
	}
	for j := f.head[dataPort{n, title}]; j != 0; j = f.prev[j-1] {
		fn(m.Data[j-1].Source.Node)
	}
}

// pathAvoiding reports whether target can be reached from start without
// running any node of avoid (the start itself included). seen and queue are
// the search's scratch, lent by the caller (seen is reset here; the queue
// is handed back for the next search).
func pathAvoiding(start, target *compile.FlowNode, avoid, seen *nodeSet, queue []*compile.FlowNode) (bool, []*compile.FlowNode) {
	if avoid.has(start) {
		return false, queue
	}
	seen.reset()
	seen.add(start)
	queue = append(queue[:0], start)
	for h := 0; h < len(queue); h++ {
		n := queue[h]
		for _, e := range n.Out {
			t := e.To.Node
			if t == nil || seen.has(t) {
				continue
			}
			if t == target {
				return true, queue
			}
			seen.add(t)
			if !avoid.has(t) {
				queue = append(queue, t)
			}
		}
	}
	return false, queue
}

// schemaMembers flattens anyOf and type lists into one schema per member
// type. A schema without a type is one member of type "" (any).
func schemaMembers(s *compile.Node, depth int) []*compile.Node {
	if depth > 16 || !s.Is(compile.Object) {
		return []*compile.Node{nil}
	}
	if any := s.Get("anyOf"); any.Is(compile.Array) && s.Get("type") == nil {
		var out []*compile.Node
		for _, it := range any.Items {
			out = append(out, schemaMembers(it, depth+1)...)
		}
		return out
	}
	t := s.Get("type")
	if t.Is(compile.Array) {
		var out []*compile.Node
		for _, it := range t.Items {
			if ts, ok := it.Str(); ok {
				c := &compile.Node{Kind: compile.Object, Offset: s.Offset}
				for _, m := range s.Members {
					if m.Key != "type" {
						c.Members = append(c.Members, m)
					}
				}
				c.Members = append(c.Members, compile.Member{Key: "type", Value: &compile.Node{Kind: compile.String, Text: ts}})
				out = append(out, c)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []*compile.Node{s}
}

func memberType(s *compile.Node) string { return s.Get("type").StringOr("") }

// schemaMembersIn is schemaMembers(s, depth), in buf when that is the one
// schema s or nil (nearly every port's schema: one type, no anyOf), with
// no allocation.
func schemaMembersIn(s *compile.Node, depth int, buf *[1]*compile.Node) []*compile.Node {
	if depth > 16 || !s.Is(compile.Object) {
		buf[0] = nil
		return buf[:]
	}
	if s.Get("type").Is(compile.Array) || s.Get("anyOf").Is(compile.Array) {
		return schemaMembers(s, depth)
	}
	buf[0] = s
	return buf[:]
}

// castable follows pyagentspec's json_schema_is_castable_to
// (reference/agentspec.md §4.3); it answers "no" only when sure.
func castable(src, dst *compile.Node, depth int) bool {
	if depth > 16 {
		return true
	}
	var dbuf, sbuf [1]*compile.Node
	dms := schemaMembersIn(dst, depth, &dbuf)
	for _, d := range dms {
		if t := memberType(d); t == "" || t == "string" {
			return true
		}
	}
	for _, s := range schemaMembersIn(src, depth, &sbuf) {
		st := memberType(s)
		if st == "" {
			continue // an untyped source: nothing to check
		}
		ok := false
		for _, d := range dms {
			if memberCastable(s, d, st, memberType(d), depth) {
				ok = true
				break
			}
		}
		if !ok {
			return false
		}
	}
	return true
}

var scalarNumeric = map[string]bool{"number": true, "integer": true, "boolean": true}

func memberCastable(s, d *compile.Node, st, dt string, depth int) bool {
	switch {
	case st == dt && st == "array":
		si, di := s.Get("items"), d.Get("items")
		if si == nil || di == nil {
			return true
		}
		return castable(si, di, depth+1)
	case st == dt && st == "object":
		dp, sp := d.Get("properties"), s.Get("properties")
		if !dp.Is(compile.Object) || !sp.Is(compile.Object) {
			return true
		}
		for _, m := range dp.Members {
			sv := sp.Get(m.Key)
			if sv == nil || !castable(sv, m.Value, depth+1) {
				return false
			}
		}
		return true
	case st == dt:
		return true
	case scalarNumeric[st] && scalarNumeric[dt]:
		return true
	}
	return false
}

// typeText describes a property's type for a message.
func typeText(s *compile.Node) string {
	var ts []string
	for _, m := range schemaMembers(s, 0) {
		t := memberType(m)
		if t == "" {
			t = "any"
		}
		ts = append(ts, t)
	}
	if len(ts) == 1 {
		return ts[0]
	}
	out := ts[0]
	for _, t := range ts[1:] {
		out += "|" + t
	}
	return out
}
