package mcpserver

import (
	"testing"

	"github.com/oastui/oastui/lint"
)

// agent_source_review and agent_compile review the agent once: the gate
// they report is the snapshot's, not a second lint.
func TestOneReviewPerCall(t *testing.T) {
	dir := tempDir(t)
	workspace(t, dir, "dirty-agent", true)
	cs := connect(t, []string{dir}, nil, "")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"agent_source_review", map[string]any{"path": "agents/oastui/dirty-agent"}},
		{"agent_source_review", map[string]any{"path": "agents/oastui/dirty-agent", "mode": "advisory"}},
		{"agent_source_review", map[string]any{"path": "agents/oastui/dirty-agent", "mode": "full"}},
		{"agent_compile", map[string]any{"path": "agents/oastui/dirty-agent"}},
	} {
		before := lint.Runs()
		callTool(t, cs, c.tool, c.args)
		if n := lint.Runs() - before; n != 1 {
			t.Errorf("%s %v: %d reviews, want 1", c.tool, c.args["mode"], n)
		}
	}
}
