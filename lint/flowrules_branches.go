package lint

import (
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// What the Agent Spec flow-graph rules (SPEC §3.2, reference/agentspec.md
// §5.4–5.5) infer on top of the agent's flow model (compile.Model, read
// through Pass.model): the branches of a node as the SDK infers them, the
// Flow a FlowNode-like node runs, the nodes reachable from the start.

// reachable returns the nodes reachable from the start node over control edges.
func reachable(m *compile.FlowModel) nodeSet {
	seen := newNodeSet(m)
	s := m.StartNode()
	if s == nil {
		return seen
	}
	queue := make([]*compile.FlowNode, 1, len(m.Nodes)+1)
	queue[0] = s
	seen.add(s)
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range n.Out {
			if t := e.To.Node; t != nil && !seen.has(t) {
				seen.add(t)
				queue = append(queue, t)
			}
		}
	}
	return seen
}

// nodeSet is a set of a flow's nodes: a flag per node of m.Nodes (by
// FlowModel.NodeIndex), and a map for any other node (an edge of a model
// names none). The rules' sets of nodes were maps, built per flow and per
// input.
type nodeSet struct {
	m     *compile.FlowModel
	in    []bool
	other map[*compile.FlowNode]bool
	n     int // members
}

func newNodeSet(m *compile.FlowModel) nodeSet {
	return nodeSet{m: m, in: make([]bool, len(m.Nodes))}
}

func (s *nodeSet) has(n *compile.FlowNode) bool {
	if k := s.m.NodeIndex(n); k >= 0 {
		return s.in[k]
	}
	return s.other[n]
}

func (s *nodeSet) add(n *compile.FlowNode) {
	if k := s.m.NodeIndex(n); k >= 0 {
		if !s.in[k] {
			s.in[k] = true
			s.n++
		}
		return
	}
	if s.other == nil {
		s.other = map[*compile.FlowNode]bool{}
	}
	if !s.other[n] {
		s.other[n] = true
		s.n++
	}
}

// reset empties s for its next use.
func (s *nodeSet) reset() {
	clear(s.in)
	clear(s.other)
	s.n = 0
}

// subflowModel returns the model of the Flow a FlowNode-like node runs.
func subflowModel(dm *compile.Model, m *compile.FlowModel, n *compile.FlowNode, key string) *compile.FlowModel {
	v := n.Comp.Get(key)
	if v == nil {
		return nil
	}
	r := dm.Resolve(m.Flow, v, compile.Append(n.Pointer, key))
	if r.Node == nil {
		return nil
	}
	return dm.FlowByNode(r.Node)
}

// branchOf is the branch a control edge leaves on: from_branch, "next"
// when it is null or absent.
func branchOf(e *compile.ControlEdge) string {
	if e.BranchGiven {
		return e.Branch
	}
	return "next"
}

// nextOnlyNode: the node types whose branches and I/O pyagentspec infers,
// as in reference/agentspec.md §4.6 (a switch: a map look-up for each node
// cost more).
func nextOnlyNode(t string) bool {
	switch t {
	case "StartNode", "LlmNode", "ToolNode", "ApiNode",
		"InputMessageNode", "OutputMessageNode", "MapNode",
		"ParallelMapNode", "ParallelFlowNode":
		return true
	}
	return false
}

// nextOnly is the branches of a nextOnlyNode, one list for all of them:
// branches' callers do not modify what it returns.
var nextOnly = []string{"next"}

const caughtExceptionBranch = "caught_exception_branch"

// branches returns the branches of a node as the SDK infers them, and
// whether they are known (an unknown or plugin node without a declared
// list is not). Callers must not modify the list (nextOnly is shared).
func branches(dm *compile.Model, m *compile.FlowModel, n *compile.FlowNode) ([]string, bool) {
	switch {
	case n.Type == "EndNode":
		return nil, true
	case nextOnlyNode(n.Type):
		return nextOnly[:1:1], true
	case n.Type == "BranchingNode":
		mp := n.Comp.Get("mapping")
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
	case n.Type == "FlowNode" || n.Type == "CatchExceptionNode":
		sub := subflowModel(dm, m, n, "subflow")
		if sub == nil {
			return nil, false
		}
		set := map[string]bool{}
		for i := range sub.Nodes {
			if sn := &sub.Nodes[i]; sn.Type == "EndNode" {
				set[sn.Comp.Get("branch_name").StringOr("next")] = true
			}
		}
		if len(set) == 0 {
			set["next"] = true
		}
		if n.Type == "CatchExceptionNode" {
			set[caughtExceptionBranch] = true
		}
		return sortedKeys(set), true
	}
	// AgentNode (custom branches allowed), plugins, unknown types: the
	// declared list when there is one.
	if bs := n.Comp.Get("branches"); bs.Is(compile.Array) && len(bs.Items) > 0 {
		var out []string
		for _, b := range bs.Items {
			if s, ok := b.Str(); ok {
				out = append(out, s)
			}
		}
		return out, true
	}
	if n.Type == "AgentNode" {
		return []string{"next"}, true
	}
	return nil, false
}

func items(n *compile.Node) []*compile.Node {
	if n == nil || n.Kind != compile.Array {
		return nil
	}
	return n.Items
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
