package diff

import (
	"math/rand"
	"reflect"
	"testing"

	"github.com/oastui/oastui/flowgraph"
)

// TestSortedIDsShared: a flow's sorted ids are its nodes' keys in order,
// whether sorted on their own or taken from the other side's view (shared
// only when both graphs list the same ids in the same order), with ids
// repeated, reordered, added, removed and renamed between the sides.
func TestSortedIDsShared(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	mk := func(ids []string) *flowView {
		fv := &flowView{g: &flowgraph.Graph{}, nodes: map[string]*flowgraph.Node{}}
		for _, id := range ids {
			n := &flowgraph.Node{ID: id}
			fv.g.Nodes = append(fv.g.Nodes, n)
			fv.nodes[id] = n
		}
		return fv
	}
	for c := 0; c < 300; c++ {
		var a []string
		for i := 0; i < r.Intn(20); i++ {
			a = append(a, string(rune('a'+r.Intn(12))))
		}
		b := append([]string(nil), a...)
		switch r.Intn(5) {
		case 4: // one id renamed: the same length, another set
			if len(b) > 0 {
				b[r.Intn(len(b))] = "z"
			}
		case 1:
			r.Shuffle(len(b), func(i, j int) { b[i], b[j] = b[j], b[i] })
		case 2:
			b = append(b, string(rune('a'+r.Intn(14))))
		case 3:
			if len(b) > 0 {
				b = b[1:]
			}
		}
		of, nf := mk(a), mk(b)
		if r.Intn(2) == 0 {
			of.sortedIDs(nf)
		} else {
			nf.sortedIDs(of)
		}
		for _, f := range []struct {
			v, other *flowView
		}{{of, nf}, {nf, of}} {
			if got, want := f.v.sortedIDs(f.other), sortedKeys(f.v.nodes); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
				t.Fatalf("case %d: %q and %q: sorted %q, want %q", c, a, b, got, want)
			}
		}
	}
}
