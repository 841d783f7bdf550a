package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/oastui/oastui/internal/race"
)

// The ticker logic with an injected clock: nothing before the delay, a
// line per change after it, cleared at the end.
func TestProgressTicks(t *testing.T) {
	var b bytes.Buffer
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := newProgress(&b, 3, t0)
	p.tick(t0.Add(500 * time.Millisecond))
	p.inc()
	p.tick(t0.Add(999 * time.Millisecond))
	if b.Len() != 0 {
		t.Fatalf("drawn before a second: %q", b.String())
	}
	p.tick(t0.Add(time.Second))
	if got := b.String(); got != "\r\x1b[Klinting 1/3 agents…" {
		t.Fatalf("first line %q", got)
	}
	p.tick(t0.Add(1100 * time.Millisecond)) // unchanged: not redrawn
	p.inc()
	p.tick(t0.Add(1200 * time.Millisecond))
	if got := b.String(); got != "\r\x1b[Klinting 1/3 agents…\r\x1b[Klinting 2/3 agents…" {
		t.Fatalf("lines %q", got)
	}
	p.clear()
	p.clear() // once only
	if !strings.HasSuffix(b.String(), "agents…\r\x1b[K") || strings.Count(b.String(), "\r\x1b[K") != 3 {
		t.Fatalf("not cleared once: %q", b.String())
	}

	// A run faster than the delay never draws, not even the clearing.
	b.Reset()
	p = newProgress(&b, 3, t0)
	p.tick(t0.Add(10 * time.Millisecond))
	p.clear()
	if b.Len() != 0 {
		t.Fatalf("fast run wrote %q", b.String())
	}
}

// The TTY flag: without a terminal startProgress never writes, however
// long the run; with one (forced here) the line comes and is cleared.
func TestStartProgressTTYFlag(t *testing.T) {
	defer func(d, e time.Duration) { progressDelay, progressEvery = d, e }(progressDelay, progressEvery)
	progressDelay, progressEvery = 0, time.Millisecond

	var b bytes.Buffer
	inc, stop := startProgress(&b, false, 2)
	inc()
	time.Sleep(20 * time.Millisecond)
	stop()
	if b.Len() != 0 {
		t.Fatalf("no TTY, yet %q", b.String())
	}

	var w syncBuffer
	inc, stop = startProgress(&w, true, 2)
	inc()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(w.String(), "linting 1/2 agents…") && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	stop()
	got := w.String()
	if !strings.Contains(got, "linting 1/2 agents…") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Fatalf("TTY progress %q", got)
	}
}

// With stderr a pipe (CI), `oastui lint` never writes the progress line,
// even when the run takes longer than the delay.
func TestLintNoProgressOnPipe(t *testing.T) {
	defer func(d, e time.Duration) { progressDelay, progressEvery = d, e }(progressDelay, progressEvery)
	progressDelay, progressEvery = 0, time.Millisecond

	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	read := make(chan string)
	go func() { b, _ := io.ReadAll(r); read <- string(b) }()
	// Under -race the four policy fixtures, not the 220 agents: with no
	// delay and a tick a millisecond, either run outlasts the delay; the
	// pass without -race lints the whole tree.
	tree := "../../lint/testdata"
	if race.Enabled {
		tree = "../../lint/testdata/policies"
	}
	var out bytes.Buffer
	run([]string{"lint", "--fail-on", "none", tree}, &out, w)
	w.Close()
	if got := <-read; strings.Contains(got, "linting") || strings.Contains(got, "\x1b") {
		t.Errorf("progress on a pipe: %q", got)
	}
	if writerIsTerminal(w) {
		t.Errorf("a pipe taken for a terminal")
	}
}

type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
