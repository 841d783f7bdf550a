package prompts

import "fmt"

// Bucket is one ContextOS budget bucket (seed 002, RunContext.run_budget
// bucket_tokens and the compiled output's budget_report).
type Bucket string

const (
	Policy   Bucket = "policy"   // system prompts, instructions and guard text written in the agent
	Tool     Bucket = "tool"     // tool and toolbox schemas the node exposes, mounted skills (SKILL.md)
	Evidence Bucket = "evidence" // values fed by data edges from earlier steps
	Memory   Bucket = "memory"   // conversation carried between steps
	Business Bucket = "business" // context-slot artifacts
	Session  Bucket = "session"  // StartNode inputs of the run (and defaults)
)

// Buckets in the order ContextOS lists them.
var Buckets = []Bucket{Policy, Tool, Evidence, Memory, Business, Session}

// Budget is the token budget of one LLM call, per bucket, and the
// assumptions behind the estimates.
type Budget struct {
	Buckets map[Bucket]int `json:"buckets"`
	Total   int            `json:"total"`
	// ArtifactTokens is the assumed size of one context-slot artifact: the
	// business bucket of a step is its slots' maxItems × this (an assumption;
	// the artifacts are picked at run time).
	ArtifactTokens int `json:"artifact_tokens"`
}

// DefaultBudget is the ContextOS example run budget (seed 002, "API
// Contracts", the invokeAgent RunContext: run_budget.total_tokens 12000,
// bucket_tokens policy 1800, tool 1500, evidence 3500, memory 1500,
// business 1500, session 2200). ArtifactTokens 500 is oastui's own
// assumption.
func DefaultBudget() Budget {
	return Budget{
		Buckets: map[Bucket]int{Policy: 1800, Tool: 1500, Evidence: 3500, Memory: 1500, Business: 1500, Session: 2200},
		Total:   12000, ArtifactTokens: 500,
	}
}

// BudgetKeys are the keys `budget:` takes in .oastui.yaml.
var BudgetKeys = []string{"policy", "tool", "evidence", "memory", "business", "session", "total", "artifact_tokens"}

// Set sets one key of the budget (a BudgetKeys entry) to n.
func (b *Budget) Set(key string, n int) error {
	if n < 0 {
		return fmt.Errorf("budget.%s must be 0 or more (got %d)", key, n)
	}
	switch key {
	case "total":
		b.Total = n
	case "artifact_tokens":
		b.ArtifactTokens = n
	default:
		bk := Bucket(key)
		if _, ok := DefaultBudget().Buckets[bk]; !ok {
			return fmt.Errorf("unknown budget key %q (known: policy, tool, evidence, memory, business, session, total, artifact_tokens)", key)
		}
		if b.Buckets == nil {
			b.Buckets = map[Bucket]int{}
		}
		b.Buckets[bk] = n
	}
	return nil
}

// withDefaults fills what b leaves unset from DefaultBudget.
func (b Budget) withDefaults() Budget {
	d := DefaultBudget()
	out := Budget{Buckets: map[Bucket]int{}, Total: b.Total, ArtifactTokens: b.ArtifactTokens}
	for _, k := range Buckets {
		if v, ok := b.Buckets[k]; ok {
			out.Buckets[k] = v
		} else {
			out.Buckets[k] = d.Buckets[k]
		}
	}
	if out.Total == 0 {
		out.Total = d.Total
	}
	if out.ArtifactTokens == 0 {
		out.ArtifactTokens = d.ArtifactTokens
	}
	return out
}
