package watch

import (
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/fsnotify/fsnotify"
)

// TreeConfig says what a tree watcher watches: every directory below Root
// (new ones as they appear; node_modules and hidden directories are
// skipped), and Files outside it (a registry or .oastui.yaml above the
// tree) by their directories.
type TreeConfig struct {
	Root     string
	Files    []string
	Debounce time.Duration // 0: DefaultDebounce
	// PollEvery is how often the directories left unwatched when the
	// system's watch limit is reached are looked at (0: DefaultPoll).
	PollEvery time.Duration

	addWatch func(w *fsnotify.Watcher, dir string) error // tests: fail as a low limit does
}

// DefaultPoll is how often unwatched directories are looked at.
const DefaultPoll = 2 * time.Second

// ErrWatchLimit is reported (wrapped, once) when the system's limit of
// watches (Linux: fs.inotify.max_user_watches) is reached: the directories
// past it are polled instead, so changes in them are still seen, later.
var ErrWatchLimit = errors.New("the system's watch limit is reached")

// TreeWatcher is one recursive watch over a tree of agents: one batch per
// settled change, with the changed files (a file whose content did not
// change is dropped; a created or removed file always counts).
type TreeWatcher struct {
	cfg    TreeConfig
	root   string
	extra  map[string]bool
	w      *fsnotify.Watcher
	out    chan Batch
	errs   chan error
	cancel context.CancelFunc
	done   chan struct{}
	sums   map[string][sha256.Size]byte

	watched int
	limited bool                        // a watch failed for the limit: new directories are polled
	polled  map[string]map[string]stamp // directory → its entries as last seen
}

// stamp is what polling compares of a directory entry.
type stamp struct {
	size  int64
	mtime time.Time
	dir   bool
}

// NewTree starts watching the tree.
func NewTree(cfg TreeConfig) (*TreeWatcher, error) {
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	if cfg.PollEvery <= 0 {
		cfg.PollEvery = DefaultPoll
	}
	if cfg.addWatch == nil {
		cfg.addWatch = func(w *fsnotify.Watcher, dir string) error { return w.Add(dir) }
	}
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	tw := &TreeWatcher{cfg: cfg, root: clean(cfg.Root), extra: map[string]bool{}, w: fw, out: make(chan Batch, 1),
		errs: make(chan error, 8), cancel: cancel, done: make(chan struct{}), sums: map[string][sha256.Size]byte{},
		polled: map[string]map[string]stamp{}}
	tw.addTree(tw.root)
	tw.reportLimit()
	for _, f := range cfg.Files {
		f = clean(f)
		if strings.HasPrefix(f, tw.root+string(filepath.Separator)) {
			continue
		}
		tw.extra[f] = true
		if err := fw.Add(filepath.Dir(f)); err != nil {
			tw.report(err)
		}
	}
	go tw.loop(ctx)
	return tw, nil
}

// Batches delivers one Batch per settled change.
func (tw *TreeWatcher) Batches() <-chan Batch { return tw.out }

// Errors delivers watch errors; the watcher keeps running.
func (tw *TreeWatcher) Errors() <-chan error { return tw.errs }

// Close stops the watcher and waits for its goroutine.
func (tw *TreeWatcher) Close() error {
	tw.cancel()
	<-tw.done
	return nil
}

func (tw *TreeWatcher) report(err error) {
	select {
	case tw.errs <- err:
	default:
	}
}

func skipDir(name string) bool {
	return name == "node_modules" || (strings.HasPrefix(name, ".") && name != "." && name != "..")
}

// addTree watches dir and every directory below it; past the system's
// watch limit, it polls them instead.
func (tw *TreeWatcher) addTree(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && skipDir(d.Name()) {
			return filepath.SkipDir
		}
		if !tw.limited {
			err := tw.cfg.addWatch(tw.w, p)
			if err == nil {
				tw.watched++
				return nil
			}
			if !errors.Is(err, syscall.ENOSPC) && !errors.Is(err, syscall.EMFILE) {
				tw.report(err)
				return nil
			}
			tw.limited = true
		}
		tw.polled[p] = listing(p)
		return nil
	})
}

// reportLimit says, once, that the watch limit was reached and what is
// done instead.
func (tw *TreeWatcher) reportLimit() {
	if tw.limited {
		tw.report(fmt.Errorf("%w after %d directories: the other %d are looked at every %s instead, so their changes show later "+
			"(Linux: raise fs.inotify.max_user_watches, e.g. sudo sysctl fs.inotify.max_user_watches=524288)",
			ErrWatchLimit, tw.watched, len(tw.polled), tw.cfg.PollEvery))
	}
}

// listing is a directory's entries as polling compares them (nil when it
// cannot be read).
func listing(dir string) map[string]stamp {
	ents, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	out := make(map[string]stamp, len(ents))
	for _, e := range ents {
		if info, err := e.Info(); err == nil {
			out[e.Name()] = stamp{info.Size(), info.ModTime(), e.IsDir()}
		}
	}
	return out
}

// poll looks at every polled directory: files created, removed or
// changed go to pending as the events would; a new directory is added
// (and asks for a rescan); a directory gone stops being polled.
func (tw *TreeWatcher) poll(pending map[string]fsnotify.Op) (rescan bool) {
	for dir, last := range tw.polled {
		now := listing(dir)
		if now == nil {
			if _, err := os.Stat(dir); errors.Is(err, fs.ErrNotExist) {
				delete(tw.polled, dir)
				rescan = true
			}
			continue
		}
		for name, st := range now {
			p := filepath.Join(dir, name)
			old, had := last[name]
			switch {
			case st.dir && !had:
				if !skipDir(name) {
					tw.addTree(p)
					rescan = true
				}
			case st.dir:
			case !had:
				if !editorArtefact(p) {
					pending[p] |= fsnotify.Create
				}
			case old.size != st.size || !old.mtime.Equal(st.mtime):
				if !editorArtefact(p) {
					pending[p] |= fsnotify.Write
				}
			}
		}
		for name, st := range last {
			if _, ok := now[name]; !ok && !st.dir && !editorArtefact(filepath.Join(dir, name)) {
				pending[filepath.Join(dir, name)] |= fsnotify.Remove
			}
		}
		tw.polled[dir] = now
	}
	return rescan
}

// inTree says p is below the root, outside skipped directories.
func (tw *TreeWatcher) inTree(p string) bool {
	rel, err := filepath.Rel(tw.root, p)
	if err != nil || rel == "." || strings.HasPrefix(rel, "..") {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	for _, part := range parts[:len(parts)-1] {
		if skipDir(part) {
			return false
		}
	}
	return true
}

// changed says the file's content differs from the last seen (a missing
// file, or one never seen, counts as changed).
func (tw *TreeWatcher) changed(p string) bool {
	b, err := os.ReadFile(p)
	if err != nil {
		_, had := tw.sums[p]
		delete(tw.sums, p)
		return had || !errors.Is(err, fs.ErrNotExist)
	}
	sum := sha256.Sum256(b)
	old, had := tw.sums[p]
	tw.sums[p] = sum
	return !had || old != sum
}

func (tw *TreeWatcher) loop(ctx context.Context) {
	defer close(tw.done)
	defer tw.w.Close()
	pending := map[string]fsnotify.Op{}
	rescan := false
	var first, lastEvent time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	quiet := min(settleQuiet, tw.cfg.Debounce)
	arm := func() {
		lastEvent = time.Now()
		if first.IsZero() {
			first = lastEvent
		}
		timer.Reset(quiet)
	}
	// settled: every pending file is a JSON file holding one whole value
	// (the batch need not wait out the debounce; settleQuiet).
	settled := func() bool {
		for p := range pending {
			if !wholeJSON(p) {
				return false
			}
		}
		return len(pending) > 0
	}
	var polls <-chan time.Time // while some directories are polled
	for {
		if polls == nil && len(tw.polled) > 0 {
			tk := time.NewTicker(tw.cfg.PollEvery)
			defer tk.Stop()
			polls = tk.C
		}
		select {
		case <-ctx.Done():
			return
		case <-polls:
			n := len(pending)
			if tw.poll(pending) {
				rescan = true
			}
			if rescan || len(pending) > n {
				arm()
			}
		case ev, ok := <-tw.w.Events:
			if !ok {
				return
			}
			if !ev.Has(fsnotify.Create | fsnotify.Write | fsnotify.Remove | fsnotify.Rename) {
				continue
			}
			name := clean(ev.Name)
			if tw.extra[name] {
				pending[name] |= ev.Op
				arm()
				continue
			}
			if !tw.inTree(name) || editorArtefact(name) {
				continue
			}
			if ev.Has(fsnotify.Create) {
				if st, err := os.Stat(name); err == nil && st.IsDir() {
					if !skipDir(filepath.Base(name)) {
						was := tw.limited
						tw.addTree(name) // a new package: watch it, and look again
						if !was {
							tw.reportLimit() // (when this one reached the limit)
						}
						rescan = true
						arm()
					}
					continue
				}
			}
			pending[name] |= ev.Op
			arm()
		case err, ok := <-tw.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				rescan = true
				arm()
				continue
			}
			tw.report(err)
		case <-timer.C:
			if wait := tw.cfg.Debounce - time.Since(lastEvent); wait > 0 && (rescan || !settled()) {
				timer.Reset(wait) // not known complete: wait out the debounce
				continue
			}
			var paths []string
			for p, op := range pending {
				if op.Has(fsnotify.Create|fsnotify.Remove|fsnotify.Rename) || tw.changed(p) {
					if op.Has(fsnotify.Create | fsnotify.Remove | fsnotify.Rename) {
						tw.changed(p) // remember the content for the next write
					}
					paths = append(paths, p)
				}
			}
			clear(pending)
			if len(paths) == 0 && !rescan {
				first = time.Time{}
				continue
			}
			b := Batch{Paths: mergeSorted(nil, paths), Rescan: rescan, First: first}
			rescan = false
			first = time.Time{}
			select {
			case tw.out <- b:
			case old := <-tw.out:
				b.Paths = mergeSorted(old.Paths, b.Paths)
				b.Rescan = b.Rescan || old.Rescan
				b.First = old.First
				select {
				case tw.out <- b:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}
}
