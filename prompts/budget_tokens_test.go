package prompts

import (
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// TestBudgetOnlyTokenizesOnlyWhenNeeded (issue 27): under a budget whose
// limits the texts' bytes already meet (a token is at least one byte) the
// budget-only report tokenizes nothing; only a limit the bytes cannot
// decide makes it count, and then it reports the bucket exceeded. It reads
// the process's count of tokenized texts, so it does not run in parallel.
func TestBudgetOnlyTokenizesOnlyWhenNeeded(t *testing.T) {
	a := load(t, testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "blog-draft-writer-agent"), compile.LoadOptions{})
	for _, c := range []struct {
		name   string
		budget Budget
		count  bool
	}{
		{"bytes under every limit", Budget{Buckets: map[Bucket]int{Policy: 1000000}, Total: 1000000}, false},
		{"a tight policy limit", Budget{Buckets: map[Bucket]int{Policy: 100}}, true},
	} {
		before := tokenized.Load()
		r := Build(Input{Agent: a, BudgetOnly: true, Budget: c.budget})
		if counted := tokenized.Load() > before; counted != c.count || (len(r.Exceeded) > 0) != c.count {
			t.Errorf("%s: tokenized %v, exceeded %v; want %v", c.name, counted, r.Exceeded, c.count)
		}
	}
}
