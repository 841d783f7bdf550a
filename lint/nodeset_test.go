package lint

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// reachableRef and pathAvoidingRef are reachable and pathAvoiding as they
// were with maps: the oracles of TestNodeSetSearchesAsMaps.
func reachableRef(m *compile.FlowModel) map[*compile.FlowNode]bool {
	seen := map[*compile.FlowNode]bool{}
	s := m.StartNode()
	if s == nil {
		return seen
	}
	queue := []*compile.FlowNode{s}
	seen[s] = true
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range n.Out {
			if t := e.To.Node; t != nil && !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return seen
}

func pathAvoidingRef(start, target *compile.FlowNode, avoid map[*compile.FlowNode]bool) bool {
	if avoid[start] {
		return false
	}
	seen := map[*compile.FlowNode]bool{start: true}
	queue := []*compile.FlowNode{start}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, e := range n.Out {
			t := e.To.Node
			if t == nil || seen[t] {
				continue
			}
			if t == target {
				return true
			}
			seen[t] = true
			if !avoid[t] {
				queue = append(queue, t)
			}
		}
	}
	return false
}

// nodeSetFlow is a random Flow of up to 12 nodes (some listed twice, some
// missing from $referenced_components, one inline) and random control
// edges between them, to missing nodes and to inline ones.
func nodeSetFlow(r *rand.Rand) string {
	n := 1 + r.Intn(12)
	ref := func() string {
		switch r.Intn(12) {
		case 0:
			return `{"component_type":"EndNode","id":"inline","name":"inline"}`
		case 1:
			return `{"$component_ref":"missing"}`
		}
		return fmt.Sprintf(`{"$component_ref":"n%d"}`, r.Intn(n))
	}
	var nodes, edges, defs []string
	for i := 0; i < n; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, i))
		if r.Intn(8) == 0 {
			nodes = append(nodes, ref())
		}
		ct := "LlmNode"
		if i == 0 {
			ct = "StartNode"
		}
		defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q,"id":"n%d","name":"n%d"}`, i, ct, i, i))
	}
	for i, k := 0, r.Intn(3*n+1); i < k; i++ {
		edges = append(edges, fmt.Sprintf(`{"component_type":"ControlFlowEdge","name":"e%d","from_node":%s,"to_node":%s}`, i, ref(), ref()))
	}
	start := `{"$component_ref":"n0"}`
	if r.Intn(10) == 0 {
		start = ref()
	}
	return `{"component_type":"Flow","id":"f","name":"f","start_node":` + start + `,"nodes":[` + strings.Join(nodes, ",") +
		`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(defs, ",") + `}}`
}

// TestNodeSetSearchesAsMaps: reachable and pathAvoiding over node sets
// answer what the map versions did, for every node of 2,000 random Flows
// and random sets to avoid (with nodes of another flow in them: the sets'
// map side), the search scratch reused from one call to the next.
func TestNodeSetSearchesAsMaps(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	other := &compile.FlowNode{ID: "other"}
	searched := 0
	for i := 0; i < 2000/race.Stride(8); i++ {
		src := nodeSetFlow(r)
		a := &compile.Agent{FlowPath: "oas.json", Flow: compile.ParseDoc("oas.json", []byte(src)), Profile: compile.ProfileCinatra}
		if a.Flow.Root == nil {
			t.Fatalf("flow %d does not parse: %v", i, a.Flow.Err)
		}
		for _, m := range a.Model().Flows {
			reach, want := reachable(m), reachableRef(m)
			for k := range m.Nodes {
				if n := &m.Nodes[k]; reach.has(n) != want[n] {
					t.Fatalf("flow %d: node %s reachable %v, the map %v\n%s", i, n.ID, reach.has(n), want[n], src)
				}
			}
			if reach.n != len(want) {
				t.Fatalf("flow %d: %d reachable, the map %d", i, reach.n, len(want))
			}
			start := m.StartNode()
			if start == nil {
				continue
			}
			avoid, seen := newNodeSet(m), newNodeSet(m)
			var queue []*compile.FlowNode
			for k := range m.Nodes {
				avoid.reset()
				avoidRef := map[*compile.FlowNode]bool{}
				for j := range m.Nodes {
					if r.Intn(4) == 0 {
						avoid.add(&m.Nodes[j])
						avoidRef[&m.Nodes[j]] = true
					}
				}
				if r.Intn(3) == 0 {
					avoid.add(other)
					avoidRef[other] = true
				}
				if avoid.n != len(avoidRef) {
					t.Fatalf("flow %d: a set of %d, the map %d", i, avoid.n, len(avoidRef))
				}
				var got bool
				got, queue = pathAvoiding(start, &m.Nodes[k], &avoid, &seen, queue)
				if got != pathAvoidingRef(start, &m.Nodes[k], avoidRef) {
					t.Fatalf("flow %d: path to %s avoiding %v: %v\n%s", i, m.Nodes[k].ID, avoidRef, got, src)
				}
				searched++
			}
		}
	}
	if searched < 5000/race.Stride(8) {
		t.Errorf("only %d searches", searched)
	}
}
