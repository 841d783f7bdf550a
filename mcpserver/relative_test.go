package mcpserver

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
)

func TestRelative(t *testing.T) {
	r := Roots{Dirs: []string{"/work/repo", "/other"}}
	for in, want := range map[string]string{
		"/work/repo/agents/a/cinatra/oas.json":                     "agents/a/cinatra/oas.json",
		"/work/repo/agents/a/cinatra/oas.json:12:3 duplicate_key":  "agents/a/cinatra/oas.json:12:3 duplicate_key",
		"it edits /work/repo/a.json bytes 1-2, roots (/work/repo)": "it edits a.json bytes 1-2, roots (/work/repo)",
		"/work/repo":                         "/work/repo",
		"/work/repository/x":                 "/work/repository/x", // another directory
		"/home/work/repo/x":                  "/home/work/repo/x",  // contains the root's spelling
		"/other/agents/b":                    "/other/agents/b",    // the second root: absolute
		`{"file":"/work/repo/x.json","n":1}`: `{"file":"x.json","n":1}`,
		"--- a/work/repo/p.json\n+++ b/work/repo/p.json\n@@ -1 +1 @@\n":                                                                                            "--- a/p.json\n+++ b/p.json\n@@ -1 +1 @@\n",
		"diff --git a/work/repo/cinatra/agent.json b/work/repo/cinatra/oas.json\nrename from work/repo/cinatra/agent.json\nrename to work/repo/cinatra/oas.json\n": "diff --git a/cinatra/agent.json b/cinatra/oas.json\nrename from cinatra/agent.json\nrename to cinatra/oas.json\n",
		"no path": "no path",
	} {
		if got := r.Relative(in); got != want {
			t.Errorf("Relative(%q) = %q, want %q", in, got, want)
		}
	}
	if got := (Roots{Dirs: []string{"/"}}).Relative("/etc/x"); got != "/etc/x" {
		t.Errorf("root /: %q", got)
	}
}

// Every tool result names the files of the root relative to it (nothing
// in it spells the root), and the fix ids it lists are accepted back.
func TestResultsRelative(t *testing.T) {
	dir := tempDir(t)
	agent := workspace(t, dir, "dirty-agent", true)
	cs := connect(t, []string{dir}, nil, "")
	rel := filepath.ToSlash(strings.TrimPrefix(agent, dir+string(filepath.Separator)))
	res, raw := callTool(t, cs, "agent_source_review", map[string]any{"path": rel})
	var rev ReviewOutput
	structured(t, res, &rev)
	if strings.Contains(raw, dir) || rev.File != rel+"/cinatra/oas.json" || len(rev.Findings) == 0 || len(rev.Fixes) == 0 {
		t.Fatalf("review: file %q, %d findings, %d fixes, root spelled: %v", rev.File, len(rev.Findings), len(rev.Fixes), strings.Contains(raw, dir))
	}
	for _, f := range rev.Findings {
		if !strings.HasPrefix(f.File, rel+"/") {
			t.Errorf("finding file %q", f.File)
		}
	}
	for _, tool := range []string{"agent_compile", "agent_graph"} {
		if res, raw := callTool(t, cs, tool, map[string]any{"path": rel}); strings.Contains(raw, dir) {
			t.Errorf("%s spells the root: %s", tool, text(res))
		}
	}
	res, raw = callTool(t, cs, "agent_fix", map[string]any{"path": rel, "fix": rev.Fixes[0].ID})
	var fo FixOutput
	structured(t, res, &fo)
	if strings.Contains(raw, dir) || len(fo.Fixed) != 1 || fo.Fixed[0] != rev.Fixes[0].ID || !strings.Contains(fo.Diff, "--- a/"+rel+"/") {
		t.Errorf("fix by relative id: %s", raw)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(raw), &m); err != nil {
		t.Errorf("result: %v", err)
	}
}
