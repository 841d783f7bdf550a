package compile

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// compileMetaAgain is Compile with each FlowNode step reading its node's
// metadata.cinatra itself, as before approvalPolicy handed it the one it
// read for the gate steps (metaAgain): the oracle of
// TestFlowNodeMetaOnceSame.
func compileMetaAgain(a *Agent) (*CompiledAgentOas, error) {
	c := &compiler{a: a, pkg: compilePackageName(a), shareOrder: true, metaAgain: true}
	return c.run()
}

// TestFlowNodeMetaOnceSame: the FlowNode steps built from the metadata
// approvalPolicy read (and the node's name read once) compile as the
// steps reading both again did, on random flows of FlowNodes whose
// metadata.cinatra holds gate steps, a description, approval, risk,
// renderer, owner, surface and package name (or is no object, or is
// absent) and whose name is missing or no string; the hostile flow, the
// corpus and the history.
func TestFlowNodeMetaOnceSame(t *testing.T) {
	compiled := 0
	same := func(t *testing.T, what string, a, b *Agent) {
		t.Helper()
		out, err := Compile(a)
		if err == nil {
			compiled++
		}
		got := compiledJSON(out, err)
		want := compiledJSON(compileMetaAgain(b))
		if got != want {
			t.Fatalf("%s: compiled\n got %.600s\nwant %.600s", what, got, want)
		}
	}
	r := rand.New(rand.NewSource(21))
	metas := []string{``, `"metadata":3,`, `"metadata":{"cinatra":[1]},`, `"metadata":{"other":1},`}
	fields := []string{`"description":"D"`, `"requiresApproval":true`, `"requiresApproval":"yes"`, `"riskClass":"external_send"`,
		`"renderer":"r:x"`, `"hitlOwnedBy":"self"`, `"a2uiSurfaceIdOverride":"s"`, `"a2uiSurfaceId":"t"`, `"packageName":"@acme/child"`,
		`"packageName":7`, `"gateSteps":[{"name":"g1","riskClass":"x_post"},{"name":"g2","description":"two","gateCount":2}]`, `"gateSteps":[]`, `"gateSteps":{}`}
	for c := 0; c < 400/race.Stride(24); c++ {
		n := 3 + r.Intn(12)
		var defs, nodes, edges []string
		for i := 0; i < n; i++ {
			typ := "FlowNode"
			switch i {
			case 0:
				typ = "StartNode"
			case n - 1:
				typ = "EndNode"
			}
			meta := ""
			if typ == "FlowNode" {
				if k := r.Intn(len(metas) + 3); k < len(metas) {
					meta = metas[k]
				} else {
					var fs []string
					for _, f := range fields {
						if r.Intn(4) == 0 {
							fs = append(fs, f)
						}
					}
					meta = `"metadata":{"cinatra":{` + strings.Join(fs, ",") + `}},`
				}
			}
			name := fmt.Sprintf(`"name":"N%d",`, i)
			switch r.Intn(8) {
			case 0:
				name = ``
			case 1:
				name = `"name":5,`
			}
			sub := ""
			if typ == "FlowNode" {
				sub = `"subflow":{"$component_ref":"sub"},`
			}
			defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q,"id":"n%d",%s%s%s"inputs":[],"outputs":[]}`, i, typ, i, name, meta, sub))
			nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, i))
			if i > 0 {
				edges = append(edges, fmt.Sprintf(`{"component_type":"ControlFlowEdge","id":"e%d","name":"e","from_node":{"$component_ref":"n%d"},"to_node":{"$component_ref":"n%d"}}`, i, i-1, i))
			}
		}
		defs = append(defs, `"sub":{"component_type":"Flow","id":"sub","name":"Sub","start_node":{"$component_ref":"s0"},"nodes":[{"$component_ref":"s0"},{"$component_ref":"s1"}],`+
			`"control_flow_connections":[{"component_type":"ControlFlowEdge","id":"sc","name":"sc","from_node":{"$component_ref":"s0"},"to_node":{"$component_ref":"s1"}}],"data_flow_connections":[],"inputs":[],"outputs":[],`+
			`"$referenced_components":{"s0":{"component_type":"StartNode","id":"s0","name":"S0","inputs":[],"outputs":[]},"s1":{"component_type":"InputMessageNode","id":"s1","name":"S1","inputs":[],"outputs":[{"title":"x"}],"metadata":{"cinatra":{"requiresApproval":true}}}}}`)
		src := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],` +
			`"start_node":{"$component_ref":"n0"},"nodes":[` + strings.Join(nodes, ",") +
			`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"data_flow_connections":[],"$referenced_components":{` + strings.Join(defs, ",") + `}}`
		parse := func() *Agent { return &Agent{Flow: ParseDoc("oas.json", []byte(src)), FlowPath: "oas.json"} }
		same(t, fmt.Sprintf("case %d: %s", c, src), parse(), parse())
	}
	if compiled < 200/race.Stride(24) {
		t.Fatalf("only %d random flows compile", compiled)
	}
	load := func(t *testing.T, dir string) {
		t.Helper()
		a, err := Load(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := Load(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		same(t, dir, a, b)
	}
	dir := writeTree(t, map[string]string{"cinatra/oas.json": string(hostile.Flow(2000/race.Stride(8), true))})
	load(t, dir)
	// the corpus and the history need ../shared (each skipped alone without it)
	testshared.RunSharedAgents(t, race.Stride(4), race.Stride(24), func(t *testing.T, dir string) { load(t, dir) })
}
