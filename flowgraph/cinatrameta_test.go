package flowgraph

import (
	"math/rand"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// approvalOfAsBefore is approvalOf as it was: the node's metadata.cinatra
// read inside, and read for every kind.
func approvalOfAsBefore(r compile.Resolved, kind NodeKind, resolve resolver) (bool, string) {
	if r.Node == nil {
		return false, ""
	}
	meta := cinatraMeta(r.Node)
	risk := meta.Get("riskClass").StringOr("")
	switch kind {
	case KindInput:
		return true, "read_only"
	case KindAgent:
		appr, ok := boolField(meta, "requiresApproval")
		agent := resolve(r.Node.Get("agent"), compile.Append(r.Pointer, "agent"))
		leaf := cinatraMeta(agent.Node)
		if !ok {
			appr, _ = boolField(leaf, "requiresApproval")
		}
		if risk == "" {
			risk = leaf.Get("riskClass").StringOr("")
		}
		return appr, label(risk)
	case KindFlow:
		appr, _ := boolField(meta, "requiresApproval")
		for _, gs := range items(meta.Get("gateSteps")) {
			if v, ok := boolField(gs, "requiresApproval"); ok && v {
				appr = true
			}
			if risk == "" {
				risk = gs.Get("riskClass").StringOr("")
			}
		}
		return appr, label(risk)
	}
	appr, _ := boolField(meta, "requiresApproval")
	return appr, label(risk)
}

// TestApprovalOfMetaAsBefore: approvalOf given the node's metadata.cinatra
// (and passing over a node of another kind than an input or an agent
// without one) answers what it answered reading it itself, on random
// components of every type with and without metadata, cinatra, risks,
// approvals and gate steps; and every graph node's CinatraMeta is its
// component's metadata.cinatra (nil without a component), over the test
// agent and the corpus.
func TestApprovalOfMetaAsBefore(t *testing.T) {
	types := []string{"StartNode", "EndNode", "AgentNode", "ApiNode", "LlmNode", "InputMessageNode", "FlowNode", "MapNode", "BranchingNode", "ToolNode"}
	metas := []string{``, `,"metadata":{}`, `,"metadata":null`, `,"metadata":{"cinatra":{}}`, `,"metadata":{"cinatra":null}`,
		`,"metadata":{"cinatra":{"riskClass":"write","requiresApproval":true}}`, `,"metadata":{"cinatra":{"requiresApproval":false,"riskClass":"x_send"}}`,
		`,"metadata":{"cinatra":{"gateSteps":[{"requiresApproval":true,"riskClass":"approval"},{"riskClass":"write"}]}}`}
	agents := []*compile.Node{nil,
		compile.ParseDoc("a.json", []byte(`{"component_type":"Agent","metadata":{"cinatra":{"requiresApproval":true,"riskClass":"draft_create"}}}`)).Root,
		compile.ParseDoc("a.json", []byte(`{"component_type":"Agent"}`)).Root}
	r := rand.New(rand.NewSource(16))
	for c := 0; c < 4000/race.Stride(8); c++ {
		ct := types[r.Intn(len(types))]
		n := compile.ParseDoc("c.json", []byte(`{"component_type":"`+ct+`","name":"N"`+metas[r.Intn(len(metas))]+`}`)).Root
		agent := agents[r.Intn(len(agents))]
		resolve := func(*compile.Node, string) compile.Resolved { return compile.Resolved{Node: agent} }
		res := compile.Resolved{Node: n, Pointer: "/$referenced_components/n"}
		if r.Intn(10) == 0 {
			res.Node = nil
		}
		kind := KindOf(ct)
		ga, gr := approvalOf(res, cinatraMeta(res.Node), kind, resolve)
		wa, wr := approvalOfAsBefore(res, kind, resolve)
		if ga != wa || gr != wr {
			t.Fatalf("case %d (%s, %v): %v %q, before %v %q", c, ct, n.Get("metadata"), ga, gr, wa, wr)
		}
	}
	check := func(t *testing.T, name string, a *compile.Agent) {
		t.Helper()
		for _, f := range a.Flows() {
			for _, n := range BuildFlow(a, f).Nodes {
				want := (*compile.Node)(nil)
				if n.Component() != nil {
					want = n.Component().Path("metadata", "cinatra")
				}
				if n.CinatraMeta() != want {
					t.Fatalf("%s, node %s: CinatraMeta %v, its component's %v", name, n.ID, n.CinatraMeta(), want)
				}
			}
		}
	}
	check(t, "test agent", testAgent(t))
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			a, err := compile.Load(filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			check(t, slug, a)
		}
	})
}
