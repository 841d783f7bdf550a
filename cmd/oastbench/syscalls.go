package main

import (
	"bufio"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
)

// The system calls of lint and of the floor (issue 39): each run once
// under `strace -f -c` (when strace is on PATH), the floor in a fresh
// process of this binary (floorEnv), so that both counts include a Go
// program's start and exit.

// floorEnv names the tree a child oastbench reads as the floor: it walks
// the tree (filepath.WalkDir, as the lint must find its agents) and reads
// and tokenizes every JSON file in it (os.ReadFile, jsontext) on one
// goroutine, then exits.
const floorEnv = "OASTBENCH_FLOOR_TREE"

// runFloorChild is the floor process of floorEnv.
func runFloorChild(tree string) error {
	return filepath.WalkDir(tree, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || filepath.Ext(p) != ".json" {
			return nil
		}
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		tokenize(b)
		return nil
	})
}

// syscallCounts are the counts strace -c gave for one process tree.
type syscallCounts struct {
	total int            // every system call
	fs    int            // the file-system ones (fsCalls)
	calls map[string]int // by name
}

// fsCalls are the system calls of reading files and listing directories
// (and of writing the report); the rest are the Go runtime's own
// (futex, nanosleep, sched_yield, signals for preemption, mmap…), whose
// number depends on the scheduling, the load and strace's own slowness.
var fsCalls = stringSetOf("openat", "open", "close", "read", "pread64", "write", "fstat", "newfstatat", "statx",
	"lstat", "stat", "getdents64", "readlinkat", "getcwd", "lseek", "fcntl", "epoll_ctl", "ioctl", "access")

func stringSetOf(xs ...string) map[string]bool {
	m := map[string]bool{}
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// straceCount runs argv under `strace -f -c -o FILE` (environment env
// added; the output discarded) and returns its counts. ok is false when
// strace is not on PATH.
func straceCount(argv, env []string) (syscallCounts, bool, error) {
	strace, err := exec.LookPath("strace")
	if err != nil {
		return syscallCounts{}, false, nil
	}
	f, err := os.CreateTemp("", "oastbench-strace-")
	if err != nil {
		return syscallCounts{}, true, err
	}
	name := f.Name()
	f.Close()
	defer os.Remove(name)
	cmd := exec.Command(strace, append([]string{"-f", "-c", "-o", name, "--"}, argv...)...)
	cmd.Env = append(os.Environ(), env...)
	cmd.Stderr = os.Stderr
	var ee *exec.ExitError
	if err := cmd.Run(); err != nil && !(errors.As(err, &ee) && ee.ExitCode() == 1) {
		return syscallCounts{}, true, fmt.Errorf("strace %v: %w", argv, err)
	}
	out, err := os.ReadFile(name)
	if err != nil {
		return syscallCounts{}, true, err
	}
	c, err := parseStraceSummary(string(out))
	return c, true, err
}

// parseStraceSummary reads the table of `strace -c`: "% time seconds
// usecs/call calls [errors] syscall" rows, then a total row.
func parseStraceSummary(s string) (syscallCounts, error) {
	c := syscallCounts{calls: map[string]int{}}
	sc := bufio.NewScanner(strings.NewReader(s))
	sum := 0
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 5 || strings.HasPrefix(f[0], "%") || strings.HasPrefix(f[0], "-") {
			continue
		}
		n, err := strconv.Atoi(f[3])
		if err != nil {
			continue
		}
		name := f[len(f)-1]
		if name == "total" {
			c.total = n
			continue
		}
		c.calls[name] += n
		sum += n
		if fsCalls[name] {
			c.fs += n
		}
	}
	if c.total == 0 || c.total != sum {
		return c, fmt.Errorf("strace summary not understood (total %d, rows %d)", c.total, sum)
	}
	return c, nil
}

// printSyscalls counts the system calls of each lint command and of the
// floor once, under strace, and prints them with their ratios.
func printSyscalls(tree string, lints []syscallRun) error {
	self, err := os.Executable()
	if err != nil {
		return err
	}
	floor, ok, err := straceCount([]string{self}, []string{floorEnv + "=" + tree})
	if !ok {
		fmt.Println("system calls: strace is not on PATH; not counted")
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Printf("system calls (strace -f -c, one run each; the file-system ones: %s):\n", "open/read/stat/getdents/close/write…")
	fmt.Printf("  floor (a fresh process: walk the tree, read and tokenize every JSON file, one goroutine): %d total, %d file-system\n", floor.total, floor.fs)
	for _, l := range lints {
		c, _, err := straceCount(append([]string{l.bin}, l.args...), nil)
		if err != nil {
			return err
		}
		fmt.Printf("  lint (%s): %d total (%.2f× the floor), %d file-system (%.2f×); %s\n", l.label, c.total,
			float64(c.total)/float64(floor.total), c.fs, float64(c.fs)/float64(floor.fs), topCalls(c, 8))
	}
	return nil
}

// syscallRun is one command printSyscalls counts.
type syscallRun struct {
	label, bin string
	args       []string
}

// topCalls names the n most frequent system calls of c with their counts.
func topCalls(c syscallCounts, n int) string {
	type kv struct {
		k string
		v int
	}
	var xs []kv
	for k, v := range c.calls {
		xs = append(xs, kv{k, v})
	}
	for i := 1; i < len(xs); i++ { // insertion sort: a few dozen names
		for j := i; j > 0 && (xs[j].v > xs[j-1].v || xs[j].v == xs[j-1].v && xs[j].k < xs[j-1].k); j-- {
			xs[j], xs[j-1] = xs[j-1], xs[j]
		}
	}
	var b strings.Builder
	for i, x := range xs {
		if i == n {
			break
		}
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d", x.k, x.v)
	}
	return b.String()
}
