// Package prompts shows what each LLM step of an agent will be sent before
// a run: the prompt templates split into literal text and placeholders,
// where each placeholder's value comes from, the system prompt after the
// platform's fallback chain, a preview rendered on sample values, token
// counts with a real BPE tokenizer against the model's context window, and
// a ContextOS budget report by bucket (seeds 004 and 002; SPEC §10).
//
// The package is pure: it reads the loaded agent (compile.Agent, whose
// sibling files loading has already read — SKILL.md among them) and never
// touches the file system or a terminal. Strings in a Report are the
// agent's raw text; faces sanitise and mask them (Report.Clean).
package prompts

import (
	"encoding/json"
	"fmt"
	"path"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
)

// SchemaVersion is the version of the Report JSON; it changes when a
// field changes meaning or is removed. 2: "budget" holds only the limits
// .oastui.yaml sets (it held the ContextOS example filled in), the example
// is "example", and "exceeded" is checked against the configured limits.
const SchemaVersion = 2

// Kinds of LLM-bearing node.
const (
	KindBridge    = "llm_bridge" // Cinatra: ApiNode posting to /api/llm-bridge
	KindLlmNode   = "llm_node"   // Agent Spec LlmNode (prompt_template)
	KindAgentNode = "agent_node" // Agent Spec AgentNode whose agent is an Agent (system_prompt)
	KindAgent     = "agent"      // an Agent at the root of the document
)

// Provenance kinds of a placeholder's value.
const (
	FromEdge       = "edge"        // a data edge from an earlier node's output
	FromStart      = "start_input" // an input of the Flow's StartNode (a run input)
	FromSlot       = "slot"        // a context slot's selection (contextSlotBindings)
	FromDefault    = "default"     // the node's own input default
	FromAgentInput = "agent_input" // an input of the Agent (caller-supplied)
	FromUnresolved = "unresolved"  // nothing feeds it
)

// Input is what Build reads.
type Input struct {
	Agent *compile.Agent
	// CompiledPrompt is CompiledAgentOas.prompt when the agent compiled
	// (one step of the Agent system-prompt chain); nil otherwise.
	CompiledPrompt *string
	// Budget is the team's budget (.oastui.yaml budget:): only the limits
	// it sets are checked (Report.Exceeded); zero: none.
	Budget Budget
	// BudgetOnly computes only what the prompt_budget_exceeded check needs:
	// counts in each node's own encoding, and none for a text whose bytes
	// are within its bucket's budget (a BPE token is at least one byte, so
	// such a text cannot exceed it; its count is left at 0). Faces never
	// set it.
	BudgetOnly bool
	// Graph, when set, gives the graph model of the Flow at a pointer (the
	// analysis's one model per flow, analysis.Flow.Model), which the
	// report only reads; nil: Build builds its own.
	Graph func(flowPointer string) (*flowgraph.Graph, error)
}

// Report is the whole prompt and budget report of one agent.
type Report struct {
	SchemaVersion int           `json:"schema_version"`
	File          string        `json:"file"`
	Encodings     []string      `json:"encodings"`
	Budget        Budget        `json:"budget"`  // the configured limits (none: nothing is exceeded)
	Example       Budget        `json:"example"` // the ContextOS example run budget: usage is shown against it for scale, never checked
	Nodes         []*NodePrompt `json:"nodes"`
	Steps         []StepBudget  `json:"steps"`
	Totals        BucketTokens  `json:"totals"`   // over every step, estimate (preview values)
	Exceeded      []Exceeded    `json:"exceeded"` // buckets over the configured Budget (never the Example)
	Notes         []string      `json:"notes"`
	Err           string        `json:"error,omitempty"` // why tokens could not be counted
}

// NodePrompt is one LLM-bearing node.
type NodePrompt struct {
	Order         int    `json:"order"`          // 1-based position in run order (compiled BFS order, subflows entered where their FlowNode runs)
	Step          int    `json:"step,omitempty"` // the compiled approval step of the node or of the top-level FlowNode that runs it (0: none)
	Flow          string `json:"flow"`           // the Flow's id
	FlowPointer   string `json:"flow_pointer"`
	ID            string `json:"id"`
	Name          string `json:"name"`
	ComponentType string `json:"component_type"`
	Kind          string `json:"kind"`
	Pointer       string `json:"pointer"`
	Line          int    `json:"line"`
	Column        int    `json:"column"`

	Model        Model         `json:"model"`
	System       System        `json:"system"`
	Templates    []Template    `json:"templates"`
	Placeholders []Placeholder `json:"placeholders"`
	Skill        *Skill        `json:"skill,omitempty"`
	Tools        *Tools        `json:"tools,omitempty"`
	Preview      Preview       `json:"preview"`
	Tokens       Tokens        `json:"tokens"`
	Buckets      StepBuckets   `json:"buckets"`

	// PlaceholdersOmitted is how many placeholders a face left out of
	// Placeholders to bound its output (oastui prompts --format json keeps
	// the first promptsMaxJSONPlaceholders); 0 when the list is whole.
	PlaceholdersOmitted int `json:"placeholders_omitted,omitempty"`
}

// Model is the node's model and what is known of it.
type Model struct {
	Provider string `json:"provider,omitempty"`
	ID       string `json:"id,omitempty"`
	Source   string `json:"source"`           // where it was read: data.cinatra_llm, metadata.cinatra.llm, llm_config, or "none"
	Window   int    `json:"window,omitempty"` // context window, tokens (0: unknown)
	// WindowSource cites the window.
	WindowSource string `json:"window_source,omitempty"`
	Encoding     string `json:"encoding"` // the encoding the budget uses
	Exact        bool   `json:"exact"`    // the model's own tokenizer; else an estimate
	Capability   string `json:"capability,omitempty"`
}

// System is the system prompt actually used and the chain that chose it.
type System struct {
	Source string      `json:"source"` // the chain step used
	Chain  []ChainStep `json:"chain"`
}

// ChainStep is one step of a fallback chain.
type ChainStep struct {
	Field   string `json:"field"`
	Present bool   `json:"present"`
	Used    bool   `json:"used"`
	Note    string `json:"note,omitempty"`
}

// Template is one prompt template as written.
type Template struct {
	Role     string    `json:"role"`  // system | user
	Field    string    `json:"field"` // data.system, data.user, prompt_template, system_prompt, …
	Pointer  string    `json:"pointer,omitempty"`
	Segments []Segment `json:"segments"`

	// SegmentsOmitted is how many segments a face left out of Segments to
	// bound its output (oastui prompts --format json); 0 when whole.
	SegmentsOmitted int `json:"segments_omitted,omitempty"`
}

// Placeholder is one {{ name }} of the node's templates.
type Placeholder struct {
	Name       string     `json:"name"`
	Roles      []string   `json:"roles"` // the templates using it
	Provenance Provenance `json:"provenance"`
	Bucket     Bucket     `json:"bucket"`
	Sample     string     `json:"sample"`        // the value the preview uses
	SampleFrom string     `json:"sample_source"` // default | examples | enum | stub
	Tokens     int        `json:"tokens"`        // of Sample, in the model's encoding
}

// Provenance says where a placeholder's value comes from.
type Provenance struct {
	Kind        string `json:"kind"`
	From        string `json:"from,omitempty"` // the feeding node's id
	FromPointer string `json:"from_pointer,omitempty"`
	Output      string `json:"output,omitempty"`       // its output
	EdgePointer string `json:"edge_pointer,omitempty"` // the data edge
	Implicit    bool   `json:"implicit,omitempty"`     // by name (data_flow_connections null or absent)
	Required    bool   `json:"required,omitempty"`     // start input in metadata.cinatra.required
	Hidden      bool   `json:"hidden,omitempty"`       // start input in metadata.cinatra.hidden
	Default     string `json:"default,omitempty"`      // the default, as JSON
	HasDefault  bool   `json:"has_default,omitempty"`
	Slot        string `json:"slot,omitempty"`
	// Injected: the feeding node is the context step the WayFlow loader
	// adds at mount for a slim context slot (not in the file).
	Injected bool   `json:"injected,omitempty"`
	Rule     string `json:"rule,omitempty"` // unresolved: the rule that reports it
	Detail   string `json:"detail"`
}

// Text is the provenance in a few words, the one wording every face shows
// (`oastui prompts`, the TUI's prompt tab): "run input topic (required)",
// "edge from fetch.facts", "context slot style via context_style",
// "default \"en\"", "agent input x", "UNRESOLVED (rule)"; " by name" when
// the data flow is implicit. It holds the agent's text as it is: a face
// passes it through the one presentation function.
func (p Provenance) Text() string {
	var s string
	switch p.Kind {
	case FromStart:
		var attrs []string
		if p.Required {
			attrs = append(attrs, "required")
		}
		if p.Hidden {
			attrs = append(attrs, "hidden")
		}
		if p.HasDefault {
			attrs = append(attrs, "default "+p.Default)
		}
		s = "run input " + p.Output
		if len(attrs) > 0 {
			s += " (" + strings.Join(attrs, ", ") + ")"
		}
	case FromEdge:
		s = "edge from " + p.From + "." + p.Output
	case FromSlot:
		s = "context slot " + p.Slot + " via " + p.From
		if p.Injected {
			s += " (added by the loader at mount)"
		}
	case FromDefault:
		s = "default " + p.Default
	case FromAgentInput:
		s = "agent input " + p.Output
	default:
		s = "UNRESOLVED"
		if p.Rule != "" {
			s += " (" + p.Rule + ")"
		}
	}
	if p.Implicit {
		s += " by name"
	}
	return s
}

// Skill is the SKILL.md the llm-bridge discovers for the node's agent_id.
type Skill struct {
	Path      string `json:"path"`      // relative to the package
	Status    string `json:"status"`    // found | missing | other_package | unresolved
	Placement string `json:"placement"` // tool (mounted as a skill tool) | system (prepended: Gemini media_input)
	Tokens    int    `json:"tokens,omitempty"`
	Note      string `json:"note"`
}

// Tools are the tool and toolbox schemas a node exposes to the model.
type Tools struct {
	Names     []string `json:"names"`
	Toolboxes []string `json:"toolboxes,omitempty"` // served at run time: schemas unknown here
	Tokens    int      `json:"tokens"`
}

// Preview is the prompt rendered on sample values.
type Preview struct {
	System string `json:"system"`
	User   string `json:"user"`
}

// Tokens are the node's counts.
type Tokens struct {
	Static  Counts `json:"static"`  // the templates' literal text (system + user), per encoding
	Preview Counts `json:"preview"` // the rendered preview, per encoding
	// WindowShare is the static prompt's share of the model's window (0 when unknown).
	WindowShare float64 `json:"window_share"`
}

// BucketTokens is a token count per bucket.
type BucketTokens map[Bucket]int

// StepBuckets are one step's tokens by bucket: Static is what is known
// before the run (literal text, defaults, SKILL.md, schemas, slot
// minItems × the assumed artifact size); Estimate adds the sample values
// of everything else (stubs) and slot maxItems.
type StepBuckets struct {
	Static   BucketTokens `json:"static"`
	Estimate BucketTokens `json:"estimate"`
}

// StepBudget is one row of the budget table.
type StepBudget struct {
	Order    int          `json:"order"`
	Step     int          `json:"step,omitempty"`
	Node     string       `json:"node"`
	Flow     string       `json:"flow"`
	Pointer  string       `json:"pointer"`
	Encoding string       `json:"encoding"`
	Static   BucketTokens `json:"static"`
	Estimate BucketTokens `json:"estimate"`
	Total    int          `json:"total"` // estimate, every bucket
}

// Exceeded is a bucket whose static estimate is over its budget at a step.
type Exceeded struct {
	Bucket  Bucket `json:"bucket"`
	Order   int    `json:"order"`
	Step    int    `json:"step,omitempty"`
	Node    string `json:"node"`
	Pointer string `json:"pointer"`
	Tokens  int    `json:"tokens"`
	Budget  int    `json:"budget"`
}

// Node is the node at pointer, or nil.
func (r *Report) Node(pointer string) *NodePrompt {
	if r == nil {
		return nil
	}
	for _, n := range r.Nodes {
		if n.Pointer == pointer {
			return n
		}
	}
	return nil
}

// notes every report carries: what is an estimate.
var reportNotes = []string{
	"Token counts are tiktoken BPE counts (o200k_base, cl100k_base); for non-OpenAI models they estimate the model's own tokenizer.",
	"Preview values are samples (input default, examples or enum, else a typed stub <type:name>): evidence, session and memory counts are estimates.",
	"Business = context-slot artifacts: maxItems (static: minItems) × artifact_tokens, an assumption.",
	"Bridge calls are stateless (the llm-bridge receives only system and user): their memory bucket is 0. Agent Spec steps of one Flow share its conversation: memory = the earlier steps' prompts (model outputs not counted).",
	"A SKILL.md is mounted by the llm-bridge as a skill tool the model reads through a tool call (tool bucket), except Gemini media_input, where it is prepended to the system prompt (policy).",
}

// Build builds the report of one agent. It never fails: a tokenizer that
// cannot be built leaves the counts at 0 and Report.Err set.
func Build(in Input) *Report {
	r := &Report{SchemaVersion: SchemaVersion, Encodings: Encodings, Budget: in.Budget.normalized(),
		Example: ExampleBudget(),
		Nodes:   []*NodePrompt{}, Steps: []StepBudget{}, Totals: BucketTokens{}, Exceeded: []Exceeded{}, Notes: reportNotes}
	a := in.Agent
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return r
	}
	r.File = a.FlowPath
	b := &builder{a: a, in: in, r: r, graphs: map[string]*flowgraph.Graph{}, toolJSON: map[*Tools]string{}}
	b.collect()
	if in.BudgetOnly {
		b.memBytes = memoryBytes(r.Nodes)
	}
	for _, n := range r.Nodes {
		b.measure(n)
	}
	b.budget()
	return r
}

type builder struct {
	a      *compile.Agent
	in     Input
	r      *Report
	graphs map[string]*flowgraph.Graph
	flows  map[string]*compile.Flow
	err    error
	// toolJSON holds the tool schemas of a node's Tools, counted in measure.
	toolJSON map[*Tools]string
	// Budget-only builds: the bound of any step's memory, and the steps
	// whose prompts it let go uncounted so far.
	memBytes  int
	uncounted []uncountedPolicy
	// outputs indexes each graph's node outputs by title (producers),
	// starts each StartNode's inputs and lists (startIndexOf).
	outputs map[*flowgraph.Graph]map[string][]producer
	starts  map[*compile.Node]*startIndex
}

func (b *builder) count(enc, text string) int {
	n, err := Count(enc, text)
	if err != nil && b.err == nil {
		b.err = err
		b.r.Err = err.Error()
	}
	return n
}

func (b *builder) countAll(enc0, text string) Counts {
	out := Counts{}
	if b.in.BudgetOnly {
		out[enc0] = b.count(enc0, text)
		return out
	}
	for _, enc := range Encodings {
		out[enc] = b.count(enc, text)
	}
	return out
}

// nodeComponent is the object graph node gn's Pointer names in a's flow
// file (nil when it has none): the graph's own (Component), looked up by
// pointer only for a node the graph did not resolve (the builder looked up
// every node of every flow again).
func nodeComponent(a *compile.Agent, gn *flowgraph.Node) *compile.Node {
	if gn.Pointer == "" {
		return nil
	}
	if c := gn.Component(); c != nil {
		return c
	}
	return a.Flow.Lookup(gn.Pointer)
}

// collect lists the LLM-bearing nodes in run order: the top-level Flow in
// the compiler's BFS order, each FlowNode's subflow entered where the
// FlowNode runs; Flows not reached that way follow, in document order.
func (b *builder) collect() {
	root := b.a.Flow.Root
	b.flows = map[string]*compile.Flow{}
	flows := b.a.Flows()
	for _, f := range flows {
		b.flows[f.Pointer] = f
	}
	if compile.ComponentType(root) == "Agent" {
		b.addAgent(root, "", nil, nil, nil, nil, 0)
	}
	done := map[string]bool{}
	var walk func(f *compile.Flow, step int)
	walk = func(f *compile.Flow, step int) {
		if done[f.Pointer] {
			return
		}
		done[f.Pointer] = true
		var g *flowgraph.Graph
		var err error
		if b.in.Graph != nil {
			g, err = b.in.Graph(f.Pointer)
		} else {
			g, err = flowgraph.Build(b.a, f.Pointer)
		}
		if err != nil || g == nil {
			return
		}
		b.graphs[f.Pointer] = g
		nodes := append([]*flowgraph.Node(nil), g.Nodes...)
		sort.SliceStable(nodes, func(i, j int) bool { return nodes[i].BFS < nodes[j].BFS })
		// the last child flow gone to: walking it again does nothing (it
		// is done, or names no Flow), and the FlowNodes sharing a subflow
		// come one after another
		last, walked := "", false
		for _, gn := range nodes {
			s := step
			if f.Parent == nil && gn.Step > 0 {
				s = gn.Step
			}
			b.addNode(f, g, gn, nodeComponent(b.a, gn), s)
			for _, sp := range gn.Subflows {
				if walked && sp == last {
					continue
				}
				if sf := b.flows[sp]; sf != nil {
					walk(sf, s)
				}
				last, walked = sp, true
			}
		}
	}
	for _, f := range flows {
		if f.Parent == nil {
			walk(f, 0)
		}
	}
	for _, f := range flows {
		walk(f, 0)
	}
	for i, n := range b.r.Nodes {
		n.Order = i + 1
	}
}

func (b *builder) addNode(f *compile.Flow, g *flowgraph.Graph, gn *flowgraph.Node, comp *compile.Node, step int) {
	if comp == nil || comp.Kind != compile.Object || !mayBear(gn, comp) {
		return
	}
	switch compile.ComponentType(comp) {
	case "ApiNode":
		if isBridge(comp.Get("url").StringOr("")) {
			b.addBridge(f, g, gn, comp, step)
		}
	case "LlmNode":
		n := b.newNode(f, gn, comp, KindLlmNode, step)
		n.Model = b.llmConfigModel(f, comp.Get("llm_config"), gn.Pointer)
		n.System = System{Source: "none", Chain: []ChainStep{{Field: "(none)", Used: true,
			Note: "an Agent Spec LlmNode has no system prompt: prompt_template is the whole prompt"}}}
		n.Templates = []Template{b.template("user", "prompt_template", comp, gn.Pointer)}
		b.provenance(n, f, g, gn, comp)
		b.r.Nodes = append(b.r.Nodes, n)
	case "AgentNode":
		r := f.Resolve(comp.Get("agent"), compile.Append(gn.Pointer, "agent"), b.a.RegistryComponents())
		if r.Node == nil || compile.ComponentType(r.Node) != "Agent" {
			return
		}
		b.addAgent(r.Node, r.Pointer, f, g, gn, comp, step)
	}
}

// mayBear says node gn, whose component is comp, may be one addNode reads
// (an ApiNode, LlmNode or AgentNode): the graph's kind of the node says no
// without reading the component's type again when comp is the graph's own
// component (the kind is KindOf its type, and each of the three types has
// its own kind).
func mayBear(gn *flowgraph.Node, comp *compile.Node) bool {
	if gn.Component() != comp {
		return true
	}
	switch gn.Kind {
	case flowgraph.KindAPI, flowgraph.KindLLM, flowgraph.KindAgent:
		return true
	}
	return false
}

// isBridge is the compiler's targetsLlmBridge (reference cinatra.md §4):
// the URL equals {{CINATRA_BASE_URL}}/api/llm-bridge or /api/llm-bridge,
// or ends with /api/llm-bridge.
func isBridge(url string) bool { return strings.HasSuffix(strings.TrimSpace(url), "/api/llm-bridge") }

func (b *builder) newNode(f *compile.Flow, gn *flowgraph.Node, comp *compile.Node, kind string, step int) *NodePrompt {
	n := &NodePrompt{Step: step, Kind: kind, ComponentType: compile.ComponentType(comp)}
	if f != nil {
		n.Flow, n.FlowPointer = f.ID(), f.Pointer
	}
	if gn != nil {
		n.ID, n.Pointer = gn.ID, gn.Pointer
	}
	if n.ID == "" {
		n.ID = comp.Get("id").StringOr("")
	}
	n.Name = comp.Get("name").StringOr(n.ID)
	n.Line, n.Column = b.a.Flow.PointerPosition(n.Pointer)
	return n
}

// template reads a string template field of comp.
func (b *builder) template(role, field string, comp *compile.Node, ptr string) Template {
	parts := strings.Split(field, ".")
	v := comp.Path(parts...)
	t := Template{Role: role, Field: field, Segments: []Segment{}}
	if v != nil {
		t.Pointer = compile.Append(ptr, parts...)
	}
	if s, ok := v.Str(); ok {
		t.Segments = Split(s)
	}
	return t
}

// addBridge: an ApiNode posting to the llm-bridge. What its model reads
// follows src/app/api/llm-bridge/route.ts of the public fork
// marcushorndt/cinatra (reference cinatra.md, "The llm-bridge"): `user`
// is the user message; `system` is sent as given, "" when absent; the
// SKILL.md of agent_id is mounted as a skill tool, except for Gemini with
// capabilityRequired media_input, where it is the first part of the system
// text (joined to `system` by a blank line, empty parts dropped).
func (b *builder) addBridge(f *compile.Flow, g *flowgraph.Graph, gn *flowgraph.Node, comp *compile.Node, step int) {
	n := b.newNode(f, gn, comp, KindBridge, step)
	data := comp.Get("data")
	n.Model = b.bridgeModel(data)
	sys := b.template("system", "data.system", comp, gn.Pointer)
	user := b.template("user", "data.user", comp, gn.Pointer)
	_, hasSys := data.Get("system").Str()
	n.Skill = b.skill(data)
	mediaInput := n.Model.Provider == "gemini" && n.Model.Capability == "media_input"
	if mediaInput {
		n.Skill.Placement = "system"
	}
	n.System = System{Chain: []ChainStep{
		{Field: "SKILL.md first (Gemini with capabilityRequired media_input only)", Present: mediaInput && n.Skill.Status == "found", Used: mediaInput && n.Skill.Status == "found"},
		{Field: "data.system", Present: hasSys, Used: hasSys},
		{Field: `"" (the bridge's default when system is absent)`, Present: true, Used: !hasSys && !(mediaInput && n.Skill.Status == "found")},
	}}
	switch {
	case hasSys && mediaInput && n.Skill.Status == "found":
		n.System.Source = "SKILL.md + data.system"
	case hasSys:
		n.System.Source = "data.system"
	case mediaInput && n.Skill.Status == "found":
		n.System.Source = "SKILL.md"
	default:
		n.System.Source = `""`
	}
	n.Templates = []Template{sys, user}
	b.provenance(n, f, g, gn, comp)
	b.r.Nodes = append(b.r.Nodes, n)
}

// bridgeModel: data.cinatra_llm, else the root metadata.cinatra.llm the
// compiler injects into bridge nodes that have none (reference cinatra.md
// §11.11, oas-compiler-llm-injection: an existing cinatra_llm wins).
func (b *builder) bridgeModel(data *compile.Node) Model {
	m := Model{Source: "none"}
	llm := data.Get("cinatra_llm")
	if llm.Is(compile.Object) {
		m.Source = "data.cinatra_llm"
	} else if root := b.a.Flow.Root.Path("metadata", "cinatra", "llm"); root.Is(compile.Object) {
		llm, m.Source = root, "metadata.cinatra.llm (injected by the compiler)"
	}
	m.Provider = llm.Get("preferredProvider").StringOr("")
	m.ID = llm.Get("preferredModel").StringOr("")
	m.Capability = llm.Get("capabilityRequired").StringOr("")
	return withModelInfo(m)
}

func withModelInfo(m Model) Model {
	info := LookupModel(m.ID)
	if m.ID == "" {
		info = ModelInfo{Encoding: O200K}
	}
	m.Window, m.WindowSource, m.Encoding, m.Exact = info.Window, info.Source, info.Encoding, info.Exact
	return m
}

// llmConfigModel: an Agent Spec llm_config (inline or a reference).
func (b *builder) llmConfigModel(f *compile.Flow, cfg *compile.Node, ptr string) Model {
	m := Model{Source: "none"}
	if cfg != nil && f != nil {
		cfg = f.Resolve(cfg, ptr, b.a.RegistryComponents()).Node
	} else if id, ok := compile.RefID(cfg); ok {
		cfg = b.a.Flow.Root.Path("$referenced_components", id)
	}
	if id, ok := cfg.Get("model_id").Str(); ok {
		m.ID, m.Source = id, "llm_config.model_id"
		m.Provider = strings.TrimSuffix(strings.ToLower(compile.ComponentType(cfg)), "config")
	}
	return withModelInfo(m)
}

// skill finds the SKILL.md the bridge would discover for data.agent_id:
// an explicit skill_source_path, else
// <installDir>/cinatra-ai/<agent_id>/skills/<agent_id>/SKILL.md, else
// <installDir>/<agent_id>/skills/<agent_id>/SKILL.md. A package directory
// named agent_id stands for <installDir>/[cinatra-ai/]<agent_id>.
func (b *builder) skill(data *compile.Node) *Skill {
	s := &Skill{Placement: "tool"}
	id, _ := data.Get("agent_id").Str()
	rel := ""
	if p, ok := data.Get("skill_source_path").Str(); ok && strings.HasSuffix(p, "SKILL.md") {
		rel = strings.TrimPrefix(path.Clean(filepath.ToSlash(p)), "./")
	}
	switch {
	case rel == "" && (id == "" || strings.Contains(id, "{{")):
		s.Status = "unresolved"
		s.Note = "agent_id is missing or a template: the bridge's SKILL.md cannot be known before the run"
		return s
	case rel == "":
		rel = "skills/" + id + "/SKILL.md"
	}
	s.Path = rel
	if b.a.Dir == "" || (id != "" && !b.ownAgentID(id) && !strings.HasPrefix(rel, "skills/")) {
		s.Status = "other_package"
		s.Note = "the bridge looks for it in the package of agent " + id + ", which is not this one"
		return s
	}
	if id != "" && !b.ownAgentID(id) && data.Get("skill_source_path") == nil {
		s.Status = "other_package"
		s.Note = "agent_id " + id + " names another package (the bridge looks under <installDir>/cinatra-ai/" + id + "/); not read"
		return s
	}
	if b.a.Siblings != nil {
		for _, f := range b.a.Siblings.Files {
			if f.Rel == rel && f.Data != nil {
				s.Status = "found"
				s.Note = "mounted as a skill tool the model reads through a tool call"
				s.Tokens = -1 // counted in measure
				return s
			}
		}
	}
	s.Status = "missing"
	s.Note = "no " + rel + " in the package: the bridge mounts no skill (the agent's assigned skills may still be added at run time)"
	return s
}

// ownAgentID: agent_id names the package being reviewed: its directory
// (agents/<vendor>/<slug>, as the corpus writes agent_id), its package.json
// name, or that name without its scope (what the agent_id fix writes).
func (b *builder) ownAgentID(id string) bool {
	name := b.a.PackageName()
	slug := name[strings.LastIndexByte(name, '/')+1:]
	return id == filepath.Base(b.a.Dir) || (name != "" && (id == name || id == slug))
}

func (b *builder) skillText(s *Skill) string {
	if s == nil || s.Status != "found" || b.a.Siblings == nil {
		return ""
	}
	for _, f := range b.a.Siblings.Files {
		if f.Rel == s.Path {
			return string(f.Data)
		}
	}
	return ""
}

// addAgent: an Agent (at the root, or the agent of an AgentNode). The
// system prompt follows the CrewX field priority chain (seed 004, "Field
// Priority Chain") mapped onto Agent Spec fields: metadata.cinatra.prompt
// (CrewX agent.inline.prompt), system_prompt (inline.system_prompt), the
// compiled agent's prompt (agent.systemPrompt; reference cinatra.md §11.9:
// the first AgentNode whose Agent resolves locally with a string
// system_prompt), description (agent.description), then the generated
// "You are an expert <id>.".
func (b *builder) addAgent(agent *compile.Node, agentPtr string, f *compile.Flow, g *flowgraph.Graph, gn *flowgraph.Node, comp *compile.Node, step int) {
	kind := KindAgent
	if gn != nil {
		kind = KindAgentNode
	}
	host := agent
	if comp != nil {
		host = comp
	}
	n := b.newNode(f, gn, host, kind, step)
	if gn == nil {
		n.ID = agent.Get("id").StringOr(agent.Get("name").StringOr("agent"))
		n.Name = agent.Get("name").StringOr(n.ID)
		n.Pointer = agentPtr
		n.Line, n.Column = b.a.Flow.PointerPosition(agentPtr)
	}
	n.Model = b.llmConfigModel(f, agent.Get("llm_config"), agentPtr)
	if f == nil {
		if id, ok := compile.RefID(agent.Get("llm_config")); ok {
			n.Model = withModelInfo(modelOf(b.a.Flow.Root.Path("$referenced_components", id), n.Model))
		} else {
			n.Model = withModelInfo(modelOf(agent.Get("llm_config"), n.Model))
		}
	}
	metaPrompt, hasMeta := agent.Path("metadata", "cinatra", "prompt").Str()
	sysPrompt, hasSys := agent.Get("system_prompt").Str()
	desc, hasDesc := agent.Get("description").Str()
	hasCompiled := b.in.CompiledPrompt != nil
	id := agent.Get("id").StringOr(agent.Get("name").StringOr("agent"))
	chain := []ChainStep{
		{Field: "metadata.cinatra.prompt", Present: hasMeta && metaPrompt != ""},
		{Field: "system_prompt", Present: hasSys && sysPrompt != ""},
		{Field: "compiled prompt (CompiledAgentOas.prompt)", Present: hasCompiled && *b.in.CompiledPrompt != ""},
		{Field: "description", Present: hasDesc && desc != ""},
		{Field: `"You are an expert ` + id + `."`, Present: true, Note: "CrewX's generated fallback"},
	}
	var t Template
	for i := range chain {
		if !chain[i].Present {
			continue
		}
		chain[i].Used = true
		n.System.Source = chain[i].Field
		switch i {
		case 0:
			t = b.template("system", "metadata.cinatra.prompt", agent, agentPtr)
		case 1:
			t = b.template("system", "system_prompt", agent, agentPtr)
		case 2:
			t = Template{Role: "system", Field: "compiled prompt", Segments: Split(*b.in.CompiledPrompt)}
		case 3:
			t = b.template("system", "description", agent, agentPtr)
		default:
			t = Template{Role: "system", Field: "generated", Segments: []Segment{{Kind: SegText, Text: "You are an expert " + id + "."}}}
		}
		break
	}
	n.System.Chain = chain
	n.Templates = []Template{t}
	n.Tools = b.tools(f, agent, agentPtr)
	if f != nil && g != nil && gn != nil {
		b.provenance(n, f, g, gn, comp)
	} else {
		b.agentProvenance(n, agent)
	}
	b.r.Nodes = append(b.r.Nodes, n)
}

func modelOf(cfg *compile.Node, m Model) Model {
	if id, ok := cfg.Get("model_id").Str(); ok {
		m.ID, m.Source = id, "llm_config.model_id"
		m.Provider = strings.TrimSuffix(strings.ToLower(compile.ComponentType(cfg)), "config")
	}
	return m
}

// tools: the Agent's tools (their name, description and inputs, as JSON,
// stand for the schema the model is shown) and toolboxes (served at run
// time: their schemas are not in the file).
func (b *builder) tools(f *compile.Flow, agent *compile.Node, ptr string) *Tools {
	t := &Tools{Names: []string{}}
	resolve := func(n *compile.Node, p string) *compile.Node {
		if f != nil {
			return f.Resolve(n, p, b.a.RegistryComponents()).Node
		}
		if id, ok := compile.RefID(n); ok {
			return b.a.Flow.Root.Path("$referenced_components", id)
		}
		return n
	}
	var schemas []any
	if tl := agent.Get("tools"); tl.Is(compile.Array) {
		for i, it := range tl.Items {
			c := resolve(it, compile.AppendIndex(compile.Append(ptr, "tools"), i))
			if c == nil {
				continue
			}
			name := c.Get("name").StringOr("")
			t.Names = append(t.Names, name)
			schemas = append(schemas, map[string]any{"name": name, "description": c.Get("description").Interface(),
				"parameters": c.Get("inputs").Interface()})
		}
	}
	if tb := agent.Get("toolboxes"); tb.Is(compile.Array) {
		for i, it := range tb.Items {
			c := resolve(it, compile.AppendIndex(compile.Append(ptr, "toolboxes"), i))
			if c != nil {
				t.Toolboxes = append(t.Toolboxes, c.Get("name").StringOr(c.Get("id").StringOr("")))
			}
		}
	}
	if len(schemas) > 0 {
		js, _ := json.Marshal(schemas)
		t.Tokens = -1
		t.Names = append(t.Names[:0:0], t.Names...)
		b.toolJSON[t] = string(js)
	}
	if len(t.Names) == 0 && len(t.Toolboxes) == 0 {
		return nil
	}
	return t
}

// sample is the preview value of a property schema: its default, else its
// first example, else its first enum value, else a typed stub.
func sample(schema *compile.Node, name string) (string, string) {
	if d := schema.Get("default"); d != nil {
		return valueText(d), "default"
	}
	for _, src := range []*compile.Node{schema, schema.Get("json_schema")} {
		if ex := src.Get("examples"); ex.Is(compile.Array) && len(ex.Items) > 0 {
			return valueText(ex.Items[0]), "examples"
		}
		if ex := src.Get("enum"); ex.Is(compile.Array) && len(ex.Items) > 0 {
			return valueText(ex.Items[0]), "enum"
		}
	}
	typ := schema.Get("type").StringOr("")
	if typ == "" {
		typ = "any"
	}
	return fmt.Sprintf("<%s:%s>", typ, name), "stub"
}

// valueText is how a value appears in a rendered template: a string as
// it is, anything else as JSON.
func valueText(v *compile.Node) string {
	if s, ok := v.Str(); ok {
		return s
	}
	js, err := json.Marshal(v.Interface())
	if err != nil {
		return ""
	}
	return string(js)
}

func propByTitle(arr *compile.Node, title string) *compile.Node {
	if !arr.Is(compile.Array) {
		return nil
	}
	for _, p := range arr.Items {
		if p.Get("title").StringOr("") == title {
			return p
		}
	}
	return nil
}
