package dryrun_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/internal/testshared"
)

// knownReal: corpus findings of dryrun_* blockers that are real, with the
// line of the flow file that shows them.
var knownReal = map[string]string{}

// TestCorpus: every corpus agent dry-runs to an EndNode on some path and
// has no dryrun_* blocker (or the blocker is real and listed above).
func TestCorpus(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	for _, slug := range slugs {
		a, err := compile.Load(filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
		if err != nil {
			t.Fatalf("%s: %v", slug, err)
		}
		res := dryrun.Explore(a, dryrun.Options{Children: a.FindAgent})
		ends := 0
		for _, p := range res.Paths {
			if p.Status == dryrun.StatusEnd {
				ends++
			}
		}
		if ends == 0 {
			t.Errorf("%s: no path reaches an EndNode (%s)", slug, res.Note)
		}
		for _, f := range res.Findings {
			t.Logf("%s: %s %s %s: %s", slug, f.Severity, f.Code, f.Pointer, f.Message)
			if f.Severity == compile.Blocker && !strings.Contains(knownReal[slug], f.Code) {
				t.Errorf("%s: blocker %s at %s: %s", slug, f.Code, f.Pointer, f.Message)
			}
		}
		t.Logf("%s: %s, %d states", slug, res.Note, res.States)
	}
}
