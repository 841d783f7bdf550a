package compile

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeTree writes files (path → content) under a new temp dir and returns it.
func writeTree(t testing.TB, files map[string]string) string {
	t.Helper()
	root := t.TempDir()
	for p, c := range files {
		full := filepath.Join(root, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(c), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

const minimalFlow = `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},
"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"e"}],
"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"s_e","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"e"}}],
"$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"S","inputs":[]},"e":{"component_type":"EndNode","id":"e","name":"E","outputs":[]}}}`

func TestLoadFlowLocations(t *testing.T) {
	root := writeTree(t, map[string]string{
		"agents/v/canonical/cinatra/oas.json":   minimalFlow,
		"agents/v/canonical/cinatra/agent.json": minimalFlow, // ignored: oas.json wins
		"agents/v/legacy1/cinatra/agent.json":   minimalFlow,
		"agents/v/legacy2/agent.json":           minimalFlow,
		"agents/v/empty/package.json":           `{"name":"empty"}`,
	})
	for _, tc := range []struct {
		dir, flow string
		legacy    bool
	}{
		{"canonical", "cinatra/oas.json", false},
		{"legacy1", "cinatra/agent.json", true},
		{"legacy2", "agent.json", true},
	} {
		a, err := Load(filepath.Join(root, "agents", "v", tc.dir), LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", tc.dir, err)
		}
		if !strings.HasSuffix(filepath.ToSlash(a.FlowPath), tc.flow) {
			t.Errorf("%s: flow %s, want …/%s", tc.dir, a.FlowPath, tc.flow)
		}
		var legacy bool
		for _, f := range a.Findings {
			if f.Code == "legacy_agent_filename" && f.Severity == Warning {
				legacy = true
			}
		}
		if legacy != tc.legacy {
			t.Errorf("%s: legacy_agent_filename %v, want %v (%v)", tc.dir, legacy, tc.legacy, a.Findings)
		}
		if _, err := Compile(a); err != nil {
			t.Errorf("%s: compile: %v", tc.dir, err)
		}
	}
	if _, err := Load(filepath.Join(root, "agents", "v", "empty"), LoadOptions{}); !errors.Is(err, ErrNotAnAgent) {
		t.Errorf("package without a flow: %v, want ErrNotAnAgent", err)
	}
	if _, err := Load(filepath.Join(root, "agents", "v", "missing"), LoadOptions{}); err == nil {
		t.Errorf("missing directory: no error")
	}
}

func TestLoadPackageFiles(t *testing.T) {
	root := writeTree(t, map[string]string{
		"agents/v/a/cinatra/oas.json": minimalFlow,
		"agents/v/a/package.json": `{"name":"@v/a","version":"1.2.3","cinatra":{
			"agentDependencies":{"@v/b":"^1.0.0"},
			"dependencies":[{"packageName":"@v/c","edgeType":"runtime","versionConstraint":{"kind":"semver-range","range":"^2.0.0"},"requirement":"required","kind":"agent"},
			                {"packageName":"@v/d","versionConstraint":"~3"},{"nope":1}]}}`,
		"agents/v/a/cinatra.json":       `{"limits":{"maxRecipients":25},"requiredConnections":[{"type":"gmail","preferred":"work"},{"kind":"x"},"bad"],"defaults":{"senderName":null},"other":1}`,
		"agents/v/bad/cinatra/oas.json": minimalFlow,
		"agents/v/bad/package.json":     `{"name": "@v/bad",}`,
	})
	a, err := Load(filepath.Join(root, "agents", "v", "a"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []Dependency{
		{PackageName: "@v/b", Version: "^1.0.0", Form: "agentDependencies", Pointer: "/cinatra/agentDependencies/@v~1b"},
		{PackageName: "@v/c", Version: "^2.0.0", EdgeType: "runtime", Requirement: "required", Kind: "agent", Form: "dependencies", Pointer: "/cinatra/dependencies/0"},
		{PackageName: "@v/d", Version: "~3", Form: "dependencies", Pointer: "/cinatra/dependencies/1"},
	}
	if got := a.Dependencies(); !reflect.DeepEqual(got, want) {
		t.Errorf("dependencies:\n got %+v\nwant %+v", got, want)
	}
	if !a.HasDependency("@v/c") || !a.HasDependency("@v/b") || a.HasDependency("@v/z") {
		t.Errorf("HasDependency")
	}
	out, err := Compile(a)
	if err != nil {
		t.Fatal(err)
	}
	if out.PackageName != "@v/a" || out.PackageVersion != "1.2.3" {
		t.Errorf("package %v@%v", out.PackageName, out.PackageVersion)
	}
	if got := mustJSON(t, out.AgentDependencies); got != `{"@v/b":"^1.0.0"}` {
		t.Errorf("agentDependencies %s (only the map form is compiled, as in the reference)", got)
	}
	if got := mustJSON(t, out.CinatraConfig); got != `{"limits":{"maxRecipients":25},"requiredConnections":[{"type":"gmail","preferred":"work"}],"defaults":{"senderName":null}}` {
		t.Errorf("cinatraConfig %s", got)
	}

	b, err := Load(filepath.Join(root, "agents", "v", "bad"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if len(b.Findings) != 1 || b.Findings[0].Code != "invalid_json" || !strings.HasSuffix(b.Findings[0].File, "package.json") || b.Findings[0].Line != 1 {
		t.Errorf("invalid package.json: %+v", b.Findings)
	}
	out, err = Compile(b)
	if err != nil || out.PackageName != nil || out.CinatraConfig != nil {
		t.Errorf("unreadable package.json: compile %v, packageName %v (want null, as the reference)", err, out.PackageName)
	}
}

func TestLoadRegistry(t *testing.T) {
	root := writeTree(t, map[string]string{
		"agents/_shared/cinatra/components.json": `{"components":{"shared-llm-config":{"component_type":"OpenAiConfig","id":"shared-llm-config","model_id":"tree-model"}}}`,
		"agents/v/a/cinatra/oas.json":            leafFlow,
		"other.json":                             `{"components":{"shared-llm-config":{"component_type":"OpenAiConfig","id":"shared-llm-config","model_id":"flag-model","api_type":"responses"}}}`,
		"loose/cinatra/oas.json":                 leafFlow,
	})
	model := func(a *Agent) string {
		out, err := Compile(a)
		if err != nil {
			t.Fatal(err)
		}
		if out.LlmConfig == nil {
			return ""
		}
		return out.LlmConfig.ModelID + "/" + out.LlmConfig.APIType
	}
	a, _ := Load(filepath.Join(root, "agents", "v", "a"), LoadOptions{})
	if got := model(a); got != "tree-model/" {
		t.Errorf("walk-up registry: %q", got)
	}
	a, _ = Load(filepath.Join(root, "agents", "v", "a"), LoadOptions{RegistryPath: filepath.Join(root, "other.json")})
	if got := model(a); got != "flag-model/responses" {
		t.Errorf("--registry: %q", got)
	}
	a, _ = Load(filepath.Join(root, "loose", "cinatra", "oas.json"), LoadOptions{})
	if got := model(a); got != "gpt-4o/chat_completions" {
		t.Errorf("built-in registry: %q", got)
	}
	a, _ = Load(filepath.Join(root, "agents", "v", "a"), LoadOptions{RegistryPath: filepath.Join(root, "missing.json")})
	if got := model(a); got != "" {
		t.Errorf("missing --registry file: %q, want an empty registry (reference: warning + {})", got)
	}
}

const leafFlow = `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"leaf"}},
"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"n"},{"$component_ref":"e"}],
"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"a","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"n"}},
 {"component_type":"ControlFlowEdge","name":"b","from_node":{"$component_ref":"n"},"to_node":{"$component_ref":"e"}}],
"$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"S","inputs":[]},
 "n":{"component_type":"AgentNode","id":"n","name":"N","agent":{"$component_ref":"ag"}},
 "ag":{"component_type":"Agent","id":"ag","name":"Ag","llm_config":{"$component_ref":"shared-llm-config"},"system_prompt":"hi"},
 "e":{"component_type":"EndNode","id":"e","name":"E","outputs":[]}}}`

func TestFindAgent(t *testing.T) {
	child := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"c","name":"C","metadata":{"cinatra":{"type":"flow"}},
"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"e"}],"control_flow_connections":[],
"$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"S","inputs":[]},
 "g0":{"component_type":"InputMessageNode","id":"g0","metadata":{"cinatra":{"requiresApproval":false,"renderer":"@v/child:not-this"}},"outputs":[{"title":"x","type":"string"}]},
 "g1":{"component_type":"InputMessageNode","id":"g1","metadata":{"cinatra":{"requiresApproval":true,"renderer":"@v/child:gate","riskClass":"email_send"}},"outputs":[{"title":"y","type":"string"}]},
 "e":{"component_type":"EndNode","id":"e","name":"E","outputs":[]}}}`
	parent := `{"agentspec_version":"26.1.0","component_type":"Flow","id":"p","name":"P","metadata":{"cinatra":{"type":"flow"}},
"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"},{"$component_ref":"fn"},{"$component_ref":"e"}],
"control_flow_connections":[{"component_type":"ControlFlowEdge","name":"a","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"fn"}},
 {"component_type":"ControlFlowEdge","name":"b","from_node":{"$component_ref":"fn"},"to_node":{"$component_ref":"e"}}],
"$referenced_components":{"s":{"component_type":"StartNode","id":"s","name":"S","inputs":[]},
 "fn":{"component_type":"FlowNode","id":"fn","name":"Child","subflow":{"$component_ref":"sub"},"metadata":{"cinatra":{"packageName":"@v/child"}}},
 "e":{"component_type":"EndNode","id":"e","name":"E","outputs":[]}}}`
	root := writeTree(t, map[string]string{
		"agents/vendor-x/renamed-dir/cinatra/oas.json": child,
		"agents/vendor-x/renamed-dir/package.json":     `{"name":"@v/child","version":"1.0.0"}`,
		"agents/v/parent/cinatra/oas.json":             parent,
		"agents/v/parent/package.json":                 `{"name":"@v/parent","version":"1.0.0"}`,
		"agents/cinatra-ai/by-slug/cinatra/oas.json":   child,
		"agents/v/junk/package.json":                   `not json`,
	})
	a, err := Load(filepath.Join(root, "agents", "v", "parent"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := a.FindAgent("@v/child")
	if err != nil || filepath.Base(c.Dir) != "renamed-dir" {
		t.Fatalf("by package name: %v %v", c, err)
	}
	if c2, _ := a.FindAgent("@v/child"); c2 != c {
		t.Errorf("second look-up not cached")
	}
	if s, err := a.FindAgent("@other/by-slug"); err != nil || filepath.Base(s.Dir) != "by-slug" {
		t.Errorf("install-layout fallback: %v", err)
	}
	for _, bad := range []string{"@v/nothing", "../etc", "a/b/c", ""} {
		if _, err := a.FindAgent(bad); !errors.Is(err, ErrAgentNotFound) {
			t.Errorf("%q: %v, want ErrAgentNotFound", bad, err)
		}
	}
	out, err := Compile(a)
	if err != nil {
		t.Fatal(err)
	}
	s := out.ApprovalPolicy.Steps[0]
	if s.XRenderer != "@v/child:gate" || s.RiskClass != "email_send" || s.HitlOwnedBy != "childAgent" {
		t.Errorf("child renderer not derived: %+v", s)
	}
	if _, err := (&Agent{}).FindAgent("@v/child"); !errors.Is(err, ErrAgentNotFound) {
		t.Errorf("agent outside a tree: %v", err)
	}
}

// TestCompileConcurrent: one Agent compiled from several goroutines (the
// TUI and the review share it); run with -race.
func TestCompileConcurrent(t *testing.T) {
	a, err := Load(filepath.Join(fixtureRoot, "oastui", "orchestrator-agent"), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := ""
	done := make(chan string)
	for i := 0; i < 4; i++ {
		go func() {
			out, err := Compile(a)
			if err != nil {
				done <- err.Error()
				return
			}
			b, _ := IndentJSON(out)
			done <- string(b)
		}()
	}
	for i := 0; i < 4; i++ {
		got := <-done
		if want == "" {
			want = got
		} else if got != want {
			t.Errorf("results differ")
		}
	}
}
