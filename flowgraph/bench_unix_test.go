//go:build unix

package flowgraph

import (
	"runtime"
	"syscall"
	"testing"
	"time"
)

// These were TestSpeedAndMemory10k and TestGrowthReport: measurements that
// asserted nothing and cost 20 s of every `go test -race ./flowgraph`. As
// benchmarks they run only when asked:
//
//	go test ./flowgraph -run '^$' -bench 'Layout10k|Generated' -benchtime 2s

// cpuNow is the CPU time of the process (getrusage): a busy machine
// inflates wall time, not this.
func cpuNow() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// BenchmarkLayout10k renders a 10,240-node generated flow and reports the
// CPU time per render, the megabytes allocated per render, the heap in use
// after, and the drawing's layers, dummies and crossings.
func BenchmarkLayout10k(b *testing.B) {
	g := generateGraph(10240, 7)
	runtime.GC()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	c0 := cpuNow()
	var lo *Layout
	for b.Loop() {
		_, lo = Render(g, Options{})
	}
	cpu := cpuNow() - c0
	runtime.ReadMemStats(&m1)
	b.ReportMetric(float64(cpu.Milliseconds())/float64(b.N), "cpu-ms/op")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N)/1e6, "MB/op")
	b.ReportMetric(float64(m1.HeapInuse)/1e6, "heap-MB")
	b.ReportMetric(float64(lo.Layers), "layers")
	b.ReportMetric(float64(lo.Dummies), "dummies")
	b.ReportMetric(float64(lo.Crossings), "crossings")
}

// processCPU is cpuNow where getrusage exists (-1 elsewhere).
func processCPU() time.Duration { return cpuNow() }
