package lint

import (
	"fmt"
	"maps"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// structuralFindings is checkStructural's findings for src, field by field
// (slow) or with the shortcuts.
func structuralFindings(src string, slow bool) ([]Finding, bool) {
	d := compile.ParseDoc("oas.json", []byte(src))
	if d.Root == nil {
		return nil, false
	}
	p := &Pass{Agent: &compile.Agent{FlowPath: "oas.json", Flow: d, Profile: compile.ProfileCinatra}, Config: &Config{}}
	v := &valCtx{p: p, doc: d, root: d.Root, slowStructural: slow}
	v.checkStructural()
	return p.Findings(), true
}

// TestStructuralShortcutsSameAsFields: the valid-object shortcuts of the
// structural check (refOK, propertyOK, controlEdgeOK, dataEdgeOK) change
// no finding: random Flows whose ports, references and edges have each
// field right, wrong, null, absent or repeated, against the field-by-field
// checks.
func TestStructuralShortcutsSameAsFields(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	// pick: the first (a valid value) mostly (wrong: one time in
	// wrongIn), else any
	wrongIn := 5
	pick := func(xs ...string) string {
		if rng.Intn(wrongIn) > 0 {
			return xs[0]
		}
		return xs[rng.Intn(len(xs))]
	}
	ref := func() string {
		return pick(`{"$component_ref":"a"}`, `{"$component_ref":1}`, `{}`, `"a"`, `null`, `[]`,
			`{"$component_ref":null}`, `{"$component_ref":"a","$component_ref":2}`, `{"$component_ref":3,"$component_ref":"b"}`)
	}
	str := func() string { return pick(`"x"`, `""`, `1`, `null`, `{}`, `[]`, `true`) }
	obj := func(fields map[string]func() string) string {
		var b strings.Builder
		b.WriteByte('{')
		first := true
		for _, k := range slices.Sorted(maps.Keys(fields)) {
			n := 1 // once, absent or repeated
			if r := rng.Intn(10); r == 0 {
				n = 0
			} else if r == 1 {
				n = 2
			}
			for ; n > 0; n-- {
				if !first {
					b.WriteByte(',')
				}
				first = false
				fmt.Fprintf(&b, "%q:%s", k, fields[k]())
			}
		}
		b.WriteByte('}')
		return b.String()
	}
	literal := func(w string) func() string {
		return func() string { return pick(`"`+w+`"`, `"`+w+`"`, `"`+w+`"`, `"Other"`, `1`, `null`) }
	}
	record := func() string { return pick(`{}`, `{"a":1}`, `null`, `[]`, `"x"`) }
	property := func() string {
		if rng.Intn(20) == 0 {
			return str()
		}
		return obj(map[string]func() string{"title": str, "type": str, "format": str, "description": str, "cinatra": record})
	}
	control := func() string {
		if rng.Intn(20) == 0 {
			return str()
		}
		return obj(map[string]func() string{"component_type": literal("ControlFlowEdge"), "name": str, "id": str,
			"description": str, "metadata": record, "from_node": ref, "to_node": ref, "from_branch": str})
	}
	data := func() string {
		if rng.Intn(20) == 0 {
			return str()
		}
		return obj(map[string]func() string{"component_type": literal("DataFlowEdge"), "name": str, "id": str,
			"description": str, "metadata": record, "source_node": ref, "source_output": str,
			"destination_node": ref, "destination_input": str})
	}
	list := func(item func() string) string {
		var b strings.Builder
		b.WriteByte('[')
		for i, n := 0, rng.Intn(4); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(item())
		}
		b.WriteByte(']')
		return b.String()
	}
	compared, found := 0, 0
	// under -race (the check starts no goroutines) a ninth of the Flows,
	// both kinds still alternating (an odd stride)
	stride := race.Stride(9)
	for i := 0; i < 10000; i += stride {
		wrongIn = []int{5, 60}[i%2]
		src := fmt.Sprintf(`{"component_type":"Flow","agentspec_version":"26.1.0","id":"f","name":"f","metadata":{"cinatra":{"type":"leaf"}},"inputs":%s,"outputs":%s,"start_node":%s,"nodes":%s,"control_flow_connections":%s,"data_flow_connections":%s,"$referenced_components":{}}`,
			list(property), list(property), ref(), list(ref), list(control), list(data))
		slow, ok := structuralFindings(src, true)
		if !ok {
			continue
		}
		fast, _ := structuralFindings(src, false)
		if !reflect.DeepEqual(fast, slow) {
			t.Fatalf("%s\nwith the shortcuts: %v\nfield by field: %v", src, fast, slow)
		}
		compared++
		if len(slow) == 0 {
			found++ // valid throughout: the shortcuts' case
		}
	}
	if compared < 5000/stride || found < 100/stride {
		t.Errorf("only %d Flows compared", compared)
	}
	t.Logf("%d Flows compared, %d valid", compared, found)
}
