package lint

import (
	"os"
	"path/filepath"
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

// BenchmarkLintCorpus: load and review the 25 corpus agents (one op = all
// 25), every rule of every group, as `oastui lint` does per agent.
func BenchmarkLintCorpus(b *testing.B) {
	dirs := benchCorpusAgents(b)
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range dirs {
			a, err := compile.Load(d, compile.LoadOptions{})
			if err != nil {
				b.Fatal(err)
			}
			Run(a, Options{})
		}
	}
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
	b.ReportAllocs()
	for b.Loop() {
		for _, d := range dirs {
			if _, err := compile.Load(d, compile.LoadOptions{}); err != nil {
				b.Fatal(err)
			}
		}
	}
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
