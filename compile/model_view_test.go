package compile

import (
	"strings"
	"sync"
	"testing"
)

// TestFlowView: the view of a flow model holds its listed nodes once each
// (a repeated entry is a repeat, an entry that resolves to nothing a node
// without a component), the edges between them that the Flow's scopes
// define, the start node and the compiler's BFS order; it is built once
// and every reader, concurrent ones included, reads that one.
func TestFlowView(t *testing.T) {
	a := loadModelFlow(t)
	fm := a.Model().Flows[0]
	views := make([]*FlowView, 8)
	var wg sync.WaitGroup
	for i := range views {
		wg.Add(1)
		go func() { defer wg.Done(); views[i] = fm.View() }()
	}
	wg.Wait()
	v := views[0]
	for i, w := range views {
		if w != v {
			t.Fatalf("reader %d got another view", i)
		}
	}
	var ids []string
	for i, n := range v.Nodes {
		if v.Index[n.Key] != i || n.Key != n.ID {
			t.Errorf("node %d %q is not indexed by its key", i, n.ID)
		}
		ids = append(ids, n.ID)
	}
	// the inline end has no id: no node; sib is defined outside the Flow's
	// scopes, ghost nowhere: nodes without a component
	if got := strings.Join(ids, " "); got != "start fn sib end ghost" {
		t.Fatalf("nodes %q", got)
	}
	if v.Nodes[2].Resolved.Node != nil || v.Nodes[4].Resolved.Node != nil || v.Nodes[1].Resolved.Node == nil {
		t.Error("a node outside the Flow's scopes, or one that does not resolve, has a component")
	}
	if len(v.Nodes[0].Repeats) != 1 || v.Nodes[0].Repeats[0] != "/nodes/4" || v.Nodes[0].Entry != "/nodes/0" {
		t.Errorf("start: entry %q, repeats %q", v.Nodes[0].Entry, v.Nodes[0].Repeats)
	}
	if v.Start != 0 || v.Nodes[0].BFS != 0 || v.Nodes[1].BFS != 1 {
		t.Errorf("start %d, BFS %d %d", v.Start, v.Nodes[0].BFS, v.Nodes[1].BFS)
	}
	// s-fn, fn-end (branch next), to-nowhere; to-outsider's end is no node
	if len(v.Edges) != 3 || v.Edges[1].From != 1 || v.Edges[1].To != 3 || v.Edges[1].Branch != "next" || v.Edges[2].To != 4 {
		t.Errorf("edges %+v", v.Edges)
	}
	if len(v.Data) != 1 || v.Data[0].From != 0 || v.Data[0].To != 1 || v.Data[0].Output != "x" {
		t.Errorf("data %+v", v.Data)
	}
	if a.Model().FlowOf(fm.Flow).View() != v {
		t.Error("FlowOf a Flow of the document gives another view")
	}
}
