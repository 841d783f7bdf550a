package workspace

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// TestOneFlowModelPerAgent: one analysis reads each agent's one flow model
// (compile.Agent.Model), however many readers it has: after the review and
// the summary, and after every stage in review mode full (the graphs, the
// dry run, the prompt report, the drawn flows, the summary), the agent and
// each child agent the dry run walks still hold the model they had before.
func TestOneFlowModelPerAgent(t *testing.T) {
	fixtures := filepath.Join("..", "testdata", "agents")
	tree := callerTree(t)
	for _, agent := range []struct{ root, name string }{
		{tree, "caller"}, {fixtures, "orchestrator-agent"}, {fixtures, "branching-agent"}, {fixtures, "context-slot-agent"},
	} {
		root, name := agent.root, agent.name
		dir := filepath.Join(root, "oastui", name)

		ag, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m := ag.Model()
		a := Summarize(root, analysis.Run(dir, analysis.Options{Agent: ag, Stages: Stages}))
		if !a.Parsed || len(a.Top)+a.Steps < 0 {
			t.Fatalf("%s: did not parse", name)
		}
		if (name == "orchestrator-agent" || name == "caller") && len(a.Children) == 0 {
			t.Fatalf("%s: no child calls in the summary: the model's callers were not read", name)
		}
		if ag.Model() != m {
			t.Errorf("%s: the review and the summary left the agent with another model", name)
		}

		walked := map[*compile.Agent]*compile.Model{} // the child agents handed to the dry run, with their model
		opts := analysis.Options{Agent: ag, Stages: analysis.Everything, Mode: lint.ModeFull}
		opts.DryRun.Children = func(pkg string) (*compile.Agent, error) {
			c, err := ag.FindAgent(pkg)
			if err == nil && c != nil && walked[c] == nil {
				walked[c] = c.Model()
			}
			return c, err
		}
		s := analysis.Run(dir, opts)
		if s.DryRun == nil || s.Prompts == nil || len(s.Flows) == 0 {
			t.Fatalf("%s: a stage did not run", name)
		}
		for _, f := range s.Flows {
			f.Drawn()
		}
		Summarize(root, s)
		if name == "caller" && len(walked) != 1 {
			t.Fatalf("%s: the dry run walked %d child agents, want 1", name, len(walked))
		}
		if ag.Model() != m {
			t.Errorf("%s: one analysis with every stage left the agent with another model", name)
		}
		for c, cm := range walked {
			if c.Model() != cm {
				t.Errorf("%s: child %s has another model after the analysis", name, c.Dir)
			}
		}
	}
}

// callerTree is an agents/ tree where oastui/caller runs the child agent
// @acme/child from two FlowNodes (a subflow of no document: the dry run
// walks the child's own flow).
func callerTree(t *testing.T) string {
	t.Helper()
	root := filepath.Join(t.TempDir(), "agents")
	write := func(slug, name, refs, nodes, edges string) {
		dir := filepath.Join(root, "oastui", slug)
		if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
			t.Fatal(err)
		}
		flow := `{"agentspec_version": "26.1.0", "component_type": "Flow", "id": "` + slug + `", "name": "` + slug + `",
  "metadata": {"cinatra": {"type": "flow"}}, "start_node": {"$component_ref": "start"},
  "nodes": [{"$component_ref": "start"}` + nodes + `, {"$component_ref": "end"}], "control_flow_connections": [` + edges + `],
  "$referenced_components": {"start": {"component_type": "StartNode", "id": "start", "name": "start"},
    "end": {"component_type": "EndNode", "id": "end", "name": "end"}` + refs + `}}`
		pkg := `{"name": "` + name + `", "version": "1.0.0", "license": "MIT"}`
		if os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), []byte(flow), 0o644) != nil ||
			os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644) != nil {
			t.Fatal("cannot write the tree")
		}
	}
	edge := func(id, from, to string) string {
		return `{"component_type": "ControlFlowEdge", "id": "` + id + `", "name": "` + id + `", "from_node": {"$component_ref": "` + from + `"}, "to_node": {"$component_ref": "` + to + `"}}`
	}
	write("child", "@acme/child", "", "", edge("e1", "start", "end"))
	call := func(id string) string {
		return `, "` + id + `": {"component_type": "FlowNode", "id": "` + id + `", "name": "` + id + `", "metadata": {"cinatra": {"packageName": "@acme/child"}}}`
	}
	write("caller", "@acme/caller", call("first")+call("second"), `, {"$component_ref": "first"}, {"$component_ref": "second"}`,
		edge("e1", "start", "first")+", "+edge("e2", "first", "second")+", "+edge("e3", "second", "end"))
	return root
}
