package compile

import (
	"fmt"
	"strings"
	"testing"
)

// TestStructuralIssuePaths holds the paths of the structural issues
// through arrays and nested objects, several at once: the checker keeps
// its place as keys and indexes and makes the strings only for an issue,
// so an index not dropped after its element, or a key after its field,
// would show here as a wrong path on the next issue.
func TestStructuralIssuePaths(t *testing.T) {
	src := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F",
		"metadata":{"cinatra":{"type":"flow","hitlScreens":["a",3]}},
		"inputs":[{"title":"a","type":"string"},{"type":"string"},{"title":"c","type":1,"cinatra":{"artifact":[]}}],
		"outputs":[],
		"start_node":{"$component_ref":"s"},
		"nodes":[{"$component_ref":"s"},{},{"$component_ref":7}],
		"control_flow_connections":[
			{"component_type":"ControlFlowEdge","name":"e0","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"e"}},
			{"component_type":"ControlFlowEdge","name":"e1","from_node":{},"to_node":{"$component_ref":"e"},"from_branch":null},
			{"component_type":"Edge","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"e"}}],
		"data_flow_connections":[{"component_type":"DataFlowEdge","name":"d","source_node":{"$component_ref":"s"},"source_output":"o","destination_node":{"$component_ref":"e"}}],
		"$referenced_components":{
			"p":{"component_type":"ParallelFlowNode","name":"P","extra":1,"subflows":[{"$component_ref":"x"},"no"]},
			"q":{"component_type":"ParallelFlowNode","name":"Q","subflows":[],"inputs":[{"title":"t"}]}}}`
	doc := ParseDoc("oas.json", []byte(src))
	if doc.Root == nil {
		t.Fatal(doc.Err)
	}
	var got []string
	for _, is := range ValidateFlowStructural(doc.Root) {
		got = append(got, is.String())
	}
	want := []string{
		"metadata.cinatra.hitlScreens.1: Invalid input: expected string, received number",
		"inputs.1.title: Invalid input: expected string, received undefined",
		"inputs.2.type: Invalid input: expected string, received number",
		"inputs.2.cinatra.artifact: Invalid input: expected record, received array",
		"nodes.1.$component_ref: Invalid input: expected string, received undefined",
		"nodes.2.$component_ref: Invalid input: expected string, received number",
		"control_flow_connections.1.from_node.$component_ref: Invalid input: expected string, received undefined",
		`control_flow_connections.2.component_type: Invalid input: expected "ControlFlowEdge"`,
		"control_flow_connections.2.name: Invalid input: expected string, received undefined",
		"data_flow_connections.0.destination_input: Invalid input: expected string, received undefined",
		"$referenced_components.p.subflows.1: Invalid input",
		"$referenced_components.q.inputs.0.type: Invalid input: expected string, received undefined",
		"$referenced_components.q.subflows: Too small: expected array to have >=1 items",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("issues:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestEntriesJSOrder holds entries (an object's members as JSON.parse
// leaves them) to JavaScript's order for small and indexed objects, with
// and without repeated keys and array-index keys: the fast path that
// returns the members as they are must answer only where they already are
// that order.
func TestEntriesJSOrder(t *testing.T) {
	obj := func(keys ...string) string {
		var b strings.Builder
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, "%q:%d", k, i)
		}
		return b.String() + "}"
	}
	many := func(extra ...string) []string {
		var ks []string
		for i := 0; i < 2*keyIndexMin; i++ {
			ks = append(ks, fmt.Sprintf("k%d", i))
		}
		return append(ks, extra...)
	}
	for _, tc := range []struct {
		name string
		keys []string
		want string // key=value, in order
	}{
		{"small", []string{"b", "a"}, "b=0 a=1"},
		{"small repeated", []string{"b", "a", "b"}, "b=2 a=1"},
		{"small index keys", []string{"b", "10", "2", "01"}, "2=2 10=1 b=0 01=3"},
		{"indexed", many(), strings.TrimSpace(func() string {
			var b strings.Builder
			for i := 0; i < 2*keyIndexMin; i++ {
				fmt.Fprintf(&b, "k%d=%d ", i, i)
			}
			return b.String()
		}())},
		{"indexed repeated", many("k0"), "k0=" + fmt.Sprint(2*keyIndexMin)},
		{"indexed index key", many("7"), "7=" + fmt.Sprint(2*keyIndexMin)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := ParseDoc("x.json", []byte(obj(tc.keys...)))
			if doc.Root == nil {
				t.Fatal(doc.Err)
			}
			var got []string
			for _, m := range entries(doc.Root) {
				got = append(got, m.Key+"="+m.Value.Text)
			}
			g := strings.Join(got, " ")
			if !strings.HasPrefix(g, tc.want) {
				t.Errorf("entries: %s\nwant prefix: %s", g, tc.want)
			}
			if len(got) != len(uniqueKeys(doc.Root)) {
				t.Errorf("%d entries, want %d", len(got), len(uniqueKeys(doc.Root)))
			}
		})
	}
}
