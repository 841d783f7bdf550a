package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/present"
)

// TestTokenAsIDMasked: a token used as a component key and id (the node
// "publish" renamed, and a nested Flow's id) is masked in every result —
// locations, gate blockers, graph pointers — and the masked flow id a
// result shows still names the flow in agent_graph (issue 26 item 10).
func TestTokenAsIDMasked(t *testing.T) {
	dir := tempDir(t)
	agent := workspace(t, dir, "token-agent", false)
	flow := filepath.Join(agent, "cinatra", "oas.json")
	b, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flow, []byte(strings.ReplaceAll(strings.ReplaceAll(string(b), `"publish"`, `"`+hostile.Token+`"`), `"context-styleContext-subflow"`, `"sub_`+hostile.Token+`"`)), 0o644); err != nil {
		t.Fatal(err)
	}
	cs := connect(t, []string{dir}, nil, "")
	for _, tool := range []string{"agent_source_review", "agent_compile", "agent_graph"} {
		_, raw := callTool(t, cs, tool, map[string]any{"path": agent})
		if strings.Contains(raw, hostile.Token[4:]) {
			t.Errorf("%s shows the token:\n%s", tool, raw)
		}
	}
	masked := present.Text("sub_" + hostile.Token)
	if strings.Contains(masked, hostile.Token[4:]) {
		t.Fatalf("the flow id is not masked: %s", masked)
	}
	res, raw := callTool(t, cs, "agent_graph", map[string]any{"path": agent, "flow": masked})
	if res.IsError || strings.Contains(raw, hostile.Token[4:]) || !strings.Contains(raw, "Context Agent (styleContext)") {
		t.Errorf("agent_graph of the masked flow id %q:\n%s", masked, raw)
	}
}
