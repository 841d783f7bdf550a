package compile

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := marshalNoEscape(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// memAgent is an agent held in memory (no tree: child look-ups fail).
func memAgent(t testing.TB, flow, pkg string) *Agent {
	t.Helper()
	a := &Agent{FlowPath: "mem/cinatra/oas.json", Flow: ParseDoc("mem/cinatra/oas.json", []byte(flow))}
	if pkg != "" {
		a.Package = ParseDoc("mem/package.json", []byte(pkg))
	}
	return a
}

// flowJSON builds a flow: nodes in order, control edges "a>b" or "a>b@branch",
// data edges "a.out>b.in", components as raw JSON by id.
func flowJSON(meta string, order []string, edges []string, data []string, comps map[string]string) string {
	var b strings.Builder
	b.WriteString(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"t","name":"T","metadata":{"cinatra":` + meta + `},"inputs":[],"outputs":[],`)
	b.WriteString(`"start_node":{"$component_ref":"` + order[0] + `"},"nodes":[`)
	for i, n := range order {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString(`{"$component_ref":"` + n + `"}`)
	}
	b.WriteString(`],"control_flow_connections":[`)
	for i, e := range edges {
		if i > 0 {
			b.WriteByte(',')
		}
		from, to, _ := strings.Cut(e, ">")
		to, br, hasBr := strings.Cut(to, "@")
		b.WriteString(`{"component_type":"ControlFlowEdge","name":"e` + e + `","from_node":{"$component_ref":"` + from + `"},"to_node":{"$component_ref":"` + to + `"}`)
		if hasBr {
			b.WriteString(`,"from_branch":"` + br + `"`)
		}
		b.WriteByte('}')
	}
	b.WriteString(`],"data_flow_connections":[`)
	for i, d := range data {
		if i > 0 {
			b.WriteByte(',')
		}
		src, dst, _ := strings.Cut(d, ">")
		sn, so, _ := strings.Cut(src, ".")
		dn, di, _ := strings.Cut(dst, ".")
		b.WriteString(`{"component_type":"DataFlowEdge","name":"d","source_node":{"$component_ref":"` + sn + `"},"source_output":"` + so +
			`","destination_node":{"$component_ref":"` + dn + `"},"destination_input":"` + di + `"}`)
	}
	b.WriteString(`],"$referenced_components":{`)
	first := true
	for id, c := range comps {
		if !first {
			b.WriteByte(',')
		}
		first = false
		b.WriteString(`"` + id + `":` + c)
	}
	b.WriteString(`}}`)
	return b.String()
}

const (
	startC = `{"component_type":"StartNode","id":"s","name":"Begin","inputs":[{"title":"q","type":"string"}]}`
	endC   = `{"component_type":"EndNode","id":"e","name":"E","outputs":[]}`
)

func stepsJSON(t *testing.T, out *CompiledAgentOas) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(mustJSON(t, out.ApprovalPolicy.Steps)), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCompileSteps(t *testing.T) {
	for _, tc := range []struct {
		name  string
		order []string
		edges []string
		data  []string
		comps map[string]string
		want  string // steps JSON
	}{
		{
			name:  "step 0 when a required input is visible",
			order: []string{"s", "e"}, edges: []string{"s>e"},
			comps: map[string]string{"s": `{"component_type":"StartNode","id":"s","name":"Begin","metadata":{"cinatra":{"required":["q","h"],"hidden":["h"]}},"inputs":[]}`, "e": endC},
			want:  `[{"stepNumber":0,"name":"Begin","description":"Begin","requiresApproval":true,"riskClass":"read_only","hitlOwnedBy":"self","skipLlm":true}]`,
		},
		{
			name:  "no step 0 when every required input is hidden",
			order: []string{"s", "e"}, edges: []string{"s>e"},
			comps: map[string]string{"s": `{"component_type":"StartNode","id":"s","metadata":{"cinatra":{"required":["h"],"hidden":["h"]}},"inputs":[]}`, "e": endC},
			want:  `[]`,
		},
		{
			name:  "BFS order, not nodes[] order; unreached nodes appended",
			order: []string{"s", "late", "e", "early", "orphan"}, edges: []string{"s>early", "early>late", "early>late", "late>e"},
			comps: map[string]string{"s": startC, "e": endC,
				"early":  `{"component_type":"InputMessageNode","id":"early","name":"Early","outputs":[{"title":"a","type":"string"}]}`,
				"late":   `{"component_type":"InputMessageNode","id":"late","outputs":[{"id":"b"}],"metadata":{"cinatra":{"inputRenderers":{"b":"@x/y:b"},"renderer":"@x/y:r","requiresApproval":false,"riskClass":"write"}}}`,
				"orphan": `{"component_type":"InputMessageNode","id":"orphan","outputs":[{}],"inputs":[{"schema":{"type":"object","properties":{}}}]}`},
			want: `[{"nodeType":"input_message","stepNumber":1,"requiresApproval":true,"riskClass":"read_only","hitlOwnedBy":"self","skipLlm":true,"name":"Early","description":"Early","xRenderer":"@cinatra-ai/agent-builder:schema-field-fallback","inputMessageField":"a","inputMessageSchema":{"type":"object"}},
			{"nodeType":"input_message","stepNumber":2,"requiresApproval":true,"riskClass":"read_only","hitlOwnedBy":"self","skipLlm":true,"name":"b","description":"b","xRenderer":"@x/y:b","inputMessageField":"b","inputMessageSchema":{"type":"object"}},
			{"nodeType":"input_message","stepNumber":3,"requiresApproval":true,"riskClass":"read_only","hitlOwnedBy":"self","skipLlm":true,"name":"orphan","description":"orphan","xRenderer":"@cinatra-ai/agent-builder:schema-field-fallback","inputMessageField":"orphan","inputMessageSchema":{"type":"object","properties":{}}}]`,
		},
		{
			name:  "InputMessageNode: artifactReviewTargetsInput last; values of unexpected types verbatim",
			order: []string{"s", "r", "e"}, edges: []string{"s>r", "r>e"},
			comps: map[string]string{"s": startC, "e": endC,
				"r": `{"component_type":"InputMessageNode","id":"r","name":7,"outputs":[{"title":"a"}],"metadata":{"cinatra":{"description":null,"renderer":false,"artifactReview":{"targetsInput":"draft"}}}}`},
			want: `[{"nodeType":"input_message","stepNumber":1,"requiresApproval":true,"riskClass":"read_only","hitlOwnedBy":"self","skipLlm":true,"name":7,"description":7,"xRenderer":false,"inputMessageField":"a","inputMessageSchema":{"type":"object"},"artifactReviewTargetsInput":"draft"}]`,
		},
		{
			name:  "AgentNode: parent/leaf merge, A2AAgent child, inputMapping, connectionConfig",
			order: []string{"s", "prep", "a", "e"}, edges: []string{"s>prep", "prep>a", "a>e"},
			data: []string{"s.q>a.question", "prep.x>a.px", "s.q>prep.q", "ghost.y>a.gy"},
			comps: map[string]string{"s": startC, "e": endC,
				"prep": `{"component_type":"ApiNode","id":"prep","name":"Prep","url":"/api/x"}`,
				"a": `{"component_type":"AgentNode","id":"a","name":"Ask","agent":{"$component_ref":"remote"},
					"metadata":{"cinatra":{"riskClass":null,"renderer":"@p/r:own","a2uiSurfaceIdOverride":"over","hitlOwnedBy":"childAgent","description":"Ask the remote"}}}`,
				"remote": `{"component_type":"A2AAgent","id":"remote","name":"R","agent_url":"/api/a2a/r","connection_config":{"$component_ref":"a2a-default-connection"},
					"metadata":{"cinatra":{"packageName":"@p/remote","riskClass":"email_send","renderer":"@p/r:leaf","requiresApproval":true,"a2uiSurfaceId":"leaf-surface"}}}`},
			want: `[{"nodeType":"agent","stepNumber":1,"requiresApproval":true,"description":"Ask the remote","name":"Ask","riskClass":"email_send","xRenderer":"@p/r:own","a2uiSurfaceId":"over","hitlOwnedBy":"childAgent",
				"childAgent":{"packageName":"@p/remote","inputMapping":{"question":"{{input_params.q}}","px":"{{child_output.x}}","gy":"{{ghost_output.y}}"}},"connectionConfig":{"timeout":600,"verify":true}}]`,
		},
		{
			name:  "FlowNode: gateSteps expand, firesRendererGate, hitlOwnedBy default",
			order: []string{"s", "f", "g", "e"}, edges: []string{"s>f", "f>g", "g>e"},
			data: []string{"s.q>f.q", "f.o>g.i", "s.q>g.q"},
			comps: map[string]string{"s": startC, "e": endC,
				"f": `{"component_type":"FlowNode","id":"f","name":"F","subflow":{"$component_ref":"sub"},"metadata":{"cinatra":{"packageName":"@p/f","a2uiSurfaceId":"sf",
					"gateSteps":[{"name":"One","renderer":"@p/f:one","gateCount":1,"hitlOwnedBy":"self"},{"description":"ignored without a name","riskClass":"x_publish","requiresApproval":true},"str"]}}}`,
				"sub": `{"component_type":"Flow","$referenced_components":{"ctx":{"component_type":"InputMessageNode","id":"ctx-1","metadata":{"cinatra":{"requiresApproval":true}}},
					"sel":{"component_type":"InputMessageNode","id":"x","metadata":{"cinatra":{"requiresApproval":true,"renderer":"@a/b:context-selector"}}}}}`,
				"g": `{"component_type":"FlowNode","id":"g","name":"G","subflow":{"$component_ref":"nowhere"}}`},
			want: `[{"nodeType":"agent","stepNumber":1,"requiresApproval":false,"description":"One","name":"One","childAgent":{"packageName":"@p/f","inputMapping":{"q":"{{input_params.q}}"}},"xRenderer":"@p/f:one","hitlOwnedBy":"self","gateCount":1,"a2uiSurfaceId":"sf","firesRendererGate":false},
				{"nodeType":"agent","stepNumber":2,"requiresApproval":true,"description":"F","name":"F","childAgent":{"packageName":"@p/f","inputMapping":{"q":"{{input_params.q}}"}},"riskClass":"x_publish","a2uiSurfaceId":"sf","firesRendererGate":false},
				{"nodeType":"agent","stepNumber":3,"requiresApproval":false,"description":"F","name":"F","childAgent":{"packageName":"@p/f","inputMapping":{"q":"{{input_params.q}}"}},"a2uiSurfaceId":"sf","firesRendererGate":false},
				{"nodeType":"agent","stepNumber":4,"requiresApproval":false,"description":"G","name":"G","childAgent":{"packageName":"","inputMapping":{"i":"{{child_output.o}}","q":"{{input_params.q}}"}},"hitlOwnedBy":"childAgent"}]`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := memAgent(t, flowJSON(`{"type":"flow"}`, tc.order, tc.edges, tc.data, tc.comps), "")
			out, err := Compile(a)
			if err != nil {
				t.Fatal(err)
			}
			var want any
			if err := json.Unmarshal([]byte(tc.want), &want); err != nil {
				t.Fatal(err)
			}
			if got := stepsJSON(t, out); !reflect.DeepEqual(got, want) {
				t.Errorf("steps differ:\n%s", strings.Join(jsonDiff("", got, want), "\n"))
			}
			// The keys in the reference's order, too.
			var compact bytes.Buffer
			if err := json.Compact(&compact, []byte(tc.want)); err != nil {
				t.Fatal(err)
			}
			if got := mustJSON(t, out.ApprovalPolicy.Steps); got != compact.String() {
				t.Errorf("steps bytes:\n got %s\nwant %s", got, compact.String())
			}
		})
	}
}

func TestCompileTopLevel(t *testing.T) {
	comps := map[string]string{
		"s": `{"component_type":"StartNode","id":"s","metadata":{"cinatra":{"required":["a"],"hidden":["h"],"inputTitles":{"a":"Alpha"},
			"inputRenderers":{"a":"@r/a"},"inputDataSources":{"a":"ds"}}},"inputs":[
			{"title":"a","type":"object","format":"","description":"A","json_schema":{"properties":{"x":{"type":"string"}},"required":["x"]}},
			{"title":"h","type":"array","json_schema":{"items":{"type":"string"}}}]}`,
		"n":  `{"component_type":"AgentNode","id":"n","name":"Send","metadata":{"cinatra":{"riskClass":"gmail_email_send"}},"agent":{"$component_ref":"ag"}}`,
		"ag": `{"component_type":"Agent","id":"ag","system_prompt":"P","llm_config":{"component_type":"OpenAiConfig","model_id":"m1","api_type":"other"},"toolboxes":[{"$component_ref":"nope"},"x",{"component_type":"MCPToolBox","id":"tb","client_transport":{"url":"/api/mcp"}}]}`,
		"e":  `{"component_type":"EndNode","id":"e","outputs":[{"title":"r","type":"array","items":{"type":"string"},"description":""}]}`,
	}
	flow := flowJSON(`{"type":"leaf","hitlScreens":["@a/b:c"]}`, []string{"s", "n", "e"}, []string{"s>n", "n>e"}, nil, comps)
	out, err := Compile(memAgent(t, flow, `{"name":"@p/q","version":"2.0.0","cinatra":{"agentDependencies":{"@p/z":"1"}}}`))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{
		"inputSchema":  mustJSON(t, out.InputSchema),
		"outputSchema": mustJSON(t, out.OutputSchema),
		"llmConfig":    mustJSON(t, out.LlmConfig),
		"toolboxes":    mustJSON(t, out.Toolboxes),
		"gatedSteps":   mustJSON(t, out.GatedSteps),
		"deps":         mustJSON(t, out.AgentDependencies),
		"misc":         mustJSON(t, []any{out.Prompt, out.Type, out.HitlScreens, out.AgentSpecVersion, out.TriggerMode, out.CompiledPlan, out.CinatraConfig}),
	}
	want := map[string]string{
		"inputSchema":  `{"type":"object","required":["a"],"properties":{"a":{"type":"object","title":"Alpha","description":"A","properties":{"x":{"type":"string"}},"required":["x"],"x-renderer":"@r/a","x-data-source":"ds"},"h":{"type":"array","title":"h","items":{"type":"string"},"x-hidden":true}}}`,
		"outputSchema": `{"type":"object","properties":{"r":{"type":"array","title":"r","items":{"type":"string"}}}}`,
		"llmConfig":    `{"modelId":"m1"}`,
		"toolboxes":    `[{"id":"tb","url":"/api/mcp"}]`,
		"gatedSteps":   `[{"stepId":"Send","stepNumber":1,"agentPath":["@p/q"],"label":"Send","toolName":"gmail_email_send","inferredOrManual":"inferred"}]`,
		"deps":         `{"@p/z":"1"}`,
		"misc":         `["P","leaf",["@a/b:c"],"26.1.0","full",[],null]`,
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("%s:\n got %s\nwant %s", k, got[k], want[k])
		}
	}

	flow = flowJSON(`{"type":"flow","runtime":"langgraph"}`, []string{"s", "n", "e"}, []string{"s>n", "n>e"}, nil, comps)
	out, err = Compile(memAgent(t, flow, ""))
	if err != nil {
		t.Fatal(err)
	}
	if out.TriggerMode != "start-only" || len(out.GatedSteps) != 0 || out.PackageName != nil || mustJSON(t, out.AgentDependencies) != `{}` {
		t.Errorf("start-only: %s %s %v", out.TriggerMode, mustJSON(t, out.GatedSteps), out.PackageName)
	}
}

func TestCompileErrors(t *testing.T) {
	imnNoOut := flowJSON(`{"type":"flow"}`, []string{"s", "g", "e"}, []string{"s>g", "g>e"}, nil, map[string]string{"s": startC, "e": endC,
		"g": `{"component_type":"InputMessageNode","id":"g","outputs":[]}`})
	noEnd := flowJSON(`{"type":"flow"}`, []string{"s"}, nil, nil, map[string]string{"s": startC})
	badType := strings.Replace(noEnd, `"type":"flow"`, `"type":"agent"`, 1)
	parallel := flowJSON(`{"type":"flow"}`, []string{"s", "e"}, []string{"s>e"}, nil, map[string]string{"s": startC, "e": endC,
		"p": `{"component_type":"ParallelFlowNode","subflows":[]}`})
	binding := flowJSON(`{"type":"flow"}`, []string{"s", "e"}, []string{"s>e"}, nil, map[string]string{"s": startC,
		"e": `{"component_type":"EndNode","id":"e","outputs":[{"title":"d","type":"string","cinatra":{"artifact":{"extension":"@a/x","contentFrom":"d","declaredMime":"text/markdown","titleFrom":"t"}}}]}`})
	for _, tc := range []struct {
		name, flow, pkg, want string
	}{
		{"IMN without outputs", imnNoOut, "", `MISSING_INPUT_MESSAGE_OUTPUT: InputMessageNode "g" must declare at least one output`},
		{"no EndNode", noEnd, "", `flow has no EndNode (expected exactly one node with component_type: "EndNode")`},
		{"structural", badType, `{"name":"@p/q"}`, "OAS structural validation failed for @p/q:\nmetadata.cinatra.type: Invalid option: expected one of \"orchestrator\"|\"leaf\"|\"node\"|\"flow\""},
		{"structural root", `[]`, "", "OAS structural validation failed for oas.json:\n: Invalid input: expected object, received array"},
		{"parallel flow node", parallel, "", "OAS structural validation failed for oas.json:\n$referenced_components.p.name: Invalid input: expected string, received undefined\n$referenced_components.p.subflows: Too small: expected array to have >=1 items"},
		{"binding reference", binding, `{"name":"@p/q"}`, "artifact output-binding validation failed for @p/q:\n$referenced_components.e.outputs[d].cinatra.artifact.titleFrom: \"t\" does not name an output of EndNode \"e\" (outputs: [d])"},
		{"invalid JSON", `{"a":`, "", "OAS source at mem/cinatra/oas.json is malformed JSON: unexpected EOF"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Compile(memAgent(t, tc.flow, tc.pkg))
			if err == nil || err.Error() != tc.want {
				t.Errorf("got %v\nwant %s", err, tc.want)
			}
		})
	}
}

// TestCompileDoesNotMutate: the shared tree is the same before and after.
func TestCompileDoesNotMutate(t *testing.T) {
	flow := flowJSON(`{"type":"flow","llm":{"preferredProvider":"openai"},"toolboxes":["web_search"]}`, []string{"s", "b", "e"}, []string{"s>b", "b>e"}, nil,
		map[string]string{"s": startC, "e": endC, "b": `{"component_type":"ApiNode","id":"b","url":"/api/llm-bridge","data":"x"}`})
	a := memAgent(t, flow, "")
	before := mustJSON(t, a.Flow.Root.Interface())
	if _, err := Compile(a); err != nil {
		t.Fatal(err)
	}
	if after := mustJSON(t, a.Flow.Root.Interface()); after != before {
		t.Errorf("tree modified")
	}
}

func TestCompileMaterializeNode(t *testing.T) {
	comps := map[string]string{"s": startC, "e": endC,
		"m": `{"component_type":"ApiNode","id":"m","url":"{{CINATRA_BASE_URL}}/api/agents/passthrough","data":{"tool":"artifact_materialize","input":{"extension":"@a/x","content":"{{ c }}","title":"{{ t }}","declaredMime":"image/png","node_id":"other"}}}`}
	flow := flowJSON(`{"type":"flow"}`, []string{"s", "m", "e"}, []string{"s>m", "m>e"}, nil, comps)
	_, err := Compile(memAgent(t, flow, `{"name":"@p/q","cinatra":{"produces":[{"extension":"@a/y"}]}}`))
	want := "artifact_materialize node validation failed for @p/q:\n" +
		`$.$referenced_components.m (ApiNode "m").data.input.extension: "@a/x" is not declared in package.json cinatra.produces ([@a/y]) — declared production and materialization must agree` + "\n" +
		`$.$referenced_components.m (ApiNode "m").data.input.declaredMime: "image/png" is not text-authorable; allowed: text/markdown, text/plain, text/html, application/json, application/xml (binary artifacts use the upload/template paths)` + "\n" +
		`$.$referenced_components.m (ApiNode "m").data.input.node_id: "other" must equal this ApiNode's id ("m") — two materialize nodes sharing one ledger identity would silently collapse same-byte outputs into one artifact`
	if err == nil || err.Error() != want {
		t.Errorf("got %v\nwant %s", err, want)
	}
}

func TestBFSOrderAndStepOrder(t *testing.T) {
	comps := map[string]string{"s": `{"component_type":"StartNode","id":"s","metadata":{"cinatra":{"required":["q"]}},"inputs":[]}`, "e": endC,
		"x": `{"component_type":"ApiNode","id":"x"}`, "y": `{"component_type":"AgentNode","id":"y"}`,
		"f": `{"component_type":"FlowNode","id":"f","metadata":{"cinatra":{"gateSteps":[{},{}]}}}`}
	flow := flowJSON(`{"type":"flow"}`, []string{"s", "e", "y", "x", "f", "z", "z"}, []string{"s>x", "s>f", "x>y", "f>y", "y>e", ">e"}, nil, comps)
	a := memAgent(t, flow, "")
	if got := BFSOrder(a.Flow.Root); !reflect.DeepEqual(got, []string{"s", "x", "f", "y", "e", "z", "z"}) {
		t.Errorf("BFS %v", got)
	}
	var buf bytes.Buffer
	for _, n := range StepOrder(a) {
		buf.WriteString(mustJSON(t, n) + "\n")
	}
	want := `{"ID":"s","Position":0,"ComponentType":"StartNode","Steps":[0]}
{"ID":"x","Position":1,"ComponentType":"ApiNode","Steps":null}
{"ID":"f","Position":2,"ComponentType":"FlowNode","Steps":[1,2]}
{"ID":"y","Position":3,"ComponentType":"AgentNode","Steps":[3]}
{"ID":"e","Position":4,"ComponentType":"EndNode","Steps":null}
{"ID":"z","Position":5,"ComponentType":"","Steps":null}
{"ID":"z","Position":6,"ComponentType":"","Steps":null}
`
	if buf.String() != want {
		t.Errorf("StepOrder:\n%s\nwant\n%s", buf.String(), want)
	}
	if StepOrder(&Agent{Flow: ParseDoc("x", []byte("{"))}) != nil || StepOrder(nil) != nil {
		t.Errorf("StepOrder of an unparsed flow")
	}
}

func TestIndentJSONNoHTMLEscape(t *testing.T) {
	flow := flowJSON(`{"type":"flow"}`, []string{"s", "g", "e"}, []string{"s>g", "g>e"}, nil, map[string]string{"s": startC, "e": endC,
		"g": `{"component_type":"InputMessageNode","id":"g","name":"a < b & c > d","outputs":[{"title":"x","type":"string"}]}`})
	out, err := Compile(memAgent(t, flow, ""))
	b, jerr := IndentJSON(NewResult(out, err))
	if jerr != nil || !bytes.Contains(b, []byte(`"name": "a < b & c > d"`)) || !bytes.HasPrefix(b, []byte("{\n  \"ok\": true,\n  \"value\": {\n")) {
		t.Errorf("%v %s", jerr, b)
	}
	b, _ = IndentJSON(NewResult(nil, &CompileError{Msg: "x <y>"}))
	if string(b) != "{\n  \"ok\": false,\n  \"error\": \"x <y>\"\n}\n" {
		t.Errorf("%q", b)
	}
}

// TestHandBuiltStepJSON: a Step not made by Compile marshals its typed
// fields in the struct's order, empty ones left out.
func TestHandBuiltStepJSON(t *testing.T) {
	got := mustJSON(t, Step{StepNumber: 2, Name: "n", RiskClass: "r", NodeType: "agent", NodeID: "x"})
	if want := `{"stepNumber":2,"name":"n","requiresApproval":false,"riskClass":"r","nodeType":"agent"}`; got != want {
		t.Errorf("got %s\nwant %s", got, want)
	}
}
