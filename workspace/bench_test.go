package workspace

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// replicate copies the corpus's 25 agents n times into root (agents/), each
// copy under its own vendor with its package names rewritten
// (@cinatra-ai/x → @cinatra-ai-k/x, in package.json and the flow), so that
// every copy is a workspace of its own as in a real tree of unique
// packages, plus the global registry once.
func replicate(b testing.TB, n int) string {
	b.Helper()
	corpus := filepath.Join(testshared.Corpus(b), "agents")
	root := filepath.Join(b.TempDir(), "agents")
	if err := os.CopyFS(filepath.Join(root, "_shared"), os.DirFS(filepath.Join(corpus, "_shared"))); err != nil {
		b.Fatal(err)
	}
	src := filepath.Join(corpus, "cinatra-ai")
	for k := range n {
		vendor := fmt.Sprintf("cinatra-ai-%d", k)
		err := filepath.WalkDir(src, func(p string, d os.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(src, p)
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			if strings.HasSuffix(p, ".json") {
				data = bytes.ReplaceAll(data, []byte("@cinatra-ai/"), []byte("@"+vendor+"/"))
			}
			dst := filepath.Join(root, vendor, rel)
			if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
				return err
			}
			return os.WriteFile(dst, data, 0o644)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	return root
}

// BenchmarkSave1000 measures one save in a tree of 1,000 agents (the
// corpus ×40): from the changed file to re-reviewed, re-indexed and
// re-sorted rows — Affected, the reviews of the changed child and the
// orchestrators above it, Build, Rows and Sort — without the watcher's
// 40 ms debounce. Each iteration saves context-selection-agent of one
// copy (four orchestrators depend on it: five reviews). Reports p50 and
// p95 over the iterations, and the first full review of the tree.
//
//	go test ./workspace -run '^$' -bench Save1000 -benchtime 100x
func BenchmarkSave1000(b *testing.B) {
	root := replicate(b, 40)
	dirs, err := compile.FindAgents(root, 0)
	if err != nil || len(dirs) != 1000 {
		b.Fatalf("%d agents, %v", len(dirs), err)
	}
	start := time.Now()
	agents := ReviewAll(root, dirs, analysis.Options{}, 0, nil)
	full := time.Since(start)
	ix := Build(root, agents, nil)
	var took []time.Duration
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		k := i % 40
		flow := filepath.Join(root, fmt.Sprintf("cinatra-ai-%d", k), "context-selection-agent", "cinatra", "oas.json")
		src, err := os.ReadFile(flow)
		if err != nil {
			b.Fatal(err)
		}
		src = bytes.Replace(src, []byte(`"name": "Context Agent"`), []byte(fmt.Sprintf(`"name": "Context Agent %d"`, i)), 1)
		src = bytes.Replace(src, []byte(fmt.Sprintf(`"name": "Context Agent %d"`, i-40)), []byte(fmt.Sprintf(`"name": "Context Agent %d"`, i)), 1)
		if err := os.WriteFile(flow, src, 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		t0 := time.Now()
		ch := ix.Affected([]string{flow})
		re := ReviewAll(root, ch.Agents, analysis.Options{Load: compile.LoadOptions{Packages: ix.Packages(root)}}, 0, nil)
		next := slices.Clone(ix.Agents)
		for _, a := range re {
			j, _ := ix.Lookup(a.Dir)
			next[j] = Carry(a, next[j])
		}
		ix = Build(root, next, nil)
		rows := ix.Rows()
		Sort(rows, ColStatus, false)
		took = append(took, time.Since(t0))
		if len(ch.Agents) != 5 {
			b.Fatalf("a save re-reviews %d agents, want 5", len(ch.Agents))
		}
	}
	b.StopTimer()
	slices.Sort(took)
	b.ReportMetric(float64(took[len(took)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(took[min(len(took)-1, len(took)*95/100)].Microseconds())/1000, "p95-ms")
	b.ReportMetric(full.Seconds(), "full-review-s")
}

// BenchmarkSortVersion10k sorts 10,000 rows (a corpus ×400 tree) by
// version, the costliest column: each key of the workspace table's sort
// waits for it.
func BenchmarkSortVersion10k(b *testing.B) {
	agents := make([]Agent, 10000)
	for i := range agents {
		agents[i] = Agent{Package: fmt.Sprintf("@v/a%d", i%25), Version: fmt.Sprintf("0.%d.%d", i%3, i%7), Title: fmt.Sprintf("Agent %d", i%25)}
	}
	rows := make([]Row, len(agents))
	for i := range agents {
		rows[i] = Row{Index: i, Agent: &agents[i]}
	}
	work := make([]Row, len(rows))
	b.ResetTimer()
	for range b.N {
		copy(work, rows)
		Sort(work, ColVersion, false)
	}
}
