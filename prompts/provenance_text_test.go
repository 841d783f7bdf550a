package prompts

import "testing"

// TestProvenanceText: the one wording of a placeholder's provenance (the
// CLI and the TUI worded it differently: "start input s.topic" beside
// "run input topic", "edge from fetch.facts" beside "fetch.facts").
func TestProvenanceText(t *testing.T) {
	for _, c := range []struct {
		p    Provenance
		want string
	}{
		{Provenance{Kind: FromStart, From: "s", Output: "topic", Required: true, Hidden: true, HasDefault: true, Default: `"x"`}, `run input topic (required, hidden, default "x")`},
		{Provenance{Kind: FromStart, From: "s", Output: "topic", Implicit: true}, "run input topic by name"},
		{Provenance{Kind: FromEdge, From: "fetch", Output: "facts"}, "edge from fetch.facts"},
		{Provenance{Kind: FromSlot, From: "ctx", Slot: "style"}, "context slot style via ctx"},
		{Provenance{Kind: FromDefault, Default: `"en"`}, `default "en"`},
		{Provenance{Kind: FromAgentInput, Output: "x"}, "agent input x"},
		{Provenance{Kind: FromUnresolved, Rule: "dataflow_input_unsatisfied"}, "UNRESOLVED (dataflow_input_unsatisfied)"},
	} {
		if got := c.p.Text(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
