package diff

import (
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/flowgraph"
)

// TestFlowViewNodeAsMap: a flow view finds each node by id (node) as the
// map of the graph's nodes by id it built before did (the last node of an
// id wins), through the model graph's own index or, for fileGraph's copy
// without the injected steps, through its own map; ids it lacks find
// nothing, and size is the map's size. Over every fixture side, which
// include slim context slots injected at mount (the copy).
func TestFlowViewNodeAsMap(t *testing.T) {
	copies, own := 0, 0
	for _, dir := range fixtureSides(t) {
		opts := sideOptions(nil)
		opts.Agent = mustLoad(t, dir)
		v := view(analysis.Run(dir, opts))
		for fk, f := range v.flows {
			if f.nodes != nil {
				copies++
			} else {
				own++
			}
			want := map[string]*flowgraph.Node{}
			for _, n := range f.g.Nodes {
				want[n.ID] = n
			}
			for id, n := range want {
				if got := f.node(id); got != n {
					t.Fatalf("%s, flow %q: node(%q) = %p, want %p", dir, fk, id, got, n)
				}
				for _, absent := range []string{id + "\x00", "\x00" + id} {
					if want[absent] == nil && f.node(absent) != nil {
						t.Fatalf("%s, flow %q: node(%q) found a node", dir, fk, absent)
					}
				}
			}
			if f.size() != len(want) {
				t.Fatalf("%s, flow %q: size %d, want %d", dir, fk, f.size(), len(want))
			}
		}
	}
	if copies == 0 || own == 0 {
		t.Fatalf("%d flows through their own map, %d through the graph's index: both kinds are wanted", copies, own)
	}
	var nilView *flowView
	if nilView.node("a") != nil {
		t.Fatal("a missing flow found a node")
	}
}
