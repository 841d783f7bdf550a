package compile

// Which node calls which child agent (reference cinatra.md §11.6, the
// compiler's childAgent) is decided here, once: the compiler, the dry run
// and the workspace all ask CalledPackage.

// CalledPackage is the metadata.cinatra.packageName value naming the child
// agent node runs, nil when it runs none:
//   - a FlowNode, MapNode, ParallelMapNode or CatchExceptionNode: its own
//     (a FlowNode whose subflow is in the document runs that subflow; the
//     dry run walks the child only when it is not);
//   - an AgentNode: that of the A2AAgent it delegates to (agent: its
//     "agent", resolved by the caller), none for any other agent.
//
// The value is returned as written (the compiler keeps a non-string as it
// stands); callers wanting a name take its string.
func CalledPackage(node, agent *Node) *Node {
	switch ComponentType(node) {
	case "FlowNode", "MapNode", "ParallelMapNode", "CatchExceptionNode":
		return node.Path("metadata", "cinatra", "packageName")
	case "AgentNode":
		if ComponentType(agent) == "A2AAgent" {
			return agent.Path("metadata", "cinatra", "packageName")
		}
	}
	return nil
}

// ChildCall is a node of the agent's document that runs another agent.
type ChildCall struct {
	Node    string // JSON Pointer of the calling node
	Type    string // its component_type
	ID      string // its id, else its name
	Package string // the child's package name (CalledPackage's string, never "")
	At      string // JSON Pointer of the packageName value (in the node, or in the A2AAgent an AgentNode delegates to)
}

// ChildCalls lists every node of the flow file, in document order, that
// runs a child agent (CalledPackage), an AgentNode's agent resolved in its
// enclosing Flow. It reads the agent's model, which met every component
// of a calling type in its one walk of the document.
func (a *Agent) ChildCalls() []ChildCall {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return nil
	}
	m := a.Model()
	var out []ChildCall
	for _, n := range m.callers {
		ct := ComponentType(n)
		var agent *Node
		ptr, agentPtr := "", ""
		if ct == "AgentNode" {
			ptr = PointerOf(n)
			agentPtr = Append(ptr, "agent")
			r := enclosing(m.flows, ptr).Resolve(n.Get("agent"), agentPtr, m.registry)
			agent, agentPtr = r.Node, r.Pointer
		}
		pkg := CalledPackage(n, agent)
		name, ok := pkg.Str()
		if !ok || name == "" {
			continue
		}
		if ct != "AgentNode" {
			ptr = PointerOf(n) // a pointer only for the nodes that call
		}
		at := Append(ptr, "metadata", "cinatra", "packageName")
		if agent != nil {
			at = Append(agentPtr, "metadata", "cinatra", "packageName")
		}
		id := n.Get("id").StringOr(n.Get("name").StringOr(""))
		out = append(out, ChildCall{Node: ptr, Type: ct, ID: id, Package: name, At: at})
	}
	return out
}

// enclosing is the innermost Flow whose subtree holds ptr (a Flow over
// nothing when there is none, so Resolve still reaches the registry).
func enclosing(flows []*Flow, ptr string) *Flow {
	var best *Flow
	for _, f := range flows {
		if isUnder(ptr, f.Pointer) && (best == nil || len(f.Pointer) >= len(best.Pointer)) {
			best = f
		}
	}
	if best == nil {
		return &Flow{Node: &Node{Kind: Object}}
	}
	return best
}
