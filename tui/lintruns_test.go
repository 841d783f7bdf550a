package tui

import (
	"testing"
	"time"

	"github.com/oastui/oastui/compile"

	"github.com/oastui/oastui/lint"
)

// One save is one analysis, and one analysis is one review: the compile
// gate shown in the Compiled tab is the snapshot's, not a second lint.
func TestOneReviewPerSave(t *testing.T) {
	for _, mode := range lint.Modes {
		before := lint.Runs()
		an := Analyze(findingsFixture, Options{Mode: mode}, 1)
		if n := lint.Runs() - before; n != 1 {
			t.Errorf("mode %s: %d reviews for one analysis, want 1", mode, n)
		}
		if an.Refusal == nil {
			t.Errorf("mode %s: the fixture's blockers did not stop the gate", mode)
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
