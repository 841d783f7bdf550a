package diff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testgit"

	"github.com/oastui/oastui/analysis"
)

// editJSON rewrites a JSON file through fn (test set-up only).
func editJSON(t *testing.T, path string, fn func(m map[string]any)) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatal(err)
	}
	fn(m)
	out, _ := json.MarshalIndent(m, "", "  ")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		t.Fatal(err)
	}
}

func obj(m map[string]any, keys ...string) map[string]any {
	for _, k := range keys {
		m = m[k].(map[string]any)
	}
	return m
}

// addStartInput adds a required input to the leaf agent's StartNode.
func addStartInput(m map[string]any, title string) {
	start := obj(m, "$referenced_components", "start")
	start["inputs"] = append(start["inputs"].([]any), map[string]any{"title": title, "type": "string"})
	c := obj(start, "metadata", "cinatra")
	c["required"] = append(c["required"].([]any), title)
	m["inputs"] = append(m["inputs"].([]any), map[string]any{"title": title, "type": "string"})
}

// TestCallers: in a tree, a breaking contract change lists the callers,
// whether they bind the port and accept the new version; one no caller
// uses is demoted to warn with the reason; approval safety never is.
func TestCallers(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "agents")
	testgit.CopyTree(t, filepath.Join("..", "testdata", "agents"), tree)
	leaf := filepath.Join(tree, "oastui", "leaf-agent")
	oldDir := filepath.Join(t.TempDir(), "old")
	// The old leaf has inputs topic and brief (the orchestrator binds brief).
	editJSON(t, filepath.Join(leaf, "cinatra", "oas.json"), func(m map[string]any) { addStartInput(m, "brief") })
	testgit.CopyTree(t, leaf, oldDir)
	// The new one drops both and no longer asks for approval.
	editJSON(t, filepath.Join(leaf, "cinatra", "oas.json"), func(m map[string]any) {
		start := obj(m, "$referenced_components", "start")
		start["inputs"] = []any{map[string]any{"title": "cinatra_run_id", "type": "string", "default": ""}}
		obj(start, "metadata", "cinatra")["required"] = []any{}
		m["inputs"] = []any{map[string]any{"title": "cinatra_run_id", "type": "string", "default": ""}}
		obj(m, "$referenced_components", "summarize", "metadata", "cinatra")["requiresApproval"] = false
		obj(m, "metadata", "cinatra")["packageVersion"] = "0.2.0"
	})
	editJSON(t, filepath.Join(leaf, "package.json"), func(m map[string]any) { m["version"] = "0.2.0" })

	cfg := &analysis.ConfigResult{}
	ns := Analyze(leaf, nil, cfg)
	ix := NewCallerIndex(ns.Agent.TreeRoot, nil)
	callers := ix.Of(ns.Agent.PackageName())
	if len(callers) != 1 || callers[0].Package != "@oastui/orchestrator-agent" {
		t.Fatalf("callers %+v", callers)
	}
	// issue 35 point 12: the agent asked about is not analysed a third
	// time for its own question (a large flow's diff paid a whole analysis).
	if _, done := ix.agents[ns.Agent.PackageName()]; done || len(ix.agents) == 0 {
		t.Errorf("the index analysed %d agents, the leaf among them: %v", len(ix.agents), done)
	}
	r := Diff(Analyze(filepath.Join(oldDir, "cinatra", "oas.json"), nil, cfg), ns, Options{Callers: callers, Tree: true})
	got := map[string]Change{}
	for _, c := range r.Changes {
		got[c.Check+" "+c.Port] = c
	}
	brief, ok := got["diff_input_removed brief"]
	if !ok || brief.Level != Breaking || len(brief.Callers) != 1 || !brief.Callers[0].Binds || brief.Callers[0].Accepts {
		t.Errorf("input brief removed: %+v (want breaking; the orchestrator binds it, its range ^0.1.0 refuses 0.2.0)", brief)
	}
	topic, ok := got["diff_input_removed topic"]
	if !ok || topic.Level != Warn || topic.Reason == "" || topic.Callers[0].Binds {
		t.Errorf("input topic removed: %+v (want demoted to warn: no caller binds it)", topic)
	}
	appr, ok := got["diff_approval_removed "]
	if !ok || appr.Level != Breaking || len(appr.Callers) != 1 {
		t.Errorf("approval removed: %+v (want breaking, with the caller)", appr)
	}
	// Without a tree nothing is demoted.
	r = Diff(Analyze(filepath.Join(oldDir, "cinatra", "oas.json"), nil, cfg), ns, Options{})
	for _, c := range r.Changes {
		if c.Check == "diff_input_removed" && c.Level != Breaking {
			t.Errorf("demoted without a tree: %+v", c)
		}
	}
}

// TestCallerIndexMapNode: a MapNode runs a child agent as the platform's
// rule says (compile.CalledPackage): the index finds it as a caller even
// when no package.json declares the dependency.
func TestCallerIndexMapNode(t *testing.T) {
	tree := filepath.Join(t.TempDir(), "agents")
	testgit.CopyTree(t, filepath.Join("..", "testdata", "agents"), tree)
	orch := filepath.Join(tree, "oastui", "orchestrator-agent")
	editJSON(t, filepath.Join(orch, "cinatra", "oas.json"), func(m map[string]any) {
		for _, c := range obj(m, "$referenced_components") {
			cm, _ := c.(map[string]any)
			if md, ok := cm["metadata"].(map[string]any); ok && cm["component_type"] == "FlowNode" {
				if ci, ok := md["cinatra"].(map[string]any); ok && ci["packageName"] == "@oastui/leaf-agent" {
					cm["component_type"] = "MapNode"
				}
			}
		}
	})
	editJSON(t, filepath.Join(orch, "package.json"), func(m map[string]any) {
		delete(obj(m, "cinatra"), "agentDependencies")
		delete(obj(m, "cinatra"), "dependencies")
	})
	got := NewCallerIndex(tree, nil).Of("@oastui/leaf-agent")
	if len(got) != 1 || got[0].Package != "@oastui/orchestrator-agent" || !strings.HasPrefix(got[0].Via, "MapNode") {
		t.Fatalf("callers = %+v, want the orchestrator through its MapNode", got)
	}
}
