package mcpserver

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
	"github.com/oastui/oastui/slots"
)

// maxSource bounds inline JSON, as loading bounds a file (16 MiB).
const maxSource = 16 << 20

// inlineName is the file an inline source without a path is reviewed as:
// a bare flow file in the first root (it need not exist; nothing is written).
const inlineName = "inline-source.json"

func (s *Server) addTools() {
	addTool(s, "agent_source_review", "Review an agent",
		"Review an OAS Flow agent (a package directory agents/<vendor>/<slug>, a flow file, or inline JSON) "+
			"with oastui's rules: every finding with file, line, column and JSON Pointer, the severity buckets, "+
			"the automatic fixes on offer (ids for agent_fix) and whether the compile gate blocks. "+
			"The findings are the objects of `oastui lint --format json`.", true, s.review)
	addTool(s, "agent_compile", "Compile an agent",
		"Compile an agent to CompiledAgentOas as `oastui compile` does: {\"ok\":true,\"value\":…}, "+
			"{\"ok\":false,\"error\":\"…\"}, or the review gate's {\"ok\":false,\"code\":\"review_blocked\",\"blockers\":[…]}.", true, s.compile)
	addTool(s, "agent_graph", "Draw an agent's flow graph",
		"The control-flow graph of an agent's top-level flow (or the nested Flow named by flow): nodes with the "+
			"compiler's step numbers and finding counts, control and data edges, the BFS order the compiler numbers "+
			"steps in, and the text drawing `oastui graph` prints.", true, s.graph)
	addTool(s, "agent_fix", "Preview or apply an automatic fix",
		"The unified diff of an automatic fix, chosen by a finding's fingerprint or fix id (agent_source_review "+
			"lists them), by rule code (every finding of that code) or \"all\" (as `oastui lint --diff`). "+
			"Nothing is written unless apply is true; then the files are written atomically, and refused "+
			"when one changed on disk since it was read.", false, s.fix)
	addTool(s, "context_resolve", "Resolve a context slot",
		"Resolve an agent's context slot against the dev artifact catalog as the platform's context_resolve "+
			"does (`oastui resolve`): {slotId, resolutionMode, refs}, and why it is empty when it is.", true, s.resolve)
	s.addDiffTool() // diff.go
}

// Input is the agent a tool reads: a path, inline JSON, or both.
type Input struct {
	Path   string `json:"path,omitempty" jsonschema:"the agent: a package directory (agents/<vendor>/<slug>) or a flow file; relative to the first workspace root, or absolute inside a root. With source: the file the inline JSON stands for (it need not exist)"`
	Source string `json:"source,omitempty" jsonschema:"inline flow JSON (e.g. an unsaved buffer) analysed instead of the file on disk; without path it is a bare flow file with no package"`
}

// confine is the one confinement of every tool (issue 35, point 1): the
// load options every analysis of a call runs with (the server's registry;
// no file read, from the disk or a git revision, whose path lies outside
// the workspace roots, symlinks resolved) and the check of the config in
// force (refused outside the roots, as analysis refuses it for loading).
func (s *Server) confine(c *call) compile.LoadOptions {
	return compile.LoadOptions{RegistryPath: s.registry, Allow: c.allow}
}

// confineConfig refuses a config file outside the roots (an .oastui.yaml
// above a one-agent root, or a symlink out of them).
func (c *call) confineConfig(path string) error {
	if path == "" {
		return nil
	}
	if err := compile.CheckAllowed(path, c.allow); err != nil {
		return c.refusal()
	}
	if !c.roots.ContainsFile(path) {
		abs, _ := filepath.Abs(path)
		_ = c.allow(abs)
		return c.refusal()
	}
	return nil
}

// target resolves an Input to the path to analyse and the load options.
func (s *Server) target(c *call, src Input) (string, compile.LoadOptions, error) {
	lo := s.confine(c)
	if src.Source == "" {
		if src.Path == "" {
			return "", lo, errors.New("path is required (or source with inline JSON)")
		}
		p, err := c.roots.Resolve(src.Path)
		return p, lo, err
	}
	if len(src.Source) > maxSource {
		return "", lo, fmt.Errorf("source is %d bytes; the limit is %d", len(src.Source), maxSource)
	}
	if src.Path == "" {
		if len(c.roots.Dirs) == 0 {
			return "", lo, ErrOutsideRoots
		}
		p := filepath.Join(c.roots.Dirs[0], inlineName)
		lo.Overlay, lo.Bare = map[string][]byte{p: []byte(src.Source)}, true
		return p, lo, nil
	}
	p, err := c.roots.Resolve(src.Path)
	if err != nil {
		return "", lo, err
	}
	flow := p
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		flow = filepath.Join(p, compile.FlowCandidates[0])
		for _, rel := range compile.FlowCandidates {
			if st, err := os.Stat(filepath.Join(p, rel)); err == nil && st.Mode().IsRegular() {
				flow = filepath.Join(p, rel)
				break
			}
		}
	}
	lo.Overlay = map[string][]byte{flow: []byte(src.Source)}
	return p, lo, nil
}

// analyse runs the engine's pipeline over the input; a path that holds
// no agent or a config that does not load is the call's error, as they are
// usage errors (exit 2) of the CLI.
func (s *Server) analyse(c *call, src Input, mode lint.Mode, stages analysis.Stages) (*analysis.Snapshot, error) {
	p, lo, err := s.target(c, src)
	if err != nil {
		return nil, err
	}
	snap := analysis.Run(p, analysis.Options{Mode: mode, Stages: stages, Load: lo})
	if err := c.refusal(); err != nil {
		return nil, err
	}
	if snap.LoadErr != nil {
		return nil, snap.LoadErr
	}
	if snap.Config.Err != nil {
		return nil, fmt.Errorf("config: %w", snap.Config.Err)
	}
	for _, f := range snap.Review.Findings {
		if f.Code == lint.RuleInternalError.Code {
			return nil, errors.New(f.Message)
		}
	}
	return snap, nil
}

// rootOf is the root fingerprints of p are relative to, as in `oastui
// lint`'s SARIF and baselines: the repository root (report.FindRoot, the
// nearest directory holding .git), else the workspace root holding p.
func (c *call) rootOf(p string) string {
	if r := report.FindRoot(p); r != "" {
		return r
	}
	abs, _ := filepath.Abs(p)
	for _, d := range c.roots.Dirs {
		if within(abs, d) {
			return d
		}
	}
	if len(c.roots.Dirs) > 0 {
		return c.roots.Dirs[0]
	}
	return ""
}

// ---- agent_source_review

// ReviewInput is agent_source_review's input.
type ReviewInput struct {
	Input
	Mode string `json:"mode,omitempty" jsonschema:"review mode: deterministic (the default; what the compile gate counts), advisory, or full (advisory plus the dry run's dryrun_* findings)"`
}

// ReviewOutput is the review: the `oastui lint --format json` document of
// the agent (schemaVersion, findings, summary) and what else a face shows.
type ReviewOutput struct {
	report.JSONReport
	File    string     `json:"file" jsonschema:"the flow file reviewed"`
	Mode    string     `json:"mode" jsonschema:"the review mode used"`
	Buckets Buckets    `json:"buckets" jsonschema:"the findings by severity, as indexes into findings"`
	Fixes   []FixOffer `json:"fixes" jsonschema:"the automatic fixes on offer, one per finding that has one (agent_fix takes the id or the fingerprint)"`
	Gate    Gate       `json:"gate" jsonschema:"the compile/publish gate: the deterministic review's blockers stop agent_compile"`
	Config  string     `json:"config,omitempty" jsonschema:"the .oastui.yaml in force (\"\" for the defaults)"`
	Notices []string   `json:"notices,omitempty" jsonschema:"what the config turns off (security rules off with their reasons), as oastui lint prints on stderr"`
}

// Buckets are the review's severity buckets as indexes into the findings.
type Buckets struct {
	Blockers    []int `json:"blockers"`
	Warnings    []int `json:"warnings"`
	Suggestions []int `json:"suggestions"`
}

// FixOffer is a finding's first automatic fix.
type FixOffer struct {
	Finding     int    `json:"finding" jsonschema:"index of the finding in findings"`
	ID          string `json:"id" jsonschema:"file:line:col code, as oastui lint --fix names it"`
	Fingerprint string `json:"fingerprint" jsonschema:"the finding's stable fingerprint (SARIF oastui/v3, baselines; relative to the repository root)"`
	Code        string `json:"code"`
	Title       string `json:"title" jsonschema:"what the fix does"`
	Tier        string `json:"tier" jsonschema:"safe, unsafe or dangerous: what the fix may change (docs/fixes.md); fix all applies safe fixes only"`
	// Alternatives are the titles of the finding's other fixes (agent_fix
	// picks one with choice: 1 is the first of them).
	Alternatives []string `json:"alternatives,omitempty" jsonschema:"the titles of the finding's other fixes, choice 1, 2, … of agent_fix"`
}

// Gate is the compile gate over the agent.
type Gate struct {
	Blocked  bool             `json:"blocked"`
	Response *lint.GateResult `json:"response,omitempty" jsonschema:"the review_blocked response agent_compile returns when blocked"`
}

func parseMode(m string) (lint.Mode, error) {
	if m == "" {
		return lint.ModeDeterministic, nil
	}
	if mode, ok := lint.ParseMode(m); ok {
		return mode, nil
	}
	return "", proseErr("mode must be deterministic, advisory or full (got %q)", m)
}

func (s *Server) review(_ context.Context, c *call, in ReviewInput) (ReviewOutput, string, error) {
	mode, err := parseMode(in.Mode)
	if err != nil {
		return ReviewOutput{}, "", err
	}
	snap, err := s.analyse(c, in.Input, mode, analysis.ReviewOnly)
	if err != nil {
		return ReviewOutput{}, "", err
	}
	fs := report.Mask(snap.Review.Findings)
	out := ReviewOutput{JSONReport: report.NewJSONReport(fs, 1), File: snap.FlowFile(), Mode: string(snap.Mode),
		Buckets: Buckets{Blockers: []int{}, Warnings: []int{}, Suggestions: []int{}}, Fixes: []FixOffer{}}
	out.Config = snap.Config.Path
	if snap.Config.Config != nil {
		out.Notices = snap.Config.Config.Notices()
	}
	root := c.rootOf(snap.FlowFile())
	for i, f := range out.Findings {
		switch f.Severity {
		case compile.Blocker:
			out.Buckets.Blockers = append(out.Buckets.Blockers, i)
		case compile.Warning:
			out.Buckets.Warnings = append(out.Buckets.Warnings, i)
		default:
			out.Buckets.Suggestions = append(out.Buckets.Suggestions, i)
		}
		if len(f.Fixes) > 0 {
			offer := FixOffer{Finding: i, ID: analysis.FixID(f), Fingerprint: report.Fingerprint(f, root),
				Code: f.Code, Title: f.Fixes[0].Title, Tier: string(f.Fixes[0].Tier)}
			for _, alt := range f.Fixes[1:] {
				offer.Alternatives = append(offer.Alternatives, alt.Title)
			}
			out.Fixes = append(out.Fixes, offer)
		}
	}
	if r := snap.Gate().Response(); r != nil {
		out.Gate = Gate{Blocked: true, Response: r}
	}
	return out, "", nil
}

// ---- agent_compile

// CompileInput is agent_compile's input.
type CompileInput struct {
	Input
}

// CompileOutput is the {"ok":…} document of `oastui compile` (its text
// content is the document byte for byte).
type CompileOutput struct {
	OK       bool           `json:"ok"`
	Value    any            `json:"value,omitempty" jsonschema:"the CompiledAgentOas when ok"`
	Error    string         `json:"error,omitempty" jsonschema:"why it did not compile"`
	Code     string         `json:"code,omitempty" jsonschema:"review_blocked when deterministic blockers stop compilation"`
	Blockers []lint.Finding `json:"blockers,omitempty" jsonschema:"the blockers that stop compilation"`
}

func (s *Server) compile(_ context.Context, c *call, in CompileInput) (CompileOutput, string, error) {
	snap, err := s.analyse(c, in.Input, lint.ModeDeterministic, analysis.StageCompile)
	if err != nil {
		return CompileOutput{}, "", err
	}
	if r := snap.Gate().Response(); r != nil { // the gate of `oastui compile` (its reviewGate)
		return CompileOutput{OK: false, Error: r.Error, Code: r.Code, Blockers: r.Blockers}, string(r.JSON()) + "\n", nil
	}
	doc, _, err := snap.CompileDocument()
	if err != nil {
		return CompileOutput{}, "", err
	}
	var out CompileOutput
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	if err := dec.Decode(&out); err != nil {
		return CompileOutput{}, "", fmt.Errorf("compile result: %w", err)
	}
	return out, string(doc), nil
}

// ---- agent_graph

// GraphInput is agent_graph's input.
type GraphInput struct {
	Input
	Flow  string `json:"flow,omitempty" jsonschema:"the id (or JSON Pointer) of a nested Flow to draw instead of the top-level flow"`
	ASCII bool   `json:"ascii,omitempty" jsonschema:"draw with ASCII characters only"`
}

// GraphOutput is one flow's graph.
type GraphOutput struct {
	FlowID      string      `json:"flowId"`
	FlowName    string      `json:"flowName,omitempty"`
	FlowPointer string      `json:"flowPointer" jsonschema:"JSON Pointer of the Flow in the flow file (\"\" for the top-level flow)"`
	Start       string      `json:"start" jsonschema:"id of the start node"`
	Nodes       []GraphNode `json:"nodes"`
	Edges       []GraphEdge `json:"edges" jsonschema:"control-flow edges"`
	Data        []DataEdge  `json:"dataEdges" jsonschema:"data-flow connections"`
	Order       []string    `json:"order" jsonschema:"node ids in BFS order from the start node: the order the compiler numbers steps in"`
	Flows       []FlowRef   `json:"flows" jsonschema:"every Flow of the document, the top-level one first"`
	Drawing     string      `json:"drawing" jsonschema:"the drawing oastui graph prints"`
}

// GraphNode is a node of the graph.
type GraphNode struct {
	ID            string   `json:"id"`
	Name          string   `json:"name"`
	Kind          string   `json:"kind"`
	ComponentType string   `json:"componentType"`
	Pointer       string   `json:"pointer,omitempty"`
	BFS           int      `json:"bfs" jsonschema:"position in BFS order, 0-based"`
	Steps         []int    `json:"steps,omitempty" jsonschema:"the compiled step numbers of the node"`
	Approval      bool     `json:"approval,omitempty" jsonschema:"the node requires approval"`
	Risk          string   `json:"risk,omitempty"`
	Reachable     bool     `json:"reachable"`
	Blockers      int      `json:"blockers"`
	Warnings      int      `json:"warnings"`
	Suggestions   int      `json:"suggestions"`
	Subflows      []string `json:"subflows,omitempty" jsonschema:"JSON Pointers of the node's child Flows"`
	Injected      bool     `json:"injected,omitempty" jsonschema:"the WayFlow loader adds this step at mount (a slim context slot's context step): it is not in the file"`
}

// GraphEdge is a control-flow edge.
type GraphEdge struct {
	From    string `json:"from"`
	To      string `json:"to"`
	Branch  string `json:"branch,omitempty"`
	Back    bool   `json:"back,omitempty" jsonschema:"the edge closes a loop"`
	Pointer string `json:"pointer,omitempty"`
}

// DataEdge is a data-flow connection.
type DataEdge struct {
	From    string `json:"from"`
	Output  string `json:"output"`
	To      string `json:"to"`
	Input   string `json:"input"`
	Pointer string `json:"pointer,omitempty"`
}

// FlowRef names a Flow of the document.
type FlowRef struct {
	Pointer string `json:"pointer"`
	Name    string `json:"name"`
	Parent  string `json:"parent,omitempty"`
}

func (s *Server) graph(_ context.Context, c *call, in GraphInput) (GraphOutput, string, error) {
	snap, err := s.analyse(c, in.Input, lint.ModeDeterministic, analysis.StageGraphs|analysis.StageDrawTop)
	if err != nil {
		return GraphOutput{}, "", err
	}
	if !snap.Parsed() {
		for _, f := range snap.Review.Blockers {
			return GraphOutput{}, "", proseErr("%s:%d:%d: %s [%s]", f.File, f.Line, f.Column, f.Message, f.Code)
		}
		return GraphOutput{}, "", fmt.Errorf("%s does not parse", snap.FlowFile())
	}
	ptr := ""
	if in.Flow != "" {
		if snap.Flow(in.Flow) != nil {
			ptr = in.Flow
		} else if p, ok := flowgraph.FindFlow(snap.Agent, in.Flow); ok {
			ptr = p
		} else {
			var names []string
			for _, f := range snap.Flows {
				names = append(names, f.Name)
			}
			sort.Strings(names)
			return GraphOutput{}, "", proseErr("no Flow with id %q (flows: %s)", in.Flow, strings.Join(names, ", "))
		}
	}
	fl := snap.Flow(ptr).Drawn()
	if fl == nil || fl.Graph == nil {
		why := "no such flow"
		if fl != nil {
			why = fl.Err
		}
		return GraphOutput{}, "", fmt.Errorf("%s: %s", snap.FlowFile(), why)
	}
	g := fl.Graph
	var drawing string
	if in.ASCII || fl.Canvas == nil {
		drawing = flowgraph.Text(g, flowgraph.Options{ASCII: in.ASCII})
	} else {
		drawing = flowgraph.TextOf(g, fl.Canvas, flowgraph.Options{}) // the snapshot drew it so
	}
	out := GraphOutput{FlowID: g.FlowID, FlowName: g.FlowName, FlowPointer: g.FlowPointer, Start: g.Start,
		Nodes: []GraphNode{}, Edges: []GraphEdge{}, Data: []DataEdge{}, Order: []string{}, Flows: []FlowRef{},
		Drawing: drawing}
	order := make([]string, len(g.Nodes))
	for _, n := range g.Nodes {
		out.Nodes = append(out.Nodes, GraphNode{ID: n.ID, Name: n.Name, Kind: string(n.Kind), ComponentType: n.ComponentType,
			Pointer: n.Pointer, BFS: n.BFS, Steps: n.Steps, Approval: n.Approval, Risk: n.Risk, Reachable: n.Reachable,
			Blockers: n.Blockers, Warnings: n.Warnings, Suggestions: n.Suggestions, Subflows: n.Subflows, Injected: n.Injected})
		if n.BFS >= 0 && n.BFS < len(order) {
			order[n.BFS] = n.ID
		}
	}
	out.Order = order
	for _, e := range g.Edges {
		out.Edges = append(out.Edges, GraphEdge{From: e.From, To: e.To, Branch: e.Branch, Back: e.Back, Pointer: e.Pointer})
	}
	for _, d := range g.Data {
		out.Data = append(out.Data, DataEdge{From: d.From, Output: d.Output, To: d.To, Input: d.Input, Pointer: d.Pointer})
	}
	for _, f := range snap.Flows {
		out.Flows = append(out.Flows, FlowRef{Pointer: f.Pointer, Name: f.Name, Parent: f.Parent})
	}
	return out, "", nil
}

// ---- agent_fix

// FixInput is agent_fix's input.
type FixInput struct {
	Path  string `json:"path" jsonschema:"the agent: a package directory or a flow file, inside a workspace root"`
	Fix   string `json:"fix" jsonschema:"which fix: a finding's fingerprint or fix id (agent_source_review's fixes), a rule code (every finding of that code), or all"`
	Apply bool   `json:"apply,omitempty" jsonschema:"write the fix (default false: only the diff is returned)"`
	// Choice picks another of one finding's fixes: 0 is the first (what
	// oastui lint --fix applies), n the n-th of the review's alternatives.
	Choice int `json:"choice,omitempty" jsonschema:"which of the finding's fixes: 0 (default) the first, n the n-th alternative listed by agent_source_review; only when fix names one finding"`
	// UnsafeFixes lets a batch (all, a rule code) apply unsafe fixes too;
	// Dangerous lets the one finding named apply a dangerous fix. Without
	// them a batch applies safe fixes only and one named finding up to
	// unsafe (docs/fixes.md).
	UnsafeFixes bool `json:"unsafe_fixes,omitempty" jsonschema:"with all or a rule code: apply unsafe fixes too (they change what the platform compiles or shows)"`
	Dangerous   bool `json:"dangerous,omitempty" jsonschema:"with one named finding: allow a dangerous fix (approval, gates, riskClass); never for all or a rule code"`
}

// FixOutput is the fix's diff and what was done.
type FixOutput struct {
	Diff    string       `json:"diff" jsonschema:"the unified diff of the fixes"`
	Fixed   []string     `json:"fixed" jsonschema:"the ids of the findings the diff fixes"`
	Skipped []SkippedFix `json:"skipped" jsonschema:"fixes left out because they touch bytes another chosen fix touches (apply, then ask again)"`
	Applied bool         `json:"applied" jsonschema:"the files were written"`
	Written []string     `json:"written" jsonschema:"the files written (and move targets)"`
	// Remaining counts the findings of the agent analysed again after the
	// write (applied only).
	Remaining *report.Summary `json:"remaining,omitempty" jsonschema:"after apply: the findings left when the agent is reviewed again"`
}

// SkippedFix is a fix the batch left out, and why.
type SkippedFix struct {
	ID     string `json:"id"`
	Reason string `json:"reason"`
}

func (s *Server) fix(_ context.Context, c *call, in FixInput) (FixOutput, string, error) {
	if in.Fix == "" {
		return FixOutput{}, "", errors.New("fix is required: a fingerprint or fix id from agent_source_review, a rule code, or all")
	}
	snap, err := s.analyse(c, Input{Path: in.Path}, lint.ModeDeterministic, analysis.ReviewOnly)
	if err != nil {
		return FixOutput{}, "", err
	}
	root := c.rootOf(snap.FlowFile())
	var chosen, offered []lint.Finding
	for _, f := range snap.Review.Findings {
		if len(f.Fixes) == 0 {
			continue
		}
		offered = append(offered, f)
		if id := analysis.FixID(f); in.Fix == "all" || in.Fix == f.Code || in.Fix == id || in.Fix == c.roots.Relative(id) || in.Fix == report.Fingerprint(f, root) {
			chosen = append(chosen, f)
		}
	}
	if len(chosen) == 0 {
		if len(offered) == 0 {
			return FixOutput{}, "", proseErr("no automatic fix for %s: no finding of it has one", snap.FlowFile())
		}
		var ids []string
		for _, f := range offered {
			ids = append(ids, analysis.FixID(f))
		}
		return FixOutput{}, "", proseErr("no fix matches %q; the fixes on offer: %s", in.Fix, strings.Join(ids, "; "))
	}
	if in.Choice != 0 {
		if len(chosen) != 1 || in.Fix == "all" || in.Fix == chosen[0].Code {
			return FixOutput{}, "", fmt.Errorf("choice needs a fix that names one finding (a fingerprint or fix id); %q names %d", in.Fix, len(chosen))
		}
		f := chosen[0]
		if in.Choice < 0 || in.Choice >= len(f.Fixes) {
			return FixOutput{}, "", fmt.Errorf("choice %d: %s has %d alternative fixes", in.Choice, analysis.FixID(f), len(f.Fixes)-1)
		}
		f.Fixes = f.Fixes[in.Choice : in.Choice+1]
		chosen[0] = f
	}
	max := edit.Safe
	switch single := len(chosen) == 1 && in.Fix != "all" && in.Fix != chosen[0].Code; {
	case single && in.Dangerous:
		max = edit.Dangerous
	case in.Dangerous:
		return FixOutput{}, "", fmt.Errorf("dangerous needs a fix that names one finding (a fingerprint or fix id): dangerous fixes are never applied in a batch")
	case single || in.UnsafeFixes:
		max = edit.Unsafe
	}
	b := analysis.PlanFixes(chosen, max)
	for _, p := range b.Files() {
		if !c.roots.ContainsFile(p) {
			return FixOutput{}, "", proseErr("the fix edits %s: %w", p, ErrOutsideRoots)
		}
	}
	for _, m := range b.Moves() {
		if !c.roots.ContainsFile(m.From) || !c.roots.ContainsFile(m.To) {
			return FixOutput{}, "", proseErr("the fix moves %s to %s: %w", m.From, m.To, ErrOutsideRoots)
		}
	}
	sources := snap.Sources()
	d, err := b.Preview(sources, c.roots.Relative)
	if err != nil {
		return FixOutput{}, "", err
	}
	out := FixOutput{Diff: d, Fixed: []string{}, Skipped: []SkippedFix{}, Written: []string{}}
	held := analysis.HeldBack(chosen, max)
	for _, id := range held.Unsafe {
		out.Skipped = append(out.Skipped, SkippedFix{ID: id, Reason: "its fix is unsafe (it changes what the platform compiles or shows): name the finding, or pass unsafe_fixes"})
	}
	for _, id := range held.Dangerous {
		out.Skipped = append(out.Skipped, SkippedFix{ID: id, Reason: "its fix is dangerous (approval, gates, riskClass): name this one finding and pass dangerous"})
	}
	for _, ch := range b.Chosen {
		out.Fixed = append(out.Fixed, ch.ID)
	}
	for _, sk := range b.Skipped {
		out.Skipped = append(out.Skipped, SkippedFix{ID: sk.ID, Reason: sk.Reason})
	}
	if in.Apply && len(b.Chosen) > 0 {
		applied, err := b.Write(sources)
		if err != nil {
			if w := applied.Paths(); len(w) > 0 {
				return FixOutput{}, "", fmt.Errorf("%w (written before the failure: %s)", err, strings.Join(w, ", "))
			}
			return FixOutput{}, "", err
		}
		out.Applied = true
		out.Written = append(out.Written, applied.Paths()...)
		if again, err := s.analyse(c, Input{Path: in.Path}, lint.ModeDeterministic, analysis.ReviewOnly); err == nil {
			sum := report.Summarize(again.Review.Findings, 1)
			out.Remaining = &sum
		}
	}
	return out, "", nil
}

// ---- context_resolve

// ResolveInput is context_resolve's input.
type ResolveInput struct {
	Path    string `json:"path" jsonschema:"the agent: a package directory or a flow file, inside a workspace root"`
	Slot    string `json:"slot" jsonschema:"the slotId of the context slot (metadata.cinatra.contextSlots)"`
	Project string `json:"project,omitempty" jsonschema:"resolve inside this project (one of the catalog actor's projectIds)"`
	Catalog string `json:"catalog,omitempty" jsonschema:"the artifact catalog file, inside a workspace root (default .oastui/catalog.json at the workspace root holding agents/)"`
}

// ResolveOutput is context_resolve's result.
type ResolveOutput struct {
	analysis.Resolution
	Empty *EmptyReason `json:"empty,omitempty" jsonschema:"why there are no refs"`
}

// EmptyReason says why a slot resolved to nothing.
type EmptyReason struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (s *Server) resolve(_ context.Context, c *call, in ResolveInput) (ResolveOutput, string, error) {
	if in.Slot == "" {
		return ResolveOutput{}, "", errors.New("slot is required")
	}
	p, err := c.roots.Resolve(in.Path)
	if err != nil {
		return ResolveOutput{}, "", err
	}
	q := analysis.SlotQuery{Slot: in.Slot, Project: in.Project,
		CheckCatalog: func(cat string) error {
			if !c.roots.ContainsFile(cat) {
				return proseErr("catalog %s: %w", cat, ErrOutsideRoots)
			}
			return nil
		}}
	if in.Catalog != "" {
		if q.Catalog, err = c.roots.Resolve(in.Catalog); err != nil {
			return ResolveOutput{}, "", err
		}
	}
	snap, prep, err := analysis.PrepareSlot(p, analysis.Options{Load: s.confine(c)}, q)
	if rerr := c.refusal(); rerr != nil {
		return ResolveOutput{}, "", rerr
	}
	if err != nil {
		var se *slots.SlotError
		if errors.As(err, &se) && se.Code == "slot_missing" {
			return ResolveOutput{}, "", fmt.Errorf("%w\n%s", err, snap.SlotIDsHint())
		}
		return ResolveOutput{}, "", err
	}
	out := ResolveOutput{Resolution: analysis.ResolutionOf(prep)}
	if out.Refs == nil {
		out.Refs = []slots.Ref{}
	}
	if prep.Empty.Code != "" {
		out.Empty = &EmptyReason{Code: prep.Empty.Code, Message: prep.Empty.Message}
	}
	return out, "", nil
}
