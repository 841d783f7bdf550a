// Package testgit builds small git repositories for tests: an agent with a
// few commits, through the user's git with a fixed identity and dates and
// no user config, so that hashes and logs are the same on every machine.
package testgit

import (
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Git runs git in dir with a fixed identity, the commit date date (RFC
// 3339, "" for 2026-01-01) and no user or system config.
func Git(t testing.TB, dir, date string, args ...string) string {
	t.Helper()
	if date == "" {
		date = "2026-01-01T00:00:00Z"
	}
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	cmd.Env = append(os.Environ(), "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_SYSTEM=/dev/null", "GIT_CONFIG_NOSYSTEM=1",
		"GIT_AUTHOR_NAME=Ada", "GIT_AUTHOR_EMAIL=ada@example.com", "GIT_COMMITTER_NAME=Ada", "GIT_COMMITTER_EMAIL=ada@example.com",
		"GIT_AUTHOR_DATE="+date, "GIT_COMMITTER_DATE="+date)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v: %v\n%s", args, err, out)
	}
	return string(out)
}

// Have skips t when git is not installed.
func Have(t testing.TB) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
}

// CopyTree copies the directory from to to.
func CopyTree(t testing.TB, from, to string) {
	t.Helper()
	err := filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, p)
		dst := filepath.Join(to, rel)
		if d.IsDir() {
			return os.MkdirAll(dst, 0o755)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		return os.WriteFile(dst, b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// LeafHistory builds a repository holding the bundled leaf agent
// (testdata/agents/oastui/leaf-agent and the shared registry; agents is
// the path of testdata/agents) in three commits, and returns the agent's
// directory:
//
//  1. 2026-01-01 "add the topic summariser" — the agent as bundled;
//  2. 2026-01-02 "reword the summary prompt" — the Agent's system_prompt
//     reworded;
//  3. 2026-01-03 "add a polish step" — an AgentNode "polish" added between
//     "summarize" and "end".
func LeafHistory(t testing.TB, agents string) string {
	t.Helper()
	Have(t)
	repo := t.TempDir()
	Git(t, repo, "", "init", "-q", "-b", "main")
	CopyTree(t, filepath.Join(agents, "_shared"), filepath.Join(repo, "agents", "_shared"))
	dir := filepath.Join(repo, "agents", "oastui", "leaf-agent")
	CopyTree(t, filepath.Join(agents, "oastui", "leaf-agent"), dir)
	commit := func(date, msg string) {
		Git(t, repo, date, "add", "-A")
		Git(t, repo, date, "commit", "-q", "-m", msg)
	}
	commit("2026-01-01T09:00:00Z", "add the topic summariser")

	flow := filepath.Join(dir, "cinatra", "oas.json")
	b, err := os.ReadFile(flow)
	if err != nil {
		t.Fatal(err)
	}
	old := "in at most five sentences. Cite the sources you used."
	if !strings.Contains(string(b), old) {
		t.Fatalf("%s: the prompt to reword is not there", flow)
	}
	b = []byte(strings.Replace(string(b), old, "in at most three sentences for a busy reader. Cite every source you used.", 1))
	if err := os.WriteFile(flow, b, 0o644); err != nil {
		t.Fatal(err)
	}
	commit("2026-01-02T09:00:00Z", "reword the summary prompt")

	var doc map[string]any
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	ref := func(id string) map[string]any { return map[string]any{"$component_ref": id} }
	comps := doc["$referenced_components"].(map[string]any)
	comps["polish"] = map[string]any{
		"component_type": "AgentNode", "id": "polish", "name": "Polish summary",
		"inputs":  []any{map[string]any{"title": "topic", "type": "string"}},
		"outputs": []any{map[string]any{"title": "summary", "type": "string"}},
		"agent":   ref("summarizer"),
	}
	doc["nodes"] = []any{ref("start"), ref("summarize"), ref("polish"), ref("end")}
	doc["control_flow_connections"] = []any{
		map[string]any{"component_type": "ControlFlowEdge", "name": "start_to_summarize", "from_node": ref("start"), "to_node": ref("summarize")},
		map[string]any{"component_type": "ControlFlowEdge", "name": "summarize_to_polish", "from_node": ref("summarize"), "to_node": ref("polish")},
		map[string]any{"component_type": "ControlFlowEdge", "name": "polish_to_end", "from_node": ref("polish"), "to_node": ref("end")},
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(flow, append(out, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	commit("2026-01-03T09:00:00Z", "add a polish step")
	return dir
}
