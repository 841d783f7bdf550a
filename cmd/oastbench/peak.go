package main

import (
	"bytes"
	"fmt"
	"os"
	"runtime"
	"runtime/debug"
	"strconv"
)

// lowerParentPeak makes the peak RSS the next child reports its own, as
// far as it can, and returns the floor left: oastbench's resident set
// after it (KiB; 0 where /proc cannot say).
//
// Why: on Linux a child started by os/exec (clone with CLONE_VM, as vfork)
// reports in ru_maxrss the larger of its own peak and the high-water mark
// of the parent's memory at the child's exec (fs/exec.c, exec_mmap, which
// keeps the old memory's high water). Once oastbench had read the 2,001
// files of its in-process floor, its own peak (55–58 MiB) was what lint's
// runs reported in the runs after the first. So the memory the parent
// has freed goes back to the system, and the parent's high-water mark is
// reset to what it holds now (/proc/self/clear_refs, "5", Linux 4.0).
func lowerParentPeak() int64 {
	runtime.GC()
	debug.FreeOSMemory()
	_ = os.WriteFile("/proc/self/clear_refs", []byte("5"), 0) // best effort: not Linux, or no /proc
	rss := selfRSS()
	if rss > parentFloor {
		parentFloor = rss
	}
	return rss
}

// parentFloor is the largest resident set oastbench held when it started
// a measured child: a child's peak RSS below it cannot be read.
var parentFloor int64

// selfRSS is this process's resident set (KiB) from /proc/self/status,
// 0 when it cannot be read.
func selfRSS() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		if v, ok := bytes.CutPrefix(line, []byte("VmRSS:")); ok {
			n, err := strconv.ParseInt(string(bytes.TrimSuffix(bytes.TrimSpace(v), []byte(" kB"))), 10, 64)
			if err != nil {
				return 0
			}
			return n
		}
	}
	return 0
}

// printParentFloor says below what a child's peak RSS could not be read.
func printParentFloor() {
	if parentFloor > 0 {
		fmt.Printf("(peak RSS: oastbench's own resident set when it started a run was at most %.1f MiB; its high-water mark was reset before each run, so a child's peak above that is the child's own)\n",
			float64(parentFloor)/1024)
	}
}
