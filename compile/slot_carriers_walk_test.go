package compile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// slotCarriersEveryObject is slotCarriers as it was before the walk asked
// for metadata first and skipped scalars: isFlowDefinition at every
// object, a call at every value. The oracle of TestSlotCarriersSameAsWalk.
func slotCarriersEveryObject(root *Node) []*slotCarrier {
	var out []*slotCarrier
	consider := func(n *Node, isRoot bool) {
		c := mountMeta(n)
		raw := c.Get("contextSlots")
		if raw == nil || raw.Kind == Null {
			return
		}
		sc := &slotCarrier{def: n, raw: raw}
		if !isRoot {
			sc.id = n.Get("id").StringOr("")
		}
		if sc.id != "" {
			sc.label = fmt.Sprintf("definition %q", sc.id)
		} else {
			sc.label = "root flow"
		}
		out = append(out, sc)
	}
	consider(root, true)
	var walk func(n *Node)
	walk = func(n *Node) {
		switch n.Kind {
		case Array:
			for _, it := range n.Items {
				walk(it)
			}
		case Object:
			if isFlowDefinition(n) {
				consider(n, false)
			}
			for _, mem := range n.Members {
				walk(mem.Value)
			}
		}
	}
	for _, mem := range root.Members {
		walk(mem.Value)
	}
	return out
}

func sameCarriers(t *testing.T, what string, root *Node) {
	t.Helper()
	got, want := slotCarriers(root), slotCarriersEveryObject(root)
	if len(got) != len(want) {
		t.Fatalf("%s: %d carriers, want %d", what, len(got), len(want))
	}
	for i := range got {
		g, w := got[i], want[i]
		if g.def != w.def || g.raw != w.raw || g.id != w.id || g.label != w.label {
			t.Fatalf("%s: carrier %d = %+v, want %+v", what, i, *g, *w)
		}
	}
}

// randCarrierDoc writes a random document of nested objects and arrays
// whose objects may hold (repeated) ids, start_node, nodes,
// $referenced_components and metadata of every kind, with or without
// cinatra.contextSlots.
func randCarrierDoc(r *rand.Rand, depth int) string {
	if depth > 4 || r.Intn(6) == 0 {
		return [...]string{`1`, `"s"`, `null`, `true`, `[]`, `{}`}[r.Intn(6)]
	}
	if r.Intn(4) == 0 {
		var items []string
		for i, n := 0, r.Intn(4); i < n; i++ {
			items = append(items, randCarrierDoc(r, depth+1))
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	var mems []string
	if r.Intn(3) == 0 { // a carrier, unless a later member spoils it
		mems = append(mems, `"id":"f"`, `"nodes":[]`, `"metadata":{"cinatra":{"contextSlots":[]}}`)
	}
	for i, n := 0, r.Intn(7); i < n; i++ {
		var m string
		switch r.Intn(10) {
		case 0:
			m = `"id":` + [...]string{`"f"`, `""`, `1`, `null`}[r.Intn(4)]
		case 1:
			m = `"start_node":` + [...]string{`"s"`, `{}`, `1`}[r.Intn(3)]
		case 2:
			m = `"nodes":` + [...]string{`[]`, `{}`, randCarrierDoc(r, depth+1)}[r.Intn(3)]
		case 3:
			m = `"$referenced_components":` + [...]string{`{}`, `[]`, randCarrierDoc(r, depth+1)}[r.Intn(3)]
		case 4, 5:
			slots := [...]string{`[]`, `null`, `[{"slotId":"a"}]`, `1`}[r.Intn(4)]
			m = `"metadata":` + [...]string{`null`, `[]`, `{}`, `{"cinatra":[]}`, `{"cinatra":{}}`,
				`{"cinatra":{"contextSlots":` + slots + `}}`,
				`{"cinatra":{"contextSlots":` + slots + `},"cinatra":{"packageName":"p"}}`}[r.Intn(7)]
		default:
			m = fmt.Sprintf(`"k%d":%s`, r.Intn(3), randCarrierDoc(r, depth+1))
		}
		mems = append(mems, m)
	}
	return "{" + strings.Join(mems, ",") + "}"
}

func TestSlotCarriersSameAsWalk(t *testing.T) {
	r := rand.New(rand.NewSource(17))
	found := 0
	for i := 0; i < 4000; i += race.Stride(8) {
		src := randCarrierDoc(r, 0)
		d := ParseDoc("oas.json", []byte(src))
		if d.Root == nil || d.Root.Kind != Object {
			continue
		}
		sameCarriers(t, src, d.Root)
		found += len(slotCarriersEveryObject(d.Root))
	}
	if found == 0 {
		t.Fatal("no random document held a carrier")
	}
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			p := filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json")
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if d := ParseDoc("oas.json", b); d.Root != nil && d.Root.Kind == Object {
				sameCarriers(t, p, d.Root)
			}
		}
	})
}
