package prompts

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// implicitProducerScan is implicitProducer as it was before the graph's
// outputs were indexed (a scan of every node per placeholder): the oracle
// of TestImplicitProducerAsScan.
func (b *builder) implicitProducerScan(g *flowgraph.Graph, gn *flowgraph.Node, name string) (*flowgraph.Node, *compile.Node) {
	for _, o := range g.Nodes {
		if o == gn || o.Pointer == "" {
			continue
		}
		if out := propByTitle(b.a.Flow.Lookup(o.Pointer).Get("outputs"), name); out != nil {
			return o, out
		}
	}
	return nil, nil
}

// sameProducers builds a's report and asks, for every node of every
// graph and every output title of the graph (and two names none has),
// the indexed implicitProducer and the scan: the same node and output.
// It returns how many look-ups found a producer.
func sameProducers(t *testing.T, name string, a *compile.Agent) int {
	t.Helper()
	r := &Report{Nodes: []*NodePrompt{}}
	b := &builder{a: a, in: Input{Agent: a}, r: r, graphs: map[string]*flowgraph.Graph{}, toolJSON: map[*Tools]string{}}
	b.collect()
	found := 0
	for _, g := range b.graphs {
		titles := map[string]bool{"": true, "no output is named so": true}
		for _, o := range g.Nodes {
			if o.Pointer == "" {
				continue
			}
			if outs := a.Flow.Lookup(o.Pointer).Get("outputs"); outs.Is(compile.Array) {
				for _, p := range outs.Items {
					titles[p.Get("title").StringOr("")] = true
				}
			}
		}
		for _, gn := range g.Nodes {
			for title := range titles {
				gotN, gotO := b.implicitProducer(g, gn, title)
				wantN, wantO := b.implicitProducerScan(g, gn, title)
				if gotN != wantN || gotO != wantO {
					t.Fatalf("%s: node %s, name %q: producer %v %p, the scan's %v %p", name, gn.ID, title, gotN, gotO, wantN, wantO)
				}
				if gotN != nil {
					found++
				}
			}
		}
	}
	return found
}

// TestImplicitProducerAsScan: the graph's index of outputs (producers)
// answers as the scan it replaced, on random Flows whose nodes repeat
// output titles within a node and across nodes, list outputs that are no
// array or have no title, and on the bundled agents, the corpus and its
// history. Mutants caught: a node's last output so titled kept instead of
// its first; the asking node not skipped.
func TestImplicitProducerAsScan(t *testing.T) {
	rng := rand.New(rand.NewSource(35))
	titles := []string{"a", "b", "c", ""}
	found := 0
	for i := 0; i < 300/race.Stride(6); i++ {
		var nodes, comps []string
		for k := 0; k < 2+rng.Intn(6); k++ {
			id := fmt.Sprint("n", k)
			nodes = append(nodes, `{"$component_ref":"`+id+`"}`)
			var outs []string
			for j := 0; j < rng.Intn(4); j++ {
				if t := titles[rng.Intn(len(titles))]; t != "" {
					outs = append(outs, fmt.Sprintf(`{"title":%q,"type":"string","default":"%s%d"}`, t, id, j))
				} else {
					outs = append(outs, `{"type":"string"}`)
				}
			}
			outputs := "[" + strings.Join(outs, ",") + "]"
			if rng.Intn(8) == 0 {
				outputs = `"not a list"`
			}
			comps = append(comps, fmt.Sprintf(`%q:{"component_type":"LlmNode","id":%q,"name":%q,"prompt_template":"{{a}} {{b}} {{c}}","outputs":%s}`, id, id, id, outputs))
		}
		src := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","start_node":{"$component_ref":"n0"},"nodes":[` +
			strings.Join(nodes, ",") + `],"control_flow_connections":[],"$referenced_components":{` + strings.Join(comps, ",") + `}}`
		a := &compile.Agent{FlowPath: "oas.json", Flow: compile.ParseDoc("oas.json", []byte(src))}
		if a.Flow.Root == nil {
			t.Fatalf("random flow %d does not parse", i)
		}
		found += sameProducers(t, fmt.Sprint("random ", i), a)
	}
	if found == 0 {
		t.Error("no producer found in the random flows")
	}
	bundled := filepath.Join("..", "testdata", "agents", "oastui")
	ents, err := os.ReadDir(bundled)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		dir := filepath.Join(bundled, e.Name())
		if a, err := compile.Load(dir, compile.LoadOptions{}); err == nil && a.Flow != nil && a.Flow.Root != nil {
			sameProducers(t, dir, a)
		}
	}
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) {
		if a, err := compile.Load(dir, compile.LoadOptions{}); err == nil && a.Flow != nil && a.Flow.Root != nil {
			sameProducers(t, dir, a)
		}
	})
}

// startProvScan is startProv as it was before the StartNode's inputs and
// lists were indexed (startIndexOf): the oracle of TestStartProvAsScan.
func startProvScan(start *compile.Node, startID, title string) Provenance {
	p := Provenance{Kind: FromStart, From: startID, Output: title}
	meta := start.Path("metadata", "cinatra")
	p.Required = inList(meta.Get("required"), title)
	p.Hidden = inList(meta.Get("hidden"), title)
	if in := propByTitle(start.Get("inputs"), title); in != nil && in.Get("default") != nil {
		p.HasDefault, p.Default = true, jsonText(in.Get("default"))
	}
	return p
}

// TestStartProvAsScan: startProv from the StartNode's index answers as
// the scans it replaced, for every title of random StartNodes (inputs
// with repeated, missing and non-string titles and defaults; required
// and hidden lists with repeated, non-string items, or no list at all)
// and for a title none has. Mutants caught: a repeated input's last
// default kept; a non-string list item not counted as "".
func TestStartProvAsScan(t *testing.T) {
	rng := rand.New(rand.NewSource(11))
	titles := []string{"a", "b", "c", ""}
	item := func() string {
		switch rng.Intn(5) {
		case 0:
			return "1"
		case 1:
			return "null"
		}
		return fmt.Sprintf("%q", titles[rng.Intn(len(titles))])
	}
	list := func() string {
		if rng.Intn(6) == 0 {
			return `"not a list"`
		}
		var items []string
		for range rng.Intn(5) {
			items = append(items, item())
		}
		return "[" + strings.Join(items, ",") + "]"
	}
	b := &builder{}
	for i := 0; i < 400/race.Stride(4); i++ {
		var ins []string
		for j := range rng.Intn(6) {
			in := `{"type":"string"`
			if rng.Intn(4) > 0 {
				in += `,"title":` + item()
			}
			if rng.Intn(2) == 0 {
				in += fmt.Sprintf(`,"default":"d%d"`, j)
			}
			ins = append(ins, in+"}")
		}
		src := `{"component_type":"StartNode","id":"s","inputs":[` + strings.Join(ins, ",") +
			`],"metadata":{"cinatra":{"required":` + list() + `,"hidden":` + list() + `}}}`
		start := compile.ParseDoc("s.json", []byte(src)).Root
		if start == nil {
			t.Fatalf("StartNode %d does not parse: %s", i, src)
		}
		for _, title := range append(titles, "none has it") {
			if got, want := b.startProv(start, "s", title), startProvScan(start, "s", title); got != want {
				t.Fatalf("%s, title %q: %+v, the scan's %+v", src, title, got, want)
			}
		}
	}
}

// inList is the scan startProv made of a required or hidden list before
// startIndexOf (startProvScan's).
func inList(list *compile.Node, s string) bool {
	if !list.Is(compile.Array) {
		return false
	}
	for _, it := range list.Items {
		if it.StringOr("") == s {
			return true
		}
	}
	return false
}
