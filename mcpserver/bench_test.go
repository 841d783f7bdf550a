package mcpserver

import (
	"context"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// BenchmarkToolCall is one tools/call round trip over the in-memory
// transport for each tool on the example agent (the engine's work plus
// the SDK's schema validation, JSON and masking).
func BenchmarkToolCall(b *testing.B) {
	dir := tempDir(b)
	workspace(b, dir, "a", true)
	cs := connect(b, []string{dir}, nil, "")
	for _, c := range []struct {
		tool string
		args map[string]any
	}{
		{"agent_source_review", map[string]any{"path": "agents/oastui/a"}},
		{"agent_compile", map[string]any{"path": "agents/oastui/a"}},
		{"agent_graph", map[string]any{"path": "agents/oastui/a"}},
		{"agent_fix", map[string]any{"path": "agents/oastui/a", "fix": "all"}},
		{"context_resolve", map[string]any{"path": "agents/oastui/a", "slot": "styleContext"}},
	} {
		b.Run(c.tool, func(b *testing.B) {
			for b.Loop() {
				res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: c.tool, Arguments: c.args})
				if err != nil || res.IsError {
					b.Fatal(err, res)
				}
			}
		})
	}
}
