// Package tui is the root Bubble Tea model of oastui: layout, focus, keys,
// the file watcher, the analysis pipeline run off the UI goroutine, and the
// editor hand-off. Views (package views) render the immutable snapshot the
// analysis package builds.
package tui

import (
	"time"

	"github.com/oastui/oastui/analysis"
)

// Options of the TUI's analyses: the engine's own.
type Options = analysis.Options

// Analysis is one engine snapshot as the TUI received it: the snapshot plus
// the order of the request (a higher one always wins) and the file event
// that caused it.
type Analysis struct {
	*analysis.Snapshot
	Seq     uint64    // order of the request
	Trigger time.Time // first file event that caused it (zero for a manual reload)
	// Refusal is the compile gate's review_blocked response for this
	// snapshot (what `oastui compile` prints instead of the output), nil
	// when the gate lets it through.
	Refusal []byte
}

// Analyze runs the engine's whole pipeline over path.
func Analyze(path string, opts Options, seq uint64) *Analysis {
	opts.Stages = analysis.Everything
	an := &Analysis{Snapshot: analysis.Run(path, opts), Seq: seq}
	if r := an.Gate().Response(); r != nil { // the snapshot's gate: no second review
		an.Refusal = r.JSON()
	}
	return an
}
