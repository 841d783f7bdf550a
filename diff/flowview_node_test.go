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

// TestNodeAtAsNode: over every fixture side, a flow's sorted ids find by
// their places (nodeAt) what node finds by id, sorted on their own or
// shared with a copy of the same graph (the other side of a Flow edited in
// place); with an id repeated, no places are kept (node decides).
func TestNodeAtAsNode(t *testing.T) {
	check := func(name string, f *flowView) {
		for j, id := range f.sortedIDs(nil) {
			if got, want := f.nodeAt(j, id), f.node(id); got != want {
				t.Fatalf("%s: nodeAt(%d, %q) = %p, want %p", name, j, id, got, want)
			}
		}
	}
	placed := 0
	for _, dir := range fixtureSides(t) {
		opts := sideOptions(nil)
		opts.Agent = mustLoad(t, dir)
		v := view(analysis.Run(dir, opts))
		for fk, f := range v.flows {
			// the other side: the same graph's nodes, copied (a rename)
			g := *f.g
			g.Nodes = make([]*flowgraph.Node, len(f.g.Nodes))
			for i, n := range f.g.Nodes {
				c := *n
				c.Name += " renamed"
				g.Nodes[i] = &c
			}
			other := &flowView{g: &g, nodes: nil}
			if f.nodes != nil {
				other.nodes = map[string]*flowgraph.Node{}
				for _, n := range g.Nodes {
					other.nodes[n.ID] = n
				}
			}
			check(dir+" "+fk, f)
			if other.sortedIDs(f); len(g.Nodes) > 0 && &other.ids[0] != &f.ids[0] {
				t.Fatalf("%s %s: the copy's sort not shared", dir, fk)
			}
			check(dir+" "+fk+" (shared)", other)
			if f.at != nil {
				placed++
			}
		}
	}
	if placed == 0 {
		t.Fatal("no flow kept its nodes' places")
	}
	// an id twice: node finds the graph's last, so no places are kept
	a, b := &flowgraph.Node{ID: "x"}, &flowgraph.Node{ID: "x"}
	f := &flowView{g: &flowgraph.Graph{Nodes: []*flowgraph.Node{a, b}}}
	f.g.Nodes = append(f.g.Nodes, &flowgraph.Node{ID: "y"})
	f.nodes = nil
	if f.sortedIDs(nil); f.at != nil {
		t.Fatal("places kept for a repeated id")
	}
}
