package prompts

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

func resetMemo() {
	counts.mu.Lock()
	clear(counts.m)
	counts.mu.Unlock()
}

// benchAgents: the largest corpus agent by file (blog-pipeline-agent, 176
// kB, four bridge nodes) and the one with the most prompt text
// (blog-draft-writer-agent, an 11 kB system prompt).
func benchAgents(b *testing.B) map[string]*compile.Agent {
	dir := testshared.Corpus(b)
	out := map[string]*compile.Agent{}
	for _, slug := range []string{"blog-pipeline-agent", "blog-draft-writer-agent"} {
		out[slug] = load(b, filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
	}
	return out
}

// BenchmarkReport is the whole report of one agent. warm: a re-analysis
// (the text's chunks counted before); fresh: every chunk counted anew
// (the first report of a prompt in a process).
func BenchmarkReport(b *testing.B) {
	for slug, a := range benchAgents(b) {
		Build(Input{Agent: a}) // count the chunks once outside the timing
		b.Run(slug+"/warm", func(b *testing.B) {
			for b.Loop() {
				Build(Input{Agent: a})
			}
		})
		b.Run(slug+"/fresh", func(b *testing.B) {
			for b.Loop() {
				resetMemo()
				Build(Input{Agent: a})
			}
		})
	}
}

// BenchmarkColdStart is the first report in a process: every chunk
// counted anew (the encoders need no building: internal/bpe reads its
// tables in place).
func BenchmarkColdStart(b *testing.B) {
	agents := benchAgents(b)
	for b.Loop() {
		resetMemo()
		Build(Input{Agent: agents["blog-pipeline-agent"]})
	}
}

// BenchmarkSplitHostile: template scanning on the hostile templates of
// issue 26 item 14 (before it was linear, "{{"×100k without a closer took
// seconds: each "{{" searched the rest of the template).
func BenchmarkSplitHostile(b *testing.B) {
	for name, s := range map[string]string{
		"open200k-close200k": strings.Repeat("{{", 200000) + strings.Repeat("}}", 200000),
		"open100k":           strings.Repeat("{{", 100000),
		"placeholders100k":   strings.Repeat("{{ p }} ", 100000),
	} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				Split(s)
			}
		})
	}
}
