package mcpserver

import (
	"github.com/oastui/oastui/edit"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/internal/hostile"
)

// TestFixDiffIsEditsPreview: agent_fix's diff is edit's one fix preview
// (the text `lint --diff` and the TUI show for the same fixes), with the
// paths relative to the root, and shows no raw secret, C1 or bidi
// character of the file's text.
func TestFixDiffIsEditsPreview(t *testing.T) {
	dir := tempDir(t)
	agent := workspace(t, dir, "dirty-agent", true)
	pkg := filepath.Join(agent, "package.json")
	rewrite(t, pkg, "    \"note\": \"token ", "    \"note\": \""+hostile.Secrets+" ")
	cs := connect(t, []string{dir}, nil, "")
	res, _ := callTool(t, cs, "agent_fix", map[string]any{"path": agent, "fix": "all", "unsafe_fixes": true})
	var fo FixOutput
	structured(t, res, &fo)
	if !strings.Contains(fo.Diff, `"note": "see https://bob:`) {
		t.Fatalf("the diff lacks the note's line:\n%s", fo.Diff)
	}
	for _, raw := range hostile.Raw {
		if strings.Contains(fo.Diff, raw) {
			t.Errorf("agent_fix shows %q:\n%s", raw, fo.Diff)
		}
	}
	snap := analysis.Run(agent, analysis.Options{})
	want, err := analysis.PlanFixes(snap.Review.Findings, edit.Unsafe).Preview(snap.Sources(), Roots{Dirs: []string{dir}}.Relative)
	if err != nil || fo.Diff != want || want == "" {
		t.Errorf("agent_fix's diff is not edit's preview (%v):\n%s\n--- want\n%s", err, fo.Diff, want)
	}
}
