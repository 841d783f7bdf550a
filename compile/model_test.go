package compile

import (
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

const modelFlow = `{"component_type": "Flow", "id": "root", "name": "Root",
  "start_node": {"$component_ref": "start"},
  "nodes": [{"$component_ref": "start"}, {"$component_ref": "fn"}, {"$component_ref": "sib"}, {"$component_ref": "end"},
            {"$component_ref": "start"}, {"$component_ref": "ghost"}, {"component_type": "EndNode", "name": "inline end"}],
  "control_flow_connections": [
    {"component_type": "ControlFlowEdge", "name": "s-fn", "from_node": {"$component_ref": "start"}, "to_node": {"$component_ref": "fn"}},
    {"$component_ref": "fn-end"},
    {"component_type": "ControlFlowEdge", "name": "to-nowhere", "from_node": {"$component_ref": "fn"}, "from_branch": null, "to_node": {"$component_ref": "ghost"}},
    {"component_type": "ControlFlowEdge", "name": "to-outsider", "from_node": {"$component_ref": "end"}, "from_branch": "", "to_node": {"$component_ref": "outsider"}},
    "not an edge"],
  "data_flow_connections": [
    {"component_type": "DataFlowEdge", "name": "d", "source_node": {"$component_ref": "start"}, "source_output": "x", "destination_node": {"$component_ref": "fn"}, "destination_input": "x"}],
  "$referenced_components": {
    "start": {"component_type": "StartNode", "id": "start", "name": "Start"},
    "end": {"component_type": "EndNode", "id": "end", "name": "End", "$referenced_components": {"sib": {"component_type": "LlmNode", "id": "sib"}}},
    "outsider": {"component_type": "EndNode", "id": "outsider"},
    "fn-end": {"component_type": "ControlFlowEdge", "name": "fn-end", "from_node": {"$component_ref": "fn"}, "from_branch": "next", "to_node": {"$component_ref": "end"}},
    "fn": {"component_type": "FlowNode", "id": "fn", "metadata": {"cinatra": {"packageName": "@acme/child"}},
      "$referenced_components": {"x": {"component_type": "StartNode", "id": "x"}},
      "subflow": {"component_type": "Flow", "id": "sub", "start_node": {"$component_ref": "x"}, "nodes": [{"$component_ref": "x"}]}}
  }}`

func loadModelFlow(t *testing.T) *Agent {
	t.Helper()
	dir := writePkg(t, map[string]string{"package.json": `{"name":"@acme/parent"}`, "cinatra/oas.json": modelFlow})
	a, err := Load(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestModelOncePerAgent: a loaded agent builds its model once, on first
// use, and every reader — concurrent ones, Flows, ChildCalls — reads that
// one. A copy of the agent with another flow file builds its own.
func TestModelOncePerAgent(t *testing.T) {
	a := loadModelFlow(t)
	models := make([]*Model, 8)
	var wg sync.WaitGroup
	for i := range models {
		wg.Add(1)
		go func() { defer wg.Done(); models[i] = a.Model() }()
	}
	wg.Wait()
	for i, m := range models {
		if m != models[0] || m == nil {
			t.Fatalf("reader %d got another model", i)
		}
	}
	if len(a.Flows()) != 2 || len(a.ChildCalls()) != 1 {
		t.Fatalf("Flows %d, ChildCalls %d: want 2 and 1", len(a.Flows()), len(a.ChildCalls()))
	}
	if a.Model() != models[0] || &a.Flows()[0] != &models[0].flows[0] {
		t.Error("Flows or a later reader read another model")
	}

	other := *a
	other.Flow = ParseDoc("oas.json", []byte(`{"component_type": "Flow", "id": "other"}`))
	if m := other.Model(); m == models[0] || len(m.Flows) != 1 || m.Flows[0].Flow.Node != other.Flow.Root {
		t.Error("a copy of the agent with another flow file read the first one's model")
	}
	if m := (*Agent)(nil).Model(); m == nil || len(m.Flows) != 0 {
		t.Error("a nil agent has an empty model")
	}
}

// TestWithoutModel: the copy shares the agent's documents, not its model
// (it builds one of its own, once, when asked), and the original keeps
// its model.
func TestWithoutModel(t *testing.T) {
	a := loadModelFlow(t)
	m := a.Model()
	c := a.WithoutModel()
	if c == a || c.Flow != a.Flow || c.Package != a.Package || c.Dir != a.Dir {
		t.Fatal("the copy does not share the agent's documents")
	}
	cm := c.Model()
	if cm == m || cm == nil || c.Model() != cm || len(cm.Flows) != len(m.Flows) {
		t.Error("the copy read the agent's model, or did not build its own once")
	}
	if a.Model() != m {
		t.Error("the original lost its model")
	}
	if (*Agent)(nil).WithoutModel() != nil {
		t.Error("a nil agent's copy is not nil")
	}
}

// TestModelFlows: the model's Flows are Flows(root), in order, with the
// same nesting, for the fixtures and every corpus agent.
func TestModelFlows(t *testing.T) {
	dirs := []string{}
	if ents, err := os.ReadDir(filepath.Join("..", "testdata", "agents", "oastui")); err == nil {
		for _, e := range ents {
			dirs = append(dirs, filepath.Join("..", "testdata", "agents", "oastui", e.Name()))
		}
	}
	corpus, slugs := testshared.CorpusAgents(t)
	for _, s := range slugs {
		dirs = append(dirs, filepath.Join(corpus, "agents", "cinatra-ai", s))
	}
	if len(dirs) < 25 {
		t.Fatalf("only %d agents to check", len(dirs))
	}
	for _, dir := range dirs {
		a, err := Load(dir, LoadOptions{})
		if err != nil || a.Flow.Root == nil {
			t.Fatalf("%s: %v", dir, err)
		}
		want, got := Flows(a.Flow.Root), a.Flows()
		if len(got) != len(want) || len(a.Model().Flows) != len(want) {
			t.Fatalf("%s: %d flows, want %d", dir, len(got), len(want))
		}
		for i := range want {
			g, w := got[i], want[i]
			if g.Node != w.Node || g.Pointer != w.Pointer || g.Depth != w.Depth || (g.Parent == nil) != (w.Parent == nil) ||
				g.Parent != nil && g.Parent.Node != w.Parent.Node || a.Model().Flows[i].Flow != g {
				t.Errorf("%s: flow %d is %q (depth %d), want %q (depth %d)", dir, i, g.Pointer, g.Depth, w.Pointer, w.Depth)
			}
		}
	}
}

// TestModelFlow: one Flow's nodes, edges and endpoints, as the linter and
// the graphs read them: references resolve in the Flow's scopes, then in
// an enclosing component's $referenced_components, then anywhere in the
// document; endpoints that name no node of the flow, or nothing, are kept.
func TestModelFlow(t *testing.T) {
	a := loadModelFlow(t)
	m := a.Model()
	root, sub := m.Flows[0], m.Flows[1]
	if m.FlowByNode(a.Flow.Root) != root || root.Label() != "Root" || sub.Flow.Parent != root.Flow {
		t.Fatal("flows not modelled in document order")
	}

	// Entries: every item of nodes, resolved or not.
	wantScopes := []RefScope{RefLocal, RefLocal, RefDocument, RefLocal, RefLocal, RefUnresolved, RefInline}
	wantRaw := []string{"start", "fn", "sib", "end", "start", "ghost", ""}
	if len(root.Entries) != len(wantScopes) {
		t.Fatalf("%d entries, want %d", len(root.Entries), len(wantScopes))
	}
	for i, e := range root.Entries {
		if e.Resolved.Scope != wantScopes[i] || e.RawID != wantRaw[i] || e.Pointer != AppendIndex("/nodes", i) {
			t.Errorf("entry %d: scope %v raw %q at %s, want %v %q", i, e.Resolved.Scope, e.RawID, e.Pointer, wantScopes[i], wantRaw[i])
		}
	}
	if s := root.Entries[2].Resolved.FlowScoped(); s.Node != nil || s.Scope != RefUnresolved {
		t.Error("a definition found only elsewhere in the document is no component of the Flow's scopes")
	}
	if root.Entries[5].Node != nil || root.Entries[0].Node != root.Entries[4].Node {
		t.Error("an unresolved entry is no node; a repeated entry is the same node")
	}

	// Nodes: distinct, by identity.
	var ids []string
	for i := range root.Nodes {
		ids = append(ids, root.Nodes[i].ID)
	}
	if want := []string{"start", "fn", "sib", "end", "@/nodes/6"}; !slices.Equal(ids, want) {
		t.Fatalf("nodes %q, want %q", ids, want)
	}
	start := root.NodeByID("start")
	if start != root.StartNode() || start.Label() != "Start" || start.Entry != "/nodes/0" || !slices.Equal(start.Repeats, []string{"/nodes/4"}) ||
		start.Pointer != "/$referenced_components/start" || start.Type != "StartNode" {
		t.Errorf("start node %+v", start)
	}
	if sib := root.NodeByID("sib"); sib.Pointer != "/$referenced_components/end/$referenced_components/sib" {
		t.Errorf("sib defined at %q", sib.Pointer)
	}

	// Control edges: the string is no edge; endpoints are kept.
	if len(root.Control) != 4 {
		t.Fatalf("%d control edges, want 4", len(root.Control))
	}
	fnEnd, nowhere, outsider := &root.Control[1], &root.Control[2], &root.Control[3]
	if fnEnd.Entry != "/control_flow_connections/1" || fnEnd.Pointer != "/$referenced_components/fn-end" || fnEnd.Scope != RefLocal ||
		fnEnd.Branch != "next" || !fnEnd.BranchGiven || fnEnd.From.Node != root.NodeByID("fn") || fnEnd.To.Node != root.NodeByID("end") {
		t.Errorf("referenced edge %+v", fnEnd)
	}
	if nowhere.BranchGiven || nowhere.To.RawID != "ghost" || !nowhere.To.Given || nowhere.To.Comp != nil || nowhere.To.Node != nil ||
		nowhere.To.PointerIn(nowhere.Pointer) != "/control_flow_connections/2/to_node" {
		t.Errorf("unresolved endpoint %+v", nowhere.To)
	}
	if !outsider.BranchGiven || outsider.Branch != "" || outsider.To.Comp == nil || outsider.To.ID != "outsider" || outsider.To.Node != nil {
		t.Errorf("endpoint outside the flow %+v", outsider.To)
	}
	if fn := root.NodeByID("fn"); len(fn.Out) != 2 || fn.Out[0] != fnEnd || len(fn.In) != 1 || fn.In[0] != &root.Control[0] {
		t.Errorf("fn's edges: out %d, in %d", len(fn.Out), len(fn.In))
	}
	if !root.DataGiven || len(root.Data) != 1 || root.Data[0].Source.Node != start || root.Data[0].Output != "x" || root.Data[0].Ref != "" {
		t.Errorf("data edges %+v", root.Data)
	}

	// The subflow's node is defined by the FlowNode around it, which is no Flow.
	if e := sub.Entries[0]; e.Resolved.Scope != RefLexical || e.Node == nil || sub.Start.Node != e.Node {
		t.Errorf("subflow entry %+v", e)
	}

	// A Flow of no document is modelled alone, in its own scopes.
	alone := &Flow{Node: sub.Flow.Node, Pointer: "/elsewhere"}
	if fm := m.FlowOf(alone); fm == sub || fm.Entries[0].Resolved.Scope != RefUnresolved {
		t.Error("a Flow at another place read the document's model")
	}
	if m.FlowOf(sub.Flow) != sub || m.FlowOf(&Flow{Node: sub.Flow.Node, Pointer: sub.Flow.Pointer, Parent: &Flow{Node: a.Flow.Root}}) != sub {
		t.Error("the document's Flow was modelled again")
	}
}
