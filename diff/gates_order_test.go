package diff

import (
	"fmt"
	"math/rand"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
)

// randomGateView is a side of random flows (nodes of random kinds and
// risks, random control edges) and compiled steps (top-level, setup and
// gate steps, some repeating a key) whose steps map and stepList are made
// as view makes them; the nodes have no pointer, so only the steps make
// gates.
func randomGateView(r *rand.Rand) *sideView {
	v := &sideView{flows: map[string]*flowView{}, steps: map[string]*compile.Step{}}
	risks := []string{"", "read_only", "write", "draft_create", "x_send", "approval"}
	kinds := []flowgraph.NodeKind{flowgraph.KindAPI, flowgraph.KindAgent, flowgraph.KindInput, flowgraph.KindFlow}
	for f := 0; f < 1+r.Intn(2); f++ {
		fk := ""
		if f > 0 {
			fk = "sub"
		}
		g := &flowgraph.Graph{}
		fv := &flowView{g: g, nodes: map[string]*flowgraph.Node{}}
		n := 1 + r.Intn(8)
		for i := 0; i < n; i++ {
			nd := &flowgraph.Node{ID: fmt.Sprintf("n%d", i), Kind: kinds[r.Intn(len(kinds))], Risk: risks[r.Intn(len(risks))], Approval: r.Intn(4) == 0}
			g.Nodes = append(g.Nodes, nd)
			fv.nodes[nd.ID] = nd
		}
		g.Start = "n0"
		for e := 0; e < r.Intn(2*n); e++ {
			g.Edges = append(g.Edges, flowgraph.Edge{From: fmt.Sprintf("n%d", r.Intn(n)), To: fmt.Sprintf("n%d", r.Intn(n))})
		}
		v.flows[fk] = fv
		v.flowKey = append(v.flowKey, fk)
	}
	var steps []compile.Step
	for i := 0; i < r.Intn(10); i++ {
		st := compile.Step{NodeID: fmt.Sprintf("n%d", r.Intn(8)), GateIndex: -1, StepNumber: i + 1, NodeType: "agent",
			RequiresApproval: r.Intn(2) == 0, RiskClass: risks[r.Intn(len(risks))], HitlOwnedBy: []string{"", "self", "childAgent"}[r.Intn(3)]}
		switch r.Intn(4) {
		case 0:
			st.GateIndex = r.Intn(2)
		case 1:
			st.StepNumber, st.NodeType = 0, "" // the setup step, keyed "(setup)", its gate keyed by its node
		}
		steps = append(steps, st)
	}
	for i := range steps {
		st := &steps[i]
		if k := stepKey(st); v.steps[k] == nil {
			v.steps[k] = st
			v.stepList = append(v.stepList, keyedStep{k, st})
		}
	}
	return v
}

// TestReadGatesStepOrder: the gates readGates makes walking the steps in
// the compiled order are those it made walking the steps map, whenever no
// two steps' gates share a key (the map's order then decides nothing).
func TestReadGatesStepOrder(t *testing.T) {
	r := rand.New(rand.NewSource(11))
	compared := 0
	for c := 0; c < 500; c++ {
		v := randomGateView(r)
		// the map's walk (before): the same loop over v.steps
		want := map[string]gate{}
		keys := map[string]int{}
		for k, st := range v.steps {
			key := k
			if st.GateIndex < 0 && st.NodeID != "" {
				key = st.NodeID
			}
			keys[key]++
			g := want[key]
			g.node = st.NodeID
			g.approval = st.RequiresApproval
			for _, f := range []struct {
				dst *string
				val string
			}{{&g.risk, st.RiskClass}, {&g.owner, st.HitlOwnedBy}, {&g.renderer, st.XRenderer}, {&g.surface, st.A2uiSurfaceID}} {
				if f.val != "" {
					*f.dst = f.val
				}
			}
			want[key] = g
		}
		shared := false
		for _, n := range keys {
			shared = shared || n > 1
		}
		v.readGates()
		if shared {
			continue // the map's walk gave either step's gate, at random
		}
		compared++
		if !reflect.DeepEqual(v.gates.asMap(), want) {
			t.Fatalf("case %d: gates %+v, want %+v", c, v.gates, want)
		}
	}
	if compared < 100 {
		t.Fatalf("only %d cases compared", compared)
	}
}

// TestAnyWriteBoundsUngated: a side anyWrite says has no write node has no
// write node that gateWrite names, so ungated lists none in any flow (the
// walks approvalPaths skips); with one, ungated is what it was.
func TestAnyWriteBoundsUngated(t *testing.T) {
	r := rand.New(rand.NewSource(5))
	none, some := 0, 0
	for c := 0; c < 500; c++ {
		v := randomGateView(r)
		if r.Intn(2) == 0 { // most cases without a write risk anywhere
			for _, fk := range v.flowKey {
				for _, n := range v.flows[fk].g.Nodes {
					if writeRisk(n.Risk) {
						n.Risk = "read_only"
					}
				}
			}
			for i := range v.stepList {
				if st := v.stepList[i].st; writeRisk(st.RiskClass) {
					st.RiskClass = ""
				}
			}
		}
		v.readGates()
		if v.anyWrite() {
			some++
			continue
		}
		none++
		for _, fk := range v.flowKey {
			for _, n := range v.flows[fk].g.Nodes {
				if v.writeNode(fk, n) {
					t.Fatalf("case %d: anyWrite false, but %s/%s writes", c, fk, n.ID)
				}
			}
			if u := v.ungated(fk); len(u) > 0 {
				t.Fatalf("case %d: anyWrite false, but flow %q has ungated writes %v", c, fk, u)
			}
		}
	}
	if none < 100 || some < 100 {
		t.Fatalf("cases without a write %d, with %d: want 100 of each", none, some)
	}
}
