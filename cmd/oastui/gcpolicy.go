package main

import (
	"math"
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync/atomic"
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

// diffGCPercentLifted is the diff's GC percent once its policy is lifted
// by size (a live heap past three quarters of diffGCLimit whose
// collections still free part of it; one that frees little ends the
// stages: diffFullLift). A diff past the lift point holds most of what it
// allocates, so each collection marks most of the heap: the 33,000-node
// diff at the default (100) spent about a tenth more CPU than at 150, for
// a peak of 473-509 MiB against 486-566 (docs/performance.md "Round
// five"). No soft limit past the lift: the live heap outgrows any fixed
// one.
const diffGCPercentLifted = 150

// diffFullLift and diffFullFloor end the diff's stages when its heap is
// nearly all live (gcStage.fullLift). A diff holds nearly all it allocates
// (both sides' documents, reviews and views until it writes), so once a
// collection past diffFullLift finds at least seven eighths of the heap
// it was paced for live, collecting again at any GC percent marks the
// whole heap to free little: the 33,000-node diff spent about a quarter
// of its CPU in the collector, three to five collections of 80-360 MB
// live, and at GC percent 400 after the lift still one of 360 MB
// (docs/performance.md "The diff's collector"). From then on the diff
// collects only when the memory the runtime manages reaches diffFullFloor
// or fullHeadroom times the live heap, whichever is more (setFull). The
// placeholders' diff frees most of its heap at every collection (seven
// tenths of it live at most), so it keeps its stages. The full lift waits
// for the first stage's lift point (72 MiB live), which that diff never
// reaches (64 MiB at most): at 32 MiB it was judged full in 3 runs of 60
// and peaked at 138-347 MiB rather than 116, since the watch may run
// after a later collection than the one it was armed for and then judges
// the live heap against an older, smaller goal (docs/performance.md "The
// diff's collector").
const (
	diffFullLift  = diffGCLimit / 4 * 3 // the first stage's lift point
	diffFullFloor = 1 << 30
)

// fullLive is the share of a collection's heap goal found live (num/den)
// from which the collection is judged to have freed little.
const fullLiveNum, fullLiveDen = 7, 8

// fullHeadroom is the soft limit of a policy past its full lift, in times
// the live heap, above its floor: the runtime's GC percent 200, so that a
// heap past the floor is collected as the batch stages collect theirs, and
// the limit stays well above the live heap while the watch that raises it
// waits to run (a limit the live heap nears has the runtime collect
// without pause).
const fullHeadroom = 3

// noLimit is a stage without a soft memory limit.
const noLimit = math.MaxInt64

// gcStage is one stage of a command's collector policy: GC percent and soft
// limit while the live heap stays under lift bytes (0: the last stage).
// A stage with fullLift ends the stages, whatever stages follow, once a
// collection finds its heap nearly all live (fullLiveNum/fullLiveDen of
// the goal it was paced for) with more than fullLift bytes live: from then
// on the collector runs only at a soft limit of fullFloor or fullHeadroom
// times the live heap, whichever is more (setFull).
type gcStage struct {
	percent             int
	limit, lift         int64
	fullLift, fullFloor int64
}

// gcPolicy is a command's collector policy: its stages in order.
type gcPolicy []gcStage

// set sets the policy for the rest of the process, in place of any set
// before (whose watch stops at its next collection).
func (p gcPolicy) set() {
	activePolicy = p
	setStages(p, 0, policyGen.Add(1))
}

// activePolicy is the policy set last (nil: none, as when the user set
// GOGC or GOMEMLIMIT or the command has none).
var activePolicy gcPolicy

// restartGCPolicy sets the active policy again, from its first stage the
// live heap has not passed. A face calls it between the units of one run
// (the diff's agents): a full lift one agent's analysis earned (its
// documents all live) must not leave the next agents' garbage collected
// only at the floor.
func restartGCPolicy() {
	if activePolicy != nil {
		setStages(activePolicy, liveHeap(), policyGen.Add(1))
	}
}

// policyGen numbers the policies set in this process; a watch whose
// policy is no longer the last one set stops.
var policyGen atomic.Uint64

// gcPolicies are the commands that get a policy: the batch commands, and
// the diff.
var gcPolicies = map[string]gcPolicy{
	"lint":     batchPolicy,
	"baseline": batchPolicy,
	"diff": {
		{percent: batchGCPercent, limit: diffGCLimit, lift: diffGCLimit / 4 * 3, fullLift: diffFullLift, fullFloor: diffFullFloor},
		{percent: diffGCPercentLifted, limit: noLimit, fullLift: diffFullLift, fullFloor: diffFullFloor},
	},
}

// batchPolicy is the policy of lint and baseline.
var batchPolicy = gcPolicy{
	{percent: batchGCFirstPercent, limit: batchGCFirstLimit, lift: batchGCFirstLift},
	{percent: batchGCPercent, limit: batchGCLimit, lift: batchGCLift},
	{percent: 100, limit: noLimit},
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
// passed, and the watch that moves on from it when there is a next one or
// it may end the policy.
func setStages(p gcPolicy, live int64, gen uint64) {
	for len(p) > 1 && p[0].lift > 0 && live > p[0].lift {
		p = p[1:]
	}
	if len(p) == 0 {
		return
	}
	debug.SetGCPercent(p[0].percent)
	debug.SetMemoryLimit(p[0].limit)
	if (len(p) > 1 && p[0].lift > 0) || p[0].fullLift > 0 {
		armGCWatch(p, heapGoal(), gen)
	}
}

// armGCWatch runs gcWatched after the next collection, which is paced for
// a heap of goal bytes.
func armGCWatch(p gcPolicy, goal int64, gen uint64) {
	afterGC(gen, func() { gcWatched(p, goal, gen) })
}

// afterGC runs f after the next collection, unless another policy was set
// by then: a finalizer on an object nothing references runs once the
// collection that found it unreachable has finished.
func afterGC(gen uint64, f func()) {
	sentinel := new([16]byte) // not tiny-allocated: its own finalizer
	runtime.SetFinalizer(sentinel, func(*[16]byte) {
		if policyGen.Load() == gen {
			f()
		}
	})
}

// gcWatched ends the policy when the collection just made found the heap
// it was paced for (goal bytes) nearly all live, moves to the next stage
// when the live heap passed the current one's lift point, and else
// watches the next collection.
func gcWatched(p gcPolicy, goal int64, gen uint64) {
	live := liveHeap()
	if st := p[0]; st.fullLift > 0 && live > st.fullLift && nearlyAllLive(live, goal) {
		setFull(st.fullFloor, live, gen)
		return
	}
	if len(p) > 1 && p[0].lift > 0 && live > p[0].lift {
		setStages(p[1:], live, gen)
		return
	}
	armGCWatch(p, heapGoal(), gen)
}

// setFull sets the collector of a heap found nearly all live: no GC
// percent, a soft limit of floor or fullHeadroom times the live heap,
// whichever is more, and a watch that sets it again after each collection
// (a live heap past a third of the floor raises the limit with it).
func setFull(floor, live int64, gen uint64) {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(fullLimit(floor, live))
	afterGC(gen, func() { setFull(floor, liveHeap(), gen) })
}

// fullLimit is the soft limit past the full lift with live bytes live.
func fullLimit(floor, live int64) int64 {
	if live > floor/fullHeadroom {
		return live * fullHeadroom
	}
	return floor
}

// nearlyAllLive says a collection paced for a heap of goal bytes found
// live bytes of it live: at least fullLiveNum/fullLiveDen. The watch runs
// on the finalizer goroutine, which may run a collection late; a goal
// read before a collection it missed is the smaller one, which makes a
// heap that keeps growing judged full sooner (hence diffFullLift).
func nearlyAllLive(live, goal int64) bool {
	return goal > 0 && live/fullLiveNum >= goal/fullLiveDen
}

// liveHeap is the heap the last collection found live, in bytes.
func liveHeap() int64 { return readGCMetric("/gc/heap/live:bytes") }

// heapGoal is the heap size the next collection is paced for, in bytes:
// the GC percent's goal or the soft limit's, whichever is smaller.
func heapGoal() int64 { return readGCMetric("/gc/heap/goal:bytes") }

// readGCMetric reads one of the runtime's byte metrics (0 if this runtime
// does not have it).
func readGCMetric(name string) int64 {
	s := []metrics.Sample{{Name: name}}
	metrics.Read(s)
	if s[0].Value.Kind() != metrics.KindUint64 {
		return 0
	}
	return int64(s[0].Value.Uint64())
}
