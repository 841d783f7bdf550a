package lint

import (
	"fmt"

	"github.com/oastui/oastui/compile"
)

// RulePromptBudgetExceeded: the ContextOS budget (seed 002) of one LLM
// call, checked before any run on what is already known (issue 16).
var RulePromptBudgetExceeded = &Rule{Code: "prompt_budget_exceeded", Severity: compile.Warning, Group: "prompts",
	Doc: "the static part of an LLM step's prompt (system prompt and template text, SKILL.md and tool schemas, defaults, context-slot minItems × the assumed artifact size) already exceeds a ContextOS bucket's budget (.oastui.yaml budget:, defaults from the ContextOS example run budget); what does not fit would be truncated",
	Fix: "shorten the prompt (or move reference text into a SKILL.md or a context slot), or raise the bucket in .oastui.yaml budget:"}

var passPromptBudget = &Check{Name: "prompt-budget", Run: checkPromptBudget, ByID: true}

func checkPromptBudget(p *Pass) {
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
