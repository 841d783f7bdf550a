package lsp

import "testing"

// A flow file at a legacy place is reviewed as its package (with the
// legacy_agent_filename warning): which agent owns the file is loading's
// answer (compile.OwnerOf), asked before the review. (That the server
// reviews only through analysis is internal/layers' TestNoStageOutsideAnalysis.)
func TestLegacyFlowOneReview(t *testing.T) {
	path, src := legacyAgent(t)
	s, out, _ := newTestServer(t, -1)
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": string(uriOf(path)), "version": 1, "text": string(src)}}))
	if d := diagsOf(t, out, path, string(src)); len(d["legacy_agent_filename"]) != 1 {
		t.Errorf("no legacy_agent_filename diagnostic: %v", d)
	}
}
