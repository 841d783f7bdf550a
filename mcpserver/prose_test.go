package mcpserver

import (
	"testing"
)

// The masker masks the values in an error, never our own words around
// them: "/etc/passwd: outside the workspace roots" came out as
// "/etc/passwd: ou…7 the workspace roots". A token in a value is still
// masked.
func TestRefusalsNotMangled(t *testing.T) {
	root := tempDir(t)
	workspace(t, root, "a", false)
	cs := connect(t, []string{root}, nil, "")
	for _, p := range []string{"/etc/passwd", "/etc/shadow", "/root/.aws/credentials"} {
		for _, tool := range []string{"agent_source_review", "agent_compile", "agent_graph"} {
			res, _ := callTool(t, cs, tool, map[string]any{"path": p})
			wantError(t, res, p+": outside the workspace roots ("+root+")")
		}
	}
	res, _ := callTool(t, cs, "agent_source_review", map[string]any{"path": "agents/oastui/a", "mode": token}) // callTool: the token is masked
	wantError(t, res, "mode must be deterministic, advisory or full (got \"ghp_")
	res, _ = callTool(t, cs, "agent_source_review", map[string]any{"path": "agents/oastui/a", "mode": "password: x"})
	wantError(t, res, "mode must be deterministic, advisory or full (got")
}
