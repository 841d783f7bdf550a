package lint

import (
	"math/rand/v2"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestFeedsSameAsLists: the chained feeds give, for every node and input,
// the sources the lists per port gave (each edge once: a multiset), over
// random flows of repeated ports, unresolved ends and absent inputs.
func TestFeedsSameAsLists(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 11))
	for round := range 2000 {
		nodes := make([]compile.FlowNode, 1+r.IntN(6))
		titles := []string{"a", "b", "c", ""}
		m := &compile.FlowModel{}
		node := func() *compile.FlowNode {
			if r.IntN(6) == 0 {
				return nil
			}
			return &nodes[r.IntN(len(nodes))]
		}
		for range r.IntN(20) {
			m.Data = append(m.Data, compile.DataEdge{Input: titles[r.IntN(len(titles))],
				Source: compile.Endpoint{Node: node()}, Destination: compile.Endpoint{Node: node()}})
		}
		type port struct {
			n     *compile.FlowNode
			title string
		}
		want := map[port][]*compile.FlowNode{} // the lists of before
		for j := range m.Data {
			if e := &m.Data[j]; e.Destination.Node != nil && e.Source.Node != nil {
				k := port{e.Destination.Node, e.Input}
				want[k] = append(want[k], e.Source.Node)
			}
		}
		f := feedsOf(m)
		for i := range nodes {
			for _, title := range append(titles, "absent") {
				got := map[*compile.FlowNode]int{}
				f.each(m, &nodes[i], title, func(src *compile.FlowNode) { got[src]++ })
				w := map[*compile.FlowNode]int{}
				for _, src := range want[port{&nodes[i], title}] {
					w[src]++
				}
				if len(got) != len(w) {
					t.Fatalf("round %d: node %d, %q: %d sources, want %d", round, i, title, len(got), len(w))
				}
				for src, c := range w {
					if got[src] != c {
						t.Fatalf("round %d: node %d, %q: a source %d times, want %d", round, i, title, got[src], c)
					}
				}
			}
		}
	}
	var none dataFeeds // the zero value (plain ports): no sources
	none.each(&compile.FlowModel{}, &compile.FlowNode{}, "a", func(*compile.FlowNode) { t.Fatal("a source from no feeds") })
}
