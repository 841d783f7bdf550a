package main

import (
	"fmt"
	"os"
	"path/filepath"
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
	t := time.Now()
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
