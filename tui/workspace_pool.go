package tui

import (
	"context"
	"sync"
	"sync/atomic"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/tui/watch"
	"github.com/oastui/oastui/workspace"
)

// reviewStatus says what a finished review found of its package.
type reviewStatus int

const (
	reviewed   reviewStatus = iota // the package was read (it may not load or parse: Agent.Problem says)
	reviewGone                     // the package no longer exists (deleted or moved): its row goes
)

// review is one finished review, as the pool hands it to the UI.
type review struct {
	agent  workspace.Agent
	status reviewStatus
}

// inbox is where reviews, watcher batches and watch errors wait for the
// UI: appended from any goroutine, drained on the UI goroutine. A waiting
// command is woken by closing the current signal channel.
type inbox struct {
	mu      sync.Mutex
	reviews []review
	batches []watch.Batch
	errs    []error
	sig     chan struct{}
}

func newInbox() *inbox { return &inbox{sig: make(chan struct{})} }

func (b *inbox) put(f func()) {
	b.mu.Lock()
	f()
	close(b.sig)
	b.sig = make(chan struct{})
	b.mu.Unlock()
}

func (b *inbox) drain() (rs []review, bs []watch.Batch, es []error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	rs, bs, es = b.reviews, b.batches, b.errs
	b.reviews, b.batches, b.errs = nil, nil, nil
	return
}

// signal is closed once something is put. When something is already
// waiting (put after the last drain, before this call), it is a closed
// channel: the wake-up of that put went to a signal nobody holds, and
// waiting for the next put could wait forever.
func (b *inbox) signal() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.reviews)+len(b.batches)+len(b.errs) > 0 {
		return closedSignal
	}
	return b.sig
}

var closedSignal = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// wait is a command that returns once something is put, or nothing once
// ctx is done (the screen or program stopped).
func (b *inbox) wait(ctx context.Context) tea.Cmd {
	sig := b.signal()
	return func() tea.Msg {
		select {
		case <-sig:
			return wsPokeMsg{}
		case <-ctx.Done():
			return nil
		}
	}
}

// forward puts a tree watcher's batches and errors in the inbox until ctx
// is done.
func (b *inbox) forward(ctx context.Context, batches <-chan watch.Batch, errs <-chan error, wg *sync.WaitGroup) {
	wg.Add(1)
	go func() {
		defer wg.Done()
		for {
			select {
			case <-ctx.Done():
				return
			case x, ok := <-batches:
				if !ok {
					batches = nil
					continue
				}
				b.put(func() { b.batches = append(b.batches, x) })
			case err, ok := <-errs:
				if !ok {
					errs = nil
					continue
				}
				b.put(func() { b.errs = append(b.errs, err) })
			}
		}
	}()
}

// reviewPool is a bounded pool of workers reviewing agents into the
// inbox, running until its context is done. Jobs wait in an unbounded
// queue so that the UI never blocks.
type reviewPool struct {
	root string
	opts analysis.Options
	// pkgs is the tree's package index shared by every review's child
	// look-ups (one scan instead of one per orchestrator): scanned by the
	// first review, then taken from the workspace index after each rebuild.
	pkgs     atomic.Pointer[compile.PackageIndex]
	scanOnce sync.Once
	mu       sync.Mutex
	jobs     []string
	wake     chan struct{} // a token per possibly idle worker
	in       *inbox
	wg       sync.WaitGroup
}

func newReviewPool(ctx context.Context, root string, opts analysis.Options, workers int, in *inbox) *reviewPool {
	p := &reviewPool{root: root, opts: opts, in: in, wake: make(chan struct{}, workers)}
	for range workers {
		p.wg.Add(1)
		go p.work(ctx)
	}
	return p
}

func (p *reviewPool) add(dirs ...string) {
	if len(dirs) == 0 {
		return
	}
	p.mu.Lock()
	p.jobs = append(p.jobs, dirs...)
	p.mu.Unlock()
	for range min(len(dirs), cap(p.wake)) {
		select {
		case p.wake <- struct{}{}:
		default: // every worker has a token already
		}
	}
}

// next is the next job, "" when there is none.
func (p *reviewPool) next() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.jobs) == 0 {
		return ""
	}
	dir := p.jobs[0]
	p.jobs[0] = ""
	p.jobs = p.jobs[1:]
	return dir
}

func (p *reviewPool) work(ctx context.Context) {
	defer p.wg.Done()
	for {
		dir := p.next()
		if dir == "" {
			select {
			case <-ctx.Done():
				return
			case <-p.wake:
				continue
			}
		}
		if ctx.Err() != nil {
			return
		}
		p.scanOnce.Do(func() {
			if p.pkgs.Load() == nil {
				if pk := workspace.ScanPackages(p.root); pk != nil {
					p.pkgs.CompareAndSwap(nil, pk)
				}
			}
		})
		opts := p.opts
		opts.Load.Packages = p.pkgs.Load()
		r := review{agent: workspace.ReviewAgent(p.root, dir, opts)}
		r.agent.Dir = dir // the row's key: the path as listed
		if !r.agent.Parsed && !compile.IsAgentDir(dir) {
			r.status = reviewGone
		}
		p.in.put(func() { p.in.reviews = append(p.in.reviews, r) })
	}
}

// wait waits for every worker to stop (after the context is done).
func (p *reviewPool) wait() { p.wg.Wait() }
