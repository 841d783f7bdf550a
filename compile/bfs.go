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
	// Ids are numbered and the search runs on the numbers: a flow of
	// 33,000 nodes is ordered on every side of a diff, by the compiler,
	// the flow model's view and the graph's step numbers. An id that is a
	// key of the Flow's own $referenced_components is numbered by its
	// member's place there, through the parser's key index (no map of its
	// own to fill); the other ids as first seen (bfsNums).
	nodes := flow.Get("nodes").itemsOrNil()
	edges := flow.Get("control_flow_connections").itemsOrNil()
	b := newBFSNums(flow.Get("$referenced_components"), len(nodes)+1)
	// the edges that name both ends, in order; each end tried first at
	// the number where the last edge went (from) and the one after the
	// edge's start (to): one comparison answers when the guess is right
	pairs := make([][2]int32, 0, len(edges))
	last := int32(-1) // where the last edge went
	for _, e := range edges {
		from, to := edgeEnds(e)
		if from == "" || to == "" {
			continue
		}
		f := b.near(from, last)
		last = b.near(to, f+1)
		pairs = append(pairs, [2]int32{f, last})
	}
	start, hasStart := RefID(flow.Get("start_node"))
	s := int32(-1)
	if hasStart {
		s = b.intern(start)
	}
	n := b.n()
	// successors of each id in edge order: a counting sort of the pairs by
	// source (a target listed twice changes nothing: it is visited once)
	first := make([]int32, n+1)
	for _, p := range pairs {
		first[p[0]+1]++
	}
	for i := 1; i < len(first); i++ {
		first[i] += first[i-1]
	}
	succ := make([]int32, len(pairs))
	end := append([]int32(nil), first[:n]...)
	for _, p := range pairs {
		succ[end[p[0]]] = p[1]
		end[p[0]]++
	}
	order := make([]string, 0, len(nodes))
	visited := make([]bool, n)
	if s >= 0 {
		queue := make([]int32, 1, n)
		queue[0] = s
		visited[s] = true
		for h := 0; h < len(queue); h++ {
			id := queue[h]
			order = append(order, b.id(id))
			for _, t := range succ[first[id]:end[id]] {
				if !visited[t] {
					visited[t] = true
					queue = append(queue, t)
				}
			}
		}
	}
	next := int32(0) // the number nodes' next id is likely to have
	for _, nd := range nodes {
		if id, ok := refIDFast(nd); ok {
			k, known := next, int(next) < n && b.id(next) == id
			if !known {
				k, known = b.find(id)
			}
			if known {
				next = k + 1
			}
			if !known || !visited[k] {
				order = append(order, id)
			}
		}
	}
	if len(order) == 0 {
		return nil // as before: no order is nil
	}
	return order
}

// edgeEnds is RefID(get(e, "from_node")) and RefID(get(e, "to_node"))'s
// ids ("" for none): an edge object without a key index (a small
// component, as Get scans it) is read in one scan from its last member,
// which finds the last of a repeated key as Get does, and an end that is
// {"$component_ref": id} alone is read without a look-up; anything else
// through RefID and get.
func edgeEnds(e *Node) (from, to string) {
	if e == nil || e.Kind != Object || e.indexed() {
		from, _ = RefID(get(e, "from_node"))
		to, _ = RefID(get(e, "to_node"))
		return from, to
	}
	ms := e.Members
	if k := len(ms); k >= 2 && ms[k-1].Key == "to_node" && ms[k-2].Key == "from_node" {
		// the usual edge ends with them: each the last of its key
		return refIDOf(ms[k-2].Value), refIDOf(ms[k-1].Value)
	}
	var f, t *Node
	gotF, gotT := false, false
	for i := len(e.Members) - 1; i >= 0 && !(gotF && gotT); i-- {
		m := &e.Members[i]
		switch {
		case !gotF && m.Key == "from_node":
			f, gotF = m.Value, true
		case !gotT && m.Key == "to_node":
			t, gotT = m.Value, true
		}
	}
	return refIDOf(f), refIDOf(t)
}

// refIDOf is RefID's id ("" for none), an object whose one member is
// $component_ref read without a look-up.
func refIDOf(n *Node) string {
	id, _ := refIDFast(n)
	return id
}

// refIDFast is RefID, an object whose one member is $component_ref
// with a string read without a look-up.
func refIDFast(n *Node) (string, bool) {
	if n != nil && n.Kind == Object && len(n.Members) == 1 && n.Members[0].Key == "$component_ref" {
		if v := n.Members[0].Value; v != nil && v.Kind == String {
			return v.Text, true
		}
	}
	return RefID(n)
}

// bfsNums numbers the ids of one BFSOrder: each distinct id one number,
// from 0 up. When the Flow's $referenced_components is an object whose
// key index (the parser's, as Get reads it) covers its members and no key
// repeats, a key's number is its member's place (keys), and the other
// ids are numbered after them, as first seen (num, more); otherwise every
// id is numbered as first seen. As Get, it trusts the key index while the
// object has the members it was built for.
type bfsNums struct {
	keys []Member         // the members whose keys number the first ids (nil: none)
	last map[string]int   // their key index: key → place
	num  map[string]int32 // the other ids' numbers
	more []string         // the other ids, number len(keys) first
	size int              // num's size when made
}

func newBFSNums(refs *Node, size int) *bfsNums {
	b := &bfsNums{size: size}
	if refs.indexed() && len(refs.keys.last) == len(refs.Members) {
		b.keys, b.last = refs.Members, refs.keys.last
		b.size = 16 // ids outside the Flow's own definitions are few
	}
	return b
}

// n is how many ids are numbered (keys included).
func (b *bfsNums) n() int { return len(b.keys) + len(b.more) }

// id is the id numbered k.
func (b *bfsNums) id(k int32) string {
	if int(k) < len(b.keys) {
		return b.keys[k].Key
	}
	return b.more[int(k)-len(b.keys)]
}

// find is id's number, if it has one.
func (b *bfsNums) find(id string) (int32, bool) {
	if b.last != nil {
		if i, ok := b.last[id]; ok && i < len(b.keys) {
			return int32(i), true
		}
	}
	k, ok := b.num[id]
	return k, ok
}

// intern is id's number, numbering it when it has none.
func (b *bfsNums) intern(id string) int32 {
	if k, ok := b.find(id); ok {
		return k
	}
	if b.num == nil {
		b.num = make(map[string]int32, b.size)
	}
	k := int32(b.n())
	b.num[id] = k
	b.more = append(b.more, id)
	return k
}

// near is intern trying number g first: the id numbered g is id(g), so
// one comparison answers when the guess is right.
func (b *bfsNums) near(id string, g int32) int32 {
	if g >= 0 && int(g) < b.n() && b.id(g) == id {
		return g
	}
	return b.intern(id)
}

// BFSOrder is BFSOrder(fm.Flow.Node), computed once per flow model: the
// model's view and the graph's step numbers (FlowStepOrderOf) share it,
// and the root Flow of a loaded agent shares it with the compiler
// (Compile). Callers must not modify it.
func (fm *FlowModel) BFSOrder() []string {
	fm.bfsOnce.Do(func() {
		if fm.order != nil {
			fm.bfs = fm.order.rootOrder(fm.Flow.Node)
		} else {
			fm.bfs = BFSOrder(fm.Flow.Node)
		}
	})
	return fm.bfs
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
func FlowStepOrder(flow *Node) []StepNode { return FlowStepOrderOf(flow, BFSOrder(flow)) }

// FlowStepOrderOf is FlowStepOrder of a flow whose BFSOrder is ids (a
// flow model's, FlowModel.BFSOrder).
func FlowStepOrderOf(flow *Node, ids []string) []StepNode {
	// Each id's component: Get, the last member of a repeated key as
	// JSON.parse keeps it, through the parser's key index on a large
	// object (no map of every component built per call); nil when refs is
	// no object.
	comps, types := componentsOf(flow, ids)
	return stepOrder(flow, ids, comps, types)
}

// StepCounts are the step numbers of fm's Flow (FlowStepOrderOf of its
// BFSOrder) as counts, for a reader that numbers its own nodes: the id
// at place k of fm.BFSOrder() produces counts[k] approval steps, numbered
// on from 1 in BFS order, and the id at place setup (-1: none) holds the
// implicit setup step 0 before them. The root Flow of a loaded agent
// reads its components where the compiler looked them up
// (modelCache.rootComponents), not again.
func (fm *FlowModel) StepCounts() (counts []int32, setup int) {
	ids := fm.BFSOrder()
	if fm.order == nil {
		comps, types := componentsOf(fm.Flow.Node, ids)
		counts, setup, _ = stepCounts(fm.Flow.Node, ids, comps, types)
		return counts, setup
	}
	// the root's counts, as the compiler made them building its steps
	// (or counted on first use)
	counts = fm.order.rootStepCounts(fm.Flow.Node)
	setup, _ = setupOf(fm.Flow.Node, ids, counts)
	return counts, setup
}

// stepCounts are the step counts of ids whose components and their
// types are comps and types (StepCounts), with their total, step 0
// included.
func stepCounts(flow *Node, ids []string, comps []*Node, types []string) (counts []int32, setup, total int) {
	counts = countSteps(comps, types)
	setup, total = setupOf(flow, ids, counts)
	return counts, setup, total
}

// countSteps is, for each component of comps whose type is types' at the
// same place, the approval steps it produces: one for an AgentNode or an
// InputMessageNode, one per gate step for a FlowNode with
// metadata.cinatra.gateSteps, else one for a FlowNode, none for the rest.
func countSteps(comps []*Node, types []string) []int32 {
	counts := make([]int32, len(comps))
	for i := range comps {
		switch types[i] {
		case "AgentNode", "InputMessageNode":
			counts[i] = 1
		case "FlowNode":
			counts[i] = 1
			if gs := path(comps[i], "metadata", "cinatra", "gateSteps"); gs != nil && gs.Kind == Array && len(gs.Items) > 0 {
				counts[i] = int32(len(gs.Items))
			}
		}
	}
	return counts
}

// setupOf is the place among ids of the start holding the setup step 0
// (-1: none), and the steps counts give with it.
func setupOf(flow *Node, ids []string, counts []int32) (setup, total int) {
	for _, c := range counts {
		total += int(c)
	}
	setup = -1
	if start, ok := RefID(flow.Get("start_node")); ok && hasSetupStep(flow.Get("$referenced_components").Get(start)) {
		for i, id := range ids {
			if id == start {
				setup = i
				break
			}
		}
	}
	if setup >= 0 {
		total++
	}
	return setup, total
}

// stepOrder is FlowStepOrderOf of ids whose components and their types are
// comps and types.
func stepOrder(flow *Node, ids []string, comps []*Node, types []string) []StepNode {
	out := make([]StepNode, len(ids))
	// each node's step numbers are a capped window of one shared array
	// (one slice a step was 33,000 allocations a side): counted first,
	// filled second; the start's step 0, when it has one, opens the array
	counts, startAt, total := stepCounts(flow, ids, comps, types)
	nums := make([]int, 0, total)
	next := 1
	for i, id := range ids {
		out[i] = StepNode{ID: id, Position: i, ComponentType: types[i]}
		from := len(nums)
		if i == startAt {
			nums = append(nums, 0)
		}
		for k := int32(0); k < counts[i]; k++ {
			nums = append(nums, next)
			next++
		}
		if len(nums) > from {
			out[i].Steps = nums[from:len(nums):len(nums)]
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
