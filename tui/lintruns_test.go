package tui

import (
	"path/filepath"
	"testing"
	"time"

	"github.com/oastui/oastui/compile"

	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/workspace"
)

// The compile gate shown in the Compiled tab is the snapshot's, in every
// mode (the TUI reviews only through analysis: internal/layers'
// TestNoStageOutsideAnalysis).
func TestRefusalIsTheSnapshotsGate(t *testing.T) {
	for _, mode := range lint.Modes {
		an := Analyze(findingsFixture, Options{Mode: mode}, 1)
		if an.Refusal == nil || string(an.Refusal) != string(an.Review.Gate.Response().JSON()) {
			t.Errorf("mode %s: refusal %s is not the snapshot's gate", mode, an.Refusal)
		}
	}
}

// The agent the entry loaded to decide what PATH is serves the first
// analysis; the next one (a save) loads the files afresh.
func TestEntryAgentServesTheFirstAnalysis(t *testing.T) {
	a, err := compile.Load(findingsFixture, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m := New(Config{Path: findingsFixture, Options: Options{Agent: a}})
	first := m.requestAnalysis(time.Time{})().(analysisMsg).an
	if first.Agent != a {
		t.Error("the first analysis loaded the agent again")
	}
	if next := m.requestAnalysis(time.Time{})().(analysisMsg).an; next.Agent == a || next.Agent == nil {
		t.Errorf("a later analysis reused the entry's agent (%p)", next.Agent)
	}
}

// An analysis the caller made (the workspace analyses the agent it opens)
// is the agent view's first: no second load; later analyses load afresh
// with the package index the caller gives at that time.
func TestFirstAnalysisIsTheCallers(t *testing.T) {
	first := Analyze(findingsFixture, Options{}, 1)
	asked := 0
	m := New(Config{Path: findingsFixture, First: first, Packages: func() *compile.PackageIndex { asked++; return nil }})
	if got := m.requestAnalysis(time.Time{})().(analysisMsg).an; got != first {
		t.Error("the first analysis was made again")
	}
	if next := m.requestAnalysis(time.Time{})().(analysisMsg).an; next == first || next.Agent == nil || next.Agent == first.Agent {
		t.Errorf("a later analysis reused the first (%p)", next.Agent)
	}
	if asked != 2 {
		t.Errorf("the package index was asked %d times for 2 analyses", asked)
	}
}

// Opening an agent from the workspace analyses it once, with the tree's
// package index, and the agent view shows that analysis.
func TestOpenFromWorkspaceAnalysesOnce(t *testing.T) {
	root := filepath.Join(t.TempDir(), "agents")
	boss := writeWSAgent(t, root, "boss", "1.0.0", []string{"@acme/worker"}, `"@acme/worker": "^1.0.0"`)
	writeWSAgent(t, root, "worker", "1.4.0", nil, "")
	m := newWS(t, root, 120, 30)
	m.start()
	idx := workspace.ScanPackages(root)
	m.pool.pkgs.Store(idx) // as the pool's first review does
	a := newApp(m, RunConfig{}, nil)
	defer a.close()
	_, cmd := a.Update(openAgentMsg{boss})
	msg, ok := cmd().(agentLoadedMsg)
	if !ok || msg.an == nil || msg.an.Agent == nil || msg.an.Review.Findings == nil && msg.an.LoadErr != nil {
		t.Fatalf("open gave %#v", msg)
	}
	a.Update(msg)
	if a.agent == nil || a.agent.m.cfg.First != nil || a.agent.m.cfg.Packages == nil || a.agent.m.cfg.Packages() != idx {
		t.Fatal("the agent view did not take the open's analysis as its first, or lost the tree's index")
	}
}
