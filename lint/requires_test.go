package lint

import (
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/prompts"
)

// In the engine, package analysis makes the dry run and the prompt report
// and hands them to Run (Options.DryRun, Options.Prompts); lint never runs
// them. Its own tests review fixtures with review, which makes them as
// analysis does and then runs Run.
func review(a *compile.Agent, opts Options) Review {
	if a != nil && a.Flow != nil && a.Flow.Root != nil {
		if opts.DryRun == nil && opts.Mode == ModeFull {
			opts.DryRun = dryrun.Explore(a, dryrun.Options{Children: a.FindAgent})
		}
		if opts.Prompts == nil && opts.Config != nil && opts.Config.Budget.Limited() { // as analysis: no budget, no count
			opts.Prompts = prompts.Build(prompts.Input{Agent: a, Budget: opts.Config.Budget, BudgetOnly: true})
		}
	}
	return Run(a, opts)
}

// Run never runs the passes it requires: without their results mode full
// has no dry-run finding.
func TestRunRequiresResults(t *testing.T) {
	a := rvLoad(t, filepath.Join("testdata", "rules", "err", "dryrun_gate_without_data"))
	with := review(a, Options{Mode: ModeFull})
	if with.DryRun == nil || !hasGroup(with.Findings, GroupDryRun) {
		t.Fatalf("the fixture has no dry-run finding even with the results: %+v", with.Findings)
	}
	r := Run(a, Options{Mode: ModeFull})
	if r.DryRun != nil || hasGroup(r.Findings, GroupDryRun) {
		t.Errorf("Run explored by itself: %+v", r.Findings)
	}
	r = Run(a, Options{Mode: ModeFull, DryRun: with.DryRun})
	if r.DryRun != with.DryRun || !hasGroup(r.Findings, GroupDryRun) {
		t.Errorf("Run did not use the dry run it was given: %+v", r.Findings)
	}
}

func hasGroup(fs []Finding, group string) bool {
	for _, f := range fs {
		if f.Group == group {
			return true
		}
	}
	return false
}

// TestOneDocModelPerReview: the flow-graph rules and the Agent Spec I/O
// rules read one model of the flow file, built once per review.
func TestOneDocModelPerReview(t *testing.T) {
	a := rvLoad(t, filepath.Join("testdata", "rules", "err", "io_wrapped_mismatch", "io_wrapped_mismatch.json"))
	if a.Profile != compile.ProfileAgentSpec {
		t.Fatalf("the fixture is in profile %s; both passes run in agentspec", a.Profile)
	}
	m := a.Model()
	r := review(a, Options{})
	if !hasCode(r.Findings, RuleIOWrappedMismatch.Code) {
		t.Fatalf("the fixture's finding is missing: %+v", r.Findings)
	}
	if p := (&Pass{Agent: a}); p.model() != m || a.Model() != m {
		t.Error("the review read another model of the flow file than the agent's one")
	}
}
