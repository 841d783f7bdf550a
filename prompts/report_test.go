package prompts

import (
	"bytes"
	"encoding/json"
	"github.com/oastui/oastui/internal/race"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

const fixture = "testdata/agents/acme/prompt-agent"

func load(t testing.TB, path string, opts compile.LoadOptions) *compile.Agent {
	t.Helper()
	a, err := compile.Load(path, opts)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestProvenanceTable: every provenance kind on the fixture agent.
func TestProvenanceTable(t *testing.T) {
	r := Build(Input{Agent: load(t, fixture, compile.LoadOptions{})})
	if len(r.Nodes) != 1 {
		t.Fatalf("%d nodes, want the one bridge node", len(r.Nodes))
	}
	n := r.Nodes[0]
	type row struct {
		kind, from, output, slot, rule, sample, sampleFrom string
		bucket                                             Bucket
		required, hidden                                   bool
	}
	want := map[string]row{
		"tone":                {kind: FromStart, from: "start", output: "tone", hidden: true, sample: "friendly", sampleFrom: "default", bucket: Session},
		"lang":                {kind: FromDefault, sample: "en", sampleFrom: "default", bucket: Session},
		"topic":               {kind: FromStart, from: "start", output: "topic", required: true, sample: "solar panels", sampleFrom: "examples", bucket: Session},
		"facts":               {kind: FromEdge, from: "fetch", output: "facts", sample: "The sun is a star.", sampleFrom: "enum", bucket: Evidence},
		"extra":               {kind: FromUnresolved, rule: "dataflow_input_unsatisfied", sample: "<string:extra>", sampleFrom: "stub", bucket: Evidence},
		"contextSlotBindings": {kind: FromSlot, from: "context_style", output: "contextSlotBindings", slot: "style", sampleFrom: "stub", bucket: Business},
	}
	if len(n.Placeholders) != len(want) {
		t.Fatalf("%d placeholders, want %d: %+v", len(n.Placeholders), len(want), n.Placeholders)
	}
	for _, p := range n.Placeholders {
		w, ok := want[p.Name]
		if !ok {
			t.Errorf("unexpected placeholder %q", p.Name)
			continue
		}
		pv := p.Provenance
		got := row{pv.Kind, pv.From, pv.Output, pv.Slot, pv.Rule, p.Sample, p.SampleFrom, p.Bucket, pv.Required, pv.Hidden}
		if w.sample == "" && w.kind == FromSlot {
			w.sample = got.sample
		}
		if got != w {
			t.Errorf("%s:\n got %+v\nwant %+v", p.Name, got, w)
		}
		if pv.Kind != FromUnresolved && pv.Kind != FromDefault && pv.FromPointer == "" {
			t.Errorf("%s: no pointer of the feeding node (the TUI selects it)", p.Name)
		}
	}
	if n.Skill == nil || n.Skill.Status != "found" || n.Skill.Placement != "tool" || n.Skill.Tokens == 0 {
		t.Errorf("skill: %+v", n.Skill)
	}
	if n.Model.ID != "gpt-4o" || n.Model.Window != 128000 || n.Tokens.WindowShare <= 0 {
		t.Errorf("model/window: %+v %+v", n.Model, n.Tokens)
	}
	if !strings.Contains(n.Preview.User, "Topic: solar panels\nFacts: The sun is a star.") {
		t.Errorf("preview: %q", n.Preview.User)
	}
	if !strings.Contains(n.Preview.System, "{{CINATRA_BASE_URL}}") || !strings.Contains(n.Preview.System, "{{ user.name }}") {
		t.Errorf("env variables and expressions are sent as written: %q", n.Preview.System)
	}
	b := n.Buckets
	if b.Static[Business] != 500 || b.Estimate[Business] != 1500 || b.Static[Tool] != n.Skill.Tokens {
		t.Errorf("buckets: %+v", b)
	}
	if len(r.Exceeded) != 0 {
		t.Errorf("no budget configured, nothing is exceeded: %+v", r.Exceeded)
	}
	if !reflect.DeepEqual(r.Example, ExampleBudget()) || r.Budget.Limited() {
		t.Errorf("the report shows the example budget %+v, and no limit %+v", r.Example, r.Budget)
	}
	tight := Build(Input{Agent: load(t, fixture, compile.LoadOptions{}), Budget: Budget{Buckets: map[Bucket]int{Policy: 10}}})
	if len(tight.Exceeded) != 1 || tight.Exceeded[0].Bucket != Policy || tight.Exceeded[0].Node != "write" {
		t.Errorf("policy 10: %+v", tight.Exceeded)
	}
	only := Build(Input{Agent: load(t, fixture, compile.LoadOptions{}), Budget: Budget{Buckets: map[Bucket]int{Policy: 10}}, BudgetOnly: true})
	if len(only.Exceeded) != 1 || only.Exceeded[0].Tokens != tight.Exceeded[0].Tokens {
		t.Errorf("the budget-only count differs: %+v vs %+v", only.Exceeded, tight.Exceeded)
	}
}

// overlay returns the fixture's flow with replacements applied, as an
// overlay for the same path (unsaved-buffer loading).
func overlay(t *testing.T, old, new string) compile.LoadOptions {
	t.Helper()
	p := filepath.Join(fixture, "cinatra", "oas.json")
	src, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(src, []byte(old)) {
		t.Fatalf("fixture lacks %q", old)
	}
	return compile.LoadOptions{Overlay: map[string][]byte{p: bytes.Replace(src, []byte(old), []byte(new), 1)}}
}

// TestBridgeSystemChain: Gemini media_input puts SKILL.md first in the
// system text; no system is the bridge's ""; an agent_id naming another
// package is not read; a template agent_id is unresolved.
func TestBridgeSystemChain(t *testing.T) {
	media := overlay(t, `{ "preferredProvider": "openai", "preferredModel": "gpt-4o" }`,
		`{ "preferredProvider": "gemini", "preferredModel": "gemini-2.5-pro", "capabilityRequired": "media_input" }`)
	n := Build(Input{Agent: load(t, fixture, media)}).Nodes[0]
	if n.Skill.Placement != "system" || n.System.Source != "SKILL.md + data.system" ||
		!strings.HasPrefix(n.Preview.System, "# Prompt agent skill") || !strings.Contains(n.Preview.System, "\n\nYou are a friendly writer") {
		t.Errorf("media_input: %+v %q", n.System, n.Preview.System)
	}
	if n.Model.Exact || n.Model.Window != 1048576 {
		t.Errorf("gemini counts are estimates: %+v", n.Model)
	}
	nosys := overlay(t, `"system": "You are a {{ tone }} writer. Answer in {{ lang }}. Base URL: {{CINATRA_BASE_URL}}. Keep {{ user.name }} out.",`, ``)
	n = Build(Input{Agent: load(t, fixture, nosys)}).Nodes[0]
	if n.System.Source != `""` || n.Preview.System != "" {
		t.Errorf("no system: %+v", n.System)
	}
	other := overlay(t, `"agent_id": "prompt-agent"`, `"agent_id": "someone-else"`)
	if s := Build(Input{Agent: load(t, fixture, other)}).Nodes[0].Skill; s.Status != "other_package" {
		t.Errorf("other package: %+v", s)
	}
	// agent_id spelled as package.json's name is this package too: the
	// bridge's skills/<agent_id>/SKILL.md is looked up here (and absent).
	scoped := overlay(t, `"agent_id": "prompt-agent"`, `"agent_id": "@acme/prompt-agent"`)
	if s := Build(Input{Agent: load(t, fixture, scoped)}).Nodes[0].Skill; s.Status != "missing" || s.Path != "skills/@acme/prompt-agent/SKILL.md" {
		t.Errorf("agent_id = package name: %+v", s)
	}
	tmpl := overlay(t, `"agent_id": "prompt-agent"`, `"agent_id": "{{ agent_id }}"`)
	if s := Build(Input{Agent: load(t, fixture, tmpl)}).Nodes[0].Skill; s.Status != "unresolved" {
		t.Errorf("template agent_id: %+v", s)
	}
	noModel := overlay(t, `"cinatra_llm": { "preferredProvider": "openai", "preferredModel": "gpt-4o" },`, ``)
	if m := Build(Input{Agent: load(t, fixture, noModel)}).Nodes[0].Model; m.Source != "none" || m.Encoding != O200K {
		t.Errorf("no model: %+v", m)
	}
}

// TestAgentSpec: an LlmNode's prompt_template and an Agent's system prompt
// (the CrewX chain).
func TestAgentSpec(t *testing.T) {
	p := agentSpecFlow(t)
	r := Build(Input{Agent: load(t, p, compile.LoadOptions{})})
	if len(r.Nodes) != 2 {
		t.Fatalf("nodes: %d", len(r.Nodes))
	}
	llm, an := r.Nodes[0], r.Nodes[1]
	if llm.Kind != KindLlmNode || llm.Preview.User != "Weather in Zurich?" || llm.Model.ID != "gpt-4.1" || llm.Model.Window != 1047576 {
		t.Errorf("LlmNode: %+v %+v", llm.Preview, llm.Model)
	}
	if pv := llm.Placeholders[0].Provenance; pv.Kind != FromStart || !pv.Implicit {
		t.Errorf("name-based data flow: %+v", pv)
	}
	if an.Kind != KindAgentNode || an.System.Source != "description" || an.Preview.System != "Helps." {
		t.Errorf("Agent chain (no system_prompt: the description): %+v %q", an.System, an.Preview.System)
	}
	if an.Tools == nil || an.Tools.Tokens == 0 || an.Buckets.Static[Tool] != an.Tools.Tokens {
		t.Errorf("tools: %+v", an.Tools)
	}
	if an.Buckets.Estimate[Memory] != llm.Tokens.Preview[O200K] {
		t.Errorf("memory carries the earlier step's prompt: %d vs %d", an.Buckets.Estimate[Memory], llm.Tokens.Preview[O200K])
	}
}

// TestReportJSONStable: the JSON has a schema version and is identical
// from one build to the next.
func TestReportJSONStable(t *testing.T) {
	a := load(t, fixture, compile.LoadOptions{})
	j1, _ := json.Marshal(Build(Input{Agent: a}))
	j2, _ := json.Marshal(Build(Input{Agent: a}))
	if !bytes.Equal(j1, j2) {
		t.Error("two builds differ")
	}
	var top map[string]any
	if err := json.Unmarshal(j1, &top); err != nil {
		t.Fatal(err)
	}
	if top["schema_version"] != float64(SchemaVersion) {
		t.Errorf("schema_version = %v", top["schema_version"])
	}
	for _, k := range []string{"file", "encodings", "budget", "nodes", "steps", "totals", "exceeded", "notes"} {
		if _, ok := top[k]; !ok {
			t.Errorf("no %q in the report", k)
		}
	}
}

// TestCorpusGoldens: the report of every corpus agent, as JSON (paths
// relative to the corpus). Under -race a sample of two.
func TestCorpusGoldens(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	if race.Enabled {
		slugs = []string{"email-outreach-agent", "trigger-agent"}
	}
	for _, slug := range slugs {
		t.Run(slug, func(t *testing.T) {
			a := load(t, filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
			r := Build(Input{Agent: a})
			if r.Err != "" {
				t.Fatal(r.Err)
			}
			r.File = filepath.ToSlash(strings.TrimPrefix(r.File, dir+string(filepath.Separator)))
			got, err := json.MarshalIndent(r, "", " ")
			if err != nil {
				t.Fatal(err)
			}
			got = append(got, '\n')
			golden := filepath.Join("testdata", "golden", slug+".json")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (go test ./prompts -run TestCorpusGoldens -update writes it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("the report differs from %s (-update rewrites it)", golden)
			}
		})
	}
}

// TestBudgetOnlyAgrees: the lint check's budget-only build finds exactly
// the exceeded buckets of the full report, with the same counts, under
// budgets tight enough to trip every kind of bucket.
func TestBudgetOnlyAgrees(t *testing.T) {
	checkBudgetOnlyAgrees(t, load(t, fixture, compile.LoadOptions{}), load(t, agentSpecFlow(t), compile.LoadOptions{}))
	t.Run("corpus", func(t *testing.T) {
		if race.Enabled {
			t.Skip("the corpus agents run without -race (CI's second run)")
		}
		var agents []*compile.Agent
		for _, slug := range []string{"blog-draft-writer-agent", "email-outreach-agent", "security-reviewer-agent"} {
			agents = append(agents, load(t, testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", slug), compile.LoadOptions{}))
		}
		checkBudgetOnlyAgrees(t, agents...)
	})
}

func checkBudgetOnlyAgrees(t *testing.T, agents ...*compile.Agent) {
	budgets := []Budget{{}, {Buckets: map[Bucket]int{Policy: 100, Tool: 5, Session: 1, Business: 100, Memory: 2}, Total: 150},
		{Buckets: map[Bucket]int{Memory: 3}}, {Total: 30}, {WindowShare: 1}, {Buckets: map[Bucket]int{Tool: 0}}}
	for _, a := range agents {
		for _, bud := range budgets {
			full := Build(Input{Agent: a, Budget: bud}).Exceeded
			only := Build(Input{Agent: a, Budget: bud, BudgetOnly: true}).Exceeded
			if !reflect.DeepEqual(full, only) {
				t.Errorf("%s, budget %+v:\nfull %+v\nonly %+v", a.FlowPath, bud, full, only)
			}
		}
	}
}

const agentSpecSrc = `{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"f",
 "start_node":{"$component_ref":"s"},
 "nodes":[{"$component_ref":"s"},{"$component_ref":"llm"},{"$component_ref":"an"},{"$component_ref":"e"}],
 "control_flow_connections":[
  {"component_type":"ControlFlowEdge","name":"1","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"llm"}},
  {"component_type":"ControlFlowEdge","name":"2","from_node":{"$component_ref":"llm"},"to_node":{"$component_ref":"an"}},
  {"component_type":"ControlFlowEdge","name":"3","from_node":{"$component_ref":"an"},"to_node":{"$component_ref":"e"}}],
 "data_flow_connections":null,
 "$referenced_components":{
  "s":{"component_type":"StartNode","id":"s","name":"s","inputs":[{"title":"city","type":"string","default":"Zurich"}],"outputs":[{"title":"city","type":"string","default":"Zurich"}]},
  "llm":{"component_type":"LlmNode","id":"llm","name":"llm","prompt_template":"Weather in {{ city }}?","llm_config":{"$component_ref":"cfg"},
    "inputs":[{"title":"city","type":"string"}],"outputs":[{"title":"generated_text","type":"string"}]},
  "an":{"component_type":"AgentNode","id":"an","name":"an","agent":{"$component_ref":"ag"}},
  "ag":{"component_type":"Agent","id":"ag","name":"helper","description":"Helps.","llm_config":{"$component_ref":"cfg"},
    "tools":[{"component_type":"ClientTool","id":"t","name":"get_weather","description":"Gets the weather","inputs":[{"title":"city","type":"string"}]}]},
  "cfg":{"component_type":"OpenAiConfig","id":"cfg","name":"cfg","model_id":"gpt-4.1"},
  "e":{"component_type":"EndNode","id":"e","name":"e"}}}`

// agentSpecFlow writes an Agent Spec flow with an LlmNode and an AgentNode
// (an Agent without system_prompt, with a tool) and returns its path.
func agentSpecFlow(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "flow.json")
	if err := os.WriteFile(p, []byte(agentSpecSrc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestBudgetOnlyCountsNothingSmall: an agent whose prompts are all far
// below every budget needs no tokenizer for the lint check (oastui lint
// on the bundled example took 0.46 s instead of 0.02 s when every Agent
// Spec step was counted for the memory of the steps after it).
func TestBudgetOnlyCountsNothingSmall(t *testing.T) {
	r := Build(Input{Agent: load(t, agentSpecFlow(t), compile.LoadOptions{}), BudgetOnly: true})
	if len(r.Nodes) < 2 {
		t.Fatalf("%d LLM nodes", len(r.Nodes))
	}
	for _, n := range r.Nodes {
		if n.Tokens.Static[n.Model.Encoding] != 0 || n.Buckets.Static[Policy] != 0 {
			t.Errorf("%s: counted %v (a byte bound decides: nothing can exceed)", n.ID, n.Tokens.Static)
		}
	}
	// A memory budget the bound cannot clear: every Agent Spec step counted.
	r = Build(Input{Agent: load(t, agentSpecFlow(t), compile.LoadOptions{}), BudgetOnly: true, Budget: Budget{Buckets: map[Bucket]int{Memory: 3}}})
	for _, n := range r.Nodes {
		if n.Kind != KindBridge && n.Tokens.Static[n.Model.Encoding] == 0 {
			t.Errorf("%s: not counted under a tight memory budget", n.ID)
		}
	}
}

// TestNoBudgetNoFinding: without a configured budget nothing is exceeded,
// even on the corpus agents whose policy bucket is over the ContextOS
// example (blog-draft-writer 2,840 tokens, blog-image-prompt 2,056, against
// 1,800): the example is shown, never checked. With the example set as
// the team's budget, both are over it.
func TestNoBudgetNoFinding(t *testing.T) {
	if race.Enabled {
		t.Skip("the corpus agents run without -race (CI's second run)")
	}
	for _, slug := range []string{"blog-draft-writer-agent", "blog-image-prompt-agent"} {
		a := load(t, testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", slug), compile.LoadOptions{})
		for _, only := range []bool{false, true} {
			if r := Build(Input{Agent: a, BudgetOnly: only}); len(r.Exceeded) != 0 {
				t.Errorf("%s (budget-only %v): exceeded with no budget: %+v", slug, only, r.Exceeded)
			}
		}
		r := Build(Input{Agent: a, Budget: ExampleBudget()})
		if len(r.Exceeded) == 0 || r.Exceeded[0].Bucket != Policy || r.Exceeded[0].Tokens <= 1800 {
			t.Errorf("%s: the example as a budget: %+v", slug, r.Exceeded)
		}
	}
}

func TestBudgetWindowShare(t *testing.T) {
	a := load(t, fixture, compile.LoadOptions{})
	full := Build(Input{Agent: a})
	n := full.Nodes[0]
	if n.Model.Window == 0 {
		t.Fatalf("the fixture's model has no window: %+v", n.Model)
	}
	r := Build(Input{Agent: a, Budget: Budget{WindowShare: 1}})
	found := false
	for _, e := range r.Exceeded {
		if e.Bucket == WindowLimit {
			found = true
			if e.Budget != n.Model.Window/100 {
				t.Errorf("window limit %d, want %d", e.Budget, n.Model.Window/100)
			}
		}
	}
	static := 0
	for _, k := range Buckets {
		static += n.Buckets.Static[k]
	}
	if found != (static > n.Model.Window/100) {
		t.Errorf("window share 1%%: exceeded %v, static %d, window %d", found, static, n.Model.Window)
	}
	if r := Build(Input{Agent: a, Budget: Budget{WindowShare: 100}}); len(r.Exceeded) != 0 {
		t.Errorf("the whole window: %+v", r.Exceeded)
	}
}
