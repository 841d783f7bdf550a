package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
)

// The collector's policy of the batch commands (issue 39,
// docs/performance.md "Allocation and GC"). `oastui lint` over a tree
// keeps little alive (a few MB of findings and the agents being linted)
// and allocates an agent's worth of short-lived memory per agent, so the
// runtime's default (a collection each time the heap doubles its live
// part) collects often for little: at twice the live heap between
// collections (GC percent 200) lint of 1,000 agents spends about a tenth
// less CPU. A soft memory limit keeps the larger trees, whose live heap
// grows with their findings, from the tripled heap that percent would
// allow: 10,000 agents peak lower than under the default.
//
// A limit the live heap itself outgrows (one hostile 15 MB flow holds
// 200 MB) would make the runtime collect without pause, so the policy
// watches each collection and, once the live heap passes batchGCLift of
// the limit, gives the runtime back its defaults for the rest of the run.
//
// Either GOGC or GOMEMLIMIT in the environment leaves both to the
// runtime: the user's setting wins. The servers (lsp, mcp, the TUI) keep
// the runtime's defaults.
const (
	batchGCPercent = 200
	batchGCLimit   = 60 << 20 // bytes of memory the runtime manages (the peak RSS adds the binary and the runtime's own, about 18 MiB)
)

// batchGCLift is the share of the limit (in quarters) the live heap may
// reach before the policy is lifted.
const batchGCLift = 3

// diffGCLimit is the diff's soft limit, at the batch commands' GC percent
// and lifted the same way (at three quarters of it live, then at
// diffGCPercentLifted): a diff holds its
// old side while it analyses the new one, and the runtime's default let
// the diff of 100,000 renamed placeholders (60 MiB live at most) peak at
// twice its live heap, 134-139 MiB; held under this limit it peaks at
// 116-118 MiB, for the same CPU. A larger diff (a 33,000-node flow: 375 MiB
// live) passes the lift point within its first collections: keeping GC
// percent 200 past the lift peaked 19-25% higher (docs/performance.md
// "Round four").
const diffGCLimit = 96 << 20

// diffGCPercentLifted is the diff's GC percent once its policy is lifted.
// A diff past the lift point holds nearly all it allocates (both sides'
// documents, reviews and views until it writes), so each collection marks
// most of the heap to free little: the 33,000-node diff at the default
// (100) spent about a tenth more CPU than at 150, for a peak of 473-509
// MiB against 486-566 (lint of the flow: 205 MiB; docs/performance.md
// "Round five"). No soft limit past the lift: the live heap outgrows any
// fixed one.
const diffGCPercentLifted = 150

// gcPolicy is a command's collector policy: GC percent and soft limit
// until the live heap passes lift bytes, then GC percent lifted (the
// runtime's default, 100, for the batch commands) and no limit.
type gcPolicy struct {
	percent     int
	limit, lift int64
	lifted      int
}

// set sets the policy for the rest of the process.
func (p gcPolicy) set() { setBatchGC(p.percent, p.limit, p.lift, p.lifted) }

// gcPolicies are the commands that get a policy: the batch commands, and
// the diff.
var gcPolicies = map[string]gcPolicy{
	"lint":     {batchGCPercent, batchGCLimit, batchGCLimit / 4 * batchGCLift, 100},
	"baseline": {batchGCPercent, batchGCLimit, batchGCLimit / 4 * batchGCLift, 100},
	"diff":     {batchGCPercent, diffGCLimit, diffGCLimit / 4 * batchGCLift, diffGCPercentLifted},
}

// policyFor is the policy of the command line's command, false when it
// has none or GOGC or GOMEMLIMIT is set.
func policyFor(args []string, lookupEnv func(string) (string, bool)) (gcPolicy, bool) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := lookupEnv(v); set {
			return gcPolicy{}, false
		}
	}
	cmd, _, err := newRootCmd().Find(args)
	if err != nil || !cmd.HasParent() {
		return gcPolicy{}, false
	}
	p, ok := gcPolicies[cmd.Name()]
	return p, ok
}

// setBatchGC sets the policy for the rest of the process: percent, limit
// and the watch that, when the live heap passes lift bytes, removes the
// limit and sets GC percent lifted.
func setBatchGC(percent int, limit, lift int64, lifted int) {
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
	armGCWatch(lift, lifted)
}

// armGCWatch runs gcWatched after the next collection: a finalizer on an
// object nothing references runs once the collection that found it
// unreachable has finished.
func armGCWatch(lift int64, lifted int) {
	sentinel := new([16]byte) // not tiny-allocated: its own finalizer
	runtime.SetFinalizer(sentinel, func(*[16]byte) { gcWatched(lift, lifted) })
}

// gcWatched lifts the policy when the live heap passed lift, else watches
// the next collection.
func gcWatched(lift int64, lifted int) {
	if liveHeap() > lift {
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(lifted)
		return
	}
	armGCWatch(lift, lifted)
}

// liveHeap is the heap the last collection found live, in bytes.
func liveHeap() int64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
