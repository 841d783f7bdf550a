//go:build unix

package flowgraph

import (
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
