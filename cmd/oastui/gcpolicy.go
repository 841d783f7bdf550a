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

// batchCommands are the commands that get the policy.
var batchCommands = map[string]bool{"lint": true, "baseline": true}

// wantBatchGC reports whether the command line runs a batch command with
// neither GOGC nor GOMEMLIMIT set.
func wantBatchGC(args []string, lookupEnv func(string) (string, bool)) bool {
	for _, v := range []string{"GOGC", "GOMEMLIMIT"} {
		if _, set := lookupEnv(v); set {
			return false
		}
	}
	cmd, _, err := newRootCmd().Find(args)
	return err == nil && cmd.HasParent() && batchCommands[cmd.Name()]
}

// setBatchGC sets the policy for the rest of the process: percent, limit
// and the watch that lifts both when the live heap passes lift bytes.
func setBatchGC(percent int, limit, lift int64) {
	debug.SetGCPercent(percent)
	debug.SetMemoryLimit(limit)
	armGCWatch(lift)
}

// armGCWatch runs gcWatched after the next collection: a finalizer on an
// object nothing references runs once the collection that found it
// unreachable has finished.
func armGCWatch(lift int64) {
	sentinel := new([16]byte) // not tiny-allocated: its own finalizer
	runtime.SetFinalizer(sentinel, func(*[16]byte) { gcWatched(lift) })
}

// gcWatched lifts the policy when the live heap passed lift, else watches
// the next collection.
func gcWatched(lift int64) {
	if liveHeap() > lift {
		debug.SetMemoryLimit(math.MaxInt64)
		debug.SetGCPercent(100)
		return
	}
	armGCWatch(lift)
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
