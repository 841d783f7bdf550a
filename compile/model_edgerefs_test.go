package compile

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// dataRefBefore is how buildFlow read a data edge entry's Ref before it
// took the id refIDFast read for the entry's resolution: the oracle of
// TestDataEdgeRefAsBefore.
func dataRefBefore(it *Node) string { return it.Get("$component_ref").StringOr("") }

// sameDataRefs builds a's model and compares each data edge's Ref with
// dataRefBefore of its entry; it returns how many edges it compared.
func sameDataRefs(t *testing.T, what string, a *Agent) int {
	t.Helper()
	m := buildModel(a)
	n := 0
	for i, f := range m.flows {
		items := f.Node.Get("data_flow_connections").itemsOrNil()
		byPtr := make(map[string]*Node, len(items))
		for j, it := range items {
			byPtr[AppendIndex(Append(f.Pointer, "data_flow_connections"), j)] = it
		}
		for _, de := range m.Flows[i].Data {
			it, ok := byPtr[de.Entry]
			if !ok {
				t.Fatalf("%s, Flow %s: no entry at %s", what, f.Pointer, de.Entry)
			}
			if want := dataRefBefore(it); de.Ref != want {
				t.Fatalf("%s, Flow %s, %s: Ref %q, before %q", what, f.Pointer, de.Entry, de.Ref, want)
			}
			n++
		}
	}
	return n
}

// TestDataEdgeRefAsBefore: a data edge's Ref (buildFlow) is the entry's
// $component_ref string as it was read before (dataRefBefore), on random
// Flows whose data entries are references with ids of every shape
// (numbers, null, a second member, repeated, escaped keys, empty),
// inline edges with and without an id and entries that are no object,
// then on the corpus and the history.
func TestDataEdgeRefAsBefore(t *testing.T) {
	rng := rand.New(rand.NewSource(22))
	entries := []string{`{"$component_ref":"e1"}`, `{"$component_ref":7}`, `{"$component_ref":null}`, `{"$component_ref":"e2","x":1}`,
		`{"x":1,"$component_ref":"e3"}`, `{"$component_ref":"e1","$component_ref":"e4"}`, `{"$component_ref":"e1","$component_ref":8}`,
		`{"\u0024component_ref":"e1"}`, `{"$component_ref":""}`, `{}`, `{"$component_rex":"e1"}`, `"e1"`, `null`,
		`{"component_type":"DataFlowEdge","id":"inline","source_node":{"$component_ref":"n1"},"source_output":"o","destination_node":{"$component_ref":"n2"},"destination_input":"i"}`,
		`{"component_type":"DataFlowEdge","source_node":{"$component_ref":"n1"},"destination_node":{"$component_ref":"n2"}}`}
	defs := `{"e1":{"component_type":"DataFlowEdge","id":"d1","source_node":{"$component_ref":"n1"},"destination_node":{"$component_ref":"n2"}},` +
		`"e2":{"component_type":"DataFlowEdge","source_node":{"$component_ref":"n2"},"destination_node":{"$component_ref":"n1"}},` +
		`"e3":"no object","": {"component_type":"DataFlowEdge"},` +
		`"n1":{"component_type":"LlmNode","id":"n1"},"n2":{"component_type":"EndNode","id":"n2"}}`
	compared := 0
	for c := 0; c < 2000/race.Stride(16); c++ {
		parts := make([]string, rng.Intn(6))
		for i := range parts {
			parts[i] = entries[rng.Intn(len(entries))]
		}
		src := `{"component_type":"Flow","nodes":[{"$component_ref":"n1"},{"$component_ref":"n2"}],"data_flow_connections":[` +
			strings.Join(parts, ",") + `],"$referenced_components":` + defs + `}`
		a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", []byte(src))}
		if a.Flow.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		compared += sameDataRefs(t, fmt.Sprintf("case %d: %s", c, src), a)
	}
	if compared < 100/race.Stride(16) {
		t.Errorf("only %d data edges compared", compared)
	}
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) {
		a, err := Load(dir, LoadOptions{})
		if err != nil || a.Flow == nil || a.Flow.Root == nil {
			return
		}
		sameDataRefs(t, dir, a)
	})
}
