package flowgraph

import (
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/present"
)

// numberStepsBefore is numberSteps as it was before it read the model's
// step counts and found the nodes by the view's BFS ranks (the StepOrder
// list, a NodeIndex look-up per place): the oracle of
// TestNumberStepsAsBefore.
func numberStepsBefore(g *Graph, order []compile.StepNode) {
	total := 0
	for _, sn := range order {
		total += len(sn.Steps)
	}
	steps := make([]int, 0, total) // the nodes' Steps, one array for all (each capped at its end)
	for _, sn := range order {
		i := g.NodeIndex(sn.ID)
		if i < 0 || len(sn.Steps) == 0 || len(g.Nodes[i].Steps) > 0 {
			continue
		}
		n := g.Nodes[i]
		k := len(steps)
		steps = append(steps, sn.Steps...)
		n.Steps = steps[k:len(steps):len(steps)]
		for _, st := range sn.Steps {
			if st > 0 {
				n.Step = st
				break
			}
		}
		if n.Kind == KindStart && sn.Steps[0] == 0 {
			n.Approval = true
		}
	}
}

// numberedSame: every top-level Flow of a, graphed as a Cinatra agent's
// (numberSteps), has the step numbers, first step and approvals of its
// graph unnumbered (another profile) then numbered by numberStepsBefore
// from the compiler's step order of the model's BFS order. It returns how
// many nodes got steps.
func numberedSame(t *testing.T, what string, a *compile.Agent) (numbered int) {
	t.Helper()
	other := *a
	other.Profile = compile.ProfileAgentSpec
	for _, f := range a.Flows() {
		if f.Parent != nil {
			continue
		}
		g := BuildFlow(a, f)
		want := BuildFlow(&other, f)
		fm := a.Model().FlowOf(f)
		numberStepsBefore(want, compile.FlowStepOrderOf(f.Node, fm.BFSOrder()))
		for i, n := range g.Nodes {
			w := want.Nodes[i]
			if !slices.Equal(n.Steps, w.Steps) || n.Step != w.Step || n.Approval != w.Approval {
				t.Fatalf("%s %q: node %d %q: steps %v (step %d, approval %v), before %v (step %d, approval %v)",
					what, f.Pointer, i, n.ID, n.Steps, n.Step, n.Approval, w.Steps, w.Step, w.Approval)
			}
			if len(n.Steps) > 0 {
				numbered++
			}
		}
	}
	return numbered
}

// TestNumberStepsAsBefore: the graph's step numbers read from the model's
// step counts, each place's node found by the view's BFS rank, are those
// numberStepsBefore gave from the step order and the index, on random
// flows (ids the graph shows otherwise than written, two ids shown alike,
// repeated and unreached entries, ids defined nowhere, FlowNodes with gate
// steps, a start with the setup step), the test agent, the slim-slot
// fixture (injected steps) and a copy whose end node takes an injected
// step's id, the hostile flow, the corpus and the history.
func TestNumberStepsAsBefore(t *testing.T) {
	r := rand.New(rand.NewSource(18))
	types := []string{"AgentNode", "InputMessageNode", "FlowNode", "FlowNode", "EndNode", "ApiNode"}
	js := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	total := 0
	for c := 0; c < 400/race.Stride(24); c++ {
		n := 2 + r.Intn(20)
		name := func(i int) string {
			switch r.Intn(12) {
			case 0:
				return fmt.Sprintf("n%d\u0007", i) // shown as n<i>
			case 1:
				return "ghost"
			}
			return fmt.Sprint("n", i)
		}
		var defs, nodes, edges []string
		for i := 0; i < n; i++ {
			typ, meta := types[r.Intn(len(types))], ""
			if i == 0 {
				typ = "StartNode"
				if r.Intn(2) == 0 {
					meta = `,"metadata":{"cinatra":{"required":["a"]}}`
				}
			} else if typ == "FlowNode" && r.Intn(3) == 0 {
				meta = `,"metadata":{"cinatra":{"gateSteps":[{"name":"a"},{"name":"b"}]}}`
			}
			def := fmt.Sprintf(`{"component_type":%q,"id":"n%d","name":"N%d"%s}`, typ, i, i, meta)
			defs = append(defs, fmt.Sprintf(`"n%d":%s,%s:%s`, i, def, js(fmt.Sprintf("n%d\u0007", i)), def))
		}
		for i := 0; i < n+r.Intn(4); i++ {
			nodes = append(nodes, fmt.Sprintf(`{"$component_ref":%s}`, js(name(i%n))))
		}
		for i := 0; i+1 < n; i++ {
			if r.Intn(6) > 0 {
				edges = append(edges, fmt.Sprintf(`{"from_node":{"$component_ref":%s},"to_node":{"$component_ref":%s}}`, js(name(r.Intn(i+1))), js(name(i+1))))
			}
		}
		src := `{"component_type":"Flow","id":"f","start_node":{"$component_ref":"n0"},"nodes":[` + strings.Join(nodes, ",") +
			`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(defs, ",") + `}}`
		d := compile.ParseDoc("flow.json", []byte(src))
		if d.Root == nil {
			t.Fatalf("case %d does not parse: %s", c, src)
		}
		total += numberedSame(t, fmt.Sprintf("case %d: %s", c, src), &compile.Agent{FlowPath: "flow.json", Flow: d, Profile: compile.ProfileCinatra})
	}
	if total == 0 {
		t.Fatal("no node numbered")
	}
	load := func(t *testing.T, dir string) *compile.Agent {
		t.Helper()
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return a
	}
	// two ids, the second the first as shown, each shown otherwise again
	// (one presentation masks only so many secrets): the node the view
	// ranks at the second id's place is keyed otherwise, and the index
	// finds the first node under the second id
	var many strings.Builder
	for i := range 300 {
		if i > 0 {
			many.WriteByte(' ')
		}
		many.WriteString("ghp_aB3dE5fG7hJ9kL1mN2pQ4rS6tU8vW0xY2zA4b")
	}
	m, k1 := many.String(), present.Text(many.String())
	if present.Text(k1) == k1 {
		t.Fatal("the id is presented alike twice")
	}
	twice := `{"component_type":"Flow","id":"f","start_node":{"$component_ref":"s"},` +
		`"nodes":[{"$component_ref":"s"},{"$component_ref":` + js(m) + `},{"$component_ref":` + js(k1) + `},{"$component_ref":"e"}],` +
		`"control_flow_connections":[{"from_node":{"$component_ref":"s"},"to_node":{"$component_ref":` + js(m) + `}},` +
		`{"from_node":{"$component_ref":` + js(m) + `},"to_node":{"$component_ref":` + js(k1) + `}},{"from_node":{"$component_ref":` + js(k1) + `},"to_node":{"$component_ref":"e"}}],` +
		`"$referenced_components":{"s":{"component_type":"StartNode","id":"s"},` + js(m) + `:{"component_type":"AgentNode","id":"a"},` +
		js(k1) + `:{"component_type":"AgentNode","id":"b"},"e":{"component_type":"EndNode","id":"e"}}}`
	if numberedSame(t, "shown twice", &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(twice)), Profile: compile.ProfileCinatra}) == 0 {
		t.Fatal("no node numbered")
	}
	if numberedSame(t, "test agent", testAgent(t)) == 0 {
		t.Fatal("the test agent has no step")
	}
	numberedSame(t, "slim", load(t, slimFixture("slim-two-slots-qualified")))
	// the end node renamed as the first injected step is shown: its key's
	// place in the index is the step's
	dir := t.TempDir()
	src := slimFixture("slim-two-slots-qualified")
	for _, rel := range []string{"package.json", filepath.Join("cinatra", "oas.json")} {
		b, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.ReplaceAll(string(b), `"end"`, `"context_draftContext\u0007"`))
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	numberedSame(t, "slim, an injected id taken", load(t, dir))
	h := compile.ParseDoc("hostile.json", hostile.Flow(2000/race.Stride(8), true))
	if numberedSame(t, "hostile", &compile.Agent{FlowPath: "hostile.json", Flow: h, Profile: compile.ProfileCinatra}) == 0 {
		t.Fatal("the hostile flow has no step")
	}
	// the corpus and the history need ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for k := 0; k < len(slugs); k += race.Stride(4) {
			slug := slugs[k]
			numberedSame(t, slug, load(t, filepath.Join(dir, "agents", "cinatra-ai", slug)))
		}
	})
	t.Run("history", func(t *testing.T) {
		revs := testshared.HistoryFlows(t)
		for i := 0; i < len(revs); i += race.Stride(24) {
			numberedSame(t, revs[i], load(t, filepath.Dir(filepath.Dir(revs[i]))))
		}
	})
}
