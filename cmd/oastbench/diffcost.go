package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"syscall"
	"time"

	"github.com/oastui/oastui/internal/hostile"
)

// runDiffCost (issue 35, points 11 and 12) times the real binary's
// `oastui diff HEAD~1 HEAD --format json` on two hostile changes committed
// to a temporary git repository, next to `oastui lint --format json` of the
// new side, paired run by run:
//
//   - placeholders: one LLM node whose prompt's n placeholders are all
//     renamed (-placeholders, default 100,000), also through MCP
//     agent_diff (`oastui mcp`, one tools/call over stdio);
//   - renamed: a flow of -nodes FlowNodes (default 33,000), every node
//     renamed;
//   - both: the -nodes flow with one LlmNode more whose prompt's
//     -placeholders placeholders are all renamed (-combined; a build
//     before 4c54c62 looked each placeholder up in every node and runs
//     it for minutes: give such a -base -combined=false).
//
// -placeholders 0 or -nodes 0 skips that input; -keep keeps the
// repositories (and the binary) and prints where, for profiling by hand.
//
// It prints each command's wall time, CPU time (user+system), peak RSS and
// output bytes, and the diff's CPU ÷ the lint's, paired by run (target
// ≤ 2.5× for the renamed flow). With -base, that binary's diff is timed too
// and paired against this build's.
func runDiffCost(runs, placeholders, nodes int, combined, keep bool) error {
	if runs < 1 {
		return errors.New("-runs must be at least 1")
	}
	tmp, err := os.MkdirTemp("", "oastbench-diffcost-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("kept:", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}
	bin := filepath.Join(tmp, "oastui")
	build := exec.Command("go", "build", "-o", bin, "./cmd/oastui")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/oastui (run from the repository root): %w", err)
	}
	type input struct {
		name     string
		old, new func() []byte
		mcp      bool
	}
	inputs := []input{
		{fmt.Sprintf("%d placeholders renamed", placeholders),
			func() []byte { return hostile.PlaceholderFlow(placeholders, "a") },
			func() []byte { return hostile.PlaceholderFlow(placeholders, "b") }, true},
		{fmt.Sprintf("%d-node flow, every node renamed", nodes),
			func() []byte { return hostile.Flow(nodes, true) },
			func() []byte {
				return bytes.ReplaceAll(hostile.Flow(nodes, true), []byte(`"name":"Step `), []byte(`"name":"Renamed step `))
			}, false},
		{fmt.Sprintf("%d-node flow with a prompt of %d placeholders renamed", nodes, placeholders),
			func() []byte { return hostile.FlowWithPrompt(nodes, placeholders, "a") },
			func() []byte { return hostile.FlowWithPrompt(nodes, placeholders, "b") }, false},
	}
	for k, in := range inputs {
		if (k == 0 && placeholders < 1) || (k == 1 && nodes < 1) || (k == 2 && (!combined || placeholders < 1 || nodes < 1)) {
			continue // -placeholders 0, -nodes 0 or -combined=false: that input is skipped
		}
		repo := filepath.Join(tmp, fmt.Sprintf("repo%d", k))
		agent := filepath.Join("agents", "acme", "big")
		if err := commitSides(repo, agent, in.old(), in.new()); err != nil {
			return err
		}
		// The parent's memory counts in a child's max RSS: lintOnce and
		// mcpDiffOnce drop it before each run (lowerParentPeak).
		abs := filepath.Join(repo, agent)
		lint := []string{"lint", abs, "--format", "json", "--fail-on", "none"}
		diffArgs := []string{"diff", "HEAD~1", "HEAD", "--format", "json", "--fail-on", "none", "--", agent}
		type m struct {
			label      string
			run        func() (time.Duration, time.Duration, int64, int, error)
			wall, cpus []time.Duration
			rss        []int64
			out        int
		}
		child := func(b string, args []string) func() (time.Duration, time.Duration, int64, int, error) {
			return func() (time.Duration, time.Duration, int64, int, error) {
				w, r, o, err := lintOnceIn(repo, b, args)
				return w, lastCPU, r, o, err
			}
		}
		ms := []*m{{label: "lint (new side)", run: child(bin, lint)}, {label: "diff", run: child(bin, diffArgs)}}
		if baseBin != "" {
			ms = append(ms, &m{label: "diff, -base", run: child(baseBin, diffArgs)})
		}
		if in.mcp {
			ms = append(ms, &m{label: "mcp agent_diff", run: func() (time.Duration, time.Duration, int64, int, error) {
				return mcpDiffOnce(bin, repo, agent)
			}})
			if baseBin != "" {
				ms = append(ms, &m{label: "mcp agent_diff, -base", run: func() (time.Duration, time.Duration, int64, int, error) {
					return mcpDiffOnce(baseBin, repo, agent)
				}})
			}
		}
		for r := range runs {
			for i := range ms {
				x := ms[i]
				if r%2 == 1 { // every other run the other way round
					x = ms[len(ms)-1-i]
				}
				w, c, rss, out, err := x.run()
				if err != nil {
					return fmt.Errorf("%s, %s: %w", in.name, x.label, err)
				}
				x.wall, x.cpus, x.rss, x.out = append(x.wall, w), append(x.cpus, c), append(x.rss, rss), out
				fmt.Fprintf(os.Stderr, "  (run %d, %s: wall %.2f s, cpu %.2f s, %.0f MiB, %d bytes)\n", r+1, x.label, w.Seconds(), c.Seconds(), float64(rss)/1024, out)
			}
		}
		fmt.Printf("%s:\n", in.name)
		for _, x := range ms {
			fmt.Printf("  %-22s wall %s\n  %-22s cpu  %s\n  %-22s peak RSS %s; output %d bytes\n", x.label, durs(x.wall), "", durs(x.cpus), "", kibs(x.rss), x.out)
		}
		ratio := func(a, b *m) string {
			var rc []float64
			for i := range a.cpus {
				rc = append(rc, float64(a.cpus[i])/float64(b.cpus[i]))
			}
			sort.Float64s(rc)
			return fmt.Sprintf("median %.2f× (runs: %s)", rc[len(rc)/2], ratios(rc))
		}
		fmt.Printf("  ratio diff / lint, cpu, paired by run: %s\n", ratio(ms[1], ms[0]))
		var rw []float64 // the wall time, what the user waits (the diff runs its sides at once)
		for i := range ms[1].wall {
			rw = append(rw, float64(ms[1].wall[i])/float64(ms[0].wall[i]))
		}
		sort.Float64s(rw)
		fmt.Printf("  ratio diff / lint, wall, paired by run: median %.2f× (runs: %s)\n", rw[len(rw)/2], ratios(rw))
		if baseBin != "" {
			fmt.Printf("  ratio diff this build / -base, cpu, paired by run: %s\n", ratio(ms[1], ms[2]))
		}
	}
	fmt.Printf("GOMAXPROCS %d; runs %d\n", runtime.GOMAXPROCS(0), runs)
	printParentFloor()
	return nil
}

// commitSides makes a git repository at repo whose last two commits hold
// old and new as the flow of the agent at agent (with a package.json).
func commitSides(repo, agent string, old, new []byte) error {
	dir := filepath.Join(repo, agent)
	if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
		return err
	}
	git := func(args ...string) error {
		cmd := exec.Command("git", append([]string{"-C", repo, "-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgsign=false"}, args...)...)
		cmd.Stderr = os.Stderr
		return cmd.Run()
	}
	if err := git("init", "-q"); err != nil {
		return fmt.Errorf("git init: %w", err)
	}
	pkg := `{"name":"@acme/big","version":"1.0.0","cinatra":{"kind":"agent"}}` + "\n"
	if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
		return err
	}
	for i, src := range [][]byte{old, new} {
		if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), src, 0o644); err != nil {
			return err
		}
		if err := git("add", "-A"); err != nil {
			return err
		}
		if err := git("commit", "-q", "-m", fmt.Sprintf("side %d", i)); err != nil {
			return err
		}
	}
	return nil
}

// lintOnceIn is lintOnce run in directory dir.
func lintOnceIn(dir, bin string, args []string) (time.Duration, int64, int, error) {
	wd, err := os.Getwd()
	if err != nil {
		return 0, 0, 0, err
	}
	if err := os.Chdir(dir); err != nil {
		return 0, 0, 0, err
	}
	defer os.Chdir(wd) //nolint:errcheck // back where we were
	return lintOnce(bin, args, nil)
}

// mcpDiffOnce starts `oastui mcp --root repo`, calls agent_diff on agent
// (HEAD~1 against HEAD) once, and returns the server's wall time, CPU
// time, peak RSS and the size of the tool's answer.
func mcpDiffOnce(bin, repo, agent string) (time.Duration, time.Duration, int64, int, error) {
	cmd := exec.Command(bin, "mcp", "--root", repo)
	cmd.Dir = repo
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return 0, 0, 0, 0, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, 0, 0, err
	}
	cmd.Stderr = os.Stderr
	lowerParentPeak() // the server's peak RSS its own, not oastbench's
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, 0, 0, err
	}
	send := func(v any) error {
		b, err := json.Marshal(v)
		if err != nil {
			return err
		}
		_, err = stdin.Write(append(b, '\n'))
		return err
	}
	msgs := []any{
		map[string]any{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": map[string]any{
			"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "oastbench", "version": "1"}}},
		map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized", "params": map[string]any{}},
		map[string]any{"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": map[string]any{
			"name": "agent_diff", "arguments": map[string]any{"path": agent, "old": "HEAD~1", "new": "HEAD"}}},
	}
	for _, m := range msgs {
		if err := send(m); err != nil {
			return 0, 0, 0, 0, err
		}
	}
	rd := bufio.NewReaderSize(stdout, 1<<20)
	size := 0
	for {
		line, err := rd.ReadBytes('\n')
		if err != nil {
			cmd.Process.Kill() //nolint:errcheck // the answer never came
			cmd.Wait()         //nolint:errcheck
			return 0, 0, 0, 0, fmt.Errorf("mcp: no answer to agent_diff: %w", err)
		}
		var head struct {
			ID    int             `json:"id"`
			Error json.RawMessage `json:"error"`
		}
		if json.Unmarshal(line, &head) == nil && head.ID == 2 {
			if head.Error != nil {
				stdin.Close()
				cmd.Wait() //nolint:errcheck
				return 0, 0, 0, 0, fmt.Errorf("mcp: agent_diff: %s", head.Error)
			}
			size = len(line)
			break
		}
	}
	stdin.Close()
	io.Copy(io.Discard, rd) //nolint:errcheck // the server exits at end of input
	if err := cmd.Wait(); err != nil {
		return 0, 0, 0, 0, fmt.Errorf("oastui mcp: %w", err)
	}
	wall := time.Since(start)
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, 0, 0, errors.New("no rusage on this platform")
	}
	return wall, time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), ru.Maxrss, size, nil
}
