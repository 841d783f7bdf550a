package lint

import (
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/present"
	"github.com/oastui/oastui/prompts"
)

// Mode is the review mode (SPEC §3.5).
type Mode string

const (
	ModeDeterministic Mode = "deterministic"
	ModeAdvisory      Mode = "advisory"
	// ModeFull is advisory plus the dry run: the flow walked on stub data
	// (package dryrun), its dryrun_* findings joining the review.
	ModeFull Mode = "full"
)

// Modes lists the review modes in the order the TUI's m cycles them.
var Modes = []Mode{ModeDeterministic, ModeAdvisory, ModeFull}

// ParseMode returns the Mode named s, and whether there is one.
func ParseMode(s string) (Mode, bool) {
	for _, m := range Modes {
		if string(m) == s {
			return m, true
		}
	}
	return "", false
}

// Options of a review.
type Options struct {
	Mode   Mode    // default deterministic
	Config *Config // nil: defaults
	// The results of the passes the review requires but never runs itself
	// (go/analysis's Requires/ResultOf): package analysis makes them once
	// per snapshot and hands them in.
	//
	// DryRun is the dry run of this agent (the Run tab's too): its
	// findings join the review in mode full (none without it).
	DryRun *dryrun.Result
	// Prompts is the agent's prompt report, built with Config's budget:
	// prompt_budget_exceeded reads it (no finding without it).
	Prompts *prompts.Report
	// LoadOnly reviews the loading findings alone (the files' syntax and
	// structure: invalid_json, duplicate_key, …), with the config's
	// overrides and ignores, and runs no check of the flow: the language
	// server's fast first answer on a large buffer (analysis.Load).
	LoadOnly bool
	// Stop, when set, is asked between the checks: once it says true the
	// review stops there, partial (the caller knows it asked, and shows
	// nothing of it: analysis.Snapshot.Stopped).
	Stop func() bool

	// plainPorts makes the data-flow rules scan ports and data edges as
	// they did before their indexes: the equivalence tests' oracle
	// (dataflow_ports_test.go sets it).
	plainPorts bool
}

// Review is the result of reviewing one agent: findings sorted and
// deduplicated, and split into the seed's three buckets.
type Review struct {
	Findings    []Finding
	Suppressed  []SuppressedFinding // findings an ignore silenced (not in Findings nor the buckets; SARIF shows them as suppressed)
	Blockers    []Finding
	Warnings    []Finding
	Suggestions []Finding
	// DryRun is the dry run the review was given (Options.DryRun).
	DryRun *dryrun.Result
	// Gate is the compile/publish gate over the agent: the blockers of the
	// deterministic review (Blockers itself in mode deterministic).
	Gate Gate
	// Inline are the flow file's x-oastui-ignore entries of workspace
	// rules, which the workspace applies to the findings it raises across
	// a tree (workspace.Summarize hands them on).
	Inline InlineIgnores
}

// Run reviews a loaded agent: load findings, then every check that runs in
// the agent's profile, then the config's severity overrides and ignores.
func Run(a *compile.Agent, opts Options) Review {
	if opts.Config == nil {
		opts.Config = &Config{}
	}
	p := &Pass{Agent: a, Config: opts.Config, prompts: opts.Prompts, plainPorts: opts.plainPorts}
	p.found = append(p.found, a.Findings...)
	if a.Flow != nil && a.Flow.Root != nil && !opts.LoadOnly {
		for _, c := range checks {
			if opts.Stop != nil && opts.Stop() {
				break
			}
			if c.runsIn(a.Profile) {
				p.names = c.nameKeys()
				c.Run(p)
			}
		}
	}
	if len(opts.Config.Policies) > 0 && a.Flow != nil && a.Flow.Root != nil && !opts.LoadOnly {
		p.found = append(p.found, checkPolicies(a, opts.Config.Policies)...)
	}
	checked := p.found[:len(p.found):len(p.found)] // the deterministic review's findings, before any dry-run one
	dry := opts.DryRun
	if opts.Mode == ModeFull {
		p.found = append(p.found, dryRunFindings(a, dry)...)
	}
	inline := inlineIgnoresIn(a, p.flowModel, opts.Config) // the model's walk found the ignores when a check built it
	fs, suppressed := opts.Config.apply(a, inline, p.found)
	if opts.Mode == ModeAdvisory || opts.Mode == ModeFull {
		fs = advisoryFindings(a, opts.Config, fs)
	}
	for i := range fs { // the one presentation function (sanitise, then mask), once, as findings leave the engine
		fs[i].Message = present.Lines(fs[i].Message)
		fs[i].Group = opts.Config.groupOf(fs[i].Code)
	}
	for i := range suppressed {
		suppressed[i].Message = present.Lines(suppressed[i].Message)
		suppressed[i].Group = opts.Config.groupOf(suppressed[i].Code)
	}
	r := bucket(compile.SortFindings(fs))
	r.Suppressed = suppressed
	r.DryRun = dry
	r.Inline = inline.outside()
	if opts.Mode == ModeAdvisory || opts.Mode == ModeFull {
		r.Gate = deterministicGate(a, opts.Config, inline, checked)
	} else { // the review is the deterministic one
		r.Gate = Gate{Blockers: gateBlockers(r.Blockers)}
	}
	return r
}

func bucket(fs []Finding) Review {
	r := Review{Findings: fs}
	for _, f := range fs {
		switch f.Severity {
		case compile.Blocker:
			r.Blockers = append(r.Blockers, f)
		case compile.Warning:
			r.Warnings = append(r.Warnings, f)
		default:
			r.Suggestions = append(r.Suggestions, f)
		}
	}
	return r
}

// groupOf is groupOf for a review under config c: a team policy's
// findings are of group "policy".
func (c *Config) groupOf(code string) string {
	if c.Policy(code) != nil {
		return GroupPolicy
	}
	return groupOf(code)
}

// groupOf is the group of the rule with code ("" for a code no rule has).
func groupOf(code string) string {
	if r := byCode[code]; r != nil {
		return r.Group
	}
	return ""
}
