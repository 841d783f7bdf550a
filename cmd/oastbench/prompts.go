package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"time"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/prompts"
)

// runPrompts times prompts.Build (issue 16) over the corpus agents: the
// first report in the process, each agent's first report (its text counted
// for the first time) and its warm report (a re-analysis: every chunk
// counted before), best of runs. (The encoders need no building:
// internal/bpe reads its tables in place.)
func runPrompts(corpus string, runs int) error {
	dir := filepath.Join(corpus, "agents", "cinatra-ai")
	ents, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	type agent struct {
		slug string
		a    *compile.Agent
		size int
	}
	var agents []agent
	for _, e := range ents {
		a, err := compile.Load(filepath.Join(dir, e.Name()), compile.LoadOptions{})
		if err != nil {
			return err
		}
		agents = append(agents, agent{e.Name(), a, len(a.Flow.Src)})
	}
	sort.Slice(agents, func(i, j int) bool { return agents[i].size > agents[j].size })
	// The encoders' readiness: the first count of each in this process
	// (issue 27: ≤ 30 ms and ≤ 20 MB; tiktoken-go took ~0.5 s and ~137 MB).
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	t := time.Now()
	for _, enc := range prompts.Encodings {
		if _, err := prompts.Count(enc, "Ready? The first count of each encoding."); err != nil {
			return err
		}
	}
	took := time.Since(t)
	runtime.ReadMemStats(&m1)
	fmt.Printf("first count of both encodings in the process: %v, %d bytes allocated\n", took, m1.TotalAlloc-m0.TotalAlloc)
	t = time.Now()
	prompts.Build(prompts.Input{Agent: agents[0].a})
	fmt.Printf("first report in the process (%s): %v\n", agents[0].slug, time.Since(t))
	fmt.Printf("%-30s %8s %6s %12s %12s\n", "agent", "bytes", "nodes", "first", "warm (best)")
	for i, ag := range agents {
		first := time.Duration(0)
		if i > 0 {
			t = time.Now()
			prompts.Build(prompts.Input{Agent: ag.a})
			first = time.Since(t)
		}
		warm := time.Duration(1 << 62)
		var r *prompts.Report
		for range max(1, runs) {
			t = time.Now()
			r = prompts.Build(prompts.Input{Agent: ag.a})
			warm = min(warm, time.Since(t))
		}
		f := "(above)"
		if i > 0 {
			f = first.String()
		}
		fmt.Printf("%-30s %8d %6d %12s %12v\n", ag.slug, ag.size, len(r.Nodes), f, warm)
	}
	return nil
}
