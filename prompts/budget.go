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

// The pseudo-buckets an Exceeded may name besides Buckets: the sum of the
// static buckets against Budget.Total, and against the model's window share.
const (
	TotalLimit  Bucket = "total"
	WindowLimit Bucket = "window"
)

// Budget is a team's token budget of one LLM call (.oastui.yaml budget:):
// only the limits it sets are limits. The Cinatra platform has no budget
// and working agents exceed the ContextOS example (ExampleBudget), so a
// Budget with no limit set reports nothing; reports show usage against the
// example for scale.
type Budget struct {
	// Buckets are the per-bucket limits set; a bucket absent has none.
	Buckets map[Bucket]int `json:"buckets"`
	// Total limits the sum of the static buckets (0: no limit).
	Total int `json:"total,omitempty"`
	// WindowShare limits the sum of the static buckets to this percentage
	// of the model's context window, where the window is known (0: no limit).
	WindowShare int `json:"window_share,omitempty"`
	// ArtifactTokens is the assumed size of one context-slot artifact: the
	// business bucket of a step is its slots' maxItems × this (an assumption;
	// the artifacts are picked at run time). 0: defaultArtifactTokens.
	ArtifactTokens int `json:"artifact_tokens"`
}

// defaultArtifactTokens is oastui's own assumption of an artifact's size.
const defaultArtifactTokens = 500

// ExampleBudget is the ContextOS example run budget (seed 002, "API
// Contracts", the invokeAgent RunContext: run_budget.total_tokens 12000,
// bucket_tokens policy 1800, tool 1500, evidence 3500, memory 1500,
// business 1500, session 2200). It is an example, not a limit: reports
// show usage against it; only a configured Budget is checked.
func ExampleBudget() Budget {
	return Budget{
		Buckets: map[Bucket]int{Policy: 1800, Tool: 1500, Evidence: 3500, Memory: 1500, Business: 1500, Session: 2200},
		Total:   12000, ArtifactTokens: defaultArtifactTokens,
	}
}

// Limited reports whether b sets any limit (a bucket, the total or a
// window share): prompt_budget_exceeded runs only then.
func (b Budget) Limited() bool {
	return len(b.Buckets) > 0 || b.Total > 0 || b.WindowShare > 0
}

// BudgetKeys are the keys `budget:` takes in .oastui.yaml.
var BudgetKeys = []string{"policy", "tool", "evidence", "memory", "business", "session", "total", "window_share", "artifact_tokens"}

// Set sets one key of the budget (a BudgetKeys entry) to n.
func (b *Budget) Set(key string, n int) error {
	if n < 0 {
		return fmt.Errorf("budget.%s must be 0 or more (got %d)", key, n)
	}
	switch key {
	case "total":
		if n == 0 {
			return fmt.Errorf("budget.total must be 1 or more (leave it out for no limit)")
		}
		b.Total = n
	case "window_share":
		if n < 1 || n > 100 {
			return fmt.Errorf("budget.window_share is a percentage of the model's context window, 1 to 100 (got %d)", n)
		}
		b.WindowShare = n
	case "artifact_tokens":
		b.ArtifactTokens = n
	default:
		bk := Bucket(key)
		if _, ok := ExampleBudget().Buckets[bk]; !ok {
			return fmt.Errorf("unknown budget key %q (known: policy, tool, evidence, memory, business, session, total, window_share, artifact_tokens)", key)
		}
		if b.Buckets == nil {
			b.Buckets = map[Bucket]int{}
		}
		b.Buckets[bk] = n
	}
	return nil
}

// normalized is b with ArtifactTokens filled in and a non-nil Buckets.
func (b Budget) normalized() Budget {
	out := Budget{Buckets: map[Bucket]int{}, Total: b.Total, WindowShare: b.WindowShare, ArtifactTokens: b.ArtifactTokens}
	for k, v := range b.Buckets {
		out.Buckets[k] = v
	}
	if out.ArtifactTokens == 0 {
		out.ArtifactTokens = defaultArtifactTokens
	}
	return out
}

// totalLimit is the limit of a step's static total under b for a model
// of the given window (0: none): the smaller of Total and the window share.
func (b Budget) totalLimit(window int) int {
	lim := b.Total
	if b.WindowShare > 0 && window > 0 {
		w := window * b.WindowShare / 100
		if lim == 0 || w < lim {
			lim = w
		}
	}
	return lim
}

// limit is bucket k's limit, if b sets one.
func (b Budget) limit(k Bucket) (int, bool) {
	n, ok := b.Buckets[k]
	return n, ok
}
