package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

func TestWantBatchGC(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	env := func(name string) func(string) (string, bool) {
		return func(v string) (string, bool) { return "1", v == name }
	}
	for _, c := range []struct {
		args []string
		env  func(string) (string, bool)
		want bool
	}{
		{[]string{"lint", "agents"}, none, true},
		{[]string{"lint"}, none, true},
		{[]string{"lint", "--format", "json", "agents"}, none, true},
		{[]string{"baseline", "agents"}, none, true},
		{[]string{"lint", "agents"}, env("GOGC"), false},
		{[]string{"lint", "agents"}, env("GOMEMLIMIT"), false},
		{[]string{"lsp"}, none, false},
		{[]string{"mcp"}, none, false},
		{[]string{"agents/x"}, none, false}, // the TUI
		{nil, none, false},                  // the TUI of the working directory
		{[]string{"compile", "agents/x"}, none, false},
		{[]string{"version"}, none, false},
	} {
		if got := wantBatchGC(c.args, c.env); got != c.want {
			t.Errorf("wantBatchGC(%q) = %v, want %v", c.args, got, c.want)
		}
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
	setBatchGC(batchGCPercent, 1<<40, 1<<38)
	runtime.GC()
	waitFinalizers()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("limit %d after a collection under it, want it kept (%d)", got, int64(1<<40))
	}
	// A lift point under the live heap: lifted at the next collection.
	setBatchGC(batchGCPercent, 4<<20, 3<<20)
	for i := 0; i < 50 && debug.SetMemoryLimit(-1) != math.MaxInt64; i++ {
		runtime.GC()
		waitFinalizers()
	}
	if got := debug.SetMemoryLimit(-1); got != math.MaxInt64 {
		t.Errorf("limit %d with %d bytes live, want the policy lifted", got, liveHeap())
	}
	if got := debug.SetGCPercent(100); got != 100 {
		t.Errorf("GC percent %d after the lift, want 100", got)
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
