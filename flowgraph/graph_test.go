package flowgraph

import (
	"errors"
	"os/exec"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

const testFlow = `{
  "agentspec_version": "26.1.0", "component_type": "Flow", "id": "test-flow", "name": "Test \u001b[31mflow",
  "metadata": {"cinatra": {"type": "leaf"}},
  "start_node": {"$component_ref": "start"},
  "nodes": [
    {"$component_ref": "start"}, {"$component_ref": "ask"}, {"$component_ref": "work"},
    {"$component_ref": "sub_node"}, {"$component_ref": "check"}, {"$component_ref": "orphan"},
    {"$component_ref": "end"}, {"$component_ref": "ask"},
    {"component_type": "ApiNode", "id": "inline1", "name": "Inline node"}
  ],
  "control_flow_connections": [
    {"component_type": "ControlFlowEdge", "name": "e0", "from_node": {"$component_ref": "start"}, "to_node": {"$component_ref": "ask"}},
    {"component_type": "ControlFlowEdge", "name": "e1", "from_node": {"$component_ref": "ask"}, "to_node": {"$component_ref": "work"}},
    {"component_type": "ControlFlowEdge", "name": "e2", "from_node": {"$component_ref": "work"}, "to_node": {"$component_ref": "sub_node"}},
    {"component_type": "ControlFlowEdge", "name": "e3", "from_node": {"$component_ref": "sub_node"}, "to_node": {"$component_ref": "check"}},
    {"component_type": "ControlFlowEdge", "name": "e4", "from_node": {"$component_ref": "check"}, "to_node": {"$component_ref": "work"}, "from_branch": "re\u001b]0;x\u0007try"},
    {"component_type": "ControlFlowEdge", "name": "e5", "from_node": {"$component_ref": "check"}, "to_node": {"$component_ref": "end"}, "from_branch": "done"},
    {"component_type": "ControlFlowEdge", "name": "e6", "from_node": {"$component_ref": "orphan"}, "to_node": {"$component_ref": "end"}},
    {"component_type": "ControlFlowEdge", "name": "e7", "from_node": {"$component_ref": "check"}, "to_node": {"$component_ref": "ghost"}},
    {"component_type": "ControlFlowEdge", "name": "e8", "from_node": {"$component_ref": "check"}, "to_node": {"$component_ref": "inline1"}, "from_branch": "side"},
    {"component_type": "ControlFlowEdge", "name": "e9", "from_node": {"$component_ref": "inline1"}, "to_node": {"$component_ref": "end"}}
  ],
  "data_flow_connections": [
    {"component_type": "DataFlowEdge", "name": "d0", "source_node": {"$component_ref": "start"}, "source_output": "topic",
     "destination_node": {"$component_ref": "work"}, "destination_input": "topic"},
    {"component_type": "DataFlowEdge", "name": "d1", "source_node": {"$component_ref": "ghost"}, "source_output": "x",
     "destination_node": {"$component_ref": "work"}, "destination_input": "x"}
  ],
  "$referenced_components": {
    "start": {"component_type": "StartNode", "id": "start", "name": "Inputs",
      "metadata": {"cinatra": {"required": ["topic"], "hidden": []}}},
    "ask": {"component_type": "InputMessageNode", "id": "ask", "name": "Ask\u202e the user", "outputs": [{"title": "answer", "type": "string"}]},
    "work": {"component_type": "AgentNode", "id": "work", "name": "Do the work", "agent": {"$component_ref": "worker"}},
    "worker": {"component_type": "Agent", "id": "worker", "name": "Worker",
      "metadata": {"cinatra": {"requiresApproval": true, "riskClass": "send_external_message"}}},
    "sub_node": {"component_type": "FlowNode", "id": "sub_node", "name": "Run the subflow", "subflow": {"$component_ref": "sub"},
      "metadata": {"cinatra": {"gateSteps": [{"name": "A"}, {"name": "B", "requiresApproval": true}]}}},
    "sub": {"component_type": "Flow", "id": "sub-flow", "name": "Sub",
      "start_node": {"$component_ref": "s"}, "nodes": [{"$component_ref": "s"}, {"$component_ref": "w"}, {"$component_ref": "e"}],
      "control_flow_connections": [
        {"component_type": "ControlFlowEdge", "name": "a", "from_node": {"$component_ref": "s"}, "to_node": {"$component_ref": "w"}},
        {"component_type": "ControlFlowEdge", "name": "b", "from_node": {"$component_ref": "w"}, "to_node": {"$component_ref": "e"}}],
      "$referenced_components": {
        "s": {"component_type": "StartNode", "id": "s", "name": "In"},
        "w": {"component_type": "AgentNode", "id": "w", "name": "Inner", "agent": {"$component_ref": "worker"}},
        "e": {"component_type": "EndNode", "id": "e", "name": "Out"}}},
    "check": {"component_type": "BranchingNode", "id": "check", "name": "Good enough?", "branches": ["retry", "done"]},
    "orphan": {"component_type": "ApiNode", "id": "orphan", "name": "Never reached"},
    "end": {"component_type": "EndNode", "id": "end", "name": "End"}
  }
}`

func testAgent(t testing.TB) *compile.Agent {
	t.Helper()
	doc := compile.ParseDoc("flow.json", []byte(testFlow))
	if doc.Err != nil {
		t.Fatal(doc.Err)
	}
	return &compile.Agent{FlowPath: "flow.json", Flow: doc, Profile: compile.ProfileCinatra}
}

func TestBuild(t *testing.T) {
	a := testAgent(t)
	g, err := Build(a, "")
	if err != nil {
		t.Fatal(err)
	}
	if g.FlowID != "test-flow" || g.FlowName != "Test flow" || g.Start != "start" || g.File != "flow.json" {
		t.Fatalf("flow: %q %q %q %q", g.FlowID, g.FlowName, g.Start, g.File)
	}
	var ids []string
	for _, n := range g.Nodes {
		ids = append(ids, n.ID)
	}
	if want := []string{"start", "ask", "work", "sub_node", "check", "orphan", "end", "inline1"}; !reflect.DeepEqual(ids, want) {
		t.Fatalf("nodes %v, want %v", ids, want)
	}
	type row struct {
		kind      NodeKind
		bfs, step int
		steps     []int
		appr      bool
		reach     bool
	}
	want := map[string]row{
		"start":    {KindStart, 0, 0, []int{0}, true, true},
		"ask":      {KindInput, 1, 1, []int{1}, true, true},
		"work":     {KindAgent, 2, 2, []int{2}, true, true},
		"sub_node": {KindFlow, 3, 3, []int{3, 4}, true, true},
		"check":    {KindBranch, 4, 0, nil, false, true},
		"end":      {KindEnd, 5, 0, nil, false, true},
		"inline1":  {KindAPI, 6, 0, nil, false, true},
		"orphan":   {KindAPI, 7, 0, nil, false, false},
	}
	for _, n := range g.Nodes {
		w := want[n.ID]
		got := row{n.Kind, n.BFS, n.Step, n.Steps, n.Approval, n.Reachable}
		if !reflect.DeepEqual(got, w) {
			t.Errorf("%s: got %+v, want %+v", n.ID, got, w)
		}
	}
	work := g.Nodes[g.NodeIndex("work")]
	if work.Risk != "send_external_message" || work.Pointer != "/$referenced_components/work" {
		t.Errorf("work: risk %q pointer %q", work.Risk, work.Pointer)
	}
	if n := g.Nodes[g.NodeIndex("ask")]; n.Name != "Ask the user" {
		t.Errorf("name not sanitised: %q", n.Name)
	}
	if n := g.Nodes[g.NodeIndex("sub_node")]; n.Subflow != "/$referenced_components/sub" || len(n.Subflows) != 1 {
		t.Errorf("subflow %q %v", n.Subflow, n.Subflows)
	}
	if n := g.Nodes[g.NodeIndex("inline1")]; n.Pointer != "/nodes/8" || n.Name != "Inline node" {
		t.Errorf("inline node %+v", n)
	}
	// Edges: the one to an unknown node is dropped; the retry edge is a back edge.
	if len(g.Edges) != 9 {
		t.Fatalf("%d edges", len(g.Edges))
	}
	for _, e := range g.Edges {
		back := e.From == "check" && e.To == "work"
		if e.Back != back {
			t.Errorf("edge %s→%s back=%v", e.From, e.To, e.Back)
		}
		if back && e.Branch != "retry" {
			t.Errorf("branch label not sanitised: %q", e.Branch)
		}
	}
	if len(g.Data) != 1 || g.Data[0] != (DataEdge{From: "start", Output: "topic", To: "work", Input: "topic", Pointer: "/data_flow_connections/0"}) {
		t.Errorf("data edges %+v", g.Data)
	}

	// The nested flow: its own graph, no compiled steps.
	ptr, ok := FindFlow(a, "sub-flow")
	if !ok || ptr != "/$referenced_components/sub" {
		t.Fatalf("FindFlow: %q %v", ptr, ok)
	}
	sg, err := Build(a, ptr)
	if err != nil || len(sg.Nodes) != 3 || len(sg.Edges) != 2 || sg.FlowPointer != ptr {
		t.Fatalf("subflow graph: %v %+v", err, sg)
	}
	if w := sg.Nodes[1]; w.Step != 0 || !w.Approval || w.Pointer != "/$referenced_components/sub/$referenced_components/w" {
		t.Errorf("inner node %+v", w)
	}
	if _, err := Build(a, "/nope"); !errors.Is(err, ErrNoFlow) {
		t.Errorf("bad pointer: %v", err)
	}
	if _, ok := FindFlow(a, "missing"); ok {
		t.Error("FindFlow found a missing flow")
	}
	if _, err := Build(&compile.Agent{Flow: compile.ParseDoc("x.json", []byte("{"))}, ""); err == nil {
		t.Error("Build of an unparsed flow")
	}
	if _, err := Build(&compile.Agent{Flow: compile.ParseDoc("x.json", []byte(`{"component_type":"Agent"}`))}, ""); !errors.Is(err, ErrNoFlow) {
		t.Errorf("no flow: %v", err)
	}
}

func TestBuildOddInput(t *testing.T) {
	for _, src := range []string{
		`{"component_type":"Flow"}`,
		`{"component_type":"Flow","nodes":"x","control_flow_connections":{},"start_node":3}`,
		`{"component_type":"Flow","nodes":[1,null,{"$component_ref":5},{"$component_ref":"a"}],"control_flow_connections":[1,{"from_node":{"$component_ref":"a"},"to_node":{"$component_ref":"a"}}]}`,
		`{"component_type":"Flow","nodes":[{"$component_ref":"a"}],"$referenced_components":{"a":{"component_type":"FlowNode","subflow":{"$component_ref":"a"}}}}`,
	} {
		a := &compile.Agent{Flow: compile.ParseDoc("x.json", []byte(src))}
		g, err := Build(a, "")
		if err != nil {
			t.Fatalf("%s: %v", src, err)
		}
		Render(g, Options{})
		Render(g, Options{ASCII: true, ShowData: true})
		DOT(g)
		Mermaid(g)
	}
}

func TestSetFindings(t *testing.T) {
	g, err := Build(testAgent(t), "")
	if err != nil {
		t.Fatal(err)
	}
	f := func(file, loc string, sev compile.Severity) compile.Finding {
		return compile.Finding{File: file, Location: loc, Severity: sev}
	}
	g.SetFindings([]compile.Finding{
		f("flow.json", "/$referenced_components/work/agent", compile.Blocker),                   // inside the node
		f("flow.json", "/$referenced_components/worker/metadata", compile.Warning),              // the agent it uses (work)
		f("flow.json", "/$referenced_components/sub/$referenced_components/w", compile.Warning), // inside its subflow (sub_node)
		f("flow.json", "/control_flow_connections/5/from_branch", compile.Blocker),              // an edge leaving check
		f("flow.json", "/nodes/7", compile.Suggestion),                                          // the duplicate entry of ask
		f("package.json", "/$referenced_components/end", compile.Blocker),                       // another file
		f("flow.json", "/$referenced_components/end_x", compile.Blocker),                        // not under end
		f("flow.json", "", compile.Blocker),                                                     // no location
	})
	got := map[string][3]int{}
	for _, n := range g.Nodes {
		if n.Blockers+n.Warnings+n.Suggestions > 0 {
			got[n.ID] = [3]int{n.Blockers, n.Warnings, n.Suggestions}
		}
	}
	want := map[string][3]int{"work": {1, 1, 0}, "sub_node": {0, 1, 0}, "check": {1, 0, 0}, "ask": {0, 0, 1}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("counts %v, want %v", got, want)
	}
	g.SetFindings(nil)
	for _, n := range g.Nodes {
		if n.Blockers+n.Warnings+n.Suggestions != 0 {
			t.Errorf("%s not reset", n.ID)
		}
	}
}

func TestExport(t *testing.T) {
	g, err := Build(testAgent(t), "")
	if err != nil {
		t.Fatal(err)
	}
	g.Edges = append(g.Edges, Edge{From: "orphan", To: "orphan"}, Edge{From: "orphan", To: "end"}) // self-loop, duplicate
	dot := DOT(g)
	mm := Mermaid(g)
	if n := strings.Count(dot, " -> "); n != len(g.Edges) {
		t.Errorf("DOT has %d edges, graph %d:\n%s", n, len(g.Edges), dot)
	}
	if n := strings.Count(dot, "label="); n != len(g.Nodes)+3 { // + three branch labels
		t.Errorf("DOT has %d labels:\n%s", n, dot)
	}
	if n := strings.Count(mm, "-->") + strings.Count(mm, "-.->"); n != len(g.Edges) {
		t.Errorf("Mermaid has %d links, graph %d:\n%s", n, len(g.Edges), mm)
	}
	nodeLines := 0
	for _, l := range strings.Split(mm, "\n")[1:] {
		if l != "" && !strings.Contains(l, "->") {
			nodeLines++
		}
	}
	if nodeLines != len(g.Nodes) {
		t.Errorf("Mermaid has %d nodes, graph %d:\n%s", nodeLines, len(g.Nodes), mm)
	}
	if !strings.Contains(mm, `n4 -.->|"retry"| n2`) || !strings.Contains(dot, `"check" -> "work" [label="retry", style=dashed]`) {
		t.Errorf("back edge:\n%s\n%s", dot, mm)
	}
	if mermaidQuote(`a"b|c<d>#`) != `"a#quot;b#124;c#lt;d#gt;#35;"` || dotQuote(`a"b\`) != `"a\"b\\"` {
		t.Error("quoting")
	}
	// Graphviz accepts it and draws one node per flow node.
	if path, err := exec.LookPath("dot"); err == nil {
		cmd := exec.Command(path, "-Tplain")
		cmd.Stdin = strings.NewReader(dot)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("dot: %v\n%s", err, dot)
		}
		if n := strings.Count(string(out), "\nnode "); n != len(g.Nodes) {
			t.Errorf("dot drew %d nodes, want %d", n, len(g.Nodes))
		}
		if n := strings.Count(string(out), "\nedge "); n != len(g.Edges) {
			t.Errorf("dot drew %d edges, want %d", n, len(g.Edges))
		}
	}
}

func TestRenderTestFlow(t *testing.T) {
	g, err := Build(testAgent(t), "")
	if err != nil {
		t.Fatal(err)
	}
	g.SetFindings([]compile.Finding{{File: "flow.json", Location: "/$referenced_components/work", Severity: compile.Blocker}})
	var b strings.Builder
	for _, o := range []Options{{}, {ASCII: true, ShowData: true}} {
		c, _ := Render(g, o)
		b.WriteString(c.String())
		b.WriteString("\n")
		checkInvariants(t, g, o)
	}
	checkGolden(t, "testdata/test-flow.txt", b.String())
}

// FuzzBuildRender: any JSON document builds (or reports no Flow) and
// draws without panicking.
func FuzzBuildRender(f *testing.F) {
	f.Add([]byte(testFlow))
	f.Add([]byte(`{"component_type":"Flow","start_node":{"$component_ref":"a"},"nodes":[{"$component_ref":"a"},{"$component_ref":"b"}],` +
		`"control_flow_connections":[{"from_node":{"$component_ref":"a"},"to_node":{"$component_ref":"b"},"from_branch":"x"},` +
		`{"from_node":{"$component_ref":"b"},"to_node":{"$component_ref":"a"}}],"$referenced_components":{"a":{"component_type":"StartNode"}}}`))
	f.Fuzz(func(t *testing.T, src []byte) {
		doc := compile.ParseDoc("f.json", src)
		if doc.Root == nil {
			return
		}
		a := &compile.Agent{Flow: doc, Profile: compile.ProfileCinatra}
		for _, fl := range compile.Flows(doc.Root) {
			g, err := Build(a, fl.Pointer)
			if err != nil {
				t.Fatalf("%q: %v", fl.Pointer, err)
			}
			Render(g, Options{})
			Render(g, Options{ASCII: true, ShowData: true})
			DOT(g)
			Mermaid(g)
		}
	})
}
