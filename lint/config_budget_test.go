package lint

import (
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/prompts"
)

func TestConfigBudget(t *testing.T) {
	c, err := ParseConfig(".oastui.yaml", []byte("budget:\n  policy: 900\n  business: 0\n  artifact_tokens: 250\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Budget.Buckets[prompts.Policy] != 900 || c.Budget.Buckets[prompts.Business] != 0 || c.Budget.ArtifactTokens != 250 {
		t.Errorf("budget %+v", c.Budget)
	}
	if _, ok := c.Budget.Buckets[prompts.Tool]; ok || c.Budget.Total != 0 {
		t.Error("a key left out is no limit")
	}
	if !c.Budget.Limited() {
		t.Error("a budget: with limits is Limited")
	}
	if c, err := ParseConfig(".oastui.yaml", []byte("budget:\n  window_share: 25\n")); err != nil || c.Budget.WindowShare != 25 || !c.Budget.Limited() {
		t.Errorf("window_share: %+v %v", c, err)
	}
	if c, err := ParseConfig(".oastui.yaml", []byte("budget:\n  artifact_tokens: 200\n")); err != nil || c.Budget.Limited() {
		t.Errorf("artifact_tokens alone is an assumption, not a limit: %+v %v", c, err)
	}
	for src, want := range map[string]string{
		"budget: 5\n":                         ".oastui.yaml:1: budget must be a mapping",
		"budget:\n  polcy: 5\n":               `.oastui.yaml:2: unknown budget key "polcy"`,
		"budget:\n  policy: -1\n":             ".oastui.yaml:2: budget.policy must be a whole number of tokens, 0 or more",
		"budget:\n  policy: lots\n":           `budget.policy must be a whole number of tokens, 0 or more (got "lots")`,
		"budget:\n  policy: 1.5\n":            "budget.policy must be a whole number",
		"budget:\n  policy: 1\n  policy: 2\n": ".oastui.yaml:3: budget.policy is given twice",
		"budget:\n  total: 0\n":               "budget.total must be 1 or more",
		"budget:\n  window_share: 101\n":      "budget.window_share is a percentage of the model's context window, 1 to 100",
	} {
		_, err := ParseConfig(".oastui.yaml", []byte(src))
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

// TestBudgetReportsOnlyWhenExceeded (issue 27): without budget, or under
// limits the texts' bytes already meet, the review reports nothing; a limit
// the agent exceeds is reported. (That the bytes spare the tokenizer is
// prompts' TestBudgetOnlyTokenizesOnlyWhenNeeded.)
func TestBudgetReportsOnlyWhenExceeded(t *testing.T) {
	a := rvLoad(t, testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "blog-draft-writer-agent"))
	for _, c := range []struct {
		name, yaml string
		count      bool
	}{
		{"no budget", "", false},
		{"bytes under every limit", "budget:\n  policy: 1000000\n  total: 1000000\n", false},
		{"a tight policy limit", "budget:\n  policy: 100\n", true},
	} {
		cfg := &Config{}
		if c.yaml != "" {
			var err error
			if cfg, err = ParseConfig(".oastui.yaml", []byte(c.yaml)); err != nil {
				t.Fatal(err)
			}
		}
		found := false
		for _, f := range review(a, Options{Config: cfg}).Findings {
			found = found || f.Code == RulePromptBudgetExceeded.Code
		}
		if found != c.count {
			t.Errorf("%s: reported %v; want %v", c.name, found, c.count)
		}
	}
}
