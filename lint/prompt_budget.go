package lint

import (
	"fmt"

	"github.com/oastui/oastui/compile"
)

// RulePromptBudgetExceeded: the team's token budget of one LLM call
// (.oastui.yaml budget:, by ContextOS bucket, seed 002), checked before any
// run on what is already known. Only where a budget is configured: the
// Cinatra platform has none, and working agents exceed the ContextOS
// example budget (issue 27).
var RulePromptBudgetExceeded = &Rule{Code: "prompt_budget_exceeded", Severity: compile.Warning, Group: "prompts",
	Doc: "the static part of an LLM step's prompt (system prompt and template text, SKILL.md and tool schemas, defaults, context-slot minItems × the assumed artifact size) already exceeds a limit the team set in .oastui.yaml budget: (a ContextOS bucket, the total, or a share of the model's window); reported only where a budget: is configured (the platform has no budget: the ContextOS example budgets the prompts report shows are not limits)",
	Fix: "shorten the prompt (or move reference text into a SKILL.md or a context slot), or raise the limit in .oastui.yaml budget:"}

var passPromptBudget = &Check{Name: "prompt-budget", Run: checkPromptBudget, ByID: true}

func checkPromptBudget(p *Pass) {
	if !p.Config.Budget.Limited() {
		return // no budget configured: nothing to check
	}
	r := p.prompts // built by analysis with the config's budget (Options.Prompts)
	if r == nil {
		return
	}
	for _, e := range r.Exceeded {
		n := r.Node(e.Pointer)
		step := fmt.Sprintf("step %d (%s)", e.Order, e.Node)
		if e.Step > 0 {
			step = fmt.Sprintf("run step %d, compiled step %d (%s)", e.Order, e.Step, e.Node)
		}
		enc := ""
		if n != nil {
			enc = n.Model.Encoding
			if !n.Model.Exact {
				enc += ", an estimate for " + orNone(n.Model.ID)
			}
		}
		p.Report(p.Agent.Flow, e.Pointer, RulePromptBudgetExceeded, fmt.Sprintf(
			"%s: the %s bucket already holds %d tokens (%s) before any value is filled in; its budget is %d",
			step, e.Bucket, e.Tokens, enc, e.Budget))
	}
}

func orNone(s string) string {
	if s == "" {
		return "an unnamed model"
	}
	return s
}
