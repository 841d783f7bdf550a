package flowgraph

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"testing"

	"github.com/oastui/oastui/compile"
)

// generateFlow writes an OAS flow with about n top-level nodes made of the
// shapes real agents have: chains of API nodes, branching fan-outs that
// merge again (now and then a wide one), loops closed by a "retry" branch,
// approval gates, and FlowNodes whose subflows are nested Flows of their
// own. Deterministic for a seed.
func generateFlow(n int, seed int64) []byte {
	r := rand.New(rand.NewSource(seed))
	refs := map[string]any{}
	var nodes []any
	var edges []any
	count := 0
	node := func(typ, name string, extra map[string]any) string {
		id := fmt.Sprintf("n%d", count)
		count++
		c := map[string]any{"component_type": typ, "id": id, "name": name}
		for k, v := range extra {
			c[k] = v
		}
		refs[id] = c
		nodes = append(nodes, map[string]any{"$component_ref": id})
		return id
	}
	ref := func(id string) map[string]any { return map[string]any{"$component_ref": id} }
	edge := func(from, to, branch string) {
		e := map[string]any{"component_type": "ControlFlowEdge", "name": from + "_" + to, "from_node": ref(from), "to_node": ref(to)}
		if branch != "" {
			e["from_branch"] = branch
		}
		edges = append(edges, e)
	}
	words := []string{"Fetch", "Score", "Draft", "Review", "Send", "Enrich", "Plan", "Summarise", "Check", "Store"}
	objs := []string{"leads", "emails", "report", "contacts", "notes", "context", "results", "drafts"}
	name := func() string { return words[r.Intn(len(words))] + " " + objs[r.Intn(len(objs))] }
	api := func() string {
		return node("ApiNode", name(), map[string]any{"url": "/api/x", "http_method": "POST"})
	}

	start := node("StartNode", "Inputs", nil)
	tail := start
	subs := 0
	for count < n-1 {
		switch k := r.Intn(10); {
		case k < 3: // chain
			for i := 0; i < 1+r.Intn(4) && count < n-1; i++ {
				a := api()
				edge(tail, a, "")
				tail = a
			}
		case k < 6: // fan-out and merge
			m := 2 + r.Intn(4)
			if r.Intn(6) == 0 {
				m = 8 + r.Intn(20)
			}
			var branches []any
			for i := 0; i < m; i++ {
				branches = append(branches, fmt.Sprintf("b%d", i))
			}
			br := node("BranchingNode", "Route "+objs[r.Intn(len(objs))], map[string]any{"branches": branches})
			edge(tail, br, "")
			join := api()
			for i := 0; i < m; i++ {
				prev, label := br, fmt.Sprintf("b%d", i)
				for j := 0; j < 1+r.Intn(2); j++ {
					a := api()
					edge(prev, a, label)
					prev, label = a, ""
				}
				edge(prev, join, label)
			}
			tail = join
		case k < 8: // loop
			a, b := api(), api()
			c := node("BranchingNode", "Done?", map[string]any{"branches": []any{"retry", "done"}})
			edge(tail, a, "")
			edge(a, b, "")
			edge(b, c, "")
			edge(c, a, "retry")
			d := api()
			edge(c, d, "done")
			tail = d
		case k < 9: // approval gate
			g := node("InputMessageNode", "Approve "+objs[r.Intn(len(objs))],
				map[string]any{"outputs": []any{map[string]any{"title": "ok", "type": "boolean"}}})
			edge(tail, g, "")
			tail = g
		default: // nested subflow
			sid := fmt.Sprintf("sub%d", subs)
			subs++
			refs[sid] = map[string]any{
				"component_type": "Flow", "id": sid, "name": "Subflow " + sid,
				"start_node": ref("s"), "nodes": []any{ref("s"), ref("w"), ref("e")},
				"control_flow_connections": []any{
					map[string]any{"component_type": "ControlFlowEdge", "name": "s_w", "from_node": ref("s"), "to_node": ref("w")},
					map[string]any{"component_type": "ControlFlowEdge", "name": "w_e", "from_node": ref("w"), "to_node": ref("e")},
				},
				"$referenced_components": map[string]any{
					"s": map[string]any{"component_type": "StartNode", "id": "s", "name": "Inputs"},
					"w": map[string]any{"component_type": "ApiNode", "id": "w", "name": "Work", "url": "/api/w", "http_method": "GET"},
					"e": map[string]any{"component_type": "EndNode", "id": "e", "name": "End"},
				},
			}
			f := node("FlowNode", "Run "+objs[r.Intn(len(objs))], map[string]any{"subflow": ref(sid)})
			edge(tail, f, "")
			tail = f
		}
	}
	end := node("EndNode", "End", nil)
	edge(tail, end, "")
	doc := map[string]any{
		"agentspec_version": "26.1.0", "component_type": "Flow", "id": fmt.Sprintf("generated-%d", n), "name": "Generated",
		"start_node": ref(start), "nodes": nodes, "control_flow_connections": edges, "data_flow_connections": []any{},
		"$referenced_components": refs,
	}
	b, err := json.Marshal(doc)
	if err != nil {
		panic(err)
	}
	return b
}

func generatedAgent(n int, seed int64) *compile.Agent {
	doc := compile.ParseDoc("generated.json", generateFlow(n, seed))
	return &compile.Agent{FlowPath: "generated.json", Flow: doc, Profile: compile.ProfileAgentSpec}
}

func generateGraph(n int, seed int64) *Graph {
	g, err := Build(generatedAgent(n, seed), "")
	if err != nil {
		panic(err)
	}
	return g
}

func TestGeneratedFlows(t *testing.T) {
	for _, n := range []int{10, 50, 200} {
		g := generateGraph(n, int64(n))
		if len(g.Nodes) < n-1 || len(g.Nodes) > n+40 {
			t.Fatalf("n=%d: %d nodes", n, len(g.Nodes))
		}
		checkInvariants(t, g, Options{})
		// the nested subflows are Flows of their own
		a := generatedAgent(n, int64(n))
		for _, f := range compile.Flows(a.Flow.Root)[1:] {
			sg, err := Build(a, f.Pointer)
			if err != nil || len(sg.Nodes) != 3 {
				t.Fatalf("subflow %s: %v %d", f.Pointer, err, len(sg.Nodes))
			}
		}
	}
}
