package compile

import (
	"os"
	"path/filepath"
	"testing"
)

func corpusAgentDirs(b *testing.B) []string {
	dirs, _ := filepath.Glob(filepath.Join(corpusDir(b), "agents", "cinatra-ai", "*"))
	if len(dirs) == 0 {
		b.Skip("no corpus agents")
	}
	return dirs
}

// BenchmarkCompileCorpus compiles the 25 corpus agents (already loaded)
// once per iteration.
func BenchmarkCompileCorpus(b *testing.B) {
	var agents []*Agent
	for _, d := range corpusAgentDirs(b) {
		a, err := Load(d, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Compile(a); err != nil { // warms each agent's child cache
			b.Fatal(err)
		}
		agents = append(agents, a)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range agents {
			if _, err := Compile(a); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseCorpus parses the 25 corpus flow files once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	var srcs [][]byte
	var n int64
	for _, d := range corpusAgentDirs(b) {
		src, err := os.ReadFile(filepath.Join(d, "cinatra", "oas.json"))
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		n += int64(len(src))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range srcs {
			if _, err := Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}
