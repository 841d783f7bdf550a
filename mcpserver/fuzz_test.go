package mcpserver

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

var toolNames = []string{"agent_source_review", "agent_compile", "agent_graph", "agent_fix", "context_resolve"}

// FuzzToolCall sends arbitrary JSON arguments to every tool: each call
// ends in a result (a tool error at worst) or a protocol error, never a
// crash or a hang, the server keeps answering, and no result carries the
// fake token of the workspace's agent.
func FuzzToolCall(f *testing.F) {
	for _, s := range []struct {
		tool byte
		args string
	}{
		{0, `{"path":"agents/oastui/a"}`},
		{0, `{"source":"{\"metadata\":{\"cinatra\":{}},\"nodes\":[{}]}","mode":"advisory"}`},
		{1, `{"path":"agents/oastui/a","source":"[[[[[[[[[["}`},
		{2, `{"path":"agents/oastui/a","flow":"/nodes/0","ascii":true}`},
		{3, `{"path":"agents/oastui/a","fix":"all"}`},
		{3, `{"path":"../a","fix":"all","apply":true}`},
		{4, `{"path":"agents/oastui/a","slot":"styleContext","project":"p-launch"}`},
		{4, `{"path":"agents/oastui/a","slot":"x","catalog":"/dev/zero"}`},
		{0, `{"path":"\u0000"}`},
		{2, `[]`},
	} {
		f.Add(s.tool, s.args)
	}
	dir := tempDir(f)
	workspace(f, dir, "a", true)
	cs := connect(f, []string{dir}, nil, "")
	f.Fuzz(func(t *testing.T, tool byte, args string) {
		if !json.Valid([]byte(args)) {
			return
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: toolNames[int(tool)%len(toolNames)], Arguments: json.RawMessage(args)})
		if ctx.Err() != nil {
			t.Fatalf("the call hung: %s", args)
		}
		if err == nil {
			b, _ := json.Marshal(res)
			if strings.Contains(string(b), token) {
				t.Fatalf("unmasked token in the result of %s", args)
			}
		}
		if _, err := cs.ListTools(ctx, nil); err != nil {
			t.Fatalf("the server stopped answering after %s: %v", args, err)
		}
	})
}
