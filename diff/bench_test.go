package diff

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
	"github.com/oastui/oastui/internal/testshared"
)

// largestHistoryAgent is the history agent with the largest last flow file.
func largestHistoryAgent(b testing.TB, histDir string) string {
	ents, err := os.ReadDir(histDir)
	if err != nil {
		b.Fatal(err)
	}
	best, size := "", int64(-1)
	for _, e := range ents {
		if !e.IsDir() {
			continue
		}
		raw, err := os.ReadFile(filepath.Join(histDir, e.Name(), "log.json"))
		if err != nil {
			continue
		}
		var revs []histRev
		if json.Unmarshal(raw, &revs) != nil || len(revs) < 2 {
			continue
		}
		st, err := os.Stat(filepath.Join(histDir, e.Name(), revs[len(revs)-1].Rev, "cinatra", "oas.json"))
		if err == nil && st.Size() > size {
			best, size = e.Name(), st.Size()
		}
	}
	return best
}

// BenchmarkDiffLargestHistory diffs the last two revisions of the largest
// history agent, both read through git: "git" is opening the revisions
// (rev-parse, ls-tree), "diff" the loading, analysis and diff of both
// sides (blobs through cat-file), which the issue bounds at 50 ms.
func BenchmarkDiffLargestHistory(b *testing.B) {
	histDir := testshared.Dir(b, "corpus", "history")
	slug := largestHistoryAgent(b, histDir)
	repo, agent, commits, _ := historyRepo(b, histDir, slug)
	oldRev, newRev := commits[len(commits)-2], commits[len(commits)-1]
	b.Run("git", func(b *testing.B) {
		for b.Loop() {
			g1, _ := compile.OpenGitRev(repo, oldRev)
			g2, _ := compile.OpenGitRev(repo, newRev)
			g1.Close()
			g2.Close()
		}
	})
	b.Run("diff", func(b *testing.B) {
		g1, err := compile.OpenGitRev(repo, oldRev)
		if err != nil {
			b.Fatal(err)
		}
		defer g1.Close()
		g2, err := compile.OpenGitRev(repo, newRev)
		if err != nil {
			b.Fatal(err)
		}
		defer g2.Close()
		cfg := &analysis.ConfigResult{}
		for b.Loop() {
			Diff(Analyze(agent, g1, cfg), Analyze(agent, g2, cfg), Options{})
		}
	})
}

// BenchmarkDiffHostile (issue 35, points 10 and 12): the diff of hostile
// inputs next to the analysis of one side ("lint"), which the diff must
// stay within 2.5× of, and the diff's own share ("checks": the views and
// the checks, both sides analysed once). Report CPU time, paired, on a
// loaded machine.
func BenchmarkDiffHostile(b *testing.B) {
	for _, in := range []struct {
		name     string
		old, new []byte
	}{
		{"descriptions1000", DescribedFlow(1000, 300, 0), DescribedFlow(1000, 300, 1)},
		{"renamed33000", hostile.Flow(33000, true), RenamedFlow(33000)},
	} {
		dir := b.TempDir()
		op, np := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
		if err := os.WriteFile(op, in.old, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(np, in.new, 0o644); err != nil {
			b.Fatal(err)
		}
		cfg := &analysis.ConfigResult{}
		b.Run(in.name+"/lint", func(b *testing.B) {
			for b.Loop() {
				Analyze(np, nil, cfg)
			}
		})
		opts := Options{MaxChanges: DefaultMaxChanges} // as the faces diff
		b.Run(in.name+"/diff", func(b *testing.B) {
			for b.Loop() {
				Diff(Analyze(op, nil, cfg), Analyze(np, nil, cfg), opts)
			}
		})
		// the diff's own share: the views and the checks of two sides
		// analysed once
		o, n := Analyze(op, nil, cfg), Analyze(np, nil, cfg)
		b.Run(in.name+"/checks", func(b *testing.B) {
			for b.Loop() {
				Diff(o, n, opts)
			}
		})
	}
}
