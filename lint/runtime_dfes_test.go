package lint

import (
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// dfesRef is runtimeFlow's list of a Flow's data edges and its look-up as
// they were before the scratch (the oracle): a new list per Flow, the
// index past 64 edges, a new list per look-up.
func dfesRef(dc *compile.Node) func(dst, in string) []rtDFE {
	var dfes []rtDFE
	if dc.Is(compile.Array) {
		dfes = make([]rtDFE, 0, len(dc.Items))
		for _, e := range dc.Items {
			if !e.Is(compile.Object) || compile.ComponentType(e) != "DataFlowEdge" {
				continue
			}
			d := rtDFE{src: "<unknown>", dst: "<unknown>"}
			if id, ok := compile.RefID(e.Get("source_node")); ok {
				d.src = id
			}
			if id, ok := compile.RefID(e.Get("destination_node")); ok {
				d.dst = id
			}
			d.srcOut = e.Get("source_output").StringOr("")
			d.dstIn = e.Get("destination_input").StringOr("")
			dfes = append(dfes, d)
		}
	}
	var dfeIndex map[[2]string][]rtDFE
	if len(dfes) > 64 {
		dfeIndex = make(map[[2]string][]rtDFE, len(dfes))
		for _, e := range dfes {
			k := [2]string{e.dst, e.dstIn}
			dfeIndex[k] = append(dfeIndex[k], e)
		}
	}
	return func(dst, in string) []rtDFE {
		if dfeIndex != nil {
			return dfeIndex[[2]string{dst, in}]
		}
		var out []rtDFE
		for _, e := range dfes {
			if e.dst == dst && e.dstIn == in {
				out = append(out, e)
			}
		}
		return out
	}
}

// dfesDoc is a random data_flow_connections value: edges inline or not,
// of other types, endpoints as references, inline objects, null or
// absent, outputs and inputs as strings or not, ids from a small pool so
// that look-ups find several edges.
func dfesDoc(r *rand.Rand) string {
	switch r.IntN(20) {
	case 0:
		return `null`
	case 1:
		return `{"a": 1}`
	}
	n := r.IntN(8)
	if r.IntN(4) == 0 {
		n = 50 + r.IntN(40) // about the index's threshold
	}
	id := func() string { return fmt.Sprintf("n%d", r.IntN(6)) }
	port := func() string {
		switch r.IntN(8) {
		case 0:
			return `7`
		case 1:
			return `null`
		}
		return fmt.Sprintf("%q", fmt.Sprintf("p%d", r.IntN(4)))
	}
	node := func() string {
		switch r.IntN(8) {
		case 0:
			return `null`
		case 1:
			return `{"id": "` + id() + `"}`
		case 2:
			return `"` + id() + `"`
		}
		return `{"$component_ref": "` + id() + `"}`
	}
	var items []string
	for range n {
		switch r.IntN(12) {
		case 0:
			items = append(items, `{"$component_ref": "`+id()+`"}`)
			continue
		case 1:
			items = append(items, `3`)
			continue
		}
		ct := "DataFlowEdge"
		if r.IntN(10) == 0 {
			ct = "ControlFlowEdge"
		}
		var ms []string
		if r.IntN(15) != 0 {
			ms = append(ms, `"component_type": "`+ct+`"`)
		}
		if r.IntN(10) != 0 {
			ms = append(ms, `"source_node": `+node())
		}
		if r.IntN(10) != 0 {
			ms = append(ms, `"destination_node": `+node())
		}
		if r.IntN(10) != 0 {
			ms = append(ms, `"source_output": `+port())
		}
		if r.IntN(10) != 0 {
			ms = append(ms, `"destination_input": `+port())
		}
		r.Shuffle(len(ms), func(i, j int) { ms[i], ms[j] = ms[j], ms[i] })
		items = append(items, "{"+strings.Join(ms, ", ")+"}")
	}
	return "[" + strings.Join(items, ", ") + "]"
}

// checkDFEs holds the scratch's edges of dc, looked up by into and fed,
// to the oracle for every pair of destination and input the documents
// use (and some they do not).
func checkDFEs(t *testing.T, sc *rtScratch, dc *compile.Node, what string) int {
	t.Helper()
	ref := dfesRef(dc)
	got := sc.edges(dc)
	dsts := []string{"<unknown>", "n0", "n1", "n2", "n3", "n4", "n5", "x"}
	ins := []string{"", "p0", "p1", "p2", "p3", "agent_run_id"}
	for _, e := range got.list {
		if !slices.Contains(dsts, e.dst) {
			dsts = append(dsts, e.dst)
		}
		if !slices.Contains(ins, e.dstIn) {
			ins = append(ins, e.dstIn)
		}
	}
	found := 0
	for _, d := range dsts {
		for _, in := range ins {
			want := ref(d, in)
			if g := got.into(d, in); !slices.Equal(g, want) {
				t.Fatalf("%s: into(%q, %q) = %q, want %q", what, d, in, g, want)
			}
			if g := got.fed(d, in); g != (len(want) > 0) {
				t.Fatalf("%s: fed(%q, %q) = %v, want %v", what, d, in, g, len(want) > 0)
			}
			found += len(want)
		}
	}
	return found
}

// TestRuntimeDFEsSameAsList: runtimeFlow's data edges in the pooled
// scratch, looked up by into and fed (which lists none), answer what the
// list made anew for every Flow answered, over 2,000 random
// data_flow_connections (below and past the index's 64 edges; one in
// eight under -race) read one after the other into one scratch (a short
// list after a long one keeps nothing of it), and every Flow of the
// corpus's flow files; a released scratch holds no string of a document.
func TestRuntimeDFEsSameAsList(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 19))
	sc := new(rtScratch)
	found, indexed := 0, 0
	for i := 0; i < 2000; i += race.Stride(8) {
		src := dfesDoc(r)
		dc, err := compile.Parse([]byte(src))
		if err != nil {
			t.Fatalf("doc %d: %v\n%s", i, err, src)
		}
		found += checkDFEs(t, sc, dc, fmt.Sprintf("doc %d %s", i, src))
		if sc.dfes.index != nil {
			indexed++
		}
	}
	if found < 700/race.Stride(8) || indexed == 0 {
		t.Errorf("%d edges found, %d documents indexed: the documents do not exercise the look-ups", found, indexed)
	}
	sc.flowInputs.add("kept")
	sc.release()
	for _, e := range sc.dfes.list[:cap(sc.dfes.list)] {
		if e != (rtDFE{}) {
			t.Fatalf("a released scratch holds %q", e)
		}
	}
	if sc.flowInputs.list != nil || sc.flowInputs.inline[0] != "" {
		t.Fatal("a released scratch holds a set's names")
	}

	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		sc := new(rtScratch)
		for _, slug := range slugs {
			src, err := os.ReadFile(filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
			if err != nil {
				t.Fatal(err)
			}
			d := compile.ParseDoc("oas.json", src)
			for _, f := range compile.Flows(d.Root) {
				checkDFEs(t, sc, f.Node.Get("data_flow_connections"), slug+" "+f.Pointer)
			}
		}
	})
}

// TestOrderedSetReset: a set reset after use holds what a new set holds
// after the same additions.
func TestOrderedSetReset(t *testing.T) {
	r := rand.New(rand.NewPCG(19, 39))
	var s rtOrderedSet
	for round := range 500 {
		fresh := &rtOrderedSet{}
		reused := s.reset()
		for range r.IntN(30) {
			x := fmt.Sprintf("n%d", r.IntN(25))
			fresh.add(x)
			reused.add(x)
		}
		if !slices.Equal(reused.list, fresh.list) {
			t.Fatalf("round %d: reset set %q, new set %q", round, reused.list, fresh.list)
		}
		for k := range 27 {
			x := fmt.Sprintf("n%d", k)
			if reused.contains(x) != fresh.contains(x) {
				t.Fatalf("round %d: contains(%q) differs", round, x)
			}
		}
	}
}
