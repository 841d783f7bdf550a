//go:build unix

package flowgraph

import (
	"fmt"
	"runtime"
	"syscall"
	"testing"
	"time"
)

// TestSpeedAndMemory10k renders a 10,240-node generated flow and logs the
// wall time, the CPU time of the process (getrusage; the wall time is
// inflated when the machine is shared), the bytes allocated and the heap in
// use after. Numbers go in the report; no limit is asserted. Skipped with
// -short.
func TestSpeedAndMemory10k(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	g := generateGraph(10240, 7)
	runtime.GC()
	var before, after runtime.MemStats
	var ru0, ru1 syscall.Rusage
	runtime.ReadMemStats(&before)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru0)
	t0 := time.Now()
	c, lo := Render(g, Options{})
	wall := time.Since(t0)
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru1)
	runtime.ReadMemStats(&after)
	cpu := time.Duration(ru1.Utime.Nano()+ru1.Stime.Nano()-ru0.Utime.Nano()-ru0.Stime.Nano()) * time.Nanosecond
	t.Logf("10k nodes: %d nodes, canvas %dx%d (sparse %v), %d layers, %d dummies, %d crossings; wall %v, cpu %v; allocated %.1f MB, heap in use after %.1f MB",
		len(g.Nodes), c.W, c.H, c.Cells == nil, lo.Layers, lo.Dummies, lo.Crossings, wall.Round(time.Millisecond), cpu.Round(time.Millisecond),
		float64(after.TotalAlloc-before.TotalAlloc)/1e6, float64(after.HeapInuse)/1e6)
}

func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// TestGrowthReport logs the CPU time per node of layout + drawing as the
// generated flow doubles from 10 to 10,240 nodes (CPU time of the process,
// so a busy machine does not inflate it as it does wall time).
func TestGrowthReport(t *testing.T) {
	if testing.Short() {
		t.Skip("short")
	}
	var b []byte
	b = fmt.Appendf(b, "%8s %8s %10s %12s %12s %10s\n", "size", "nodes", "reps", "cpu/op", "cpu ns/node", "MB/op")
	for n := 10; n <= 10240; n *= 2 {
		g := generateGraph(n, 7)
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		c0 := cpuNow()
		reps := 0
		for reps < 200 && (reps == 0 || cpuNow()-c0 < 300*time.Millisecond) {
			Render(g, Options{})
			reps++
		}
		cpu := (cpuNow() - c0) / time.Duration(reps)
		runtime.ReadMemStats(&m1)
		b = fmt.Appendf(b, "%8d %8d %10d %12v %12d %10.2f\n", n, len(g.Nodes), reps, cpu.Round(time.Microsecond),
			cpu.Nanoseconds()/int64(len(g.Nodes)), float64(m1.TotalAlloc-m0.TotalAlloc)/float64(reps)/1e6)
	}
	t.Log("\n" + string(b))
}
