package lint

import (
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint/secrets"
	"github.com/oastui/oastui/prompts"
)

// Mode is the review mode (SPEC §3.5).
type Mode string

const (
	ModeDeterministic Mode = "deterministic"
	ModeAdvisory      Mode = "advisory"
)

// Options of a review.
type Options struct {
	Mode   Mode    // default deterministic
	Config *Config // nil: defaults
	// Prompts is the agent's prompt report when the caller has computed it
	// already (analysis.StagePrompts): prompt_budget_exceeded reads it
	// instead of counting the tokens a second time. It must have been built
	// with Config's budget.
	Prompts *prompts.Report
}

// Review is the result of reviewing one agent: findings sorted and
// deduplicated, and split into the seed's three buckets.
type Review struct {
	Findings    []Finding
	Suppressed  []SuppressedFinding // findings an ignore silenced (not in Findings nor the buckets; SARIF shows them as suppressed)
	Blockers    []Finding
	Warnings    []Finding
	Suggestions []Finding
}

// Run reviews a loaded agent: load findings, then every check that runs in
// the agent's profile, then the config's severity overrides and ignores.
func Run(a *compile.Agent, opts Options) Review {
	if opts.Config == nil {
		opts.Config = &Config{}
	}
	p := &Pass{Agent: a, Config: opts.Config, prompts: opts.Prompts}
	p.found = append(p.found, a.Findings...)
	if a.Flow != nil && a.Flow.Root != nil {
		for _, c := range checks {
			if c.runsIn(a.Profile) {
				c.Run(p)
			}
		}
	}
	fs, suppressed := opts.Config.apply(a, p.found)
	if opts.Mode == ModeAdvisory {
		fs = advisoryFindings(a, opts.Config, fs)
	}
	for i := range fs { // the one masker, once, as findings leave the engine
		fs[i].Message = secrets.Redact(fs[i].Message)
	}
	for i := range suppressed {
		suppressed[i].Message = secrets.Redact(suppressed[i].Message)
	}
	r := bucket(compile.SortFindings(fs))
	r.Suppressed = suppressed
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
