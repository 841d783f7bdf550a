package mcpserver

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// diffRepoAt is a git repository at base/repo holding the test agents (one
// commit), the leaf agent's approval gate removed in the working tree.
func diffRepoAt(t *testing.T) (repo, leaf string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo = filepath.Join(tempDir(t), "repo")
	copyTree(t, filepath.Join("..", "testdata", "agents"), filepath.Join(repo, "agents"))
	for _, args := range [][]string{{"init", "-q"}, {"add", "-A"}, {"commit", "-q", "-m", "one"}} {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	leaf = filepath.Join(repo, "agents", "oastui", "leaf-agent")
	rewrite(t, filepath.Join(leaf, "cinatra", "oas.json"), `"requiresApproval": true`, `"requiresApproval": false`)
	return repo, leaf
}

// TestAgentDiffConfined (issue 35, point 1): agent_diff is confined as
// every other tool is: a flow symlinked outside the root, an .oastui.yaml
// above the root, and the registry and callers above a one-agent root are
// refused (or, for callers, not searched), and nothing of them returned.
func TestAgentDiffConfined(t *testing.T) {
	const marker = "OUTSIDE-THE-ROOTS-MARKER"
	t.Run("flow symlinked outside", func(t *testing.T) {
		repo, leaf := diffRepoAt(t)
		flow := filepath.Join(leaf, "cinatra", "oas.json")
		b, err := os.ReadFile(flow)
		if err != nil {
			t.Fatal(err)
		}
		outside := filepath.Join(filepath.Dir(repo), "outside.json")
		if err := os.WriteFile(outside, []byte(strings.Replace(string(b), `"description": "`, `"description": "`+marker+` `, 1)), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(flow); err != nil {
			t.Fatal(err)
		}
		if err := os.Symlink(outside, flow); err != nil {
			t.Skip("no symlinks here:", err)
		}
		cs := connect(t, []string{repo}, nil, "")
		res, raw := callTool(t, cs, "agent_diff", map[string]any{"path": "agents/oastui/leaf-agent"})
		if strings.Contains(raw, marker) {
			t.Error("agent_diff returned the outside file")
		}
		wantError(t, res, "outside the workspace roots")
	})
	t.Run("config above the root", func(t *testing.T) {
		repo, leaf := diffRepoAt(t)
		if err := os.WriteFile(filepath.Join(repo, ".oastui.yaml"), []byte("# "+marker+"\ndiff:\n  diff_node_renamed: warn\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		cs := connect(t, []string{leaf}, nil, "")
		res, raw := callTool(t, cs, "agent_diff", map[string]any{"path": "."})
		if strings.Contains(raw, marker) {
			t.Error("agent_diff returned the outside config")
		}
		wantError(t, res, "outside the workspace roots")
	})
	t.Run("registry and callers above a one-agent root", func(t *testing.T) {
		_, leaf := diffRepoAt(t)
		cs := connect(t, []string{leaf}, nil, "")
		res, raw := callTool(t, cs, "agent_diff", map[string]any{"path": "."})
		if strings.Contains(raw, "orchestrator-agent") {
			t.Errorf("agent_diff listed a caller above the root:\n%.2000s", raw)
		}
		wantError(t, res, "outside the workspace roots")
	})
}
