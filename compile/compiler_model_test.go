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
	for c := 0; c < 1200/race.Stride(24); c++ {
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

// idsDistinct is what StepNodesDistinct says of the compile of root, by a
// set of ids: the root Flow's BFS order names no id twice and each names
// a component of its $referenced_components.
func idsDistinct(root *Node) bool {
	refs := root.Get("$referenced_components")
	seen := map[string]bool{}
	for _, id := range BFSOrder(root) {
		if seen[id] || refs.Get(id) == nil {
			return false
		}
		seen[id] = true
	}
	return true
}

// TestStepNodesDistinctAsIDs: the compiled output says its steps' nodes
// are distinct exactly when the root Flow's order names no id twice and
// each id a component (the oracle's set of ids), on random flows (an
// unreached id listed twice, ids defined nowhere, keys repeated, few and
// many definitions), the hostile flow, the corpus and the history; and an
// output not made by Compile says nothing.
func TestStepNodesDistinctAsIDs(t *testing.T) {
	if (&CompiledAgentOas{}).StepNodesDistinct() || (*CompiledAgentOas)(nil).StepNodesDistinct() {
		t.Fatal("an output made by hand says its nodes are distinct")
	}
	check := func(t *testing.T, what string, a *Agent) (said bool) {
		t.Helper()
		out, err := Compile(a)
		if err != nil {
			return false
		}
		if got, want := out.StepNodesDistinct(), idsDistinct(a.Flow.Root); got != want {
			t.Fatalf("%s: StepNodesDistinct %v, the ids say %v", what, got, want)
		}
		return out.StepNodesDistinct()
	}
	r := rand.New(rand.NewSource(19))
	yes, no := 0, 0
	for c := 0; c < 600/race.Stride(24); c++ {
		n := 2 + r.Intn(25)
		var defs, nodes, edges []string
		for i := 0; i < n; i++ {
			typ := "FlowNode"
			switch i {
			case 0:
				typ = "StartNode"
			case n - 1:
				typ = "EndNode"
			}
			sub := ""
			if typ == "FlowNode" {
				sub = `"subflow":{"$component_ref":"sub"},`
			}
			defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q,"id":"n%d","name":"N",%s"inputs":[],"outputs":[]}`, i, typ, i, sub))
			if r.Intn(40) == 0 {
				defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q,"id":"n%d","name":"again",%s"inputs":[],"outputs":[]}`, i, typ, i, sub))
			}
			nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, i))
			if r.Intn(30) == 0 {
				nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, r.Intn(n)))
			}
			if r.Intn(60) == 0 {
				nodes = append(nodes, `{"$component_ref":"ghost"}`)
			}
		}
		for i := 0; i+1 < n; i++ {
			if r.Intn(10) > 0 {
				edges = append(edges, fmt.Sprintf(`{"component_type":"ControlFlowEdge","id":"e%d","name":"e","from_node":{"$component_ref":"n%d"},"to_node":{"$component_ref":"n%d"}}`, i, i, i+1))
			}
		}
		if r.Intn(2) == 0 { // defined out of the order the nodes are visited in
			r.Shuffle(len(defs), func(i, j int) { defs[i], defs[j] = defs[j], defs[i] })
		}
		defs = append(defs, `"sub":{"component_type":"Flow","id":"sub","name":"Sub","start_node":{"$component_ref":"s0"},"nodes":[{"$component_ref":"s0"},{"$component_ref":"s1"}],`+
			`"control_flow_connections":[{"component_type":"ControlFlowEdge","id":"sc","name":"sc","from_node":{"$component_ref":"s0"},"to_node":{"$component_ref":"s1"}}],"data_flow_connections":[],"inputs":[],"outputs":[],`+
			`"$referenced_components":{"s0":{"component_type":"StartNode","id":"s0","name":"S0","inputs":[],"outputs":[]},"s1":{"component_type":"EndNode","id":"s1","name":"S1","inputs":[],"outputs":[]}}}`)
		src := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],` +
			`"start_node":{"$component_ref":"n0"},"nodes":[` + strings.Join(nodes, ",") +
			`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"data_flow_connections":[],"$referenced_components":{` + strings.Join(defs, ",") + `}}`
		d := ParseDoc("oas.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		if check(t, fmt.Sprintf("case %d: %s", c, src), &Agent{Flow: d, FlowPath: "oas.json"}) {
			yes++
		} else {
			no++
		}
	}
	if yes == 0 || no == 0 {
		t.Fatalf("%d flows said distinct, %d not: the cases do not tell", yes, no)
	}
	load := func(t *testing.T, dir string) {
		t.Helper()
		a, err := Load(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		check(t, dir, a)
	}
	dir := writeTree(t, map[string]string{"cinatra/oas.json": string(hostile.Flow(2000/race.Stride(8), true))})
	load(t, dir)
	// the corpus and the history need ../shared (each skipped alone without it)
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) { load(t, dir) })
}
