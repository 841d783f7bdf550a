package main

import (
	"fmt"
	"io"
	"sync"
	"sync/atomic"
	"time"

	"github.com/charmbracelet/x/term"
)

// The progress line of `oastui lint`: "linting N/M agents…" on stderr,
// only when stderr is a terminal and only once the run has taken longer
// than progressDelay; redrawn every progressEvery and cleared at the end,
// so a fast run or a run in CI (stderr a pipe or a file) never shows it.
var (
	progressDelay = time.Second
	progressEvery = 100 * time.Millisecond
)

// progress draws the line; its logic is driven by tick with the time, so
// tests drive it with an injected clock.
type progress struct {
	w     io.Writer
	total int
	start time.Time
	delay time.Duration // progressDelay when made
	done  atomic.Int64

	mu    sync.Mutex
	shown bool   // a line is on the screen
	last  string // the line drawn last
}

func newProgress(w io.Writer, total int, start time.Time) *progress {
	return &progress{w: w, total: total, start: start, delay: progressDelay}
}

// inc counts one agent linted; safe from the workers.
func (p *progress) inc() { p.done.Add(1) }

// tick draws the line when the run has taken progressDelay or more by now
// and the count changed since the last draw.
func (p *progress) tick(now time.Time) {
	if now.Sub(p.start) < p.delay {
		return
	}
	line := fmt.Sprintf("linting %d/%d agents…", p.done.Load(), p.total)
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown && line == p.last {
		return
	}
	fmt.Fprint(p.w, "\r\x1b[K"+line)
	p.shown, p.last = true, line
}

// clear erases the line if one was drawn.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
		p.shown = false
	}
}

// startProgress starts the progress line of a run of total agents on w
// when tty says w is a terminal. It returns the counter the workers call
// per agent and stop, which ends the ticker and clears the line. Without a
// terminal both are no-ops and nothing is ever written.
func startProgress(w io.Writer, tty bool, total int) (inc func(), stop func()) {
	if !tty || total == 0 {
		return func() {}, func() {}
	}
	p := newProgress(w, total, time.Now())
	every := progressEvery
	quit := make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-quit:
				return
			case now := <-t.C:
				p.tick(now)
			}
		}
	}()
	return p.inc, func() {
		close(quit)
		wg.Wait()
		p.clear()
	}
}

// writerIsTerminal reports whether w is a terminal.
func writerIsTerminal(w io.Writer) bool {
	f, ok := w.(term.File)
	return ok && term.IsTerminal(f.Fd())
}
