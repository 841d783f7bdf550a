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
// part) collects often for little.
//
// A policy is a list of stages, each a GC percent and a soft memory limit
// that hold while the live heap stays under the stage's lift point; the
// policy watches each collection and, once the live heap passes it, moves
// to the next stage. A limit the live heap itself nears would have the
// runtime collect without pause: each stage's lift point is well under
// its limit.
//
// lint's first stage collects when the memory the runtime manages reaches
// batchGCFirstLimit, however small the live heap (GC percent
// batchGCFirstPercent lets the limit alone decide): the 1,000 agents of
// the benchmark tree keep 7-10 MB live, and collecting at a fixed 36 MiB
// rather than at three times the live heap (GC percent 200) halves the
// collections for the same peak (docs/performance.md "The collector's
// first stage"). A tree whose findings keep more alive (10,000 agents)
// passes batchGCFirstLift early and goes on under the second stage: twice
// the live heap between collections (GC percent 200) under a 68 MiB limit,
// a tenth less CPU than the default and a lower peak than that percent
// alone; past batchGCLift live (one hostile 15 MB flow holds 200 MB) the
// runtime's defaults. At 60 MiB (before the first stage) the 10,000-agent
// tree, whose findings keep 40 MB live at the end, collected every few MB
// for its last half second.
//
// Either GOGC or GOMEMLIMIT in the environment leaves both to the
// runtime: the user's setting wins. The servers (lsp, mcp, the TUI) keep
// the runtime's defaults.
const (
	batchGCFirstPercent = 1000
	batchGCFirstLimit   = 36 << 20
	batchGCFirstLift    = 12 << 20

	batchGCPercent = 200
	batchGCLimit   = 68 << 20 // bytes of memory the runtime manages (the peak RSS adds the binary and the runtime's own, about 18-24 MiB)
	batchGCLift    = batchGCLimit / 4 * 3
)

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

// noLimit is a stage without a soft memory limit.
const noLimit = math.MaxInt64

// gcStage is one stage of a command's collector policy: GC percent and soft
// limit while the live heap stays under lift bytes (0: the last stage).
type gcStage struct {
	percent     int
	limit, lift int64
}

// gcPolicy is a command's collector policy: its stages in order.
type gcPolicy []gcStage

// set sets the policy for the rest of the process.
func (p gcPolicy) set() { setStages(p, 0) }

// gcPolicies are the commands that get a policy: the batch commands, and
// the diff.
var gcPolicies = map[string]gcPolicy{
	"lint":     batchPolicy,
	"baseline": batchPolicy,
	"diff":     {{batchGCPercent, diffGCLimit, diffGCLimit / 4 * 3}, {diffGCPercentLifted, noLimit, 0}},
}

// batchPolicy is the policy of lint and baseline.
var batchPolicy = gcPolicy{
	{batchGCFirstPercent, batchGCFirstLimit, batchGCFirstLift},
	{batchGCPercent, batchGCLimit, batchGCLift},
	{100, noLimit, 0},
}

// policyFor is the policy of the command line's command, false when it
// has none or GOGC or GOMEMLIMIT is set.
func policyFor(args []string, lookupEnv func(string) (string, bool)) (gcPolicy, bool) {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := lookupEnv(v); set {
			return nil, false
		}
	}
	cmd, _, err := newRootCmd().Find(args)
	if err != nil || !cmd.HasParent() {
		return nil, false
	}
	p, ok := gcPolicies[cmd.Name()]
	return p, ok
}

// setStages sets the first stage of p the live heap (live bytes) has not
// passed, and the watch that moves on from it when there is a next one.
func setStages(p gcPolicy, live int64) {
	for len(p) > 1 && p[0].lift > 0 && live > p[0].lift {
		p = p[1:]
	}
	if len(p) == 0 {
		return
	}
	debug.SetGCPercent(p[0].percent)
	debug.SetMemoryLimit(p[0].limit)
	if len(p) > 1 && p[0].lift > 0 {
		armGCWatch(p)
	}
}

// armGCWatch runs gcWatched after the next collection: a finalizer on an
// object nothing references runs once the collection that found it
// unreachable has finished.
func armGCWatch(p gcPolicy) {
	sentinel := new([16]byte) // not tiny-allocated: its own finalizer
	runtime.SetFinalizer(sentinel, func(*[16]byte) { gcWatched(p) })
}

// gcWatched moves to the next stage when the live heap passed the current
// one's lift point, else watches the next collection.
func gcWatched(p gcPolicy) {
	if live := liveHeap(); live > p[0].lift {
		setStages(p[1:], live)
		return
	}
	armGCWatch(p)
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
