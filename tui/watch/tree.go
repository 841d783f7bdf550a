package watch

import (
	"context"
	"crypto/sha256"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
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
}

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
}

// NewTree starts watching the tree.
func NewTree(cfg TreeConfig) (*TreeWatcher, error) {
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	fw, err := fsnotify.NewBufferedWatcher(4096)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	tw := &TreeWatcher{cfg: cfg, root: clean(cfg.Root), extra: map[string]bool{}, w: fw, out: make(chan Batch, 1),
		errs: make(chan error, 8), cancel: cancel, done: make(chan struct{}), sums: map[string][sha256.Size]byte{}}
	tw.addTree(tw.root)
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

// addTree watches dir and every directory below it.
func (tw *TreeWatcher) addTree(dir string) {
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return nil
		}
		if p != dir && skipDir(d.Name()) {
			return filepath.SkipDir
		}
		if err := tw.w.Add(p); err != nil {
			tw.report(err)
		}
		return nil
	})
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
	var first time.Time
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	arm := func() {
		if first.IsZero() {
			first = time.Now()
		}
		timer.Reset(tw.cfg.Debounce)
	}
	for {
		select {
		case <-ctx.Done():
			return
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
						tw.addTree(name) // a new package: watch it, and look again
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
