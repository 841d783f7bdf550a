package lint

import (
	"math/rand/v2"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestFeedsSameAsLists: the chained feeds give, for every node and input,
// the sources the lists per port gave (each edge once: a multiset), over
// random flows of repeated ports, unresolved ends and absent inputs; the
// nodes the flow's own (the chain per node), or not (the map), or its own
// but for a foreign destination or a node fed by more than feedsChainMax
// edges (the map again).
func TestFeedsSameAsLists(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 11))
	chained := 0
	for round := range 3000 {
		nodes := make([]compile.FlowNode, 1+r.IntN(6))
		titles := []string{"a", "b", "c", ""}
		m := &compile.FlowModel{}
		if round%3 != 0 {
			m.Nodes = nodes
		}
		foreign := &compile.FlowNode{}
		node := func() *compile.FlowNode {
			if r.IntN(6) == 0 {
				return nil
			}
			if round%5 == 1 && r.IntN(40) == 0 {
				return foreign
			}
			return &nodes[r.IntN(len(nodes))]
		}
		edges := r.IntN(20)
		if round%7 == 2 {
			edges = feedsChainMax * (1 + r.IntN(len(nodes)+1))
		}
		for range edges {
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
		if f.byNode != nil {
			chained++
		}
		for i := range len(nodes) + 1 {
			dst := foreign
			if i < len(nodes) {
				dst = &nodes[i]
			}
			for _, title := range append(titles, "absent") {
				got := map[*compile.FlowNode]int{}
				f.each(m, dst, title, func(src *compile.FlowNode) { got[src]++ })
				w := map[*compile.FlowNode]int{}
				for _, src := range want[port{dst, title}] {
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
	if chained < 1000 {
		t.Errorf("only %d flows chained per node", chained)
	}
	var none dataFeeds // the zero value (plain ports): no sources
	none.each(&compile.FlowModel{}, &compile.FlowNode{}, "a", func(*compile.FlowNode) { t.Fatal("a source from no feeds") })
}
