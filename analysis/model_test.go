package analysis

import (
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// TestFlowModelShared: a Flow of the snapshot (Snapshot.Flow) builds its
// graph model once (Flow.Model) and hands the same one to every reader; the drawn graph is a copy carrying
// the review's counts, the model stays as built.
func TestFlowModelShared(t *testing.T) {
	s := Run(fixture("orchestrator-agent"), Options{Stages: Everything})
	if !s.Parsed() {
		t.Fatalf("did not load: %v", s.LoadErr)
	}
	m1, err := s.Flows[0].Model()
	if err != nil || m1 == nil {
		t.Fatalf("root model: %v", err)
	}
	if m2, _ := s.Flow(s.Flows[0].Pointer).Model(); m2 != m1 {
		t.Error("the root model was built twice")
	}
	drawn := s.Flows[0].Drawn().Graph
	if drawn == nil || drawn == m1 || len(drawn.Nodes) != len(m1.Nodes) || drawn.Nodes[0] == m1.Nodes[0] {
		t.Fatalf("the drawn graph must be a copy of the model")
	}
	// Mark every finding of the flow file on the copy: the model keeps none.
	fs := []compile.Finding{}
	for _, n := range drawn.Nodes {
		fs = append(fs, compile.Finding{Severity: compile.Blocker, File: drawn.File, Location: n.Pointer})
	}
	drawn.SetFindings(fs)
	for i, n := range m1.Nodes {
		if n.Blockers != 0 {
			t.Errorf("model node %d carries counts: the copy was not a copy", i)
		}
	}
	nested := s.Flows[1]
	if mn, err := s.Flow(nested.Pointer).Model(); err != nil || mn == nil || mn.FlowPointer != nested.Pointer {
		t.Errorf("nested model %q: %v", nested.Pointer, err)
	}
	if _, err := (&Snapshot{}).Flow("").Model(); err == nil {
		t.Error("a snapshot without an agent has no model")
	}
	if _, err := s.Flow("/no/such/flow").Model(); err == nil {
		t.Error("a pointer that names no Flow has a model")
	}

	// Without the graphs stage (the diff's snapshots) the Flows are not
	// listed nor drawn, and each still has its one model.
	bare := Run(fixture("orchestrator-agent"), Options{Stages: StageCompile})
	if len(bare.Flows) != 0 {
		t.Fatalf("listed %d Flows without the graphs stage", len(bare.Flows))
	}
	f := bare.Flow(nested.Pointer)
	mb, err := f.Model()
	if err != nil || mb == nil || mb.FlowPointer != nested.Pointer || len(mb.Nodes) != len(s.Flows[1].Drawn().Graph.Nodes) {
		t.Fatalf("model of %q without the graphs stage: %v", nested.Pointer, err)
	}
	if again, _ := bare.Flow(nested.Pointer).Model(); again != mb || f.Graph != nil {
		t.Error("the model was built twice, or the Flow drawn without being asked")
	}
}

// TestOneModelPerFlow: one analysis with every stage (the dry run, the
// prompt report, the drawn graphs) models each Flow of the document once:
// Flow.Model gives every reader the same graph, and the drawn flow is a
// copy of it (its own nodes, the same ones).
func TestOneModelPerFlow(t *testing.T) {
	for _, name := range []string{"orchestrator-agent", "context-slot-agent", "branching-agent"} {
		s := Run(fixture(name), Options{Stages: Everything, Mode: lint.ModeFull})
		if !s.Parsed() || s.DryRun == nil {
			t.Fatalf("%s: did not load or walk: %v", name, s.LoadErr)
		}
		flows := compile.Flows(s.Agent.Flow.Root)
		for _, f := range s.Flows {
			f.Drawn()
		}
		for _, f := range flows {
			g, err := s.Flow(f.Pointer).Model()
			if err != nil {
				t.Fatalf("%s: model of %q: %v", name, f.Pointer, err)
			}
			if again, _ := s.Flow(f.Pointer).Model(); again != g {
				t.Errorf("%s: %q modelled twice", name, f.Pointer)
			}
			d := s.Flow(f.Pointer).Drawn()
			if d.Graph == nil || d.Graph == g || d.Graph.FlowPointer != g.FlowPointer || len(d.Graph.Nodes) != len(g.Nodes) {
				t.Fatalf("%s: the drawn %q is not a copy of the snapshot's model", name, f.Pointer)
			}
			for i, n := range g.Nodes {
				if d.Graph.Nodes[i] == n || d.Graph.Nodes[i].ID != n.ID {
					t.Errorf("%s: the drawn %q node %d is not a copy of the model's %s", name, f.Pointer, i, n.ID)
				}
			}
		}
	}
}

// TestFlowModelsBuildsEach: FlowModels builds every Flow's model now, the
// one Model hands out afterwards; an unloaded snapshot builds nothing.
func TestFlowModelsBuildsEach(t *testing.T) {
	s := Run(fixture("orchestrator-agent"), Options{Stages: StageCompile})
	s.FlowModels()
	if len(s.all) < 2 {
		t.Fatalf("%d Flows listed: the fixture has a nested one", len(s.all))
	}
	for _, f := range s.all {
		if f.model == nil || f.modelErr != nil {
			t.Fatalf("%q: no model built (%v)", f.Pointer, f.modelErr)
		}
		built := f.model
		if m, _ := f.Model(); m != built {
			t.Errorf("%q: Model built another model after FlowModels", f.Pointer)
		}
	}
	for _, s := range []*Snapshot{nil, {}, Run("no/such/agent", Options{})} {
		s.FlowModels() // no agent: nothing to build, no panic
		if s != nil && len(s.all) != 0 {
			t.Error("a snapshot without an agent listed Flows")
		}
	}
}
