package lint

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/oastui/oastui/compile"
)

func benchCorpusAgents(b *testing.B) []string {
	root := filepath.Join(valCorpusDir(b), "agents", "cinatra-ai")
	ents, err := os.ReadDir(root)
	if err != nil {
		b.Fatal(err)
	}
	var dirs []string
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	return dirs
}

// inputBytes is the bytes loading the agents at dirs reads (every file of
// each agent's documents: flow, package.json, registry), the denominator
// of the allocated-bytes-per-input-byte metric (issue 27).
func inputBytes(b *testing.B, dirs []string) int {
	n := 0
	for _, d := range dirs {
		a, err := compile.Load(d, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		for _, doc := range a.Docs() {
			n += len(doc.Src)
		}
	}
	return n
}

// reportAllocPerByte reports the bytes allocated per op divided by in.
func reportAllocPerByte(b *testing.B, in int, loop func()) {
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	n := 0
	for b.Loop() {
		loop()
		n++
	}
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(n)/float64(in), "alloc-B/input-B")
}

// BenchmarkLintCorpus: load and review the 25 corpus agents (one op = all
// 25), every rule of every group, as `oastui lint` does per agent.
func BenchmarkLintCorpus(b *testing.B) {
	dirs := benchCorpusAgents(b)
	in := inputBytes(b, dirs)
	b.ReportAllocs()
	reportAllocPerByte(b, in, func() {
		for _, d := range dirs {
			a, err := compile.Load(d, compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			review(a, Options{})
		}
	})
}

// BenchmarkValidateCorpus: the validator alone over the 25 parsed agents.
func BenchmarkValidateCorpus(b *testing.B) {
	var agents []*compile.Agent
	for _, d := range benchCorpusAgents(b) {
		a, err := compile.Load(d, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		agents = append(agents, a)
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, a := range agents {
			runValidator(&Pass{Agent: a, Config: &Config{}})
		}
	}
}

// BenchmarkLoadCorpus: loading and parsing alone, for comparison.
func BenchmarkLoadCorpus(b *testing.B) {
	dirs := benchCorpusAgents(b)
	in := inputBytes(b, dirs)
	b.ReportAllocs()
	reportAllocPerByte(b, in, func() {
		for _, d := range dirs {
			if _, err := compile.Load(d, compile.LoadOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkChecksCorpus: each registered check alone over the 25 parsed
// corpus agents (one op = all 25), to see where review time goes.
func BenchmarkChecksCorpus(b *testing.B) {
	var agents []*compile.Agent
	for _, d := range benchCorpusAgents(b) {
		a, err := compile.Load(d, compile.LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		agents = append(agents, a)
	}
	for _, c := range checks {
		b.Run(c.Name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				for _, a := range agents {
					if c.runsIn(a.Profile) {
						c.Run(&Pass{Agent: a, Config: &Config{}})
					}
				}
			}
		})
	}
}
