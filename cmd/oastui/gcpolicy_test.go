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
	batch := gcPolicy{{1000, 36 << 20, 12 << 20, 0, 0}, {200, 68 << 20, 51 << 20, 0, 0}, {100, noLimit, 0, 0, 0}}
	diff := gcPolicy{{200, 96 << 20, 72 << 20, 72 << 20, 1 << 30}, {150, noLimit, 0, 72 << 20, 1 << 30}}
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
	// last has no limit and no lift point. A full lift comes at the
	// stage's lift point at the latest, and its floor leaves the live heap
	// at the lift room to grow.
	for name, p := range gcPolicies {
		for i, st := range p {
			last := i == len(p)-1
			switch {
			case last && (st.lift != 0 || st.limit != noLimit):
				t.Errorf("%s: the last stage %+v lifts or limits", name, st)
			case !last && (st.lift <= 0 || st.lift > st.limit/4*3):
				t.Errorf("%s: stage %d %+v moves on at %d bytes, past three quarters of its limit", name, i, st, st.lift)
			case st.fullLift > 0 && ((st.lift > 0 && st.fullLift > st.lift) || st.fullFloor < st.fullLift*fullHeadroom):
				t.Errorf("%s: stage %d %+v: full lift past its lift point, or a floor under %d times it", name, i, st, fullHeadroom)
			}
		}
	}
	// The placeholders' diff (collections that find at most seven tenths of
	// their heap live) keeps its stages; the large flow's (all of it) ends
	// them.
	if nearlyAllLive(60<<20, 85<<20) || !nearlyAllLive(77<<20, 62<<20) {
		t.Error("nearlyAllLive does not tell the placeholders' diff from the large flow's")
	}
}

// TestBatchGCLifted sets a policy in this process with a limit the live
// heap already passes: the watch must move to the next stage after a
// collection. A policy that stays would leave the limit set.
func TestBatchGCLifted(t *testing.T) {
	setsGCPolicies(t)
	live := make([]byte, 8<<20) // live through the collections below
	runtime.GC()
	if liveHeap() < 8<<20 {
		t.Fatalf("live heap %d bytes, want at least the 8 MiB held", liveHeap())
	}
	// A limit far above the live heap: the policy stays.
	gcPolicy{{percent: 200, limit: 1 << 40, lift: 1 << 38}, {percent: 150, limit: noLimit, lift: 0}}.set()
	runtime.GC()
	waitFinalizers()
	if got := debug.SetMemoryLimit(-1); got != 1<<40 {
		t.Fatalf("limit %d after a collection under it, want it kept (%d)", got, int64(1<<40))
	}
	// A lift point under the live heap: lifted at the next collection.
	gcPolicy{{percent: 200, limit: 4 << 20, lift: 3 << 20}, {percent: 150, limit: noLimit, lift: 0}}.set()
	waitStage(t, math.MaxInt64)
	if got := debug.SetGCPercent(100); got != 150 {
		t.Errorf("GC percent %d after the lift, want the policy's 150", got)
	}
	// Three stages, the live heap past the first two lift points: it ends
	// in the third, whether it passes the second at once or at a later
	// collection.
	gcPolicy{{percent: 1000, limit: 4 << 20, lift: 2 << 20}, {percent: 200, limit: 6 << 20, lift: 3 << 20}, {percent: 120, limit: noLimit, lift: 0}}.set()
	waitStage(t, math.MaxInt64)
	if got := debug.SetGCPercent(100); got != 120 {
		t.Errorf("GC percent %d past both lift points, want the last stage's 120", got)
	}
	// The first lift point passed, not the second: the second stage.
	gcPolicy{{percent: 1000, limit: 4 << 20, lift: 2 << 20}, {percent: 300, limit: 1 << 40, lift: 1 << 38}, {percent: 120, limit: noLimit, lift: 0}}.set()
	waitStage(t, 1<<40)
	runtime.GC()
	waitFinalizers()
	if got, limit := debug.SetGCPercent(100), debug.SetMemoryLimit(-1); got != 300 || limit != 1<<40 {
		t.Errorf("GC percent %d, limit %d past the first lift point only, want the second stage's 300, %d", got, limit, int64(1<<40))
	}
	runtime.KeepAlive(live)
}

// TestNearlyAllLiveAndFullLimit: the share a collection must find live
// to end the stages, and the soft limit after: the floor, or
// fullHeadroom times a live heap past a third of it.
func TestNearlyAllLiveAndFullLimit(t *testing.T) {
	for _, c := range []struct {
		live, goal int64
		want       bool
	}{
		{7 << 20, 8 << 20, true},
		{8 << 20, 8 << 20, true},
		{9 << 20, 8 << 20, true}, // the heap grew past its goal during the collection
		{7<<20 - 1<<10, 8 << 20, false},
		{60 << 20, 85 << 20, false},
		{1 << 20, 0, false}, // no goal read
	} {
		if got := nearlyAllLive(c.live, c.goal); got != c.want {
			t.Errorf("nearlyAllLive(%d, %d) = %v, want %v", c.live, c.goal, got, c.want)
		}
	}
	for _, c := range []struct{ floor, live, want int64 }{
		{1 << 30, 80 << 20, 1 << 30},
		{1 << 30, 400 << 20, 1200 << 20},
		{1 << 30, 0, 1 << 30},
	} {
		if got := fullLimit(c.floor, c.live); got != c.want {
			t.Errorf("fullLimit(%d, %d) = %d, want %d", c.floor, c.live, got, c.want)
		}
	}
}

// TestGCFullLift sets a policy in this process whose full lift the live
// heap passes, then grows the heap with memory it keeps: the collections
// the growth brings find their heap all live, and the watch ends the
// stages (no GC percent, the floor as the limit) and keeps them ended
// after later collections. A watch without the full lift would leave the
// second stage's GC percent.
func TestGCFullLift(t *testing.T) {
	setsGCPolicies(t)
	runtime.GC()
	const floor = 1 << 40
	gcPolicy{
		{percent: 100, limit: 1 << 41, lift: 1 << 39, fullLift: 2 << 20, fullFloor: floor},
		{percent: 150, limit: noLimit, fullLift: 2 << 20, fullFloor: floor},
	}.set()
	// Kept memory, 16 KiB at a time, until the limit is the floor (at most
	// 64 MiB: the runtime's goal is at most twice the live heap, so several
	// collections come on the way).
	var kept [][]byte
	deadline := time.Now().Add(10 * time.Second)
	for len(kept) < 4096 && debug.SetMemoryLimit(-1) != floor && time.Now().Before(deadline) {
		kept = append(kept, make([]byte, 16<<10))
		if len(kept)%64 == 0 {
			runtime.Gosched() // the finalizer goroutine runs the watch
		}
	}
	if got, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); got != -1 || limit != floor {
		t.Fatalf("GC percent %d, limit %d after %d MiB kept (%d bytes live), want -1 and the floor %d", got, limit, len(kept)>>6, liveHeap(), int64(floor))
	}
	runtime.GC()
	waitFinalizers()
	if got, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); got != -1 || limit != floor {
		t.Errorf("after a later collection GC percent %d, limit %d, want the full lift kept (-1, %d)", got, limit, int64(floor))
	}
	// The next agent of a diff starts from the stages again, at the first
	// stage whose lift point the live heap has not passed (the kept heap,
	// a few MiB, is far under the first stage's).
	restartGCPolicy()
	if got, limit := debug.SetGCPercent(-1), debug.SetMemoryLimit(-1); got != 100 || limit != 1<<41 {
		t.Errorf("after restartGCPolicy GC percent %d, limit %d, want the first stage's 100, %d", got, limit, int64(1<<41))
	}
	runtime.KeepAlive(kept)
}

// setsGCPolicies starts a test that sets collector policies in this
// process from the runtime's defaults (GC percent 100, no limit), and
// puts the process's settings back when it ends, the policies' watches
// stopped.
func setsGCPolicies(t *testing.T) {
	oldPercent := debug.SetGCPercent(100)
	oldLimit := debug.SetMemoryLimit(math.MaxInt64)
	t.Cleanup(func() {
		policyGen.Add(1) // the watches armed by the test stop
		activePolicy = nil
		debug.SetGCPercent(oldPercent)
		debug.SetMemoryLimit(oldLimit)
	})
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
