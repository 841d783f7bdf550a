package mcpserver

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Confinement holds for every file loading reads, not only the path a
// tool is given: a package inside the root whose flow file, package.json,
// cinatra.json or registry is a symlink to a file outside the roots is
// refused by every tool, and nothing of the outside file is returned.
func TestReadsConfined(t *testing.T) {
	const marker = "OUTSIDE-THE-ROOTS-MARKER"
	for _, file := range []string{"cinatra/oas.json", "package.json", "cinatra.json", "../../_shared/cinatra/components.json", ".oastui.yaml"} {
		t.Run(filepath.Base(file), func(t *testing.T) {
			base := tempDir(t)
			root := filepath.Join(base, "root")
			agent := workspace(t, root, "a", false)
			outside := filepath.Join(base, "outside", filepath.Base(file))
			target := filepath.Join(agent, filepath.FromSlash(file))
			src, err := os.ReadFile(target)
			switch {
			case err == nil:
				// the same file, with the marker, outside
				src = []byte(strings.Replace(string(src), `"description": "`, `"description": "`+marker+` `, 1))
			case file == ".oastui.yaml":
				src = []byte("# " + marker + "\nrules: {}\n")
			case file == "cinatra.json":
				src = []byte(`{"description": "` + marker + `"}`)
			default:
				src = []byte(`{"components": {}, "note": "` + marker + `"}`)
			}
			if err := os.MkdirAll(filepath.Dir(outside), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(outside, src, 0o644); err != nil {
				t.Fatal(err)
			}
			if err := os.MkdirAll(filepath.Dir(target), 0o755); err != nil {
				t.Fatal(err)
			}
			_ = os.Remove(target)
			if err := os.Symlink(outside, target); err != nil {
				t.Skip("no symlinks here:", err)
			}
			cs := connect(t, []string{root}, nil, "")
			for _, tool := range []string{"agent_source_review", "agent_compile", "agent_graph"} {
				for _, args := range []map[string]any{{"path": "agents/oastui/a"}, {"path": "agents/oastui/a/cinatra/oas.json"}} {
					res, raw := callTool(t, cs, tool, args)
					if strings.Contains(raw, marker) {
						t.Errorf("%s %v returned the outside file", tool, args)
					}
					wantError(t, res, "outside the workspace roots")
				}
			}
			res, _ := callTool(t, cs, "agent_fix", map[string]any{"path": "agents/oastui/a", "fix": "all"})
			wantError(t, res, "outside the workspace roots")
		})
	}
}
