package main

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// Profiling for cmd/oastbench -cpuprofile/-memprofile (issue 27): when
// OASTUI_CPUPROFILE names a file, the whole command is CPU-profiled into
// it; when OASTUI_MEMPROFILE does, the allocations of the whole command
// (pprof's allocs profile: every allocation since start, sampled) are
// written to it at exit. Unset, the runtime's own sampling of allocations
// is turned off too: no face of oastui reads a memory profile, and the
// sampling (a stack walk every 512 KiB allocated, by default) cost the
// 33,000-node diff 40 M instructions and a 1,000-agent lint about 0.7 %.
func withProfiles(f func() int) int {
	if p := os.Getenv("OASTUI_CPUPROFILE"); p != "" {
		out, err := os.Create(p)
		if err != nil {
			fmt.Fprintln(os.Stderr, "oastui: OASTUI_CPUPROFILE:", err)
			return exitUsage
		}
		defer out.Close()
		if err := pprof.StartCPUProfile(out); err != nil {
			fmt.Fprintln(os.Stderr, "oastui: OASTUI_CPUPROFILE:", err)
			return exitUsage
		}
		defer pprof.StopCPUProfile()
	}
	if p := os.Getenv("OASTUI_MEMPROFILE"); p == "" {
		runtime.MemProfileRate = 0
	} else {
		runtime.MemProfileRate = 64 << 10
		defer func() {
			// The profile is as of the last collection: one now counts
			// what the command allocated since (a diff's second half).
			runtime.GC()
			out, err := os.Create(p)
			if err == nil {
				err = pprof.Lookup("allocs").WriteTo(out, 0)
				out.Close()
			}
			if err != nil {
				fmt.Fprintln(os.Stderr, "oastui: OASTUI_MEMPROFILE:", err)
			}
		}()
	}
	return f()
}
