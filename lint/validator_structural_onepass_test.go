package lint

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// The shortcuts as they were, one Get per field: the oracle of
// TestShortcutsOnePassSameAsGet.

func oldPropertyOK(n *compile.Node) bool {
	return n != nil && n.Kind == compile.Object &&
		isStrNode(n.Get("title")) && isStrNode(n.Get("type")) &&
		isOptStr(n.Get("format")) && isOptStr(n.Get("description")) && isOptRecord(n.Get("cinatra"))
}

func oldControlEdgeOK(n *compile.Node) bool {
	if n == nil || n.Kind != compile.Object {
		return false
	}
	b := n.Get("from_branch")
	return isLiteral(n.Get("component_type"), "ControlFlowEdge") && isStrNode(n.Get("name")) &&
		isOptStr(n.Get("id")) && isOptStr(n.Get("description")) && isOptRecord(n.Get("metadata")) &&
		refOK(n.Get("from_node")) && refOK(n.Get("to_node")) &&
		(b == nil || b.Kind == compile.Null || b.Kind == compile.String)
}

func oldDataEdgeOK(n *compile.Node) bool {
	return n != nil && n.Kind == compile.Object &&
		isLiteral(n.Get("component_type"), "DataFlowEdge") && isStrNode(n.Get("name")) &&
		isOptStr(n.Get("id")) && isOptStr(n.Get("description")) && isOptRecord(n.Get("metadata")) &&
		refOK(n.Get("source_node")) && isStrNode(n.Get("source_output")) &&
		refOK(n.Get("destination_node")) && isStrNode(n.Get("destination_input"))
}

// TestShortcutsOnePassSameAsGet: propertyOK, controlEdgeOK and dataEdgeOK,
// reading their members in one pass, agree with the Get per field they
// replaced on random objects of the fields' keys (absent, repeated with
// a valid and a wrong value in either order, up to 40 members so that the
// parser's key index is used too) and other keys; most objects are valid.
func TestShortcutsOnePassSameAsGet(t *testing.T) {
	rng := rand.New(rand.NewSource(3913))
	keys := []string{"title", "type", "format", "description", "cinatra", "component_type", "name", "id",
		"metadata", "from_node", "to_node", "from_branch", "source_node", "source_output",
		"destination_node", "destination_input", "x", "titles", "node"}
	vals := []string{`"x"`, `"DataFlowEdge"`, `"ControlFlowEdge"`, `1`, `null`, `{}`, `[]`, `true`,
		`{"$component_ref":"a"}`, `{"$component_ref":1}`}
	valid := map[string]string{"title": `"t"`, "type": `"string"`, "component_type": `"DataFlowEdge"`,
		"name": `"n"`, "from_node": `{"$component_ref":"a"}`, "to_node": `{"$component_ref":"b"}`,
		"source_node": `{"$component_ref":"a"}`, "source_output": `"o"`,
		"destination_node": `{"$component_ref":"b"}`, "destination_input": `"i"`}
	var ok [3]int
	for i := 0; i < 20000/race.Stride(8); i++ {
		var b strings.Builder
		b.WriteByte('{')
		n := rng.Intn(12)
		if rng.Intn(5) == 0 {
			n = 16 + rng.Intn(25)
		}
		first := true
		add := func(k, v string) {
			if !first {
				b.WriteByte(',')
			}
			first = false
			fmt.Fprintf(&b, "%q:%s", k, v)
		}
		ct := []string{`"DataFlowEdge"`, `"ControlFlowEdge"`}[rng.Intn(2)]
		for k, v := range valid { // a mostly valid base
			if rng.Intn(8) == 0 {
				continue
			}
			if k == "component_type" {
				v = ct
			}
			add(k, v)
		}
		for j := 0; j < n; j++ {
			k := keys[rng.Intn(len(keys))]
			if j < 16 && n >= 16 {
				k = fmt.Sprintf("extra%d", j)
			}
			add(k, vals[rng.Intn(len(vals))])
		}
		if rng.Intn(3) == 0 { // a valid value repeated last
			for k, v := range valid {
				if rng.Intn(4) == 0 {
					add(k, v)
				}
			}
		}
		b.WriteByte('}')
		src := b.String()
		d := compile.ParseDoc("o.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("%s: no tree", src)
		}
		for c, f := range []struct {
			name      string
			got, want func(*compile.Node) bool
		}{{"propertyOK", propertyOK, oldPropertyOK}, {"controlEdgeOK", controlEdgeOK, oldControlEdgeOK}, {"dataEdgeOK", dataEdgeOK, oldDataEdgeOK}} {
			got, want := f.got(d.Root), f.want(d.Root)
			if got != want {
				t.Fatalf("%s(%s) = %v, Get per field %v", f.name, src, got, want)
			}
			if got {
				ok[c]++
			}
		}
	}
	for c, n := range ok {
		if n < 100/race.Stride(8) {
			t.Errorf("shortcut %d: only %d valid objects", c, n)
		}
	}
	t.Logf("valid: %v", ok)
	for _, f := range []func(*compile.Node) bool{propertyOK, controlEdgeOK, dataEdgeOK} {
		if f(nil) {
			t.Error("a nil node passed")
		}
	}
}
