package compile

import (
	"fmt"
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// oldEndpointPointer is where an endpoint's value is as the model said
// before its endpoints lost their Of and Key strings: the pointer of the
// object holding the field (the edge's Pointer, the Flow's for
// start_node) with the field's name appended. The oracle of
// TestEndpointPointerIn.
func oldEndpointPointer(of, key string) string { return Append(of, key) }

// sameEndpointPointers checks every endpoint of a's model: its field
// (Key) is the one it was built from, PointerIn of its holder is the old
// Pointer, that pointer names in the document the value the field holds,
// and an inline endpoint without an id has the identity "@" and that
// pointer. It returns how many endpoints it checked.
func sameEndpointPointers(t *testing.T, name string, a *Agent) int {
	t.Helper()
	n := 0
	check := func(f *Flow, holder *Node, of string, ep *Endpoint, key string) {
		t.Helper()
		n++
		want := oldEndpointPointer(of, key)
		if ep.Key() != key || ep.PointerIn(of) != want {
			t.Fatalf("%s, Flow %s: endpoint %q at %q, want %q at %q", name, f.Pointer, ep.Key(), ep.PointerIn(of), key, want)
		}
		v := holder.Get(key)
		if a.Flow.Lookup(of) == holder && a.Flow.Lookup(want) != v {
			t.Fatalf("%s: %s names %v in the document, not the field's value", name, want, a.Flow.Lookup(want))
		}
		if _, isRef := RefID(v); !isRef && v.Is(Object) && v.Get("id").StringOr("") == "" && ep.ID != "@"+want {
			t.Fatalf("%s: inline endpoint at %s has the identity %q", name, want, ep.ID)
		}
	}
	for _, fm := range a.Model().Flows {
		check(fm.Flow, fm.Flow.Node, fm.Flow.Pointer, &fm.Start, "start_node")
		for i := range fm.Control {
			e := &fm.Control[i]
			check(fm.Flow, e.Comp, e.Pointer, &e.From, "from_node")
			check(fm.Flow, e.Comp, e.Pointer, &e.To, "to_node")
		}
		for i := range fm.Data {
			e := &fm.Data[i]
			check(fm.Flow, e.Comp, e.Pointer, &e.Source, "source_node")
			check(fm.Flow, e.Comp, e.Pointer, &e.Destination, "destination_node")
		}
	}
	return n
}

// TestEndpointPointerIn: an endpoint without its holder's pointer and its
// field's name (Endpoint.PointerIn, Key) points where the old one did, in
// random Flows with inline, id-less, missing and referenced endpoints and
// in every agent of the corpus and its history.
func TestEndpointPointerIn(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	ids := []string{"a", "b", "c", "x"}
	ref := func() string {
		switch rng.Intn(6) {
		case 0:
			return `{"component_type":"EndNode","name":"inline"}` // no id: identity by pointer
		case 1:
			return `{"component_type":"LlmNode","id":"` + ids[rng.Intn(len(ids))] + `"}`
		case 2:
			return `null`
		}
		return `{"$component_ref":"` + ids[rng.Intn(len(ids))] + `"}`
	}
	def := func() string {
		if rng.Intn(3) == 0 {
			return fmt.Sprintf(`{"component_type":"FlowNode","id":"%s","subflow":%s}`, ids[rng.Intn(len(ids))], flowSrc(rng, ids, ref, nil))
		}
		return `{"component_type":"ControlFlowEdge","from_node":` + ref() + `,"to_node":` + ref() + `}`
	}
	checked := 0
	for range 400 / race.Stride(8) {
		src := flowSrc(rng, ids, ref, def)
		a := &Agent{FlowPath: "oas.json", Flow: ParseDoc("oas.json", []byte(src))}
		if a.Flow.Root != nil {
			checked += sameEndpointPointers(t, src, a)
		}
	}
	if checked < 1000/race.Stride(8) {
		t.Errorf("only %d endpoints checked", checked)
	}
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) {
		a, err := Load(dir, LoadOptions{})
		if err != nil || a.Flow == nil || a.Flow.Root == nil {
			return
		}
		sameEndpointPointers(t, filepath.Base(dir), a)
	})
}
