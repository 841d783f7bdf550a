package main

import (
	"math"
	"reflect"
	"runtime"
	"runtime/debug"
	"testing"
	"time"
)

// TestWantBatchGC: the batch commands get the batch policy, the diff its
// own, every other command and a user's GOGC or GOMEMLIMIT none.
func TestWantBatchGC(t *testing.T) {
	none := func(string) (string, bool) { return "", false }
	env := func(name string) func(string) (string, bool) {
		return func(v string) (string, bool) { return "1", v == name }
	}
	batch := gcPolicy{{1000, 36 << 20, 12 << 20}, {200, 68 << 20, 51 << 20}, {100, noLimit, 0}}
	diff := gcPolicy{{200, 96 << 20, 72 << 20}, {150, noLimit, 0}}
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
		{[]string{"diff", "main"}, env("GOGC"), nil, false},
		{[]string{"lint", "agents"}, env("GOGC"), nil, false},
		{[]string{"lint", "agents"}, env("GOMEMLIMIT"), nil, false},
		{[]string{"lsp"}, none, nil, false},
		{[]string{"mcp"}, none, nil, false},
		{[]string{"agents/x"}, none, nil, false}, // the TUI
		{nil, none, nil, false},                  // the TUI of the working directory
		{[]string{"compile", "agents/x"}, none, nil, false},
		{[]string{"version"}, none, nil, false},
	} {
		if got, ok := policyFor(c.args, c.env); !reflect.DeepEqual(got, c.want) || ok != c.ok {
			t.Errorf("policyFor(%q) = %+v %v, want %+v %v", c.args, got, ok, c.want, c.ok)
		}
	}
	// The diff's limit holds the placeholders' diff (60 MiB live at most)
	// below its lift point.
	if diff[0].lift < 60<<20 || diff[0].lift >= diff[0].limit {
		t.Errorf("diff policy lifted at %d bytes of live heap (limit %d)", diff[0].lift, diff[0].limit)
	}
	// Every stage but the last moves on well under its limit (a live heap
	// near the limit would have the runtime collect without pause), and the
	// last has no limit and no lift point.
	for name, p := range gcPolicies {
		for i, st := range p {
			last := i == len(p)-1
			switch {
			case last && (st.lift != 0 || st.limit != noLimit):
				t.Errorf("%s: the last stage %+v lifts or limits", name, st)
			case !last && (st.lift <= 0 || st.lift > st.limit/4*3):
				t.Errorf("%s: stage %d %+v moves on at %d bytes, past three quarters of its limit", name, i, st, st.lift)
			}
		}
	}
}

// TestBatchGCLifted sets a policy in this process with a limit the live
// heap already passes: the watch must move to the next stage after a
// collection. A policy that stays would leave the limit set.
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
	gcPolicy{{200, 1 << 40, 1 << 38}, {150, noLimit, 0}}.set()
	runtime.GC()
	waitFinalizers()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("limit %d after a collection under it, want it kept (%d)", got, int64(1<<40))
	}
	// A lift point under the live heap: lifted at the next collection.
	gcPolicy{{200, 4 << 20, 3 << 20}, {150, noLimit, 0}}.set()
	waitStage(t, math.MaxInt64)
	if got := debug.SetGCPercent(100); got != 150 {
		t.Errorf("GC percent %d after the lift, want the policy's 150", got)
	}
	// Three stages, the live heap past the first two lift points: it ends
	// in the third, whether it passes the second at once or at a later
	// collection.
	gcPolicy{{1000, 4 << 20, 2 << 20}, {200, 6 << 20, 3 << 20}, {120, noLimit, 0}}.set()
	waitStage(t, math.MaxInt64)
	if got := debug.SetGCPercent(100); got != 120 {
		t.Errorf("GC percent %d past both lift points, want the last stage's 120", got)
	}
	// The first lift point passed, not the second: the second stage.
	gcPolicy{{1000, 4 << 20, 2 << 20}, {300, 1 << 40, 1 << 38}, {120, noLimit, 0}}.set()
	waitStage(t, 1<<40)
	runtime.GC()
	waitFinalizers()
	if got, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); got != 300 || limit != 1<<40 {
		t.Errorf("GC percent %d, limit %d past the first lift point only, want the second stage's 300, %d", got, limit, int64(1<<40))
	}
	runtime.KeepAlive(live)
}

// waitStage collects until the soft limit is limit (at most 50 times) and
// fails if it is not.
func waitStage(t *testing.T, limit int64) {
	t.Helper()
	for i := 0; i < 50 && debug.SetMemoryLimit(-1) != limit; i++ {
		runtime.GC()
		waitFinalizers()
	}
	if got := debug.SetMemoryLimit(-1); got != limit {
		t.Fatalf("limit %d with %d bytes live, want %d", got, liveHeap(), limit)
	}
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
