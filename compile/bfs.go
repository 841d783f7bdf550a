package compile

// BFSOrder returns the node ids of a Flow in the order the compiler numbers
// them (seed 001; reference cinatra.md §11.4): adjacency from
// control_flow_connections (from_node → to_node, edges missing either end
// skipped, duplicate targets of one source dropped, from_branch ignored),
// FIFO breadth-first search from start_node, then every id of nodes[] that
// the search did not reach, in array order. As in the reference, an
// unreached id listed twice in nodes[] appears twice.
//
// It accepts any Flow object, valid or not: entries that are not
// {"$component_ref": "<id>"} are skipped.
func BFSOrder(flow *Node) []string {
	adj := map[string][]string{}
	for _, e := range flow.Get("control_flow_connections").itemsOrNil() {
		from, _ := RefID(get(e, "from_node"))
		to, _ := RefID(get(e, "to_node"))
		if from == "" || to == "" {
			continue
		}
		dup := false
		for _, t := range adj[from] {
			if t == to {
				dup = true
				break
			}
		}
		if !dup {
			adj[from] = append(adj[from], to)
		}
	}
	var order []string
	visited := map[string]bool{}
	if start, ok := RefID(flow.Get("start_node")); ok {
		queue := []string{start}
		for len(queue) > 0 {
			id := queue[0]
			queue = queue[1:]
			if visited[id] {
				continue
			}
			visited[id] = true
			order = append(order, id)
			for _, n := range adj[id] {
				if !visited[n] {
					queue = append(queue, n)
				}
			}
		}
	}
	for _, n := range flow.Get("nodes").itemsOrNil() {
		if id, ok := RefID(n); ok && !visited[id] {
			order = append(order, id)
		}
	}
	return order
}

func (n *Node) itemsOrNil() []*Node {
	if n == nil || n.Kind != Array {
		return nil
	}
	return n.Items
}

// StepNode is one node of the top-level Flow in the compiler's BFS order.
type StepNode struct {
	// ID is the node's $referenced_components key (what nodes[] and the
	// edges reference).
	ID string
	// Position is the index in BFS order: the start node is 0. The
	// compiler's inputMapping ({{child_output.x}}) is decided on these.
	Position int
	// ComponentType of the component ID names in the Flow's own
	// $referenced_components ("" when it names nothing there).
	ComponentType string
	// Steps are the approvalPolicy step numbers the node produces: one for
	// an AgentNode, InputMessageNode or FlowNode; one per gateStep for a
	// FlowNode with metadata.cinatra.gateSteps; [0] for the StartNode when
	// the implicit setup step (step 0) exists; nil for every other node.
	Steps []int
}

// FlowStepOrder lists a Flow's nodes in BFS order with the step numbers
// the compiler gives them, so a graph can put step badges on nodes. It
// works on any parsed flow (also one the compiler rejects); for a flow that
// compiles, the numbers are exactly those of Compile's
// ApprovalPolicy.Steps (whose Step.NodeID names the same node). For a
// nested subflow the numbers are those the subflow would get compiled as an
// agent of its own.
func FlowStepOrder(flow *Node) []StepNode {
	refs := flow.Get("$referenced_components")
	byID := map[string]*Node{}
	if refs.Is(Object) {
		for _, m := range refs.Members {
			byID[m.Key] = m.Value
		}
	}
	ids := BFSOrder(flow)
	out := make([]StepNode, len(ids))
	next := 1
	for i, id := range ids {
		c := byID[id]
		out[i] = StepNode{ID: id, Position: i, ComponentType: ComponentType(c)}
		switch out[i].ComponentType {
		case "AgentNode", "InputMessageNode":
			out[i].Steps = []int{next}
			next++
		case "FlowNode":
			n := 1
			if gs := path(c, "metadata", "cinatra", "gateSteps"); gs != nil && gs.Kind == Array && len(gs.Items) > 0 {
				n = len(gs.Items)
			}
			for k := 0; k < n; k++ {
				out[i].Steps = append(out[i].Steps, next)
				next++
			}
		}
	}
	if start, ok := RefID(flow.Get("start_node")); ok && hasSetupStep(byID[start]) {
		for i := range out {
			if out[i].ID == start {
				out[i].Steps = append([]int{0}, out[i].Steps...)
				break
			}
		}
	}
	return out
}

// hasSetupStep: some StartNode metadata.cinatra.required entry is not in
// hidden (tolerant form of the compiler's step-0 rule; odd types count as
// no step).
func hasSetupStep(start *Node) bool {
	cin := path(start, "metadata", "cinatra")
	req := get(cin, "required")
	if req == nil || req.Kind != Array {
		return false
	}
	hid := get(cin, "hidden")
	inHidden := includer(hid, "hidden")
	for _, f := range req.Items {
		if nullish(hid) {
			return true
		}
		in, err := inHidden(f)
		if err != nil {
			return false
		}
		if !in {
			return true
		}
	}
	return false
}
