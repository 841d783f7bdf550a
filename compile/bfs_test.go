package compile

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"
)

// bfsOrderMaps is BFSOrder as it was written before ids were numbered
// (maps of strings, visited checked at dequeue): the oracle of
// TestBFSOrderAsMaps.
func bfsOrderMaps(flow *Node) []string {
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

// TestBFSOrderAsMaps: the numbered search orders random flows (loops,
// duplicate edges and entries, edges naming unlisted ids or one end only,
// an empty id, a start not in nodes, entries that are no reference) as
// the map-based one did.
func TestBFSOrderAsMaps(t *testing.T) {
	r := rand.New(rand.NewSource(7))
	ref := func(id string) string { return fmt.Sprintf(`{"$component_ref":%q}`, id) }
	for c := 0; c < 400; c++ {
		n := 1 + r.Intn(12)
		id := func() string {
			switch r.Intn(20) {
			case 0:
				return ""
			case 1:
				return "ghost"
			}
			return fmt.Sprintf("n%d", r.Intn(n))
		}
		var nodes, edges []string
		for i := 0; i < n+r.Intn(3); i++ {
			switch r.Intn(12) {
			case 0:
				nodes = append(nodes, `{"id":"inline"}`)
			case 1:
				nodes = append(nodes, `"n0"`)
			default:
				nodes = append(nodes, ref(id()))
			}
		}
		for i := 0; i < r.Intn(3*n); i++ {
			switch r.Intn(10) {
			case 0:
				edges = append(edges, fmt.Sprintf(`{"from_node":%s}`, ref(id())))
			case 1:
				edges = append(edges, `[1,2]`)
			default:
				edges = append(edges, fmt.Sprintf(`{"from_node":%s,"to_node":%s}`, ref(id()), ref(id())))
			}
		}
		start := ""
		if r.Intn(8) > 0 {
			start = `"start_node":` + ref(id()) + `,`
		}
		src := `{"component_type":"Flow",` + start + `"nodes":[` + strings.Join(nodes, ",") + `],"control_flow_connections":[` + strings.Join(edges, ",") + `]}`
		d := ParseDoc("f.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		if got, want := BFSOrder(d.Root), bfsOrderMaps(d.Root); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: %s\nBFSOrder %q\nwant     %q", c, src, got, want)
		}
	}
}

// flowStepOrderMaps is FlowStepOrderOf as it was written before the
// components were looked up through the parser's key index (a map of every
// member, the last of a repeated key kept): the oracle of
// TestFlowStepOrderAsMaps.
func flowStepOrderMaps(flow *Node, ids []string) []StepNode {
	refs := flow.Get("$referenced_components")
	byID := map[string]*Node{}
	if refs.Is(Object) {
		for _, m := range refs.Members {
			byID[m.Key] = m.Value
		}
	}
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

// TestFlowStepOrderAsMaps: the step order looked up through Get numbers
// random flows as the map of every component did: components repeated
// (the last wins) in objects below and above the key index's size, ids
// naming no component, a $referenced_components that is no object, gate
// steps, and start nodes with and without a setup step.
func TestFlowStepOrderAsMaps(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	ref := func(id string) string { return fmt.Sprintf(`{"$component_ref":%q}`, id) }
	types := []string{"StartNode", "EndNode", "AgentNode", "InputMessageNode", "FlowNode", "ApiNode", ""}
	for c := 0; c < 400; c++ {
		n := 1 + r.Intn(3*keyIndexMin)
		var nodes, edges, comps []string
		for i := 0; i < n; i++ {
			nodes = append(nodes, ref(fmt.Sprintf("n%d", r.Intn(n+2))))
			if r.Intn(3) > 0 {
				edges = append(edges, fmt.Sprintf(`{"from_node":%s,"to_node":%s}`, ref(fmt.Sprintf("n%d", r.Intn(n))), ref(fmt.Sprintf("n%d", r.Intn(n)))))
			}
		}
		for i := 0; i < n+r.Intn(n+1); i++ { // some ids repeat, some are missing
			typ := types[r.Intn(len(types))]
			meta := ""
			switch {
			case typ == "FlowNode" && r.Intn(2) == 0:
				meta = fmt.Sprintf(`,"metadata":{"cinatra":{"gateSteps":[%s]}}`, strings.Repeat(`{},`, r.Intn(3))+`{}`)
			case typ == "StartNode" && r.Intn(2) == 0:
				meta = `,"metadata":{"cinatra":{"required":["a","b"],"hidden":["a"]}}`
			}
			comps = append(comps, fmt.Sprintf(`"n%d":{"component_type":%q%s}`, r.Intn(n+1), typ, meta))
		}
		refs := `{` + strings.Join(comps, ",") + `}`
		if r.Intn(20) == 0 {
			refs = `[1]`
		}
		src := `{"component_type":"Flow","start_node":` + ref(fmt.Sprintf("n%d", r.Intn(n))) + `,"nodes":[` + strings.Join(nodes, ",") +
			`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":` + refs + `}`
		d := ParseDoc("f.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		ids := BFSOrder(d.Root)
		if got, want := FlowStepOrderOf(d.Root, ids), flowStepOrderMaps(d.Root, ids); !reflect.DeepEqual(got, want) {
			t.Fatalf("case %d: %s\ngot  %+v\nwant %+v", c, src, got, want)
		}
	}
}

// TestStepOrderOwnEach: each node's step numbers are a window of one
// shared array, capped, so that growing one node's list never writes
// into the next node's.
func TestStepOrderOwnEach(t *testing.T) {
	src := `{"component_type":"Flow","start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"a"},{"$component_ref":"f"},{"$component_ref":"b"}],` +
		`"control_flow_connections":[{"from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"a"}},{"from_node":{"$component_ref":"a"},"to_node":{"$component_ref":"f"}},{"from_node":{"$component_ref":"f"},"to_node":{"$component_ref":"b"}}],` +
		`"$referenced_components":{"s":{"component_type":"StartNode","metadata":{"cinatra":{"required":["x"]}}},"a":{"component_type":"AgentNode"},` +
		`"f":{"component_type":"FlowNode","metadata":{"cinatra":{"gateSteps":[{},{}]}}},"b":{"component_type":"AgentNode"}}}`
	d := ParseDoc("f.json", []byte(src))
	order := FlowStepOrder(d.Root)
	want := FlowStepOrder(d.Root)
	for i := range order {
		order[i].Steps = append(order[i].Steps, -1)
	}
	for i := range order {
		if got := order[i].Steps[:len(order[i].Steps)-1]; !reflect.DeepEqual(got, want[i].Steps) {
			t.Fatalf("node %s: %v after appending to each, want %v", order[i].ID, got, want[i].Steps)
		}
	}
	if len(want) != 4 || !reflect.DeepEqual(want[0].Steps, []int{0}) || !reflect.DeepEqual(want[2].Steps, []int{2, 3}) {
		t.Fatalf("unexpected order %+v", want)
	}
}
