package prompts

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// collectAsBefore is collect as it was: every FlowNode's child flows
// looked up and walked (a walk of a flow already done does nothing).
func (b *builder) collectAsBefore() {
	root := b.a.Flow.Root
	b.flows = map[string]*compile.Flow{}
	flows := b.a.Flows()
	for _, f := range flows {
		b.flows[f.Pointer] = f
	}
	if compile.ComponentType(root) == "Agent" {
		b.addAgent(root, "", nil, nil, nil, nil, 0)
	}
	done := map[string]bool{}
	var walk func(f *compile.Flow, step int)
	walk = func(f *compile.Flow, step int) {
		if done[f.Pointer] {
			return
		}
		done[f.Pointer] = true
		var g *flowgraph.Graph
		var err error
		if b.in.Graph != nil {
			g, err = b.in.Graph(f.Pointer)
		} else {
			g, err = flowgraph.Build(b.a, f.Pointer)
		}
		if err != nil || g == nil {
			return
		}
		b.graphs[f.Pointer] = g
		nodes := append([]*flowgraph.Node(nil), g.Nodes...)
		sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].BFS < nodes[j].BFS })
		for _, gn := range nodes {
			s := step
			if f.Parent == nil && gn.Step > 0 {
				s = gn.Step
			}
			b.addNode(f, g, gn, nodeComponent(b.a, gn), s)
			for _, sp := range gn.Subflows {
				if sf := b.flows[sp]; sf != nil {
					walk(sf, s)
				}
			}
		}
	}
	for _, f := range flows {
		if f.Parent == nil {
			walk(f, 0)
		}
	}
	for _, f := range flows {
		walk(f, 0)
	}
	for i, n := range b.r.Nodes {
		n.Order = i + 1
	}
}

// reportJSON is Build's report as JSON, collected by collect, or as
// collect was when before is set.
func reportJSON(t *testing.T, in Input, before bool) string {
	t.Helper()
	r := &Report{SchemaVersion: SchemaVersion, Encodings: Encodings, Budget: in.Budget.normalized(),
		Example: ExampleBudget(), Nodes: []*NodePrompt{}, Steps: []StepBudget{}, Totals: BucketTokens{}, Exceeded: []Exceeded{}, Notes: reportNotes}
	b := &builder{a: in.Agent, in: in, r: r, graphs: map[string]*flowgraph.Graph{}, toolJSON: map[*Tools]string{}}
	if before {
		b.collectAsBefore()
	} else {
		b.collect()
	}
	for _, n := range r.Nodes {
		b.measure(n)
	}
	b.budget()
	out, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

// sharedSubflows writes a root Flow of n FlowNodes, each calling one of
// three child Flows (A and B bear a prompt; B calls A, C calls nothing),
// in runs and turns as r picks them, and some calling none.
func sharedSubflows(r *rand.Rand, n int) string {
	var nodes, edges, comps []string
	ref := func(id string) string { return `{"$component_ref": "` + id + `"}` }
	nodes = append(nodes, ref("s"))
	comps = append(comps, `"s": {"component_type": "StartNode", "id": "s", "name": "S"}`)
	prev := "s"
	sub := "A"
	for i := 0; i < n; i++ {
		id := fmt.Sprint("n", i)
		if r.Intn(3) == 0 {
			sub = []string{"A", "B", "C", "missing"}[r.Intn(4)]
		}
		nodes = append(nodes, ref(id))
		comps = append(comps, fmt.Sprintf(`%q: {"component_type": "FlowNode", "id": %q, "name": "Step %d", "subflow": %s}`, id, id, i, ref(sub)))
		edges = append(edges, fmt.Sprintf(`{"component_type": "ControlFlowEdge", "id": "e%d", "name": "e%d", "from_node": %s, "to_node": %s}`, i, i, ref(prev), ref(id)))
		prev = id
	}
	child := func(id, body string) string {
		return fmt.Sprintf(`%q: {"component_type": "Flow", "id": %q, "name": %q, "start_node": {"$component_ref": "%s0"},
  "nodes": [{"$component_ref": "%s0"}, {"$component_ref": "%s1"}],
  "control_flow_connections": [{"component_type": "ControlFlowEdge", "id": "%sc", "name": "c", "from_node": {"$component_ref": "%s0"}, "to_node": {"$component_ref": "%s1"}}],
  "$referenced_components": {"%s0": {"component_type": "StartNode", "id": "%s0", "name": "S"}, "%s1": %s}}`,
			id, id, id, id, id, id, id, id, id, id, id, id, body)
	}
	comps = append(comps,
		child("A", `{"component_type": "LlmNode", "id": "A1", "name": "Ask", "prompt_template": "Hello {{who}}, about {{topic}}"}`),
		child("B", `{"component_type": "FlowNode", "id": "B1", "name": "Call A", "subflow": {"$component_ref": "A"}}`),
		child("C", `{"component_type": "EndNode", "id": "C1", "name": "End"}`))
	return `{"agentspec_version": "26.1.0", "component_type": "Flow", "id": "f", "name": "F", "metadata": {"cinatra": {"type": "flow"}},
  "inputs": [], "outputs": [], "start_node": {"$component_ref": "s"}, "nodes": [` + strings.Join(nodes, ", ") + `],
  "control_flow_connections": [` + strings.Join(edges, ", ") + `], "data_flow_connections": [],
  "$referenced_components": {` + strings.Join(comps, ",\n") + `}}`
}

// TestCollectWalkAsBefore: collect, which does not go again to the child
// flow it went to last, reports what it reported going to every FlowNode's
// child flows, on flows whose FlowNodes share child flows in runs and
// turns, nested, missing, and on every corpus agent, full and budget-only.
func TestCollectWalkAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(16))
	prompted := 0
	for c := 0; c < 200/race.Stride(8); c++ {
		a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(sharedSubflows(r, 1+r.Intn(12))))}
		if a.Flow.Root == nil {
			t.Fatal(a.Flow.Err)
		}
		for _, in := range []Input{{Agent: a}, {Agent: a, BudgetOnly: true}} {
			got, want := reportJSON(t, in, false), reportJSON(t, in, true)
			if got != want {
				t.Fatalf("case %d:\n%s\nwant\n%s", c, got, want)
			}
			if strings.Contains(got, `"Ask"`) {
				prompted++
			}
		}
	}
	if prompted < 50 {
		t.Fatalf("only %d reports with a prompt", prompted)
	}
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			a := load(t, filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
			if got, want := reportJSON(t, Input{Agent: a}, false), reportJSON(t, Input{Agent: a}, true); got != want {
				t.Fatalf("%s: the report differs", slug)
			}
		}
	})
}
