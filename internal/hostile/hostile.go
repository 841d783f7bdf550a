// Package hostile generates the inputs of the hostile-layout benchmarks of
// issue 11 item 1 (large flows, one-line and pretty-printed, and a long
// YAML flow mapping), shared by the Go benchmarks of lint and by
// cmd/oastbench, which times the real binary on them.
package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// Flow generates a flow of n FlowNodes joined by 2n edges (a control
// edge and a data edge into each node, one of each out of the last into the
// first) where every data edge names an output and an input no node
// declares, so the review reports findings all over the file. When valid is
// true the edges are well formed and the flow is the n-node chain of a
// clean agent (no data edges).
func Flow(n int, valid bool) []byte {
	var b strings.Builder
	b.WriteString(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"n0"},"nodes":[`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"$component_ref":"n%d"}`, i)
	}
	b.WriteString(`],"control_flow_connections":[`)
	edges := n - 1
	if !valid {
		edges = n
	}
	for i := 0; i < edges; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"component_type":"ControlFlowEdge","id":"c%d","name":"c%d","from_node":{"$component_ref":"n%d"},"to_node":{"$component_ref":"n%d"}}`, i, i, i, (i+1)%n)
	}
	b.WriteString(`],"data_flow_connections":[`)
	if !valid {
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			fmt.Fprintf(&b, `{"component_type":"DataFlowEdge","id":"d%d","name":"d%d","source_node":{"$component_ref":"n%d"},"source_output":"o%d","destination_node":{"$component_ref":"n%d"},"destination_input":"i%d"}`, i, i, i, i, (i+1)%n, i)
		}
	}
	b.WriteString(`],"$referenced_components":{`)
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		typ := "FlowNode"
		switch i {
		case 0:
			typ = "StartNode"
		case n - 1:
			typ = "EndNode"
		}
		if typ == "FlowNode" {
			fmt.Fprintf(&b, `"n%d":{"component_type":"%s","id":"n%d","name":"Step %d","subflow":{"$component_ref":"sub"},"inputs":[],"outputs":[]}`, i, typ, i, i)
		} else {
			fmt.Fprintf(&b, `"n%d":{"component_type":"%s","id":"n%d","name":"Step %d","inputs":[],"outputs":[]}`, i, typ, i, i)
		}
	}
	b.WriteString(`,"sub":{"component_type":"Flow","id":"sub","name":"Sub","start_node":{"$component_ref":"s0"},"nodes":[{"$component_ref":"s0"},{"$component_ref":"s1"}],"control_flow_connections":[{"component_type":"ControlFlowEdge","id":"sc","name":"sc","from_node":{"$component_ref":"s0"},"to_node":{"$component_ref":"s1"}}],"data_flow_connections":[],"inputs":[],"outputs":[],"$referenced_components":{"s0":{"component_type":"StartNode","id":"s0","name":"S0","inputs":[],"outputs":[]},"s1":{"component_type":"EndNode","id":"s1","name":"S1","inputs":[],"outputs":[]}}}}}`)
	return []byte(b.String())
}

// Pretty is src indented two spaces a level (the same content on many lines).
func Pretty(src []byte) ([]byte, error) {
	var out bytes.Buffer
	if err := json.Indent(&out, src, "", "  "); err != nil {
		return nil, err
	}
	return out.Bytes(), nil
}

// YAMLFlowMapping is a YAML file whose root is one flow mapping ({k: v, …})
// of n keys on a single line.
func YAMLFlowMapping(n int) []byte {
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "key%d: v%d", i, i)
	}
	b.WriteString("}\n")
	return []byte(b.String())
}

// Secrets is agent text that must never reach any output as it is: a
// GitHub token, a URL password, an 8-bit CSI (U+009B), a right-to-left
// override (U+202E) and a left-to-right isolate (U+2066). Tests put it in a
// file (as one JSON string's content) and look for Raw in what a face
// shows.
const Secrets = "see https://bob:hunter2pass@example.com/x " + Token + " \u009b2J \u202eevil\u2066x"

// Token is the GitHub token of Secrets.
const Token = "ghp_R8x2Kq7LmZ4vN1pW9sT3yB6cD0fG5hJ8kLmN"

// Raw lists the parts of Secrets no face may show: the token, the
// password and the three characters.
var Raw = []string{Token, "hunter2pass", "\u009b", "\u202e", "\u2066"}

// FlowWithPrompt is Flow(n, true) with one more node, an LlmNode whose
// prompt uses k placeholders {{<prefix>0}} … (issue 35 points 11 and 12
// together: a large flow whose one prompt's placeholders are all
// renamed is FlowWithPrompt(n, k, "a") against FlowWithPrompt(n, k, "b"),
// and the prompt report looks each placeholder up in a Flow of n nodes).
func FlowWithPrompt(n, k int, prefix string) []byte {
	prompt := placeholderPrompt(k, prefix)
	src := string(Flow(n, true))
	src = strings.Replace(src, `"nodes":[`, `"nodes":[{"$component_ref":"llm"},`, 1)
	src = strings.Replace(src, `"$referenced_components":{`,
		`"$referenced_components":{"llm":{"component_type":"LlmNode","id":"llm","name":"llm","inputs":[],"outputs":[],"prompt_template":`+string(prompt)+`},`, 1)
	return []byte(src)
}

// PlaceholderFlow is a flow Start → LlmNode → End whose LLM node's prompt
// uses n placeholders {{<prefix>0}} … (issue 35 point 11: a change that
// renames 100,000 placeholders is PlaceholderFlow(100000, "a") against
// PlaceholderFlow(100000, "b")).
func PlaceholderFlow(n int, prefix string) []byte {
	prompt := placeholderPrompt(n, prefix)
	var b strings.Builder
	b.WriteString(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"ph","name":"Placeholders","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"start"},`)
	b.WriteString(`"nodes":[{"$component_ref":"start"},{"$component_ref":"llm"},{"$component_ref":"end"}],`)
	b.WriteString(`"control_flow_connections":[{"component_type":"ControlFlowEdge","id":"e0","name":"e0","from_node":{"$component_ref":"start"},"to_node":{"$component_ref":"llm"}},`)
	b.WriteString(`{"component_type":"ControlFlowEdge","id":"e1","name":"e1","from_node":{"$component_ref":"llm"},"to_node":{"$component_ref":"end"}}],"data_flow_connections":[],`)
	b.WriteString(`"$referenced_components":{"start":{"component_type":"StartNode","id":"start","name":"start","inputs":[],"outputs":[]},`)
	b.WriteString(`"llm":{"component_type":"LlmNode","id":"llm","name":"llm","inputs":[],"outputs":[],"prompt_template":`)
	b.Write(prompt)
	b.WriteString(`},"end":{"component_type":"EndNode","id":"end","name":"end","inputs":[],"outputs":[]}}}`)
	return []byte(b.String())
}

// placeholderPrompt is a prompt of n placeholders {{<prefix>0}} …, as a
// JSON string.
func placeholderPrompt(n int, prefix string) []byte {
	var p strings.Builder
	p.Grow(n * (len(prefix) + 12))
	for i := 0; i < n; i++ {
		if i > 0 {
			p.WriteByte(' ')
		}
		fmt.Fprintf(&p, "{{%s%d}}", prefix, i)
	}
	prompt, _ := json.Marshal(p.String()) // a JSON string of plain ASCII: cannot fail
	return prompt
}
