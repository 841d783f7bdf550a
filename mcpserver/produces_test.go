package mcpserver

import (
	"path/filepath"
	"strings"
	"testing"
)

// Through MCP: agent_compile carries hasArtifactBindings (cinatra#2498) in
// the compiled output, and agent_source_review lists the produces findings
// of today's platform.
func TestProducesFacesMCP(t *testing.T) {
	root := tempDir(t)
	copyTree(t, "../lint/testdata/rules/ok/produces_without_road/bound-output", filepath.Join(root, "bound"))
	copyTree(t, "../lint/testdata/rules/err/produces_without_road/unkept-promise", filepath.Join(root, "unkept"))
	cs := connect(t, []string{root}, nil, "")
	for dir, want := range map[string]string{"bound": `hasArtifactBindings\": true`, "unkept": `hasArtifactBindings\": false`} {
		_, raw := callTool(t, cs, "agent_compile", map[string]any{"path": dir})
		if !strings.Contains(raw, want) {
			t.Errorf("agent_compile %s: no %s in\n%.1500s", dir, want, raw)
		}
	}
	_, raw := callTool(t, cs, "agent_source_review", map[string]any{"path": "unkept"})
	if !strings.Contains(raw, "produces_without_road") {
		t.Errorf("agent_source_review lists no produces_without_road:\n%.1500s", raw)
	}
}
