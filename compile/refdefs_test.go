package compile

import (
	"fmt"
	"strings"
	"testing"
)

// TestDefinitionsRepeatedKeys holds the document's definitions table when
// a key is defined again, in the same block and in a nested one: each
// key's definitions in source order, the keys in order of first
// definition, and a later definition never written over a neighbour's
// (the definitions of one block share one allocation).
func TestDefinitionsRepeatedKeys(t *testing.T) {
	var comps []string
	for i := 0; i < 12; i++ {
		comps = append(comps, fmt.Sprintf(`"c%d":{"component_type":"Agent","name":"root%d"}`, i, i))
	}
	comps = append(comps, `"c3":{"component_type":"Agent","name":"root3-again"}`,
		`"f":{"component_type":"Flow","$referenced_components":{"c4":{"name":"inner4"},"c1":{"name":"inner1"},"n":{"name":"innerN"}}}`)
	src := `{"component_type":"Flow","$referenced_components":{` + strings.Join(comps, ",") + `}}`
	doc := ParseDoc("oas.json", []byte(src))
	if doc.Root == nil {
		t.Fatal(doc.Err)
	}
	m := (&Agent{FlowPath: "oas.json", Flow: doc}).Model()
	names := func(key string) string {
		var out []string
		for _, d := range m.Defs.ByKey[key] {
			out = append(out, d.Node.Get("name").StringOr("")+"@"+d.Owner)
		}
		return strings.Join(out, " ")
	}
	for key, want := range map[string]string{
		"c0": "root0@",
		"c1": "root1@ inner1@/$referenced_components/f",
		"c2": "root2@",
		"c3": "root3@ root3-again@",
		"c4": "root4@ inner4@/$referenced_components/f",
		"c5": "root5@",
		"n":  "innerN@/$referenced_components/f",
	} {
		if got := names(key); got != want {
			t.Errorf("ByKey[%s] = %s, want %s", key, got, want)
		}
	}
	want := "c0 c1 c2 c3 c4 c5 c6 c7 c8 c9 c10 c11 f n"
	if got := strings.Join(m.Defs.Order, " "); got != want {
		t.Errorf("Order = %s, want %s", got, want)
	}
}
