package compile

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// fixtureRoot is the tree of valid fixture agents (testdata/agents).
const fixtureRoot = "../testdata/agents"

func fixtureAgents(t testing.TB) []string {
	t.Helper()
	dirs, err := filepath.Glob(filepath.Join(fixtureRoot, "oastui", "*"))
	if err != nil || len(dirs) == 0 {
		t.Fatalf("no fixture agents under %s (%v)", fixtureRoot, err)
	}
	return dirs
}

// TestFixtureAgentsCompile: every valid fixture agent loads cleanly, finds
// the tree's registry and compiles.
func TestFixtureAgentsCompile(t *testing.T) {
	for _, dir := range fixtureAgents(t) {
		t.Run(filepath.Base(dir), func(t *testing.T) {
			a, err := Load(dir, LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if len(a.Findings) != 0 {
				t.Fatalf("load findings: %v", a.Findings)
			}
			if a.Registry == nil || !strings.HasSuffix(filepath.ToSlash(a.RegistryPath), "testdata/agents/_shared/cinatra/components.json") {
				t.Fatalf("registry not found in the fixture tree: %q", a.RegistryPath)
			}
			out, err := Compile(a)
			if err != nil {
				t.Fatalf("compile: %v", err)
			}
			if out.PackageName != a.PackageName() || out.PackageName == "" {
				t.Errorf("packageName %v, package.json %q", out.PackageName, a.PackageName())
			}
			if len(out.ApprovalPolicy.Steps) == 0 && filepath.Base(dir) != "branching-agent" {
				t.Errorf("no steps")
			}
			// StepOrder agrees with the compiled steps.
			byNode := map[string][]int{}
			for _, s := range out.ApprovalPolicy.Steps {
				byNode[s.NodeID] = append(byNode[s.NodeID], s.StepNumber)
			}
			got := map[string][]int{}
			for _, n := range StepOrder(a) {
				if len(n.Steps) > 0 {
					got[n.ID] = n.Steps
				}
			}
			if !reflect.DeepEqual(got, byNode) {
				t.Errorf("StepOrder %v, compiled steps %v", got, byNode)
			}
		})
	}
}

// TestFixtureShapes pins what each fixture is there to show.
func TestFixtureShapes(t *testing.T) {
	load := func(slug string) (*Agent, *CompiledAgentOas) {
		t.Helper()
		a, err := Load(filepath.Join(fixtureRoot, "oastui", slug), LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		out, err := Compile(a)
		if err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		return a, out
	}
	_, leaf := load("leaf-agent")
	if leaf.LlmConfig == nil || leaf.LlmConfig.ModelID != "gpt-4o" || len(leaf.Toolboxes) != 1 || leaf.Prompt == nil {
		t.Errorf("leaf: registry refs not resolved: llm %+v toolboxes %+v", leaf.LlmConfig, leaf.Toolboxes)
	}
	_, orch := load("orchestrator-agent")
	if s := orch.ApprovalPolicy.Steps; len(s) != 3 || s[1].XRenderer != "@oastui/gate-agent:brief-form" || s[1].RiskClass != "read_only" {
		t.Errorf("orchestrator: the child agent's renderer was not found by package name: %+v", s)
	}
	_, gate := load("gate-agent")
	if s := gate.ApprovalPolicy.Steps; len(s) != 2 || s[0].NodeType != "input_message" || s[0].InputMessageField != "briefJson" {
		t.Errorf("gate: %+v", s)
	}
	ctxAgent, _ := load("context-slot-agent")
	if !ctxAgent.HasDependency("@cinatra-ai/context-selection-agent") {
		t.Errorf("context-slot-agent: dependency missing")
	}
	ex, example := load("example-agent")
	if !ex.HasDependency("@cinatra-ai/context-selection-agent") || len(example.GatedSteps) != 1 {
		t.Errorf("example: dependency %v, gated steps %+v", ex.HasDependency("@cinatra-ai/context-selection-agent"), example.GatedSteps)
	}
	n := 0
	for _, sn := range StepOrder(ex) {
		if sn.ComponentType != "" {
			n++
		}
	}
	if n < 8 || n > 12 {
		t.Errorf("example agent has %d nodes, want 8–12", n)
	}
}

var (
	externalURL = regexp.MustCompile(`(?i)\b[a-z][a-z0-9+.-]*://`)
	secretish   = regexp.MustCompile(`(sk-[A-Za-z0-9_-]{16,}|gh[opasr]_[A-Za-z0-9]{20,}|AKIA[A-Z0-9]{12,}|xox[bpars]-|eyJ[A-Za-z0-9_-]+\.eyJ|Bearer\s+[A-Za-z0-9])`)
)

// TestFixturesHaveNoSecretsOrExternalURLs: URL fields are relative /api/…
// paths or {{CINATRA_BASE_URL}}…, no string looks like a credential.
func TestFixturesHaveNoSecretsOrExternalURLs(t *testing.T) {
	err := filepath.Walk(fixtureRoot, func(p string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		d := ParseDoc(p, src)
		if d.Root == nil {
			t.Errorf("%s: %v", p, d.Err)
			return nil
		}
		Walk(d.Root, "", func(ptr string, n *Node) bool {
			if n.Kind != String {
				return true
			}
			if externalURL.MatchString(n.Text) {
				t.Errorf("%s%s: external URL %q", p, ptr, n.Text)
			}
			if secretish.MatchString(n.Text) {
				t.Errorf("%s%s: looks like a credential", p, ptr)
			}
			if strings.HasSuffix(ptr, "/url") && !strings.HasPrefix(n.Text, "/") && !strings.HasPrefix(n.Text, "{{CINATRA_BASE_URL}}/") {
				t.Errorf("%s%s: url %q is neither /… nor {{CINATRA_BASE_URL}}/…", p, ptr, n.Text)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
