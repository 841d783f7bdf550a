// Command oastbench measures `oastui lint` over a large agents/ tree: the
// corpus agents copied N times (with the global registry), linted by the
// built binary with --format json, next to the floor: the time it takes
// to read the same files and tokenize them with jsontext on one goroutine.
// Run it from the repository root:
//
//	go run ./cmd/oastbench -n 40        # 25 corpus agents × 40 = 1,000 agents
//	go run ./cmd/oastbench -n 40 -full  # also lint --mode full, paired with deterministic
//	go run ./cmd/oastbench -n 40 -runs 15 -base /tmp/oastui-main  # also that binary, paired: the CPU ratio of a change
//	go run ./cmd/oastbench -n 40 -policies cfg.yaml  # also lint --config cfg.yaml (team policies), paired
//	go run ./cmd/oastbench -diffcost -runs 9 -base /tmp/oastui-main  # issue 35: diff of 100,000 renamed placeholders and a renamed 33,000-node flow against lint
//	go run ./cmd/oastbench -n 40 -cpuprofile cpu.out -memprofile mem.out
//
// -cpuprofile and -memprofile profile any mode: after the timed runs, each
// oastui command measured is run once more with OASTUI_CPUPROFILE /
// OASTUI_MEMPROFILE set (the binary writes the profile; the file name gets
// the command's label when there are several), and -prompts, which runs in
// this process, profiles itself. Read them with go tool pprof.
//
// Wall time is measured around the child process; peak memory is the
// child's maximum resident set size (getrusage). Each measurement is taken
// -runs times; the best and the median are printed.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"sync"
	"syscall"
	"time"

	"github.com/go-json-experiment/json/jsontext"
)

func main() {
	if tree := os.Getenv(floorEnv); tree != "" {
		if err := runFloorChild(tree); err != nil {
			fmt.Fprintln(os.Stderr, "oastbench floor:", err)
			os.Exit(1)
		}
		return
	}
	n := flag.Int("n", 40, "copies of the corpus agents")
	corpus := flag.String("corpus", filepath.Join("..", "shared", "corpus", "cinatra"), "the Cinatra corpus (holds agents/cinatra-ai and agents/_shared)")
	runs := flag.Int("runs", 3, "measurements of each kind")
	keep := flag.Bool("keep", false, "keep the temporary tree and print its path")
	hostileMode := flag.Bool("hostile", false, "instead: time oastui lint on the hostile layouts of issue 11 (4k-node flow minified vs pretty, valid 50k-node flow, 20k-key YAML mapping)")
	full := flag.Bool("full", false, "also time lint --mode full (adds the dry run), paired with deterministic")
	flag.StringVar(&baseBin, "base", "", "also time this oastui binary (built from another revision) on the same tree, paired by run with the one built here, and print their CPU ratio")
	policies := flag.String("policies", "", "also time lint --config FILE (a .oastui.yaml with team policies, issue 38), paired with deterministic by CPU time")
	flag.StringVar(&profiles.cpu, "cpuprofile", "", "write a CPU profile of each measured run to this file")
	flag.StringVar(&profiles.mem, "memprofile", "", "write an allocation profile of each measured run to this file")
	diffCost := flag.Bool("diffcost", false, "instead: time oastui diff --format json (and MCP agent_diff) on the hostile changes of issue 35 (renamed placeholders, a renamed large flow), next to lint, paired")
	placeholders := flag.Int("placeholders", 100000, "-diffcost: placeholders renamed in one prompt (0: skip that input)")
	nodes := flag.Int("nodes", 33000, "-diffcost: nodes of the renamed flow (0: skip that input)")
	combined := flag.Bool("combined", true, "-diffcost: also the flow of -nodes nodes with a prompt of -placeholders placeholders renamed (false: skip it, as for a -base before 4c54c62)")
	promptsMode := flag.Bool("prompts", false, "instead: time the prompt report (issue 16) of every corpus agent in this process, first (every chunk counted anew) and warm")
	flag.Parse()
	if *promptsMode {
		stop, err := profiles.self()
		if err == nil {
			err = runPrompts(*corpus, *runs)
			stop()
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "oastbench:", err)
			os.Exit(1)
		}
		return
	}
	if *diffCost {
		if err := runDiffCost(*runs, *placeholders, *nodes, *combined, *keep); err != nil {
			fmt.Fprintln(os.Stderr, "oastbench:", err)
			os.Exit(1)
		}
		return
	}
	if *hostileMode {
		if err := runHostile(*runs); err != nil {
			fmt.Fprintln(os.Stderr, "oastbench:", err)
			os.Exit(1)
		}
		return
	}
	if *policies != "" {
		abs, err := filepath.Abs(*policies)
		if err != nil {
			fmt.Fprintln(os.Stderr, "oastbench:", err)
			os.Exit(1)
		}
		*policies = abs
	}
	if err := run(*n, *corpus, *runs, *keep, *full, *policies); err != nil {
		fmt.Fprintln(os.Stderr, "oastbench:", err)
		os.Exit(1)
	}
}

// baseBin is -base: an oastui binary timed beside the one built here.
var baseBin string

func run(n int, corpus string, runs int, keep, full bool, policies string) error {
	if n < 1 || runs < 1 {
		return errors.New("-n and -runs must be at least 1")
	}
	src := filepath.Join(corpus, "agents", "cinatra-ai")
	ents, err := os.ReadDir(src)
	if err != nil {
		return fmt.Errorf("corpus not found: %w (run from the repository root, or pass -corpus)", err)
	}
	tmp, err := os.MkdirTemp("", "oastbench-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Println("tree:", tmp)
	} else {
		defer os.RemoveAll(tmp)
	}

	// The tree: agents/v<k>/<slug>/… and agents/_shared/cinatra/components.json.
	tree := filepath.Join(tmp, "agents")
	var slugs []string
	for _, e := range ents {
		if e.IsDir() {
			slugs = append(slugs, e.Name())
		}
	}
	for k := range n {
		for _, s := range slugs {
			if err := copyDir(filepath.Join(src, s), filepath.Join(tree, fmt.Sprintf("v%03d", k), s)); err != nil {
				return err
			}
		}
	}
	reg := filepath.Join(corpus, "agents", "_shared", "cinatra", "components.json")
	if err := copyFile(reg, filepath.Join(tree, "_shared", "cinatra", "components.json")); err != nil {
		return err
	}

	// Build the binary.
	bin := filepath.Join(tmp, "oastui")
	build := exec.Command("go", "build", "-o", bin, "./cmd/oastui")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build ./cmd/oastui (run from the repository root): %w", err)
	}

	type measured struct {
		label string
		bin   string // "" for the binary built here
		args  []string
		walls []time.Duration
		cpus  []time.Duration
		rss   []int64
		out   int
	}
	cmds := []*measured{{label: "deterministic", args: []string{"lint", tree, "--format", "json"}}}
	if full {
		cmds = append(cmds, &measured{label: "full", args: []string{"lint", tree, "--format", "json", "--mode", "full"}})
	}
	if policies != "" {
		cmds = append(cmds, &measured{label: "policies", args: []string{"lint", tree, "--format", "json", "--config", policies}})
	}
	var base *measured
	if baseBin != "" {
		base = &measured{label: "deterministic, -base " + baseBin, bin: baseBin, args: cmds[0].args}
		cmds = append(cmds, base)
	}
	// The files the linter reads: every JSON file of every package, and
	// the registry once (a lint run shares one read of it between its
	// agents: compile.RegistryCache). Only their paths are kept while the
	// linter runs: the parent's resident memory counts in a child's max
	// RSS (the child shares the parent's pages between fork and exec).
	paths := []string{reg}
	agents := 0
	err = filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == "_shared" {
			return filepath.SkipDir
		}
		if d.IsDir() || filepath.Ext(p) != ".json" {
			return nil
		}
		paths = append(paths, p)
		if filepath.Base(p) == "oas.json" {
			agents++
		}
		return nil
	})
	if err != nil {
		return err
	}

	// Paired: in each run the commands in turn, then the floor (issue 27:
	// the same files read and tokenized with jsontext on one core), so
	// that each lint run has a floor measured beside it.
	var floor, floorCPU []time.Duration
	// The fresh-process floor (issue 39: "a fresh-process comparison with
	// the same files"): this binary started again with floorEnv, which
	// pays what lint pays before and around its reading (a Go program's
	// start and exit, the walk of the tree) and nothing else.
	self, err := os.Executable()
	if err != nil {
		return err
	}
	var freshWall, freshCPU []time.Duration
	var freshRSS []int64
	total := 0
	for r := range runs {
		for k := range cmds {
			m := cmds[k]
			if base != nil && r%2 == 1 { // every other run the other way round: no order favours either binary
				m = cmds[len(cmds)-1-k]
			}
			b := bin
			if m.bin != "" {
				b = m.bin
			}
			wall, maxrss, out, err := lintOnce(b, m.args, nil)
			if err != nil {
				return err
			}
			m.walls, m.rss, m.out = append(m.walls, wall), append(m.rss, maxrss), out
			m.cpus = append(m.cpus, lastCPU)
		}
		c0 := selfCPU()
		d, n, err := readTokenizeAll(paths)
		if err != nil {
			return err
		}
		floor, floorCPU, total = append(floor, d), append(floorCPU, selfCPU()-c0), n
		fw, frss, _, err := lintOnce(self, nil, []string{floorEnv + "=" + tree})
		if err != nil {
			return fmt.Errorf("the fresh-process floor: %w", err)
		}
		freshWall, freshCPU, freshRSS = append(freshWall, fw), append(freshCPU, lastCPU), append(freshRSS, frss)
	}
	for _, m := range cmds {
		fmt.Printf("oastui lint --format json (%s): wall %s; cpu %s; peak RSS %s (output %d bytes)\n",
			m.label, durs(m.walls), durs(m.cpus), kibs(m.rss), m.out)
	}
	for _, m := range cmds[1:] {
		if m == base {
			continue // paired below, the other way round
		}
		var r, rc []float64
		for i := range cmds[0].walls {
			r = append(r, float64(m.walls[i])/float64(cmds[0].walls[i]))
			rc = append(rc, float64(m.cpus[i])/float64(cmds[0].cpus[i]))
		}
		sort.Float64s(r)
		sort.Float64s(rc)
		fmt.Printf("ratio %s / deterministic, paired by run: median %.2f× wall, %.2f× cpu (runs: %s; target ≤ 1.5×)\n", m.label, r[len(r)/2], rc[len(rc)/2], ratios(rc))
	}
	if base != nil {
		var rc []float64
		for i := range base.cpus {
			rc = append(rc, float64(cmds[0].cpus[i])/float64(base.cpus[i]))
		}
		sort.Float64s(rc)
		fmt.Printf("ratio this build / -base, cpu time, paired by run: median %.3f× (runs: %s)\n", rc[len(rc)/2], ratios(rc))
	}
	for _, m := range cmds {
		if err := profiles.child(bin, m.args, m.label, len(cmds) > 1); err != nil {
			return err
		}
	}
	walls, rss, cpus := cmds[0].walls, cmds[0].rss, cmds[0].cpus
	var counted []syscallRun
	for _, m := range cmds {
		b := bin
		if m.bin != "" {
			b = m.bin
		}
		counted = append(counted, syscallRun{label: m.label, bin: b, args: m.args})
	}
	if err := printSyscalls(tree, counted); err != nil {
		return err
	}

	fmt.Printf("tree: %d agents (%d corpus agents × %d) + registry; %d JSON documents read, %.1f MB; GOMAXPROCS %d\n",
		agents, len(slugs), n, len(paths), float64(total)/1e6, runtime.GOMAXPROCS(0))

	// The tokenizing alone (the files already in memory), for comparison
	// with earlier rounds: only now is the tree read into memory.
	var tok1, tokP []time.Duration
	inMemory := make([][]byte, len(paths))
	for i, p := range paths {
		if inMemory[i], err = os.ReadFile(p); err != nil {
			return err
		}
	}
	for range runs {
		tok1 = append(tok1, tokenizeAll(inMemory, 1))
		tokP = append(tokP, tokenizeAll(inMemory, runtime.GOMAXPROCS(0)))
	}
	fmt.Printf("floor, files read and tokenized with jsontext, 1 goroutine: %s; cpu %s\n", durs(floor), durs(floorCPU))
	fmt.Printf("jsontext tokenize only (files in memory), 1 goroutine: %s\n", durs(tok1))
	fmt.Printf("jsontext tokenize only (files in memory), %d goroutines: %s\n", runtime.GOMAXPROCS(0), durs(tokP))
	bw, bt1 := best(walls), best(tok1)
	bm := sorted(walls)[len(walls)/2]
	mf, mt1 := sorted(floor)[len(floor)/2], sorted(tok1)[len(tok1)/2]
	mc, mfc := sorted(cpus)[len(cpus)/2], sorted(floorCPU)[len(floorCPU)/2]
	var paired []float64
	for i := range walls {
		paired = append(paired, float64(walls[i])/float64(floor[i]))
	}
	sort.Float64s(paired)
	fmt.Printf("ratio lint / floor, paired by run: median %.1f× wall (runs: %s; target ≤ 4×, aim 2×)\n", paired[len(paired)/2], ratios(paired))
	fmt.Printf("ratio (medians): lint / floor = %.1f× wall; lint / tokenize only = %.1f× wall\n",
		float64(bm)/float64(mf), float64(bm)/float64(mt1))
	fmt.Printf("ratio (median), cpu time (steadier on a loaded machine): lint cpu %s / floor cpu %s = %.1f×\n",
		mc, mfc, float64(mc)/float64(mfc))
	fmt.Printf("ratio (best): lint / tokenize only = %.1f× (1 goroutine)\n", float64(bw)/float64(bt1))
	fmt.Printf("floor, a fresh process (a Go program's start and exit, the walk of the tree, every JSON file read and tokenized with jsontext, 1 goroutine): wall %s; cpu %s; peak RSS %s\n",
		durs(freshWall), durs(freshCPU), kibs(freshRSS))
	var fw, fc []float64
	for i := range walls {
		fw = append(fw, float64(walls[i])/float64(freshWall[i]))
		fc = append(fc, float64(cpus[i])/float64(freshCPU[i]))
	}
	sort.Float64s(fw)
	sort.Float64s(fc)
	fmt.Printf("ratio lint / fresh-process floor, paired by run: median %.2f× wall (runs: %s), %.2f× cpu (runs: %s)\n",
		fw[len(fw)/2], ratios(fw), fc[len(fc)/2], ratios(fc))
	fmt.Printf("target for 1,000 agents: ≤ 60 MB peak RSS: best %.3f s, %.1f MiB\n",
		bw.Seconds(), float64(bestInt(rss))/1024)
	printParentFloor()
	return nil
}

// lintOnce runs bin with args once (extra environment env) and returns its
// wall time, peak RSS (KiB) and output size; exit 1 (findings) is success.
func lintOnce(bin string, args, env []string) (time.Duration, int64, int, error) {
	cmd := exec.Command(bin, args...)
	var out countWriter
	cmd.Stdout = &out
	cmd.Stderr = os.Stderr
	cmd.Env = append(os.Environ(), env...)
	lowerParentPeak() // the child's peak RSS its own, not oastbench's
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var ee *exec.ExitError
	if err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return 0, 0, 0, fmt.Errorf("oastui %v: %w", args, err)
	}
	ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0, 0, 0, errors.New("no rusage on this platform")
	}
	lastCPU = time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
	return wall, ru.Maxrss, int(out), nil // Maxrss: KiB on Linux
}

// lastCPU is the user+system time of the child lintOnce ran last.
var lastCPU time.Duration

// selfCPU is this process's user+system time so far.
func selfCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// countWriter counts the bytes written to it (the output is not kept: a
// buffer of it would sit in this process while the next child runs).
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) { *c += countWriter(len(p)); return len(p), nil }

// readTokenizeAll reads each file and every token of it with jsontext, on
// one goroutine, and returns the elapsed time: the floor lint is measured
// against.
func readTokenizeAll(paths []string) (time.Duration, int, error) {
	start := time.Now()
	total := 0
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return 0, 0, err
		}
		total += len(b)
		tokenize(b)
	}
	return time.Since(start), total, nil
}

// ratios prints sorted ratios.
func ratios(r []float64) string {
	var b bytes.Buffer
	for i, x := range r {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%.2f", x)
	}
	return b.String()
}

// tokenize reads every token of one document.
func tokenize(b []byte) {
	dec := jsontext.NewDecoder(bytes.NewReader(b), jsontext.AllowDuplicateNames(true))
	for {
		if _, err := dec.ReadToken(); err != nil {
			if err != io.EOF {
				fmt.Fprintln(os.Stderr, "tokenize:", err)
			}
			return
		}
	}
}

// tokenizeAll reads every token of every document with jsontext, on
// `workers` goroutines, and returns the elapsed time.
func tokenizeAll(files [][]byte, workers int) time.Duration {
	start := time.Now()
	var wg sync.WaitGroup
	next := make(chan []byte)
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for b := range next {
				tokenize(b)
			}
		}()
	}
	for _, b := range files {
		next <- b
	}
	close(next)
	wg.Wait()
	return time.Since(start)
}

func copyDir(from, to string) error {
	return filepath.WalkDir(from, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(from, p)
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(to, rel), 0o755)
		}
		return copyFile(p, filepath.Join(to, rel))
	})
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

func sorted(ds []time.Duration) []time.Duration {
	s := append([]time.Duration(nil), ds...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return s
}

func best(ds []time.Duration) time.Duration { return sorted(ds)[0] }

func durs(ds []time.Duration) string {
	s := sorted(ds)
	return fmt.Sprintf("best %.3f s, median %.3f s (runs: %s)", s[0].Seconds(), s[len(s)/2].Seconds(), list(ds))
}

func list(ds []time.Duration) string {
	out := ""
	for i, d := range ds {
		if i > 0 {
			out += ", "
		}
		out += fmt.Sprintf("%.3f", d.Seconds())
	}
	return out
}

func bestInt(xs []int64) int64 {
	m := xs[0]
	for _, x := range xs {
		m = min(m, x)
	}
	return m
}

func kibs(xs []int64) string {
	s := append([]int64(nil), xs...)
	sort.Slice(s, func(i, j int) bool { return s[i] < s[j] })
	return fmt.Sprintf("best %.1f MiB, median %.1f MiB", float64(s[0])/1024, float64(s[len(s)/2])/1024)
}
