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

// StepOrder is FlowStepOrderOf(fm.Flow.Node, fm.BFSOrder()), the root
// Flow of a loaded agent reading its components where the compiler looked
// them up: the list the graph's step numbers read before they read
// StepCounts, kept as the tests' oracle (TestStepCountsAsStepOrder,
// TestCompileShareOrderSame).
func (fm *FlowModel) StepOrder() []StepNode {
	ids := fm.BFSOrder()
	if fm.order == nil {
		return FlowStepOrderOf(fm.Flow.Node, ids)
	}
	comps, types := fm.order.rootComponents(fm.Flow.Node)
	return stepOrder(fm.Flow.Node, ids, comps, types)
}

// stepsOfCounts expands StepCounts into each place's step numbers, as
// StepCounts says they are numbered.
func stepsOfCounts(counts []int32, setup int) [][]int {
	out := make([][]int, len(counts))
	next := 1
	for k, c := range counts {
		if k == setup {
			out[k] = append(out[k], 0)
		}
		for i := int32(0); i < c; i++ {
			out[k] = append(out[k], next)
			next++
		}
	}
	return out
}

// countsSame: StepCounts of every Flow model of a says what StepOrder
// lists, place by place.
func countsSame(t *testing.T, what string, a *Agent) {
	t.Helper()
	for _, fm := range a.Model().Flows {
		order := fm.StepOrder()
		counts, setup := fm.StepCounts()
		if len(counts) != len(order) {
			t.Fatalf("%s %s: %d counts for %d places", what, fm.Flow.Pointer, len(counts), len(order))
		}
		got := stepsOfCounts(counts, setup)
		for k, sn := range order {
			if len(sn.Steps) != len(got[k]) || len(sn.Steps) > 0 && !reflect.DeepEqual(sn.Steps, got[k]) {
				t.Fatalf("%s %s: place %d (%s): steps %v, StepOrder %v", what, fm.Flow.Pointer, k, sn.ID, got[k], sn.Steps)
			}
		}
	}
}

// TestStepCountsAsStepOrder: the step counts the graph numbers its nodes
// from give each place of every Flow the step numbers StepOrder lists, on
// random flows (AgentNodes, InputMessageNodes, FlowNodes with and without
// gate steps, a start with and without the setup step, unreached and
// repeated ids, ids defined nowhere), the hostile flow, the corpus and the
// history.
func TestStepCountsAsStepOrder(t *testing.T) {
	r := rand.New(rand.NewSource(41))
	types := []string{"AgentNode", "InputMessageNode", "FlowNode", "FlowNode", "EndNode", "StartNode", "ApiNode"}
	for c := 0; c < 1000/race.Stride(24); c++ {
		n := 2 + r.Intn(25)
		var defs, nodes, edges []string
		for i := 0; i < n; i++ {
			typ := types[r.Intn(len(types))]
			meta := ""
			switch {
			case i == 0:
				typ = "StartNode"
				switch r.Intn(3) {
				case 0:
					meta = `,"metadata":{"cinatra":{"required":["a","b"],"hidden":["a"]}}`
				case 1:
					meta = `,"metadata":{"cinatra":{"required":["a"],"hidden":["a"]}}`
				}
			case typ == "FlowNode" && r.Intn(2) == 0:
				gs := make([]string, r.Intn(4))
				for g := range gs {
					gs[g] = fmt.Sprintf(`{"name":"g%d"}`, g)
				}
				meta = `,"metadata":{"cinatra":{"gateSteps":[` + strings.Join(gs, ",") + `]}}`
			}
			defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q,"id":"n%d"%s}`, i, typ, i, meta))
			nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, i))
			if r.Intn(15) == 0 {
				nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, r.Intn(n)))
			}
			if r.Intn(20) == 0 {
				nodes = append(nodes, `{"$component_ref":"ghost"}`)
			}
		}
		for i := 0; i+1 < n; i++ {
			if r.Intn(8) > 0 {
				edges = append(edges, fmt.Sprintf(`{"from_node":{"$component_ref":"n%d"},"to_node":{"$component_ref":"n%d"}}`, r.Intn(i+1), i+1))
			}
		}
		src := `{"component_type":"Flow","id":"f","start_node":{"$component_ref":"n0"},"nodes":[` + strings.Join(nodes, ",") +
			`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(defs, ",") + `}}`
		d := ParseDoc("oas.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		a := &Agent{Flow: d} // no model cache: each Flow's components looked up anew
		countsSame(t, fmt.Sprintf("case %d: %s", c, src), a)
	}
	compiled := 0
	// a loaded agent's root counts are counted on first use, or given by
	// the compiler that built its steps first (rootStepCounts)
	load := func(t *testing.T, dir string) {
		t.Helper()
		for _, compileFirst := range []bool{false, true} {
			a, err := Load(dir, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if compileFirst {
				if _, err := Compile(a); err == nil {
					compiled++
				}
			}
			countsSame(t, fmt.Sprint(dir, " compiled first: ", compileFirst), a)
		}
	}
	// flows the compiler compiles, with gate steps, loaded (the model
	// cache the compiler gives its counts to)
	for c := 0; c < 64/race.Stride(16); c++ {
		dir := filepath.Join(t.TempDir(), "g")
		if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), gatedFlow(r), 0o644); err != nil {
			t.Fatal(err)
		}
		load(t, dir)
	}
	if compiled < 48/race.Stride(16) {
		t.Fatalf("only %d of the gated flows compile", compiled)
	}
	dir := writeTree(t, map[string]string{"cinatra/oas.json": string(hostile.Flow(500/race.Stride(8), true))})
	load(t, dir)
	// the corpus and the history need ../shared (each skipped alone without it)
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) { load(t, dir) })
}

// gatedFlow is a flow the compiler compiles: a chain of FlowNodes, some
// with gate steps (none, one or three), some InputMessageNodes, a start
// with or without the setup step.
func gatedFlow(r *rand.Rand) []byte {
	n := 3 + r.Intn(12)
	var defs, nodes, edges []string
	for i := 0; i < n; i++ {
		def := fmt.Sprintf(`"n%d":{"component_type":"FlowNode","id":"n%d","name":"N","subflow":{"$component_ref":"sub"},"inputs":[],"outputs":[]`, i, i)
		switch {
		case i == 0:
			meta := ""
			if r.Intn(2) == 0 {
				meta = `,"metadata":{"cinatra":{"required":["a"]}}`
			}
			def = fmt.Sprintf(`"n0":{"component_type":"StartNode","id":"n0","name":"S","inputs":[{"title":"a","type":"string"}],"outputs":[]%s`, meta)
		case i == n-1:
			def = fmt.Sprintf(`"n%d":{"component_type":"EndNode","id":"n%d","name":"E","inputs":[],"outputs":[]`, i, i)
		case r.Intn(5) == 0:
			def = fmt.Sprintf(`"n%d":{"component_type":"InputMessageNode","id":"n%d","name":"I","inputs":[],"outputs":[{"title":"x","type":"string"}]`, i, i)
		case r.Intn(2) == 0:
			gs := make([]string, []int{0, 1, 3}[r.Intn(3)])
			for g := range gs {
				gs[g] = fmt.Sprintf(`{"name":"g%d"}`, g)
			}
			def += `,"metadata":{"cinatra":{"gateSteps":[` + strings.Join(gs, ",") + `]}}`
		}
		defs = append(defs, def+"}")
		nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, i))
		if i > 0 {
			edges = append(edges, fmt.Sprintf(`{"component_type":"ControlFlowEdge","id":"e%d","name":"e","from_node":{"$component_ref":"n%d"},"to_node":{"$component_ref":"n%d"}}`, i, i-1, i))
		}
	}
	defs = append(defs, `"sub":{"component_type":"Flow","id":"sub","name":"Sub","start_node":{"$component_ref":"s0"},"nodes":[{"$component_ref":"s0"},{"$component_ref":"s1"}],`+
		`"control_flow_connections":[{"component_type":"ControlFlowEdge","id":"sc","name":"sc","from_node":{"$component_ref":"s0"},"to_node":{"$component_ref":"s1"}}],"data_flow_connections":[],"inputs":[],"outputs":[],`+
		`"$referenced_components":{"s0":{"component_type":"StartNode","id":"s0","name":"S0","inputs":[],"outputs":[]},"s1":{"component_type":"EndNode","id":"s1","name":"S1","inputs":[],"outputs":[]}}}`)
	return []byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],` +
		`"start_node":{"$component_ref":"n0"},"nodes":[` + strings.Join(nodes, ",") +
		`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"data_flow_connections":[],"$referenced_components":{` + strings.Join(defs, ",") + `}}`)
}
