package compile

import (
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// sameLinks holds every node's Out and In to the lists the edge loop
// appended before linkControl (each control edge, in order, to its from
// node's Out and its to node's In): the same edges in the same order, nil
// for none, and each list at its exact capacity so that an append cannot
// write into the next node's. It returns the edges linked.
func sameLinks(t *testing.T, name string, m *Model) int {
	t.Helper()
	n := 0
	for _, fm := range m.Flows {
		out, in := map[*FlowNode][]*ControlEdge{}, map[*FlowNode][]*ControlEdge{}
		for i := range fm.Control {
			c := &fm.Control[i]
			if c.From.Node != nil {
				out[c.From.Node] = append(out[c.From.Node], c)
				n++
			}
			if c.To.Node != nil {
				in[c.To.Node] = append(in[c.To.Node], c)
				n++
			}
		}
		for k := range fm.Nodes {
			node := &fm.Nodes[k]
			for _, l := range []struct {
				what      string
				got, want []*ControlEdge
			}{{"Out", node.Out, out[node]}, {"In", node.In, in[node]}} {
				if !slices.Equal(l.got, l.want) || (l.got == nil) != (l.want == nil) || cap(l.got) != len(l.got) {
					t.Fatalf("%s, Flow %s, node %s: %s %v (cap %d), appended %v", name, fm.Flow.Pointer, node.ID, l.what, l.got, cap(l.got), l.want)
				}
			}
			delete(out, node)
			delete(in, node)
		}
		if len(out)+len(in) != 0 {
			t.Fatalf("%s, Flow %s: an edge names a node that is not the flow's", name, fm.Flow.Pointer)
		}
	}
	return n
}

// TestControlLinksAsAppended: linkControl's lists are the appended ones in
// the bundled agents, the corpus and 3,000 random Flows (edges to missing,
// inline, repeated and outer nodes, subflows).
func TestControlLinksAsAppended(t *testing.T) {
	var dirs []string
	if ents, err := os.ReadDir(filepath.Join("..", "testdata", "agents", "oastui")); err == nil {
		for _, e := range ents {
			dirs = append(dirs, filepath.Join("..", "testdata", "agents", "oastui", e.Name()))
		}
	}
	linked := 0
	t.Run("corpus", func(t *testing.T) { // needs ../shared (skipped without it)
		corpus, slugs := testshared.CorpusAgents(t)
		n := 0
		for _, s := range slugs {
			dir := filepath.Join(corpus, "agents", "cinatra-ai", s)
			if a, err := Load(dir, LoadOptions{}); err == nil && a.Flow != nil && a.Flow.Root != nil {
				n += sameLinks(t, dir, buildModel(a))
			}
		}
		if n < 300 {
			t.Errorf("only %d control edges of the corpus linked", n)
		}
	})
	for _, dir := range dirs {
		a, err := Load(dir, LoadOptions{})
		if err != nil || a.Flow == nil || a.Flow.Root == nil {
			continue
		}
		linked += sameLinks(t, dir, buildModel(a))
	}
	if linked == 0 {
		t.Error("no control edge of the bundled agents linked")
	}
	rng := rand.New(rand.NewSource(39))
	random := 0
	for i := 0; i < 3000/race.Stride(8); i++ {
		src := randomFlowSrc(rng)
		a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", []byte(src))}
		if a.Flow.Root == nil {
			continue
		}
		random += sameLinks(t, src, buildModel(a))
	}
	if random < 3000/race.Stride(8) {
		t.Errorf("only %d control edges of the random Flows linked", random)
	}
}
