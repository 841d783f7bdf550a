package locate

import (
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
)

// NewWith reads the flow models the face hands in (the snapshot's, built
// once per analysis) and builds none itself: each flow is asked for once,
// and the graph a symbol names is the one handed in.
func TestNewWithUsesHandedGraphs(t *testing.T) {
	a, err := compile.Load(filepath.Join("..", "testdata", "agents", "oastui", "example-agent"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	asked := map[string]int{}
	handed := map[*flowgraph.Graph]bool{}
	x := NewWith(a, func(ptr string) (*flowgraph.Graph, error) {
		asked[ptr]++
		g, err := flowgraph.Build(a, ptr)
		if g != nil {
			handed[g] = true
		}
		return g, err
	})
	nodes := 0
	compile.WalkNodes(a.Flow.Root, func(n *compile.Node) bool {
		id, ok := compile.RefID(n)
		if !ok {
			return true
		}
		s, ok := x.At(a.Flow.Path, n.Get("$component_ref").Offset+1)
		if ok && s.Graph != nil {
			nodes++
			if !handed[s.Graph] {
				t.Fatalf("%s: the symbol's graph was not the one handed in", id)
			}
		}
		return true
	})
	if nodes == 0 {
		t.Fatal("no symbol named a node of a graph")
	}
	if len(asked) != len(compile.Flows(a.Flow.Root)) {
		t.Errorf("asked for %d flows, the agent has %d", len(asked), len(compile.Flows(a.Flow.Root)))
	}
	for ptr, n := range asked {
		if n != 1 {
			t.Errorf("flow %q asked for %d times, want once", ptr, n)
		}
	}
}
