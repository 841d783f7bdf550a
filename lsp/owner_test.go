package lsp

import (
	"testing"

	"github.com/oastui/oastui/lint"
)

// A flow file at a legacy place is reviewed as its package (with the
// legacy_agent_filename warning), by one review: which agent owns the
// file is loading's answer (compile.OwnerOf), asked before the review.
func TestLegacyFlowOneReview(t *testing.T) {
	path, src := legacyAgent(t)
	s, out, _ := newTestServer(t, -1)
	before := lint.Runs()
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 1, "text": string(src)}}))
	if n := lint.Runs() - before; n != 1 {
		t.Errorf("%d reviews for one change, want 1", n)
	}
	if d := diagsOf(t, out, path, string(src)); len(d["legacy_agent_filename"]) != 1 {
		t.Errorf("no legacy_agent_filename diagnostic: %v", d)
	}
}
