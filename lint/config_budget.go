package lint

import (
	"slices"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/oastui/oastui/prompts"
)

// parseBudget reads `budget:`, a mapping of the ContextOS buckets (policy,
// tool, evidence, memory, business, session), total and artifact_tokens
// to whole numbers of tokens (0 or more), and window_share (a percentage of
// the model's context window). Keys left out set no limit.
func (c *Config) parseBudget(v *yaml.Node, fail failFunc) error {
	if isNull(v) {
		return nil
	}
	if v.Kind != yaml.MappingNode {
		return fail(v, "budget must be a mapping of %s to token counts", strings.Join(prompts.BudgetKeys, ", "))
	}
	seen := map[string]bool{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if !slices.Contains(prompts.BudgetKeys, k.Value) {
			return fail(k, "unknown budget key %q (known: %s)", k.Value, strings.Join(prompts.BudgetKeys, ", "))
		}
		if seen[k.Value] {
			return fail(k, "budget.%s is given twice", k.Value)
		}
		seen[k.Value] = true
		n, err := strconv.Atoi(val.Value)
		if val.Kind != yaml.ScalarNode || val.Tag != "!!int" || err != nil || n < 0 {
			return fail(val, "budget.%s must be a whole number of tokens, 0 or more (got %q)", k.Value, val.Value)
		}
		if err := c.Budget.Set(k.Value, n); err != nil {
			return fail(val, "%s", err.Error())
		}
	}
	return nil
}
