package diff

import (
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// flowsSideBySide is a chain of n FlowNodes each calling its own subflow
// (n Flows side by side in $referenced_components). node(i) and flow(i)
// name the i-th FlowNode and its Flow.
func flowsSideBySide(n int, node, flow func(int) string) []byte {
	var nodes, edges, comps []string
	nodes = append(nodes, `{"$component_ref":"s"}`)
	comps = append(comps, `"s":{"component_type":"StartNode","id":"s","name":"s"}`, `"e":{"component_type":"EndNode","id":"e","name":"e"}`)
	prev := "s"
	for i := 0; i < n; i++ {
		m, q := node(i), flow(i)
		nodes = append(nodes, `{"$component_ref":"`+m+`"}`)
		comps = append(comps, `"`+m+`":{"component_type":"FlowNode","id":"`+m+`","name":"`+m+`","subflow":{"$component_ref":"`+q+`"}}`,
			`"`+q+`":{"component_type":"Flow","id":"`+q+`","name":"`+q+`","start_node":{"$component_ref":"`+q+`s"},"nodes":[{"$component_ref":"`+q+`s"},{"$component_ref":"`+q+`x"},{"$component_ref":"`+q+`e"}],`+
				`"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"`+q+`a","from_node":{"$component_ref":"`+q+`s"},"to_node":{"$component_ref":"`+q+`x"}},{"component_type":"ControlFlowEdge","name":"`+q+`b","from_node":{"$component_ref":"`+q+`x"},"to_node":{"$component_ref":"`+q+`e"}}],"data_flow_connections":[],"inputs":[],"outputs":[],`+
				`"$referenced_components":{"`+q+`s":{"component_type":"StartNode","id":"`+q+`s","name":"s"},"`+q+`x":{"component_type":"FlowNode","id":"`+q+`x","name":"x","subflow":{"$component_ref":"leaf"}},"`+q+`e":{"component_type":"EndNode","id":"`+q+`e","name":"e"}}}`)
		edges = append(edges, `{"component_type":"ControlFlowEdge","name":"c`+m+`","from_node":{"$component_ref":"`+prev+`"},"to_node":{"$component_ref":"`+m+`"}}`)
		prev = m
	}
	nodes = append(nodes, `{"$component_ref":"e"}`)
	edges = append(edges, `{"component_type":"ControlFlowEdge","name":"cend","from_node":{"$component_ref":"`+prev+`"},"to_node":{"$component_ref":"e"}}`)
	comps = append(comps, `"leaf":{"component_type":"Flow","id":"leaf","name":"Leaf","start_node":{"$component_ref":"l0"},"nodes":[{"$component_ref":"l0"},{"$component_ref":"l1"}],"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"lc","from_node":{"$component_ref":"l0"},"to_node":{"$component_ref":"l1"}}],"data_flow_connections":[],"inputs":[],"outputs":[],"$referenced_components":{"l0":{"component_type":"StartNode","id":"l0","name":"L0"},"l1":{"component_type":"EndNode","id":"l1","name":"L1"}}}`)
	return []byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[` +
		strings.Join(nodes, ",") + `],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(comps, ",") + `}}`)
}

// subflowGroupsPlain is subflowGroups before its index: each flow only one
// side has searched every node of every flow for a call (the oracle).
func (d *differ) subflowGroupsPlain() map[string]bool {
	out := map[string]bool{}
	for _, side := range []struct{ v, other *sideView }{{d.old, d.new}, {d.new, d.old}} {
		for fk, f := range side.v.flows {
			if fk == "" || side.other.flows[fk] != nil {
				continue
			}
			for pk, pf := range side.v.flows {
				for _, n := range pf.g.Nodes {
					if slices.Contains(n.Subflows, f.g.FlowPointer) && (side.other.flows[pk] == nil || side.other.flows[pk].node(n.ID) == nil) {
						out[fk] = true
					}
				}
			}
		}
	}
	return out
}

// flowsAtPlain is what groupSubflow found by scanning every flow.
func (v *sideView) flowsAtPlain(sp string) []string {
	var out []string
	for fk, f := range v.flows {
		if f.g.FlowPointer == sp {
			out = append(out, fk)
		}
	}
	slices.Sort(out)
	return out
}

// TestSubflowGroupsSameAsPlain: on pairs of flows side by side where some
// FlowNodes, some Flows or both are renamed, subflowGroups groups the same
// flows as the plain search, and flowsAt finds the flows the scan did.
func TestSubflowGroupsSameAsPlain(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 73))
	for round := 0; round < 12; round += race.Stride(4) {
		n := 1 + r.IntN(12)
		renNode, renFlow := make([]bool, n), make([]bool, n)
		for i := range n {
			renNode[i], renFlow[i] = r.IntN(3) == 0, r.IntN(3) == 0
		}
		old := flowsSideBySide(n, func(i int) string { return fmt.Sprintf("m%d", i) }, func(i int) string { return fmt.Sprintf("q%d", i) })
		nw := flowsSideBySide(n, func(i int) string {
			if renNode[i] {
				return fmt.Sprintf("rm%d", i)
			}
			return fmt.Sprintf("m%d", i)
		}, func(i int) string {
			if renFlow[i] {
				return fmt.Sprintf("rq%d", i)
			}
			return fmt.Sprintf("q%d", i)
		})
		o, ns := hostilePair(t, old, nw)
		d := &differ{old: view(o), new: view(ns), opts: Options{MaxChanges: DefaultMaxChanges}, budget: newBudget()}
		got, want := d.subflowGroups(nil), d.subflowGroupsPlain()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("round %d (%v %v): subflowGroups %v, plain %v", round, renNode, renFlow, got, want)
		}
		for _, v := range []*sideView{d.old, d.new} {
			for _, f := range v.flows {
				for _, x := range f.g.Nodes {
					for _, sp := range x.Subflows {
						at := slices.Sorted(slices.Values(v.flowsAt(sp)))
						if plain := v.flowsAtPlain(sp); !slices.Equal(at, plain) {
							t.Fatalf("flowsAt(%q) = %v, the scan %v", sp, at, plain)
						}
					}
				}
			}
		}
	}
}

// BenchmarkDiffFlowsSideBySide: the diff's checks between two chains of n
// FlowNodes, each calling its own Flow, whose nodes and Flows are all
// renamed. Per flow it should stay flat as n grows: each flow only one side
// has searched every node of every flow for its caller, and each changed
// FlowNode scanned every flow for its subflow (5,000 flows: 23 s).
func BenchmarkDiffFlowsSideBySide(b *testing.B) {
	for _, n := range []int{500, 2000} {
		o, nw := hostilePair(b, flowsSideBySide(n, func(i int) string { return fmt.Sprintf("m%d", i) }, func(i int) string { return fmt.Sprintf("q%d", i) }),
			flowsSideBySide(n, func(i int) string { return fmt.Sprintf("rm%d", i) }, func(i int) string { return fmt.Sprintf("rq%d", i) }))
		opts := Options{MaxChanges: DefaultMaxChanges}
		b.Run(fmt.Sprintf("flows=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Diff(o, nw, opts)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/flow")
		})
	}
}
