package compile

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
)

// TestFlowViewNearAsBefore: the view, which tries the node an edge's end
// or a BFS id is likely to be (the next node, where the last edge went)
// before looking it up, is the view that looked every one up
// (buildViewBefore), on random flows: nodes listed in and out of order
// and more than once, edges in chains, backwards and at random, ids
// spelled alike (shown the same), missing, unresolved, empty, a start
// anywhere; on the hostile flows; and with slim context steps injected
// (TestFlowViewSameAsBefore's cases).
func TestFlowViewNearAsBefore(t *testing.T) {
	ref := func(id string) jm { return jm{"$component_ref": id} }
	ctl := func(from, to string) jm {
		return jm{"component_type": "ControlFlowEdge", "name": from + "-" + to, "from_node": ref(from), "to_node": ref(to)}
	}
	r := rand.New(rand.NewSource(16))
	guessed := 0
	for c := 0; c < 3000/race.Stride(8); c++ {
		n := 1 + r.Intn(10)
		id := func(i int) string {
			switch r.Intn(12) {
			case 0:
				return fmt.Sprint("n", i, "\x1b[0m") // shown as n<i>
			case 1:
				return "ghost"
			case 2:
				return ""
			}
			return fmt.Sprint("n", i)
		}
		var nodes, edges []any
		order := r.Perm(n)
		if r.Intn(2) == 0 {
			for i := range order {
				order[i] = i // in order
			}
		}
		for _, i := range order {
			nodes = append(nodes, ref(id(i)))
			if r.Intn(8) == 0 {
				nodes = append(nodes, ref(id(r.Intn(n)))) // listed again
			}
		}
		switch r.Intn(3) {
		case 0: // a chain
			for i := 0; i+1 < n; i++ {
				edges = append(edges, ctl(id(i), id(i+1)))
			}
		case 1: // a chain backwards
			for i := n - 1; i > 0; i-- {
				edges = append(edges, ctl(id(i), id(i-1)))
			}
		}
		for e := 0; e < r.Intn(2*n); e++ {
			edges = append(edges, ctl(id(r.Intn(n+1)), id(r.Intn(n+1))))
		}
		refs := jm{}
		for i := 0; i <= n; i++ {
			if r.Intn(6) > 0 {
				refs[fmt.Sprint("n", i)] = jm{"component_type": []string{"StartNode", "ApiNode", "EndNode"}[min(i, 2)], "id": fmt.Sprint("n", i), "name": fmt.Sprint("N", i)}
			}
		}
		doc := jm{"component_type": "Flow", "id": "f", "name": "F", "start_node": ref(id(r.Intn(n))), "nodes": nodes,
			"control_flow_connections": edges, "$referenced_components": refs}
		b, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", b), Profile: ProfileCinatra}
		for _, fm := range a.Model().Flows {
			got, want := fm.buildView(), buildViewBefore(fm)
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("case %d:\n got %+v\nwant %+v\n%s", c, got, want, b)
			}
			if len(got.Edges) > 0 {
				guessed++
			}
		}
	}
	if guessed < 1000/race.Stride(8) {
		t.Fatalf("only %d views with edges", guessed)
	}
	// an injected step taking the key of the node after the start, which
	// the start's edge reaches first: the BFS id the guess would find in
	// the file is the step's once it is injected
	collide := slimSpec([]any{slotDecl("alpha", nil), slotDecl("beta", nil)}, "alphaContextSlotBindings", "betaContextSlotBindings")
	collide["nodes"] = []any{ref("start"), ref("context_alpha\x1b[0m"), ref("work"), ref("end")}
	collide["control_flow_connections"] = append([]any{ctl("start", "context_alpha\x1b[0m")}, collide["control_flow_connections"].([]any)...)
	refsOf(collide)["context_alpha\x1b[0m"] = jm{"component_type": "ApiNode", "id": "context_alpha\x1b[0m", "name": "A"}
	b, err := json.Marshal(collide)
	if err != nil {
		t.Fatal(err)
	}
	a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", b), Profile: ProfileCinatra}
	injected := 0
	for _, fm := range a.Model().Flows {
		got, want := fm.buildView(), buildViewBefore(fm)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("collide:\n got %+v\nwant %+v", got, want)
		}
		for _, n := range got.Nodes {
			if n.Injected {
				injected++
			}
		}
	}
	if injected == 0 {
		t.Fatal("collide: no step injected")
	}
	for _, valid := range []bool{true, false} {
		a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", hostile.Flow(500, valid)), Profile: ProfileCinatra}
		for _, fm := range a.Model().Flows {
			if got, want := fm.buildView(), buildViewBefore(fm); !reflect.DeepEqual(got, want) {
				t.Fatalf("hostile %v, flow %q: the views differ", valid, fm.Flow.Pointer)
			}
		}
	}
}
