package compile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// edgeEndsBefore is how BFSOrder read an edge's ends before edgeEnds:
// the oracle of TestEdgeEndsAsBefore.
func edgeEndsBefore(e *Node) (from, to string) {
	from, _ = RefID(get(e, "from_node"))
	to, _ = RefID(get(e, "to_node"))
	return from, to
}

// TestEdgeEndsAsBefore: edgeEnds reads the ends edgeEndsBefore reads on
// random entries of control_flow_connections (members in any order,
// repeated keys, keys written with escapes, keys of the same length,
// objects large enough for the parser's key index, ends that are no
// object, references with a value that is no string, with a second
// member, repeated), then on every edge of the hostile flow, the corpus
// and the history.
func TestEdgeEndsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(20))
	end := func() string {
		switch r.Intn(12) {
		case 0:
			return `null`
		case 1:
			return `"n1"`
		case 2:
			return `[{"$component_ref":"n2"}]`
		case 3:
			return `{"$component_ref":7}`
		case 4:
			return `{"$component_ref":"n3","x":1}`
		case 5:
			return `{"x":1,"$component_ref":"n4"}`
		case 6:
			return `{"$component_ref":"n5","$component_ref":"n6"}`
		case 7:
			return `{"\u0024component_ref":"n8"}`
		case 8:
			return `{"$component_ref":""}`
		case 9:
			return `{}`
		}
		return fmt.Sprintf(`{"$component_ref":"n%d"}`, r.Intn(50))
	}
	keys := []string{"from_node", "to_node", `from\u005fnode`, `to_nod\u0065`, "from_nodX", "to_nodx", "from_branch", "id", "name", "component_type", "metadata"}
	same := func(t *testing.T, what string, e *Node) {
		t.Helper()
		f, to := edgeEnds(e)
		wf, wt := edgeEndsBefore(e)
		if f != wf || to != wt {
			t.Fatalf("%s\nedgeEnds %q %q\nbefore   %q %q", what, f, to, wf, wt)
		}
	}
	for c := 0; c < 3000/race.Stride(24); c++ {
		var ms []string
		for k := r.Intn(8); k >= 0; k-- {
			ms = append(ms, `"`+keys[r.Intn(len(keys))]+`":`+end())
		}
		if r.Intn(6) == 0 { // many members: indexed by the parser
			for k := 0; k < 40; k++ {
				ms = append(ms, fmt.Sprintf(`"k%d":%d`, k, k))
			}
			r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		}
		src := `{` + strings.Join(ms, ",") + `}`
		switch r.Intn(20) {
		case 0:
			src = `[` + src + `]`
		case 1:
			src = `"edge"`
		}
		d := ParseDoc("e.json", []byte(`{"control_flow_connections":[`+src+`]}`))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		same(t, fmt.Sprintf("case %d: %s", c, src), d.Root.Get("control_flow_connections").Items[0])
	}
	same(t, "nil", nil)
	flows := func(t *testing.T, what string, src []byte) {
		t.Helper()
		d := ParseDoc(what, src)
		if d.Root == nil {
			return
		}
		for _, f := range Flows(d.Root) {
			for i, e := range f.Node.Get("control_flow_connections").itemsOrNil() {
				same(t, fmt.Sprintf("%s %s edge %d", what, f.Pointer, i), e)
			}
		}
	}
	flows(t, "hostile", hostile.Flow(3000/race.Stride(8), true))
	// the corpus and the history need ../shared (each skipped alone without it)
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) {
		p := filepath.Join(dir, "cinatra", "oas.json")
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		flows(t, p, src)
	})
}

// TestRefIDFastAsRefID: refIDFast answers as RefID on the ends and
// entries TestEdgeEndsAsBefore makes and on nodes' entries of every
// shape.
func TestRefIDFastAsRefID(t *testing.T) {
	for _, src := range []string{`null`, `"n1"`, `[{"$component_ref":"n2"}]`, `{"$component_ref":7}`, `{"$component_ref":null}`,
		`{"$component_ref":"n3","x":1}`, `{"x":1,"$component_ref":"n4"}`, `{"$component_ref":"n5","$component_ref":"n6"}`,
		`{"$component_ref":"n5","$component_ref":8}`, `{"\u0024component_ref":"n8"}`, `{"$component_ref":""}`, `{}`,
		`{"$component_rex":"n9"}`, `{"$component_ref":"n10"}`, `{"id":"inline","component_type":"EndNode"}`} {
		d := ParseDoc("n.json", []byte(`{"nodes":[`+src+`]}`))
		if d.Root == nil {
			t.Fatalf("%s does not parse", src)
		}
		n := d.Root.Get("nodes").Items[0]
		id, ok := refIDFast(n)
		wid, wok := RefID(n)
		if id != wid || ok != wok {
			t.Fatalf("%s: refIDFast %q %v, RefID %q %v", src, id, ok, wid, wok)
		}
	}
	if id, ok := refIDFast(nil); id != "" || ok {
		t.Fatal("nil")
	}
}
