package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestWantBatchGC: the batch commands get the batch policy, the diff its
// own limit, every other command and a user's GOGC or GOMEMLIMIT none.
func TestWantBatchGC(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	env := func(name string) func(string) (string, bool) {
		return func(v string) (string, bool) { return "1", v == name }
	}
	batch := gcPolicy{batchGCPercent, batchGCLimit, batchGCLimit / 4 * batchGCLift, 100}
	diff := gcPolicy{batchGCPercent, diffGCLimit, diffGCLimit / 4 * batchGCLift, diffGCPercentLifted}
	for _, c := range []struct {
		args []string
		env  func(string) (string, bool)
		want gcPolicy
		ok   bool
	}{
		{[]string{"lint", "agents"}, none, batch, true},
		{[]string{"lint"}, none, batch, true},
		{[]string{"lint", "--format", "json", "agents"}, none, batch, true},
		{[]string{"baseline", "agents"}, none, batch, true},
		{[]string{"diff", "HEAD~1", "HEAD", "--format", "json", "--", "agents"}, none, diff, true},
		{[]string{"diff", "main"}, env("GOGC"), gcPolicy{}, false},
		{[]string{"lint", "agents"}, env("GOGC"), gcPolicy{}, false},
		{[]string{"lint", "agents"}, env("GOMEMLIMIT"), gcPolicy{}, false},
		{[]string{"lsp"}, none, gcPolicy{}, false},
		{[]string{"mcp"}, none, gcPolicy{}, false},
		{[]string{"agents/x"}, none, gcPolicy{}, false}, // the TUI
		{nil, none, gcPolicy{}, false},                  // the TUI of the working directory
		{[]string{"compile", "agents/x"}, none, gcPolicy{}, false},
		{[]string{"version"}, none, gcPolicy{}, false},
	} {
		if got, ok := policyFor(c.args, c.env); got != c.want || ok != c.ok {
			t.Errorf("policyFor(%q) = %+v %v, want %+v %v", c.args, got, ok, c.want, c.ok)
		}
	}
	// The diff's limit holds the placeholders' diff (60 MiB live at most)
	// below its lift point.
	if diff.lift < 60<<20 || diff.lift >= diff.limit {
		t.Errorf("diff policy lifted at %d bytes of live heap (limit %d)", diff.lift, diff.limit)
	}
}

// TestBatchGCLifted sets the policy in this process with a limit the live
// heap already passes: the watch must give the runtime its defaults back
// after a collection. A policy that stays would leave the limit set.
func TestBatchGCLifted(t *testing.T) {
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
	live := make([]byte, 8<<20) // live through the collections below
	runtime.GC()
	if liveHeap() < 8<<20 {
		t.Fatalf("live heap %d bytes, want at least the 8 MiB held", liveHeap())
	}
	// A limit far above the live heap: the policy stays.
	setBatchGC(batchGCPercent, 1<<40, 1<<38, 100)
	runtime.GC()
	waitFinalizers()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("limit %d after a collection under it, want it kept (%d)", got, int64(1<<40))
	}
	// A lift point under the live heap: lifted at the next collection.
	setBatchGC(batchGCPercent, 4<<20, 3<<20, 150)
	for i := 0; i < 50 && debug.SetMemoryLimit(-1) != math.MaxInt64; i++ {
		runtime.GC()
		waitFinalizers()
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d with %d bytes live, want the policy lifted", got, liveHeap())
	}
	if got := debug.SetGCPercent(100); got != 150 {
		t.Errorf("GC percent %d after the lift, want the policy's 150", got)
	}
	runtime.KeepAlive(live)
}

// waitFinalizers lets the finalizer goroutine run what the last
// collection queued.
func waitFinalizers() {
	done := make(chan struct{})
	marker := new([16]byte)
	runtime.SetFinalizer(marker, func(*[16]byte) { close(done) })
	marker = nil
	runtime.GC()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
	}
}
