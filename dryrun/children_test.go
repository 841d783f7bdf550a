package dryrun_test

import (
	"github.com/oastui/oastui/internal/testgit"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
)

// TestChildAgent: a FlowNode whose subflow is not in the document runs
// the child agent its packageName names, found in the agents/ tree as the
// compiler finds it; without a look-up it is a stub with a note.
func TestChildAgent(t *testing.T) {
	a := childSetup(t)
	r := dryrun.Explore(a, dryrun.Options{Children: a.FindAgent})
	var child []dryrun.Step
	var brief dryrun.Step
	for _, st := range r.Paths[0].Steps {
		if st.Node == "brief_flow" {
			brief = st
		}
		if strings.Contains(st.File, "gate-agent") {
			child = append(child, st)
		}
	}
	if brief.Note != "child agent @oastui/gate-agent" || len(child) == 0 || child[0].Anchor != brief.Pointer || child[0].Depth != 1 {
		t.Errorf("brief %+v; child steps %d", brief, len(child))
	}
	r = dryrun.Explore(a, dryrun.Options{})
	for _, st := range r.Paths[0].Steps {
		if st.Node == "brief_flow" && !strings.Contains(st.Note, "not loaded") {
			t.Errorf("without Children: note %q", st.Note)
		}
	}
}

// childSetup is orchestrator-agent in an agents/ tree beside gate-agent,
// its brief_flow naming no subflow of the document, so the walk runs the
// child agent @oastui/gate-agent.
func childSetup(t *testing.T) *compile.Agent {
	t.Helper()
	tree := filepath.Join(t.TempDir(), "agents")
	for _, slug := range []string{"orchestrator-agent", "gate-agent"} {
		testgit.CopyTree(t, filepath.Join("..", "testdata", "agents", "oastui", slug), filepath.Join(tree, "oastui", slug))
	}
	flow := filepath.Join(tree, "oastui", "orchestrator-agent", "cinatra", "oas.json")
	src, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	// brief_flow's subflow now names nothing in the document.
	src = []byte(strings.Replace(string(src), `"$component_ref": "brief-subflow"`, `"$component_ref": "gone"`, 1))
	if !strings.Contains(string(src), `"gone"`) {
		t.Fatal("fixture changed: no brief-subflow reference to replace")
	}
	if err := os.WriteFile(flow, src, 0o644); err != nil {
		t.Fatal(err)
	}
	a, err := compile.Load(filepath.Join(tree, "oastui", "orchestrator-agent"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestChildStubs: canned outputs for a child agent's node are written
// "<packageName>#<node-id>" (or #<flow-id>/<node-id>); Check finds the
// child with the loader's look-up and validates the node and output; a
// bare id names the reviewed document only, in Check and in the walk.
func TestChildStubs(t *testing.T) {
	a := childSetup(t)
	for _, c := range []struct {
		name  string
		stubs dryrun.Stubs
		nil_  bool   // no look-up given
		want  string // "" = valid; else a part of the error
	}{
		{"child node", dryrun.Stubs{"@oastui/gate-agent#save_brief": {"briefId": "b-1"}}, false, ""},
		{"child flow and node", dryrun.Stubs{"@oastui/gate-agent#gate-agent-flow/save_brief": {"briefId": "b-1"}}, false, ""},
		{"own package", dryrun.Stubs{"@oastui/orchestrator-agent#brief_flow": {"briefJson": "{}"}}, false, ""},
		{"bare child id", dryrun.Stubs{"save_brief": {"briefId": "b-1"}}, false,
			`node "save_brief" is not a node of any flow of ` + a.FlowPath + ` (a child agent's node is written "<packageName>#<node-id>")`},
		{"unknown child node", dryrun.Stubs{"@oastui/gate-agent#nosuch": {"x": 1}}, false,
			`node "nosuch" is not a node of any flow of child agent @oastui/gate-agent`},
		{"unknown child output", dryrun.Stubs{"@oastui/gate-agent#save_brief": {"nope": 1}}, false,
			`node "@oastui/gate-agent#save_brief" has no output "nope" (outputs: briefId)`},
		{"unknown package", dryrun.Stubs{"@oastui/nobody#x": {"y": 1}}, false,
			`node "@oastui/nobody#x": child agent @oastui/nobody is not found in the agents/ tree`},
		{"no package", dryrun.Stubs{"#save_brief": {"briefId": 1}}, false, `write a child agent's node as "<packageName>#<node-id>"`},
		{"no node", dryrun.Stubs{"@oastui/gate-agent#": {"briefId": 1}}, false, `write a child agent's node as`},
		{"no look-up", dryrun.Stubs{"@oastui/gate-agent#save_brief": {"briefId": "b-1"}}, true,
			`child agent @oastui/gate-agent cannot be looked up here`},
	} {
		t.Run(c.name, func(t *testing.T) {
			children := a.FindAgent
			if c.nil_ {
				children = nil
			}
			err := c.stubs.Check(a, children)
			switch {
			case c.want == "" && err != nil:
				t.Errorf("valid stubs refused: %v", err)
			case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
				t.Errorf("error %v, want %q", err, c.want)
			}
		})
	}

	// the walk: the child's save_brief returns the canned briefId; a bare
	// id of the same name does not reach into the child
	briefID := func(st dryrun.Stubs) (any, string) {
		t.Helper()
		r := dryrun.Explore(a, dryrun.Options{Children: a.FindAgent, Stubs: st})
		for _, s := range r.Paths[0].Steps {
			if s.Node == "save_brief" && strings.Contains(s.File, "gate-agent") {
				for _, o := range s.Outputs {
					if o.Name == "briefId" {
						return o.Value, o.From
					}
				}
			}
		}
		t.Fatal("no save_brief step in the child")
		return nil, ""
	}
	if v, from := briefID(dryrun.Stubs{"@oastui/gate-agent#save_brief": {"briefId": "b-1"}}); v != "b-1" || from != "stubs" {
		t.Errorf("canned child output: %v from %q", v, from)
	}
	if v, from := briefID(dryrun.Stubs{"@oastui/gate-agent#gate-agent-flow/save_brief": {"briefId": "b-2"}}); v != "b-2" || from != "stubs" {
		t.Errorf("canned child output by flow id: %v from %q", v, from)
	}
	if _, from := briefID(dryrun.Stubs{"save_brief": {"briefId": "b-3"}}); from == "stubs" {
		t.Error("a bare id reached into the child agent")
	}
}
