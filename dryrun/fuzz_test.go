package dryrun

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// fuzzBases are the flows FuzzExploreMutated mutates: a linear flow, a
// branch with a loop, and a FlowNode with a subflow.
func fuzzBases() []map[string]any {
	loop := flowSpec{
		order: []string{"start", "work", "check", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"work":  comp("ApiNode", "inputs", props("q"), "outputs", props("status")),
			"check": comp("BranchingNode", "inputs", props("status"), "mapping", map[string]any{"again": "again"}),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>work", "work>check", "check>work:again", "check>end:default"},
		data:  []string{"start.q>work.q", "work.status>check.status"},
	}.doc()
	sub := linear()
	sub["id"] = "sub"
	parent := flowSpec{
		order: []string{"start", "child", "use", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"child": comp("FlowNode", "subflow", map[string]any{"$component_ref": "sub"}),
			"use":   comp("InputMessageNode", "inputs", props("answer"), "outputs", props("ok")),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>child", "child>use", "use>end"},
		data:  []string{"start.q>child.q", "child.answer>use.answer"},
	}.doc()
	parent["$referenced_components"].(map[string]any)["sub"] = sub
	par := flowSpec{
		order: []string{"start", "both", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"both":  comp("ParallelFlowNode", "subflows", []any{map[string]any{"$component_ref": "sub"}, map[string]any{"$component_ref": "f"}}),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>both", "both>end"},
		data:  []string{"start.q>both.q"},
	}.doc()
	sub2 := linear()
	sub2["id"] = "sub"
	par["$referenced_components"].(map[string]any)["sub"] = sub2
	return []map[string]any{linear(), loop, parent, par}
}

// mutate applies one structural edit per op byte: retarget, drop or add a
// control edge, relabel a branch, drop a data edge, drop a node's inputs
// or outputs, make the subflow its own parent.
func mutate(doc map[string]any, ops []byte) {
	refs, _ := doc["$referenced_components"].(map[string]any)
	var ids []string
	for _, n := range doc["nodes"].([]any) {
		ids = append(ids, n.(map[string]any)["$component_ref"].(string))
	}
	pick := func(b byte) string { return ids[int(b)%len(ids)] }
	for i := 0; i+1 < len(ops); i += 2 {
		op, arg := ops[i], ops[i+1]
		cf, _ := doc["control_flow_connections"].([]any)
		switch op % 8 {
		case 0:
			if len(cf) > 0 {
				cf[int(arg)%len(cf)].(map[string]any)["to_node"] = map[string]any{"$component_ref": pick(arg / 3)}
			}
		case 1:
			if len(cf) > 0 {
				j := int(arg) % len(cf)
				doc["control_flow_connections"] = append(cf[:j:j], cf[j+1:]...)
			}
		case 2:
			doc["control_flow_connections"] = append(cf, map[string]any{"component_type": "ControlFlowEdge", "name": "m",
				"from_node": map[string]any{"$component_ref": pick(arg)}, "to_node": map[string]any{"$component_ref": pick(arg / 5)}})
		case 3:
			if len(cf) > 0 {
				cf[int(arg)%len(cf)].(map[string]any)["from_branch"] = []string{"again", "default", "x", "next"}[arg%4]
			}
		case 4:
			if df, _ := doc["data_flow_connections"].([]any); len(df) > 0 {
				j := int(arg) % len(df)
				doc["data_flow_connections"] = append(df[:j:j], df[j+1:]...)
			}
		case 5:
			if c, ok := refs[pick(arg)].(map[string]any); ok {
				delete(c, []string{"inputs", "outputs"}[arg%2])
			}
		case 6:
			if c, ok := refs["child"].(map[string]any); ok {
				c["subflow"] = map[string]any{"$component_ref": []string{"sub", "nosuch", "f"}[arg%3]}
			}
		case 7:
			doc["data_flow_connections"] = nil
		}
	}
}

// FuzzExploreMutated: on any mutation of the bases, Explore does not
// panic, stays within its bounds and gives well-formed paths and findings.
func FuzzExploreMutated(f *testing.F) {
	f.Add(uint8(0), []byte{})
	f.Add(uint8(1), []byte{0, 7, 3, 1})
	f.Add(uint8(2), []byte{6, 0, 2, 17})
	f.Add(uint8(2), []byte{6, 2, 4, 1, 5, 3})
	f.Add(uint8(1), []byte{1, 2, 2, 9, 7, 0})
	f.Fuzz(func(t *testing.T, base uint8, ops []byte) {
		bases := fuzzBases()
		doc := bases[int(base)%len(bases)]
		mutate(doc, ops)
		src, err := json.Marshal(doc)
		if err != nil {
			t.Skip()
		}
		checkExplore(t, &compile.Agent{FlowPath: "f.json", Flow: compile.ParseDoc("f.json", src)})
	})
}

// FuzzExploreBytes: any bytes as a flow file.
func FuzzExploreBytes(f *testing.F) {
	for _, b := range fuzzBases() {
		src, _ := json.Marshal(b)
		f.Add(src)
	}
	f.Add([]byte(`{"component_type":"Flow","start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"}],"control_flow_connections":[{"from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"s"}}],"$referenced_components":{"s":{"component_type":"FlowNode","subflow":{"$component_ref":"s"}}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		checkExplore(t, &compile.Agent{FlowPath: "f.json", Flow: compile.ParseDoc("f.json", src)})
	})
}

func checkExplore(t *testing.T, a *compile.Agent) {
	t.Helper()
	const maxStates = 400
	r := Explore(a, Options{MaxStates: maxStates, MaxVisits: 2})
	if r.States > maxStates {
		t.Fatalf("%d states past the cap %d", r.States, maxStates)
	}
	if r.Total < len(r.Paths) || r.Explored > len(r.Paths) {
		t.Fatalf("total %d explored %d paths %d", r.Total, r.Explored, len(r.Paths))
	}
	for _, p := range r.Paths {
		if len(p.Steps) == 0 && p.Status != StatusStuck {
			t.Fatalf("empty path %+v", p)
		}
		switch p.Status {
		case StatusEnd, StatusLoop, StatusStuck, StatusCut:
		default:
			t.Fatalf("status %q", p.Status)
		}
	}
	for _, f := range r.Findings {
		if !strings.HasPrefix(f.Code, "dryrun_") || f.Message == "" || f.Path < 0 {
			t.Fatalf("finding %+v", f)
		}
	}
	if _, err := json.Marshal(r); err != nil {
		t.Fatalf("marshal: %v", err)
	}
}
