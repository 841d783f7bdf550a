package mcpserver

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/diff"
)

func TestAgentDiff(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	copyTree(t, filepath.Join("..", "testdata", "agents"), filepath.Join(repo, "agents"))
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	rewrite(t, filepath.Join(repo, "agents", "oastui", "leaf-agent", "cinatra", "oas.json"), `"requiresApproval": true`, `"requiresApproval": false`)

	cs := connect(t, []string{repo}, nil, "")
	res, js := callTool(t, cs, "agent_diff", map[string]any{"path": "agents/oastui/leaf-agent"})
	if res.IsError || !strings.Contains(js, `diff_approval_removed`) || !strings.Contains(js, `"level":"breaking"`) {
		t.Fatalf("agent_diff:\n%.3000s", js)
	}
	if !strings.Contains(js, "orchestrator-agent") {
		t.Errorf("agent_diff names no caller:\n%.3000s", js)
	}
	// One verdict on every face: the History tab's step for the working
	// tree (diff.Step) names the same changes, levels and callers.
	leaf := filepath.Join(repo, "agents", "oastui", "leaf-agent")
	tab, err := diff.Step(leaf, diff.Entry{Short: "working tree", Parent: "HEAD"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	var viaMCP diff.Result
	sc, _ := json.Marshal(res.StructuredContent)
	if err := json.Unmarshal(sc, &viaMCP); err != nil {
		t.Fatalf("%v\n%.2000s", err, js)
	}
	if a, b := verdict(&viaMCP), verdict(tab); a != b {
		t.Errorf("agent_diff and the History tab differ:\nMCP:\n%s\ntab:\n%s", a, b)
	}
	res, js = callTool(t, cs, "agent_diff", map[string]any{"path": "agents/oastui/leaf-agent", "old": "no-such-rev"})
	if !res.IsError || !strings.Contains(js, "no such revision") {
		t.Errorf("missing revision:\n%s", js)
	}
	res, js = callTool(t, cs, "agent_diff", map[string]any{"path": "agents/oastui/leaf-agent", "old": "HEAD", "new": "HEAD"})
	if res.IsError || strings.Contains(js, `"check"`) {
		t.Errorf("HEAD against HEAD:\n%.2000s", js)
	}
}

// verdict is what a face decides of a result: each change's check, level,
// fingerprint and callers, and the summary.
func verdict(r *diff.Result) string {
	var b strings.Builder
	for _, c := range r.Changes {
		fmt.Fprintf(&b, "%s %s %s", c.Check, c.Level, c.Fingerprint)
		for _, cl := range c.Callers {
			fmt.Fprintf(&b, " caller=%s binds=%v accepts=%v", cl.Package, cl.Binds, cl.Accepts)
		}
		b.WriteString("\n")
	}
	fmt.Fprintf(&b, "%+v callers=%d", r.Summary, len(r.Callers))
	return b.String()
}

// TestAgentDiffMaxChanges (issue 35, point 11): agent_diff lists at most
// maxChanges changes (default diff.DefaultMaxChanges) and says how many it
// left out; the summary counts them all.
func TestAgentDiffMaxChanges(t *testing.T) {
	get := agentDiffRepo(t, "")
	all, isErr, js := get(map[string]any{"path": "agents/oastui/leaf-agent", "maxChanges": 0})
	if isErr || len(all.Changes) < 2 || all.Truncated != 0 {
		t.Fatalf("maxChanges 0:\n%.2000s", js)
	}
	def, _, _ := get(map[string]any{"path": "agents/oastui/leaf-agent"})
	if len(def.Changes) != min(len(all.Changes), diff.DefaultMaxChanges) {
		t.Errorf("default: %d changes of %d", len(def.Changes), len(all.Changes))
	}
	one, isErr, js := get(map[string]any{"path": "agents/oastui/leaf-agent", "maxChanges": 1})
	if isErr || len(one.Changes) != 1 || one.Truncated != len(all.Changes)-1 || one.Summary != all.Summary ||
		one.Changes[0].Fingerprint != all.Changes[0].Fingerprint {
		t.Errorf("maxChanges 1:\n%.2000s", js)
	}
	if _, isErr, js := get(map[string]any{"path": "agents/oastui/leaf-agent", "maxChanges": -1}); !isErr || !strings.Contains(js, "maxChanges") {
		t.Errorf("maxChanges -1:\n%.2000s", js)
	}
}

// agentDiffRepo commits the test agents to a repository (with config, a
// .oastui.yaml at its top, when not ""), removes the leaf agent's approval
// gate in the working tree, and returns a call of agent_diff on a server
// rooted there: the result, whether it is an error, and its JSON.
func agentDiffRepo(t *testing.T, config string) func(args map[string]any) (diff.Result, bool, string) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("no git")
	}
	repo := t.TempDir()
	copyTree(t, filepath.Join("..", "testdata", "agents"), filepath.Join(repo, "agents"))
	if config != "" {
		if err := os.WriteFile(filepath.Join(repo, ".oastui.yaml"), []byte(config), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git := func(args ...string) {
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null",
			"GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@t", "GIT_COMMITTER_NAME=t", "GIT_COMMITTER_EMAIL=t@t")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q")
	git("add", "-A")
	git("commit", "-q", "-m", "one")
	rewrite(t, filepath.Join(repo, "agents", "oastui", "leaf-agent", "cinatra", "oas.json"), `"requiresApproval": true`, `"requiresApproval": false`)
	cs := connect(t, []string{repo}, nil, "")
	return func(args map[string]any) (diff.Result, bool, string) {
		t.Helper()
		res, js := callTool(t, cs, "agent_diff", args)
		var r diff.Result
		sc, _ := json.Marshal(res.StructuredContent)
		if !res.IsError {
			if err := json.Unmarshal(sc, &r); err != nil {
				t.Fatalf("%v\n%.2000s", err, js)
			}
		}
		return r, res.IsError, js
	}
}

// TestAgentDiffSafetyNotice (issue 35, point 3): agent_diff's result says
// which approval-safety check the workspace's config turns off, and why.
func TestAgentDiffSafetyNotice(t *testing.T) {
	get := agentDiffRepo(t, "diff:\n  diff_risk_lowered: {level: off, reason: \"the gateway reviews risk\"}\n")
	r, isErr, js := get(map[string]any{"path": "agents/oastui/leaf-agent"})
	if isErr || len(r.Notices) != 1 || !strings.Contains(r.Notices[0], "diff_risk_lowered is set to off") ||
		!strings.Contains(r.Notices[0], "the gateway reviews risk") {
		t.Errorf("agent_diff notices %q:\n%.2000s", r.Notices, js)
	}
	plain := agentDiffRepo(t, "")
	if r, _, js := plain(map[string]any{"path": "agents/oastui/leaf-agent"}); len(r.Notices) != 0 || strings.Contains(js, "notice") {
		t.Errorf("notices without a lowering: %q", r.Notices)
	}
}
