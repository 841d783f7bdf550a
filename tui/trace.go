package tui

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// Tracer logs the moments of the live loop for latency measurement:
// write-detected (first file event of a batch), analysis-done, frame (the
// first View that shows a given analysis). Enable with OASTUI_TRACE=FILE.
type Tracer struct {
	mu        sync.Mutex
	w         io.Writer
	close     func() error
	lastFrame uint64
	// OnFrame, when set, is called with the analysis seq each time a frame
	// first shows a new analysis (used by the latency harness).
	OnFrame func(seq uint64, at time.Time)
}

// TracerFromEnv opens OASTUI_TRACE, or returns nil when it is unset.
func TracerFromEnv() (*Tracer, error) {
	p := os.Getenv("OASTUI_TRACE")
	if p == "" {
		return nil, nil
	}
	f, err := os.OpenFile(p, os.O_CREATE|os.O_WRONLY|os.O_APPEND, 0o644)
	if err != nil {
		return nil, err
	}
	return &Tracer{w: f, close: f.Close}, nil
}

// Close closes the trace file.
func (t *Tracer) Close() error {
	if t == nil || t.close == nil {
		return nil
	}
	return t.close()
}

// Event records one event: "<unix-ns> <event> seq=<n> <extra>".
func (t *Tracer) Event(at time.Time, event string, seq uint64, extra string) {
	if t == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.w != nil {
		fmt.Fprintf(t.w, "%d %s seq=%d %s\n", at.UnixNano(), event, seq, extra)
	}
}

// frame records the first frame showing analysis seq.
func (t *Tracer) frame(seq uint64) {
	if t == nil {
		return
	}
	t.mu.Lock()
	if seq == t.lastFrame {
		t.mu.Unlock()
		return
	}
	t.lastFrame = seq
	cb := t.OnFrame
	t.mu.Unlock()
	now := time.Now()
	t.Event(now, "frame", seq, "")
	if cb != nil {
		cb(seq, now)
	}
}
