package lint

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// TestFixDiffIsUnifiedDiff: on the real agents — each corpus agent as it
// is and broken in every scripted way that applies — the preview diff of
// every fix (edit.DiffEdits, what Batch.Preview shows on every face) is
// the unified diff of the file before and after the fix
// (edit.UnifiedDiff): one diff, the same hunks and the same grouping of
// adjacent changed lines.
func TestFixDiffIsUnifiedDiff(t *testing.T) {
	corpus, slugs := testshared.CorpusAgents(t)
	n := 0
	check := func(t *testing.T, dir string) {
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		src := loadedSources(a)
		for _, f := range review(a, Options{Config: &Config{}}).Findings {
			for _, fx := range f.Fixes {
				b := edit.Plan([]edit.Candidate{{ID: "x", Fixes: []edit.Fix{fx}}})
				for _, p := range b.Files() {
					es := edit.EditsOf(b.Edits(), p)
					got, err := edit.DiffEdits(filepath.Base(p), src[p], es)
					if err != nil {
						t.Fatalf("%s %s: %v", f.Code, p, err)
					}
					out, _ := edit.Apply(src[p], es)
					n++
					if want := unifiedDiff(filepath.Base(p), src[p], out); got != want {
						t.Errorf("%s: the fix's diff of %s is not the diff of the two versions:\n%s\nwant\n%s", f.Code, p, got, want)
					}
				}
			}
		}
	}
	for si, slug := range slugs {
		t.Run(slug, func(t *testing.T) {
			// Under -race a third of the agent × break pairs (and of the
			// agents as they are); every pair in CI's run without it.
			if si%race.Stride(3) == 0 {
				check(t, filepath.Join(corpus, "agents", "cinatra-ai", slug))
			}
			for bi, cb := range corpusBreaks {
				if (si+bi+1)%race.Stride(3) != 0 {
					continue
				}
				// Whether the breakage applies is decided on the corpus
				// file itself, before the copy.
				orig, err := os.ReadFile(filepath.Join(corpus, "agents", "cinatra-ai", slug, cb.file))
				if err != nil {
					continue
				}
				broken, ok := cb.brk(orig)
				if !ok {
					continue
				}
				dir := copyCorpusAgent(t, corpus, slug)
				path := filepath.Join(dir, cb.file)
				if copied, err := os.ReadFile(path); err != nil || !bytes.Equal(copied, orig) {
					t.Fatalf("the copy of %s differs from the corpus file (%v)", cb.file, err)
				}
				if err := os.WriteFile(path, broken, 0o644); err != nil {
					t.Fatal(err)
				}
				check(t, dir)
			}
		})
	}
	if n == 0 {
		t.Fatal("no fix on the corpus")
	}
	t.Logf("%d fix diffs compared", n)
}
