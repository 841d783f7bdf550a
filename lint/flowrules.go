package lint

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// The Agent Spec flow-graph rules (SPEC §3.2; reference/agentspec.md §5.4),
// applied to every Flow of the document, nested subflows included, in both
// profiles. In the cinatra profile the rules the Cinatra validator already
// reports on the root Flow (start_node_count, end_node_count,
// duplicate_node) are left to it there.

var (
	RuleFlowStartNodeCount = &Rule{Code: "flow_start_node_count", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F1: a Flow's nodes must contain exactly one StartNode"}
	RuleFlowStartNodeMismatch = &Rule{Code: "flow_start_node_mismatch", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F2: start_node must be the StartNode listed in the Flow's nodes"}
	RuleStartNodeOutgoingEdges = &Rule{Code: "start_node_outgoing_edges", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F3: the StartNode must have exactly one outgoing control edge"}
	RuleStartNodeIncomingEdge = &Rule{Code: "start_node_incoming_edge", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F4: no control edge may lead into the StartNode"}
	RuleFlowNoEndNode = &Rule{Code: "flow_no_end_node", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F5: a Flow needs at least one EndNode"}
	RuleEndNodeNoIncomingEdge = &Rule{Code: "end_node_no_incoming_edge", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F6: every EndNode needs an incoming control edge"}
	RuleEndNodeOutgoingEdge = &Rule{Code: "end_node_outgoing_edge", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F7: no control edge may leave an EndNode"}
	RuleEdgeUnknownNode = &Rule{Code: "edge_unknown_node", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F8: a control or data edge names a node that is not in the Flow's nodes"}
	RuleFlowInputsMismatch = &Rule{Code: "flow_inputs_mismatch", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F9: a Flow's declared inputs must be its StartNode's inputs (by title)"}
	RuleFlowOutputMissingInEndNode = &Rule{Code: "flow_output_missing_in_end_node", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F11: a declared Flow output without a default must be an output of every EndNode"}
	RuleBranchUnknown = &Rule{Code: "branch_unknown", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F12: a control edge's from_branch is not a branch of its from_node (null means \"next\"); WayFlow refuses the flow"}
	RuleBranchMultipleEdges = &Rule{Code: "branch_multiple_edges", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F13: two control edges leave the same node on the same branch; WayFlow refuses the flow"}
	RuleBranchUnconnected = &Rule{Code: "branch_unconnected", Severity: compile.Warning, Group: "flowgraph",
		Doc:       "F14: a branch of a node has no control edge; at run time the flow silently ends there",
		AutoFixes: []string{"add a control edge from the branch to the flow's only EndNode"},
		FixTiers:  []edit.Tier{edit.Unsafe}}
	RuleFlowUnreachableNode = &Rule{Code: "flow_unreachable_node", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F15: a node cannot be reached from the start node over control edges; WayFlow refuses the flow"}
	RuleFlowDeadEnd = &Rule{Code: "flow_dead_end", Severity: compile.Warning, Group: "flowgraph",
		Doc: "F16: a node that is not an EndNode has no outgoing control edge"}
	RuleFlowNoReachableEnd = &Rule{Code: "flow_no_reachable_end", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F17: no EndNode can be reached from the start node; the flow can never finish"}
	RuleNodeBranchesMismatch = &Rule{Code: "node_branches_mismatch", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "F18: a node's declared branches differ from the branches its configuration gives it (BranchingNode: mapping values + default)"}
	RuleFlowDuplicateNodeName = &Rule{Code: "flow_duplicate_node_name", Severity: compile.Warning, Group: "flowgraph",
		Doc:       "F19: two nodes of one Flow share a name; WayFlow renames one of them on load",
		AutoFixes: []string{"rename the later node to a name no node of the flow has"},
		FixTiers:  []edit.Tier{edit.Unsafe}}
	RuleFlowNodeListedTwice = &Rule{Code: "flow_node_listed_twice", Severity: compile.Warning, Group: "flowgraph",
		Doc:       "F20: the same node appears twice in a Flow's nodes",
		AutoFixes: []string{"remove the repeated entry of nodes"},
		FixTiers:  []edit.Tier{edit.Safe}}
	RuleBranchingNodeInputs = &Rule{Code: "branching_node_inputs", Severity: compile.Blocker, Group: "flowgraph",
		Doc: "I5: a BranchingNode takes exactly one input (the value looked up in its mapping) and has no outputs"}
)

var passFlowGraph = &Check{Name: "agentspec-flowgraph", Run: checkFlowGraph}

// checkFlowGraph runs the graph and data-flow rules on every Flow.
func checkFlowGraph(p *Pass) {
	dm := p.model()
	cinatra := p.Agent.Profile == compile.ProfileCinatra
	for _, m := range dm.Flows {
		// The Cinatra validator counts Start/EndNodes and duplicate node
		// references of the root Flow only (cases 39–41); nested Flows
		// are ours in both profiles.
		fc := newFlowCheck(p, dm, m, cinatra && m.Flow.Pointer == "")
		for _, rule := range flowGraphRules {
			rule(fc)
		}
		dataFlowRules(p, m)
	}
}

// flowGraphRules are the graph rules of one Flow, one function per rule or
// small family (F numbers of reference/agentspec.md §5.4).
var flowGraphRules = []func(*flowCheck){
	checkStartNodeCount,  // F1, F2
	checkStartNodeEdges,  // F3, F4
	checkEndNodes,        // F5, F6, F7
	checkEdgeEndpoints,   // F8
	checkFlowInputs,      // F9
	checkFlowOutputs,     // F11
	checkBranches,        // F12, F13, F14, F18
	checkBranchingNodeIO, // I5
	checkReachability,    // F15, F17
	checkDeadEnds,        // F16
	checkNodeNames,       // F19, F20
}

// flowCheck is one Flow under the graph rules, with what several rules
// need: its Start and EndNodes and the start node analysis begins from.
type flowCheck struct {
	p        *Pass
	dm       *compile.Model
	m        *compile.FlowModel
	doc      *compile.Doc
	fl       string // the flow's label, for messages
	cinatra  bool   // the Cinatra validator owns F1, F5, F20 on this Flow
	hasNodes bool   // nodes is an array
	starts   []*compile.FlowNode
	ends     []*compile.FlowNode
	start    *compile.FlowNode // the StartNode the flow starts at, or nil
	taken    map[string]bool   // node names, and those the flow_duplicate_node_name fixes give
	suffix   map[string]int    // next number to try per repeated name
}

func newFlowCheck(p *Pass, dm *compile.Model, m *compile.FlowModel, cinatra bool) *flowCheck {
	fc := &flowCheck{p: p, dm: dm, m: m, doc: p.Agent.Flow, fl: m.Label(), cinatra: cinatra,
		hasNodes: m.Flow.Node.Get("nodes").Is(compile.Array)}
	for i := range m.Nodes {
		switch n := &m.Nodes[i]; n.Type {
		case "StartNode":
			fc.starts = append(fc.starts, n)
		case "EndNode":
			fc.ends = append(fc.ends, n)
		}
	}
	start := m.StartNode()
	if start == nil && len(fc.starts) == 1 && m.Start.Comp == nil && !m.Start.Given {
		start = fc.starts[0] // no start_node field: the schema check reports it; keep analysing from the StartNode
	}
	if start != nil && start.Type != "StartNode" {
		start = nil
	}
	fc.start = start
	return fc
}

func (fc *flowCheck) report(ptr string, rule *Rule, msg string) { fc.p.Report(fc.doc, ptr, rule, msg) }

// checkStartNodeCount: F1 exactly one StartNode, F2 start_node is it.
func checkStartNodeCount(fc *flowCheck) {
	m, starts := fc.m, fc.starts
	if !fc.cinatra && fc.hasNodes && len(starts) != 1 {
		ptr := compile.Append(m.Flow.Pointer, "nodes")
		if len(starts) > 1 {
			ptr = starts[1].Pointer
		}
		fc.report(ptr, RuleFlowStartNodeCount, fmt.Sprintf("flow %q lists %d StartNodes in nodes; it needs exactly one", fc.fl, len(starts)))
	}
	if start := m.StartNode(); m.Start.Comp != nil && len(starts) == 1 && (start == nil || start != starts[0]) {
		what := fmt.Sprintf("%q (%s)", m.Start.Comp.Get("name").StringOr(m.Start.ID), compile.ComponentType(m.Start.Comp))
		fc.report(m.Start.PointerIn(m.Flow.Pointer), RuleFlowStartNodeMismatch, fmt.Sprintf(
			"flow %q: start_node is %s, not the StartNode %q listed in nodes", fc.fl, what, starts[0].Label()))
	}
}

// checkStartNodeEdges: F3 one edge out of the StartNode, F4 none in.
func checkStartNodeEdges(fc *flowCheck) {
	if start := fc.start; start != nil && len(start.Out) != 1 {
		fc.report(start.Pointer, RuleStartNodeOutgoingEdges, fmt.Sprintf(
			"StartNode %q of flow %q has %d outgoing control edges; it needs exactly one", start.Label(), fc.fl, len(start.Out)))
	}
	for _, s := range fc.starts {
		for _, e := range s.In {
			fc.report(e.Pointer, RuleStartNodeIncomingEdge, fmt.Sprintf(
				"control edge %q of flow %q leads into the StartNode %q; nothing may flow back into the start", e.Name, fc.fl, s.Label()))
		}
	}
}

// checkEndNodes: F5 an EndNode exists, F6 each has an edge in, F7 none out.
func checkEndNodes(fc *flowCheck) {
	m := fc.m
	if !fc.cinatra && fc.hasNodes && len(fc.ends) == 0 {
		fc.report(compile.Append(m.Flow.Pointer, "nodes"), RuleFlowNoEndNode, fmt.Sprintf("flow %q has no EndNode in nodes", fc.fl))
	}
	for _, n := range fc.ends {
		if len(n.In) == 0 {
			fc.report(n.Pointer, RuleEndNodeNoIncomingEdge, fmt.Sprintf("EndNode %q of flow %q has no incoming control edge", n.Label(), fc.fl))
		}
		for _, e := range n.Out {
			fc.report(e.Pointer, RuleEndNodeOutgoingEdge, fmt.Sprintf("control edge %q of flow %q leaves the EndNode %q; an EndNode ends the flow", e.Name, fc.fl, n.Label()))
		}
	}
}

// checkEdgeEndpoints: F8 every edge names nodes of the Flow.
func checkEdgeEndpoints(fc *flowCheck) {
	m := fc.m
	unknown := func(kind, edge, edgePtr string, ep *compile.Endpoint) {
		if ep.Comp != nil && ep.Node == nil {
			fc.report(ep.PointerIn(edgePtr), RuleEdgeUnknownNode, fmt.Sprintf("%s edge %q of flow %q names node %q, which is not in the flow's nodes",
				kind, edge, fc.fl, ep.Comp.Get("name").StringOr(ep.ID)))
		}
	}
	for i := range m.Control {
		e := &m.Control[i]
		unknown("control", e.Name, e.Pointer, &e.From)
		unknown("control", e.Name, e.Pointer, &e.To)
	}
	for i := range m.Data {
		e := &m.Data[i]
		unknown("data", e.Name, e.Pointer, &e.Source)
		unknown("data", e.Name, e.Pointer, &e.Destination)
	}
}

// checkFlowInputs: F9 the Flow's inputs are its StartNode's.
func checkFlowInputs(fc *flowCheck) {
	m := fc.m
	fin := m.Flow.Node.Get("inputs")
	if !fin.Is(compile.Array) || len(fc.starts) != 1 {
		return
	}
	sin, ok := nodeProps(fc.starts[0], "inputs")
	if !ok {
		return
	}
	if sameTitles(sin, fin.Items) {
		return // the same titles in the same order: the same sets
	}
	want, got := titleSet(sin), titleSet(fin.Items)
	missing, extra := setDiff(want, got), setDiff(got, want)
	if len(missing)+len(extra) == 0 {
		return
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+quoteList(missing))
	}
	if len(extra) > 0 {
		parts = append(parts, "not StartNode inputs: "+quoteList(extra))
	}
	fc.report(compile.Append(m.Flow.Pointer, "inputs"), RuleFlowInputsMismatch, fmt.Sprintf(
		"inputs of flow %q must be the inputs of its StartNode %q: %s", fc.fl, fc.starts[0].Label(), strings.Join(parts, "; ")))
}

// checkFlowOutputs: F11 an output without a default comes out of every EndNode.
func checkFlowOutputs(fc *flowCheck) {
	m := fc.m
	fout := m.Flow.Node.Get("outputs")
	if !fout.Is(compile.Array) {
		return
	}
	// each EndNode's outputs are read once; a long list is looked up in a
	// set of its titles, built on first use (n outputs against n outputs
	// is Θ(n²) by scans)
	type endOutputs struct {
		props  []*compile.Node
		ok     bool
		titles map[string]bool
	}
	var outs []endOutputs
	for i, o := range fout.Items {
		title := o.Get("title").StringOr("")
		if title == "" || o.Get("default") != nil {
			continue
		}
		if outs == nil {
			outs = make([]endOutputs, len(fc.ends))
			for k, n := range fc.ends {
				outs[k].props, outs[k].ok = nodeProps(n, "outputs")
			}
		}
		for k, n := range fc.ends {
			eo := &outs[k]
			if !eo.ok {
				continue
			}
			if len(eo.props) >= titleSetMin && eo.titles == nil {
				eo.titles = titleSet(eo.props)
			}
			found := eo.titles[title]
			if eo.titles == nil {
				found = hasTitle(eo.props, title)
			}
			if !found {
				fc.report(compile.AppendIndex(compile.Append(m.Flow.Pointer, "outputs"), i), RuleFlowOutputMissingInEndNode, fmt.Sprintf(
					"output %q of flow %q has no default and EndNode %q does not produce it", title, fc.fl, n.Label()))
				break
			}
		}
	}
}

// checkBranches: F12 edges leave on known branches, F13 one edge a
// branch, F14 every branch connected, F18 declared branches are the
// configured ones.
func checkBranches(fc *flowCheck) {
	m := fc.m
	for i := range m.Nodes {
		n := &m.Nodes[i]
		bs, known := branches(fc.dm, m, n)
		if !known {
			continue
		}
		if len(bs) > branchScanMax || len(n.Out) > branchScanMax {
			checkBranchesMaps(fc, n, bs)
			continue
		}
		// a node's few branches and edges in arrays, searched by a scan:
		// the first edge of each branch (usedE nil when the edge is; the
		// next edge then takes the branch, as a map assignment would)
		var usedB [branchScanMax]string
		var usedE [branchScanMax]*compile.ControlEdge
		nu := 0
		for _, e := range n.Out {
			branch := branchOf(e)
			if !slices.Contains(bs, branch) && n.Type != "EndNode" {
				fc.reportBranchUnknown(n, e, branch, bs)
			}
			k := slices.Index(usedB[:nu], branch)
			switch {
			case k >= 0 && usedE[k] != nil:
				fc.reportMultipleEdges(n, usedE[k], e, branch)
			case k >= 0:
				usedE[k] = e
			default:
				usedB[nu], usedE[nu] = branch, e
				nu++
			}
		}
		if len(n.Out) > 0 {
			for _, b := range bs {
				if k := slices.Index(usedB[:nu], b); k < 0 || usedE[k] == nil {
					fc.reportUnconnected(n, b)
				}
			}
		}
		checkDeclaredBranches(fc, n, bs)
	}
}

// branchScanMax is the number of branches and of edges up to which
// checkBranches looks a node's branches up by a scan; a node with more
// (a BranchingNode of many cases) keeps the sets (checkBranchesMaps), so
// a hostile node stays linear.
const branchScanMax = 16

// checkBranchesMaps is checkBranches on one node with sets of its
// branches and of the branches its edges take.
func checkBranchesMaps(fc *flowCheck, n *compile.FlowNode, bs []string) {
	set := make(map[string]bool, len(bs))
	for _, b := range bs {
		set[b] = true
	}
	used := map[string]*compile.ControlEdge{}
	for _, e := range n.Out {
		branch := branchOf(e)
		if !set[branch] && n.Type != "EndNode" {
			fc.reportBranchUnknown(n, e, branch, bs)
		}
		if first := used[branch]; first != nil {
			fc.reportMultipleEdges(n, first, e, branch)
		} else {
			used[branch] = e
		}
	}
	if len(n.Out) > 0 {
		for _, b := range bs {
			if used[b] == nil {
				fc.reportUnconnected(n, b)
			}
		}
	}
	checkDeclaredBranches(fc, n, bs)
}

// reportBranchUnknown: control edge e leaves n on branch, not one of bs.
func (fc *flowCheck) reportBranchUnknown(n *compile.FlowNode, e *compile.ControlEdge, branch string, bs []string) {
	ptr := e.Pointer
	if e.BranchGiven {
		ptr = compile.Append(e.Pointer, "from_branch")
	}
	fc.report(ptr, RuleBranchUnknown, fmt.Sprintf("control edge %q leaves %q on branch %q, which is not one of its branches %s",
		e.Name, n.Label(), branch, quoteList(bs)))
}

// reportMultipleEdges: control edges first and e both leave n on branch.
func (fc *flowCheck) reportMultipleEdges(n *compile.FlowNode, first, e *compile.ControlEdge, branch string) {
	fc.report(e.Pointer, RuleBranchMultipleEdges, fmt.Sprintf("control edges %q and %q both leave %q on branch %q; a branch has one edge",
		first.Name, e.Name, n.Label(), branch))
}

// reportUnconnected: no control edge leaves n on its branch b (with the
// fix that adds one).
func (fc *flowCheck) reportUnconnected(n *compile.FlowNode, b string) {
	fc.p.ReportFix(fc.doc, n.Pointer, RuleBranchUnconnected, fmt.Sprintf("branch %q of %q in flow %q has no control edge; the flow ends there at run time", b, n.Label(), fc.fl),
		branchEdgeFix(fc, n, b))
}

// checkDeclaredBranches: F18 for one node whose branches are known.
func checkDeclaredBranches(fc *flowCheck, n *compile.FlowNode, bs []string) {
	decl := n.Comp.Get("branches")
	if !decl.Is(compile.Array) || n.Type == "AgentNode" || isPluginOrUnknown(n.Type) {
		return
	}
	set := make(map[string]bool, len(bs))
	for _, b := range bs {
		set[b] = true
	}
	var ds []string
	dup := false
	seen := map[string]bool{}
	for _, b := range decl.Items {
		s := b.StringOr("")
		if seen[s] {
			dup = true
		}
		seen[s] = true
		ds = append(ds, s)
	}
	if dup || len(setDiff(seen, set))+len(setDiff(set, seen)) > 0 {
		sort.Strings(ds)
		fc.report(compile.Append(n.Pointer, "branches"), RuleNodeBranchesMismatch, fmt.Sprintf(
			"%s %q declares branches %s but its configuration gives %s", n.Type, n.Label(), quoteList(ds), quoteList(bs)))
	}
}

// checkBranchingNodeIO: I5 a BranchingNode has one input and no output.
func checkBranchingNodeIO(fc *flowCheck) {
	for i := range fc.m.Nodes {
		n := &fc.m.Nodes[i]
		if n.Type != "BranchingNode" {
			continue
		}
		if in := n.Comp.Get("inputs"); in.Is(compile.Array) && len(in.Items) != 1 {
			fc.report(compile.Append(n.Pointer, "inputs"), RuleBranchingNodeInputs, fmt.Sprintf(
				"BranchingNode %q declares %d inputs; it takes exactly one", n.Label(), len(in.Items)))
		}
		if out := n.Comp.Get("outputs"); out.Is(compile.Array) && len(out.Items) != 0 {
			fc.report(compile.Append(n.Pointer, "outputs"), RuleBranchingNodeInputs, fmt.Sprintf(
				"BranchingNode %q declares %d outputs; it has none", n.Label(), len(out.Items)))
		}
	}
}

// checkReachability: F15 every node is reachable from the start, F17 an
// EndNode is.
func checkReachability(fc *flowCheck) {
	m, start := fc.m, fc.start
	if start == nil {
		return
	}
	reach := reachable(m)
	endReached := false
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if !reach.has(n) {
			if n.Type == "EndNode" && len(n.In) == 0 {
				continue // an EndNode without edges in is F6's finding
			}
			fc.report(n.Pointer, RuleFlowUnreachableNode, fmt.Sprintf("node %q of flow %q cannot be reached from the start node %q", n.Label(), fc.fl, start.Label()))
		} else if n.Type == "EndNode" {
			endReached = true
		}
	}
	if !endReached && len(fc.ends) > 0 {
		fc.report(m.Flow.Pointer, RuleFlowNoReachableEnd, fmt.Sprintf("no EndNode of flow %q can be reached from its start node %q", fc.fl, start.Label()))
	}
}

// checkDeadEnds: F16 only EndNodes lack an edge out.
func checkDeadEnds(fc *flowCheck) {
	m := fc.m
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n.Type != "EndNode" && len(n.Out) == 0 && n != fc.start { // the start without an edge is F3's finding
			fc.report(n.Pointer, RuleFlowDeadEnd, fmt.Sprintf("node %q of flow %q has no outgoing control edge and is not an EndNode", n.Label(), fc.fl))
		}
	}
}

// checkNodeNames: F19 node names are unique, F20 no node is listed twice.
func checkNodeNames(fc *flowCheck) {
	m := fc.m
	names := map[string]*compile.FlowNode{}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n.Name == "" {
			continue
		}
		if first := names[n.Name]; first != nil {
			fc.p.ReportFix(fc.doc, n.Pointer, RuleFlowDuplicateNodeName, fmt.Sprintf("flow %q has two nodes named %q (ids %q and %q)", fc.fl, n.Name, first.ID, n.ID),
				renameNodeFix(fc, n))
			continue
		}
		names[n.Name] = n
	}
	if fc.cinatra {
		return
	}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if listed := 1 + len(n.Repeats); listed > 1 {
			for _, ptr := range n.Repeats {
				fc.p.ReportFix(fc.doc, ptr, RuleFlowNodeListedTwice, fmt.Sprintf("node %q is listed %d times in the nodes of flow %q", n.Label(), listed, fc.fl),
					newFix(edit.Safe, "remove this repeated entry of nodes").add(fix.Remove(fc.doc, ptr)).fix())
			}
		}
	}
}

// isPluginOrUnknown: component types outside the core catalogue.
func isPluginOrUnknown(ctype string) bool { return !coreNodeTypes[ctype] }

var coreNodeTypes = map[string]bool{
	"StartNode": true, "EndNode": true, "LlmNode": true, "AgentNode": true, "FlowNode": true,
	"MapNode": true, "ParallelMapNode": true, "ParallelFlowNode": true, "CatchExceptionNode": true,
	"BranchingNode": true, "ToolNode": true, "ApiNode": true, "InputMessageNode": true, "OutputMessageNode": true,
}

// nodeProps returns a node's declared inputs or outputs, or what a
// StartNode/EndNode implies (their inputs equal their outputs).
func nodeProps(n *compile.FlowNode, key string) ([]*compile.Node, bool) {
	if v := n.Comp.Get(key); v.Is(compile.Array) {
		return v.Items, true
	}
	if n.Type == "StartNode" || n.Type == "EndNode" {
		other := "outputs"
		if key == "outputs" {
			other = "inputs"
		}
		if v := n.Comp.Get(other); v.Is(compile.Array) {
			return v.Items, true
		}
		if n.Comp.Get(key) == nil && n.Comp.Get(other) == nil {
			return nil, true
		}
	}
	return nil, false
}

func titleSet(props []*compile.Node) map[string]bool {
	set := map[string]bool{}
	for _, p := range props {
		if t, ok := p.Get("title").Str(); ok {
			set[t] = true
		}
	}
	return set
}

// sameTitles: a and b have as many properties, each with the same
// string title (or none) as the one at its place in the other — so
// titleSet(a) and titleSet(b) are equal (the converse does not hold: the
// sets are compared when this is false).
func sameTitles(a, b []*compile.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		ta, oka := a[i].Get("title").Str()
		tb, okb := b[i].Get("title").Str()
		if oka != okb || ta != tb {
			return false
		}
	}
	return true
}

// titleSetMin is the length of a property list from which checkFlowOutputs
// looks titles up in a set rather than scanning for each.
const titleSetMin = 16

// hasTitle is titleSet(props)[title], without the set.
func hasTitle(props []*compile.Node, title string) bool {
	for _, p := range props {
		if t, ok := p.Get("title").Str(); ok && t == title {
			return true
		}
	}
	return false
}

// setDiff returns the keys of a not in b, sorted.
func setDiff(a, b map[string]bool) []string {
	var out []string
	for k := range a {
		if !b[k] {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// renameNodeFix renames n to "<name> 2" (3, 4, … until no node of the flow
// has the name, nor an earlier rename: each duplicate gets its own).
func renameNodeFix(fc *flowCheck, n *compile.FlowNode) edit.Fix {
	v := n.Comp.Get("name")
	if _, ok := v.Str(); !ok {
		return edit.Fix{}
	}
	if fc.taken == nil { // built once per flow: a flow may repeat a name thousands of times
		fc.taken, fc.suffix = map[string]bool{}, map[string]int{}
		for i := range fc.m.Nodes {
			fc.taken[fc.m.Nodes[i].Name] = true
		}
	}
	i := max(fc.suffix[n.Name], 2)
	name := fmt.Sprintf("%s %d", n.Name, i)
	for fc.taken[name] {
		i++
		name = fmt.Sprintf("%s %d", n.Name, i)
	}
	fc.taken[name], fc.suffix[n.Name] = true, i+1
	return newFix(edit.Unsafe, fmt.Sprintf("rename node %q to %q", n.Name, name)).add(fix.Replace(fc.doc, ptrOf(v), name)).fix()
}

// branchEdgeFix adds a ControlFlowEdge from branch b of n to the flow's
// EndNode when the flow has exactly one (the one obvious target), written
// like the flow's other edges: $component_ref endpoints, and description
// and metadata when they carry them. No fix when the nodes have no id, the
// edges do not use references, or control_flow_connections is not an
// array.
func branchEdgeFix(fc *flowCheck, n *compile.FlowNode, b string) edit.Fix {
	if len(fc.ends) != 1 {
		return edit.Fix{}
	}
	end := fc.ends[0]
	fromID, ok1 := n.Comp.Get("id").Str()
	toID, ok2 := end.Comp.Get("id").Str()
	edges := fc.m.Flow.Node.Get("control_flow_connections")
	if !ok1 || !ok2 || !edges.Is(compile.Array) || len(edges.Items) == 0 {
		return edit.Fix{}
	}
	model := edges.Items[0]
	if model.Get("from_node").Get("$component_ref") == nil {
		return edit.Fix{}
	}
	// A fresh id: the document's ids are unique (component_id_duplicate).
	ids := map[string]bool{}
	compile.WalkNodes(fc.doc.Root, func(x *compile.Node) bool {
		if s, ok := x.Get("id").Str(); ok {
			ids[s] = true
		}
		return true
	})
	id := fromID + "_" + b + "_to_" + toID
	for i := 2; ids[id]; i++ {
		id = fmt.Sprintf("%s_%s_to_%s_%d", fromID, b, toID, i)
	}
	q := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	raw := `{"component_type": "ControlFlowEdge", "id": ` + q(id) + `, "name": ` + q(id)
	if model.Get("description") != nil {
		raw += `, "description": null`
	}
	if model.Get("metadata") != nil {
		raw += `, "metadata": {}`
	}
	raw += `, "from_node": {"$component_ref": ` + q(fromID) + `}, "from_branch": ` + q(b) + `, "to_node": {"$component_ref": ` + q(toID) + `}}`
	return newFix(edit.Unsafe, fmt.Sprintf("add a control edge from branch %q of %q to EndNode %q", b, n.Label(), end.Label())).
		add(fix.Append(fc.doc, ptrOf(edges), fix.Raw(raw))).fix()
}
