// Package analysis is the one pipeline every face runs: it loads an agent,
// finds its config, reviews it, compiles it, lists its flow graphs and its
// context slots, and hands back one immutable Snapshot of engine types.
//
// The TUI, every subcommand, the language server and the MCP server call Run; none of them
// loads, lints or compiles on its own. This package is the only place that
// knows the order of the pipeline, resolves the config and turns a load
// failure into a finding.
package analysis

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/prompts"
)

// Stages says which parts of the pipeline to run beyond loading and the
// review (which always run). A headless lint of a thousand agents needs
// only the review; the TUI needs everything.
type Stages uint8

const (
	StageCompile Stages = 1 << iota // the compiled CompiledAgentOas
	StageGraphs                     // every Flow's graph (drawn lazily)
	StageSlots                      // the context slots and their wiring status
	StageDryRun                     // the dry run (always made in review mode full)
	StagePrompts                    // the prompt previews and the token budget (prompts.Report)
	// StagePromptText is the prompt report without token counts (templates,
	// placeholders, models; prompts.Input.BudgetOnly): what a diff compares.
	// StagePrompts wins when both are set.
	StagePromptText
	// StageDrawTop draws the top-level Flow inside Run (with StageGraphs),
	// off the face's own goroutine (the TUI). Without it every Flow is
	// drawn on first use (Flow.Drawn), and a face that prints no drawing
	// (DOT, Mermaid) reads Flow.Marked and lays nothing out.
	StageDrawTop

	ReviewOnly Stages = 0
	Everything        = StageCompile | StageGraphs | StageSlots | StageDryRun | StagePrompts | StageDrawTop
)

// Options of one analysis.
type Options struct {
	Mode   lint.Mode           // default deterministic
	Load   compile.LoadOptions // --registry, --profile
	Stages Stages

	// Config is the config already resolved (lint resolves it once for all
	// its PATHs); its Config may be nil for the defaults. When Config is
	// nil, ConfigPath (--config) is read, else the .oastui.yaml found upward
	// from the agent.
	Config     *ConfigResult
	ConfigPath string

	// DryRun are the dry run's bounds and canned outputs (Children is
	// filled in with the agent's child look-up when nil).
	DryRun dryrun.Options

	// Stop, when set, is asked between the review's checks (a language
	// server's review of a buffer changed since): once it says true, Run
	// returns as soon as the check at hand ends, its Snapshot Stopped.
	Stop func() bool

	// Agent is the agent at path already loaded with Load, by a caller
	// that had to load it to decide what path is (the TUI's entry): Run
	// analyses it instead of loading it a second time. nil: Run loads path.
	Agent *compile.Agent
}

// Snapshot is the immutable result of one analysis. Faces read it and
// nothing else; nothing mutates it after Run returns (the lazily drawn
// graphs are computed once, as a pure function of it).
type Snapshot struct {
	Path string    // the path as given
	Mode lint.Mode // the review mode used

	Agent   *compile.Agent // nil when the path could not be loaded
	LoadErr error          // why it could not be loaded (also an agent_read_failed finding)

	Config ConfigResult
	Review lint.Review

	Compiled   *compile.CompiledAgentOas // nil unless StageCompile ran and the agent compiled
	CompileErr error                     // why it did not compile (StageCompile only)

	Flows []*Flow // every Flow of the document, root first (StageGraphs)

	listed sync.Once        // the Flows listed on first use (Flow), drawn or not
	all    []*Flow          // every Flow of the document, root first
	byPtr  map[string]*Flow // flow pointer → Flow

	// DryRun is the agent walked on stub data (StageDryRun, or review mode
	// full): one exploration per snapshot, which the review's dryrun_*
	// findings and the Run tab share. nil when it was not made.
	DryRun *dryrun.Result

	// Prompts is the prompt and budget report (StagePrompts): computed once,
	// before the review, whose prompt_budget_exceeded check reads it.
	Prompts *prompts.Report

	Slots []SlotReport // the context slots with their wiring (StageSlots)
	// SlotProblem says why the slots could not be read ("" when they could).
	SlotProblem string

	// Stopped says Options.Stop stopped the review: it is partial, and no
	// face may show it.
	Stopped bool

	Started time.Time     // when the analysis started
	Took    time.Duration // how long it took
}

// Run runs the pipeline over path. It never panics: an internal failure
// becomes an internal_error blocker in the review.
func Run(path string, opts Options) (s *Snapshot) {
	start := time.Now()
	s = &Snapshot{Path: path, Mode: opts.Mode, Started: start}
	if s.Mode == "" {
		s.Mode = lint.ModeDeterministic
	}
	defer func() {
		if r := recover(); r != nil {
			s.failed("analysing", r)
		}
		s.Took = time.Since(start)
	}()

	if !s.load(path, opts) {
		return s
	}
	a := s.Agent
	if (opts.Stages&StageDryRun != 0 || s.Mode == lint.ModeFull) && a.Flow != nil && a.Flow.Root != nil {
		do := opts.DryRun
		if do.Children == nil {
			do.Children = a.FindAgent
		}
		s.DryRun = dryrun.Explore(a, do)
	}
	if opts.Stages&StageCompile != 0 {
		// Even an unparseable flow is compiled: the compiler's own error
		// ("OAS source at … is malformed JSON: …") is the reference's.
		s.compile()
	}
	// The review requires the dry run (mode full) and the prompt report
	// (prompt_budget_exceeded): they are made here, once, and handed in.
	if opts.Stages&StagePrompts != 0 {
		s.buildPrompts(false)
	} else if opts.Stages&StagePromptText != 0 && a.Flow != nil && a.Flow.Root != nil {
		s.buildPrompts(true)
	}
	budget := s.Prompts
	if budget == nil && s.Config.Config != nil && s.Config.Config.Budget.Limited() && a.Flow != nil && a.Flow.Root != nil {
		// the budget's share of the report, for the review alone: only
		// where the team set a budget (no budget, no check, no tokenizer)
		budget = prompts.Build(prompts.Input{Agent: a, BudgetOnly: true, Budget: s.Config.Config.Budget})
	}
	s.Review = lint.Run(a, lint.Options{Mode: s.Mode, Config: s.Config.Config, DryRun: s.DryRun, Prompts: budget, Stop: opts.Stop})
	if opts.Stop != nil && opts.Stop() {
		s.Stopped = true
		return s
	}
	if !s.Parsed() {
		return s
	}
	if opts.Stages&StageGraphs != 0 {
		s.listFlows(opts.Stages&StageDrawTop != 0)
	}
	if opts.Stages&StageSlots != 0 {
		s.readSlots()
	}
	return s
}

// LoadFailure is the finding of an agent that could not be loaded at all:
// the one place that turns a load error into a finding.
func LoadFailure(path string, err error) compile.Finding {
	return compile.Finding{Code: lint.RuleAgentReadFailed.Code, Severity: lint.RuleAgentReadFailed.Severity, Message: err.Error(),
		Source: compile.SourceDeterministic, File: path, Line: 1, Column: 1}
}

// load is the first stage of Run and Load: the agent at path (or
// opts.Agent, loaded before) and its config. A load error becomes the
// snapshot's one finding and load reports false.
func (s *Snapshot) load(path string, opts Options) bool {
	a, err := opts.Agent, error(nil)
	if a == nil {
		a, err = compile.Load(path, opts.Load)
	}
	if err != nil {
		s.LoadErr = err
		s.Review = onlyFinding(LoadFailure(path, err))
		return false
	}
	s.Agent = a
	s.Config = resolveConfig(opts, a)
	return true
}

// failed makes a panic recovered while doing the snapshot's work its one
// finding, an internal_error blocker that nothing passes (with the stack
// when OASTUI_DEBUG is set).
func (s *Snapshot) failed(doing string, r any) {
	msg := fmt.Sprintf("internal error while %s: %v", doing, r)
	if os.Getenv("OASTUI_DEBUG") != "" {
		msg += "\n" + string(debug.Stack())
	}
	s.Review = onlyFinding(internalError(s.FlowFile(), msg))
	s.Review.Gate = lint.Gate{Blockers: s.Review.Blockers} // nothing passes a failed review
	s.LoadErr = errors.New(msg)
}

func internalError(file, msg string) compile.Finding {
	return compile.Finding{Code: lint.RuleInternalError.Code, Severity: lint.RuleInternalError.Severity, Message: msg,
		Source: compile.SourceDeterministic, File: file, Line: 1, Column: 1}
}

func onlyFinding(f compile.Finding) lint.Review {
	return lint.Review{Findings: []compile.Finding{f}, Blockers: []compile.Finding{f}}
}

// Parsed says the flow file parsed: the graphs, steps and compiled output of
// this snapshot are meaningful. A snapshot that did not parse still carries
// findings (the parse error as a blocker).
func (s *Snapshot) Parsed() bool {
	return s != nil && s.LoadErr == nil && s.Agent != nil && s.Agent.Flow != nil && s.Agent.Flow.Root != nil
}

// FlowFile is the path of the flow file, or the given path.
func (s *Snapshot) FlowFile() string {
	if s.Agent != nil {
		return s.Agent.FlowPath
	}
	return s.Path
}

// Docs maps each file the agent read to its parsed document, for source
// excerpts (nil when nothing was loaded).
func (s *Snapshot) Docs() map[string]*compile.Doc {
	if s.Agent == nil {
		return nil
	}
	out := map[string]*compile.Doc{}
	for _, d := range s.Agent.Docs() {
		out[d.Path] = d
	}
	return out
}

// AgentName is the root flow's name (or id), or the directory name.
func (s *Snapshot) AgentName() string {
	if s.Parsed() {
		r := s.Agent.Flow.Root
		if n := r.Get("name").StringOr(""); n != "" {
			return n
		}
		if n := r.Get("id").StringOr(""); n != "" {
			return n
		}
	}
	return filepath.Base(strings.TrimSuffix(s.Path, string(filepath.Separator)))
}

// PackageVersion is "name@version" from package.json, or "".
func (s *Snapshot) PackageVersion() string {
	if s.Agent == nil || s.Agent.Package == nil || s.Agent.Package.Root == nil {
		return ""
	}
	p := s.Agent.Package.Root
	name := p.Get("name").StringOr("")
	if v := p.Get("version").StringOr(""); v != "" {
		return name + "@" + v
	}
	return name
}

// Gate is the compile/publish gate over this snapshot (SPEC §3.5): the
// blockers of the deterministic review, which the review computed with
// itself in whatever mode it ran (lint.Review.Gate). An agent that did not
// load has no gate (its load failure is the caller's error).
func (s *Snapshot) Gate() lint.Gate {
	if s.Agent == nil {
		return lint.Gate{}
	}
	return s.Review.Gate
}

// buildPrompts builds the prompt report with the config's budget (the
// compiled prompt, when the agent compiled, is one step of the Agent
// system-prompt chain).
func (s *Snapshot) buildPrompts(textOnly bool) {
	in := prompts.Input{Agent: s.Agent, BudgetOnly: textOnly}
	if s.Config.Config != nil {
		in.Budget = s.Config.Config.Budget
	}
	if s.Compiled != nil {
		in.CompiledPrompt = s.Compiled.Prompt
	}
	in.Graph = func(ptr string) (*flowgraph.Graph, error) { return s.Flow(ptr).Model() }
	s.Prompts = prompts.Build(in)
}

func (s *Snapshot) compile() {
	defer func() {
		if r := recover(); r != nil {
			s.Compiled = nil
			s.CompileErr = fmt.Errorf("internal error in the compiler: %v", r)
		}
	}()
	// The agent is as loaded: the compiler and the flow model share the
	// root Flow's order.
	s.Compiled, s.CompileErr = compile.Compile(s.Agent)
}

// CompileDocument renders the snapshot's compile result (StageCompile) as
// `oastui compile` prints it: {"ok":true,"value":CompiledAgentOas} or
// {"ok":false,"error":"…"} (compile.IndentJSON). ok reports whether the
// agent compiled. The review gate (Gate) is the caller's to check first.
func (s *Snapshot) CompileDocument() (doc []byte, ok bool, err error) {
	res := compile.NewResult(s.Compiled, s.CompileErr)
	doc, err = compile.IndentJSON(res)
	return doc, res.OK, err
}

// AddPromptText adds the prompt report without token counts
// (StagePromptText) to a snapshot Run made without it, as Run would have
// made it: a diff reviews one side while the other side's prompt report is
// alive, and makes this side's report once the other's is released. A
// panic fails the snapshot as it would have failed Run.
func (s *Snapshot) AddPromptText() {
	if s == nil || s.Prompts != nil || s.Agent == nil || s.Agent.Flow == nil || s.Agent.Flow.Root == nil {
		return
	}
	defer func() {
		if r := recover(); r != nil {
			s.failed("analysing", r)
		}
	}()
	s.buildPrompts(true)
}
