package compile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// componentsBefore is componentsOf as it was before it tried the member
// after the last one found (a Get per id): the oracle of
// TestComponentsNearAsGet.
func componentsBefore(flow *Node, ids []string) ([]*Node, []string) {
	refs := flow.Get("$referenced_components")
	comps, types := make([]*Node, len(ids)), make([]string, len(ids))
	for i, id := range ids {
		comps[i] = refs.Get(id)
		types[i] = ComponentType(comps[i])
	}
	return comps, types
}

// TestComponentsNearAsGet: componentsOf finds for each id the component
// Get finds (the same node) and its type, on random definitions many
// enough to be indexed and not, with keys repeated, ids defined nowhere,
// ids in the definitions' order, shuffled and repeated; then on the BFS
// order of every Flow of the hostile flow, the corpus and the history,
// and that order reversed.
func TestComponentsNearAsGet(t *testing.T) {
	same := func(t *testing.T, what string, flow *Node, ids []string) {
		t.Helper()
		gc, gt := componentsOf(flow, ids)
		wc, wt := componentsBefore(flow, ids)
		for i := range ids {
			if gc[i] != wc[i] {
				t.Fatalf("%s: id %d %q: another component", what, i, ids[i])
			}
		}
		if !reflect.DeepEqual(gt, wt) {
			t.Fatalf("%s: types %q, want %q", what, gt, wt)
		}
	}
	r := rand.New(rand.NewSource(12))
	types := []string{"FlowNode", "AgentNode", "EndNode", "StartNode"}
	for c := 0; c < 2000/race.Stride(8); c++ {
		n := 1 + r.Intn(40)
		var defs []string
		perm := r.Perm(n)
		if r.Intn(2) == 0 {
			for i := range perm {
				perm[i] = i
			}
		}
		for _, i := range perm {
			if r.Intn(10) > 0 {
				defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q}`, i, types[r.Intn(len(types))]))
			}
			if r.Intn(30) == 0 { // a key repeated: Get finds the last
				defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q}`, r.Intn(n), types[r.Intn(len(types))]))
			}
			if r.Intn(20) == 0 {
				defs = append(defs, `"x":3`)
			}
		}
		var ids []string
		for i := 0; i < n+r.Intn(4); i++ {
			switch r.Intn(12) {
			case 0:
				ids = append(ids, "ghost")
			case 1:
				ids = append(ids, fmt.Sprint("n", r.Intn(n)))
			case 2:
				ids = append(ids, "x")
			default:
				ids = append(ids, fmt.Sprint("n", i%n))
			}
		}
		src := `{"component_type":"Flow","$referenced_components":{` + strings.Join(defs, ",") + `}}`
		if r.Intn(20) == 0 {
			src = `{"component_type":"Flow","$referenced_components":[1,2]}`
		}
		d := ParseDoc("f.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		same(t, fmt.Sprintf("case %d: %s %q", c, src, ids), d.Root, ids)
	}
	flows := func(t *testing.T, what string, src []byte) {
		t.Helper()
		d := ParseDoc(what, src)
		if d.Root == nil {
			return
		}
		for _, f := range Flows(d.Root) {
			ids := BFSOrder(f.Node)
			same(t, what+" "+f.Pointer, f.Node, ids)
			rev := append([]string(nil), ids...)
			for i, j := 0, len(rev)-1; i < j; i, j = i+1, j-1 {
				rev[i], rev[j] = rev[j], rev[i]
			}
			same(t, what+" reversed "+f.Pointer, f.Node, rev)
		}
	}
	flows(t, "hostile", hostile.Flow(3000, true))
	// the corpus and the history need ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			p := filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json")
			src, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			flows(t, p, src)
		}
	})
	t.Run("history", func(t *testing.T) {
		revs, _ := filepath.Glob(filepath.Join(testshared.Dir(t, "corpus", "history"), "*", "*", "cinatra", "oas.json"))
		if len(revs) < 150 {
			t.Fatalf("%d history revisions, want the 156", len(revs))
		}
		for i := 0; i < len(revs); i += race.Stride(8) {
			src, err := os.ReadFile(revs[i])
			if err != nil {
				t.Fatal(err)
			}
			flows(t, revs[i], src)
		}
	})
}
