package tui

import "io"

// NewTracer is a Tracer writing to w (the latency harness's; the binary
// opens OASTUI_TRACE through TracerFromEnv).
func NewTracer(w io.Writer) *Tracer { return &Tracer{w: w} }
