// Package watch turns fsnotify events on an agent's directories into
// debounced batches: one batch per save, whatever the editor's save pattern
// (write in place, rename-and-replace, delete-then-create), with chmod-only
// noise, editor artefacts and unchanged content dropped. It has no Bubble
// Tea import; the TUI reads the batches from a channel.
package watch

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is the quiet time after the last event of a save before
// the batch is flushed. Editors finish a save within a few milliseconds;
// 40 ms leaves room for delete-then-create while keeping the write-to-frame
// latency well under 100 ms.
const DefaultDebounce = 40 * time.Millisecond

// settleQuiet is the quiet time after which a batch whose every changed
// file is known complete is flushed without waiting out the debounce: a
// file that arrived by rename (an atomic save: the content was whole
// before the rename) or a JSON file whose content is one complete JSON
// value (a truncated JSON document never is). Many editors save with one
// write or one rename; the debounce stays the ceiling for everything else
// (a save that deletes, creates and writes; a YAML or Markdown file
// written in place; a rescan).
const settleQuiet = 4 * time.Millisecond

// Config says what to watch.
type Config struct {
	// Dirs are the directories whose contents matter (the agent directory,
	// its cinatra/ subdirectory, the registry's directory). Each is watched
	// together with its parent, so that a directory that disappears and
	// comes back is watched again.
	Dirs []string
	// Files are the files whose changes trigger a batch (the flow file and
	// its legacy names, package.json, cinatra.json, the registry). Events
	// on any other name (swap files, backups, temp files) are ignored.
	Files []string
	// Trees are directories whose new or removed entries matter (the
	// package directories the sibling scan reads): a file created in or
	// removed from one triggers a batch even though it is not in Files,
	// unless it is an editor artefact (swap, backup, temporary file).
	Trees []string
	// Debounce is the quiet time before a batch is flushed; 0 means
	// DefaultDebounce.
	Debounce time.Duration

	// releaseOn, when set (by this package's tests), holds the first
	// batch until an event on that path has been read. inotify reports
	// the events of one watcher in order, so a test that touches the path
	// after a save gets the whole save in one batch however long the
	// machine pauses it between the save's steps (a pause longer than the
	// debounce otherwise splits the save in two: the flake of issue 37).
	releaseOn string
}

// Batch is one settled change.
type Batch struct {
	Paths  []string  // changed files among Config.Files, sorted
	Rescan bool      // a watched directory came back or events overflowed
	First  time.Time // when the first event of the batch arrived
}

// Watcher is a running watch; read Batches and Errors until Close.
type Watcher struct {
	cfg    Config
	dirs   map[string]bool
	files  map[string]bool
	trees  map[string]bool
	update chan updateReq
	sums   map[string]fileSum // content digests by file, reused while size and mtime hold
	w      *fsnotify.Watcher
	out    chan Batch
	errs   chan error
	cancel context.CancelFunc
	done   chan struct{}
	last   [sha256.Size]byte
}

// New starts watching. Directories that do not exist yet are watched once
// they appear (through their parent).
func New(cfg Config) (*Watcher, error) {
	if cfg.Debounce <= 0 {
		cfg.Debounce = DefaultDebounce
	}
	fw, err := fsnotify.NewBufferedWatcher(256)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	wt := &Watcher{cfg: cfg, w: fw, update: make(chan updateReq), sums: map[string]fileSum{},
		out: make(chan Batch, 1), errs: make(chan error, 8), cancel: cancel, done: make(chan struct{})}
	wt.set(cfg)
	wt.addAll()
	wt.last = wt.hash(nil)
	go wt.loop(ctx)
	return wt, nil
}

// set installs what to watch (in New, and in the loop on Update).
func (wt *Watcher) set(cfg Config) {
	wt.dirs, wt.files, wt.trees = map[string]bool{}, map[string]bool{}, map[string]bool{}
	for _, d := range cfg.Dirs {
		wt.dirs[clean(d)] = true
	}
	for _, d := range cfg.Trees {
		wt.dirs[clean(d)] = true
		wt.trees[clean(d)] = true
	}
	for _, f := range cfg.Files {
		wt.files[clean(f)] = true
	}
}

// updateReq is one Update handed to the loop; done is closed once it
// applies.
type updateReq struct {
	cfg  Config
	done chan struct{}
}

// Update replaces what is watched (the debounce stays): the TUI calls it
// after each analysis with the files that analysis read. It returns once
// the loop watches the new set, so a change made after Update returns is
// seen (the loop never blocks for long: it hands batches over without
// waiting for the reader). After Close it does nothing.
func (wt *Watcher) Update(cfg Config) {
	req := updateReq{cfg: cfg, done: make(chan struct{})}
	select {
	case wt.update <- req:
		<-req.done
	case <-wt.done:
	}
}

// editorArtefact: names editors write beside the file they save (vim's
// swap and 4913 probe, backups, emacs locks, temporary files).
func editorArtefact(name string) bool {
	base := filepath.Base(name)
	switch {
	case base == "4913", strings.HasSuffix(base, "~"), strings.HasPrefix(base, ".#"), strings.HasPrefix(base, "#"):
		return true
	}
	switch filepath.Ext(base) {
	case ".swp", ".swo", ".swx", ".tmp", ".bak", ".orig":
		return true
	}
	return false
}

// Batches delivers one Batch per settled change.
func (wt *Watcher) Batches() <-chan Batch { return wt.out }

// Errors delivers watch errors (a directory that cannot be watched, …);
// they are informative, the watcher keeps running.
func (wt *Watcher) Errors() <-chan error { return wt.errs }

// Close stops the watcher and waits for its goroutine.
func (wt *Watcher) Close() error {
	wt.cancel()
	<-wt.done
	return nil
}

func clean(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// addAll (re)adds every configured directory that exists, and the parent of
// each so that its re-creation is seen. Adding an already watched path is a
// no-op in fsnotify.
func (wt *Watcher) addAll() {
	seen := map[string]bool{}
	for _, d := range sortedKeys(wt.dirs) {
		for _, p := range []string{filepath.Dir(d), d} {
			if seen[p] {
				continue
			}
			seen[p] = true
			if st, err := os.Stat(p); err == nil && st.IsDir() {
				if err := wt.w.Add(p); err != nil {
					wt.report(err)
				}
			}
		}
	}
}

func (wt *Watcher) report(err error) {
	select {
	case wt.errs <- err:
	default: // nobody is reading: drop rather than block the loop
	}
}

// missing says whether a configured directory does not exist.
func (wt *Watcher) missing() bool {
	for d := range wt.dirs {
		if st, err := os.Stat(d); err != nil || !st.IsDir() {
			return true
		}
	}
	return false
}

// fileSum is the digest of a file's content at a size and mtime.
type fileSum struct {
	size  int64
	mtime time.Time
	sum   [sha256.Size]byte
}

// hash is a digest of the content of every watched file (a missing file
// hashes differently from an empty one), used to drop no-op batches. A
// file with no event in this batch (not in changed) whose size and mtime
// are unchanged is not read again, so a package with many sibling files
// costs one stat each per save; a file with an event is always read (an
// mtime may not move within a filesystem's time resolution).
func (wt *Watcher) hash(changed map[string]bool) [sha256.Size]byte {
	h := sha256.New()
	for _, f := range sortedKeys(wt.files) {
		h.Write([]byte(f))
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() {
			fs, ok := wt.sums[f]
			if !ok || changed[f] || fs.size != st.Size() || !fs.mtime.Equal(st.ModTime()) {
				b, err := os.ReadFile(f)
				if err != nil {
					h.Write([]byte{0, 0xff})
					continue
				}
				fs = fileSum{size: st.Size(), mtime: st.ModTime(), sum: sha256.Sum256(b)}
				wt.sums[f] = fs
			}
			h.Write([]byte{1})
			h.Write(fs.sum[:])
		} else {
			h.Write([]byte{0})
		}
		h.Write([]byte{0xff})
	}
	var sum [sha256.Size]byte
	copy(sum[:], h.Sum(nil))
	return sum
}

func (wt *Watcher) loop(ctx context.Context) {
	defer close(wt.done)
	defer wt.w.Close()
	pending := map[string]bool{}
	renamedIn := map[string]bool{} // pending files whose last event was a rename onto them
	rescan := false
	var first, lastEvent time.Time
	var lastRename string // the name of the previous event when it was a rename away, else ""
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	// A directory whose parent vanished too cannot be seen coming back
	// through events: while any watched directory is missing, look again
	// twice a second.
	poll := time.NewTicker(500 * time.Millisecond)
	defer poll.Stop()
	missing := wt.missing()
	quiet := min(settleQuiet, wt.cfg.Debounce)
	held := wt.cfg.releaseOn != ""
	arm := func() {
		lastEvent = time.Now()
		if first.IsZero() {
			first = lastEvent
		}
		timer.Reset(quiet)
	}
	for {
		select {
		case <-ctx.Done():
			return
		case ev, ok := <-wt.w.Events:
			if !ok {
				return
			}
			if !ev.Has(fsnotify.Create | fsnotify.Write | fsnotify.Remove | fsnotify.Rename) {
				continue // chmod-only noise (touch, vim's CHMOD after write)
			}
			name := clean(ev.Name)
			if held && name == clean(wt.cfg.releaseOn) {
				held = false
				if !first.IsZero() {
					timer.Reset(quiet)
				}
			}
			// inotify reports a rename within a directory as a Rename of the
			// old name immediately followed by a Create of the new one.
			byRename := ev.Has(fsnotify.Create) && lastRename != "" && lastRename != name &&
				filepath.Dir(lastRename) == filepath.Dir(name)
			lastRename = ""
			if ev.Has(fsnotify.Rename) && !ev.Has(fsnotify.Create) {
				lastRename = name
			}
			switch {
			case wt.dirs[name]:
				// A watched directory appeared, vanished or was renamed.
				// On re-creation add it (and any watched directory below it)
				// again and re-read everything: files may pre-date the watch.
				if ev.Has(fsnotify.Create) {
					wt.addAll()
				}
				rescan = true
				arm()
			case wt.files[name]:
				pending[name] = true
				renamedIn[name] = byRename
				arm()
			case wt.trees[filepath.Dir(name)] && ev.Has(fsnotify.Create|fsnotify.Remove|fsnotify.Rename) && !editorArtefact(name):
				// A file appeared in or left a scanned package directory:
				// the sibling scan reads a different set of files now.
				pending[name] = true
				rescan = true
				arm()
			}
		case req := <-wt.update:
			wt.set(req.cfg)
			wt.addAll()
			missing = wt.missing()
			close(req.done)
		case err, ok := <-wt.w.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				rescan = true
				arm()
				continue
			}
			wt.report(err)
		case <-poll.C:
			now := wt.missing()
			if missing && !now {
				wt.addAll()
				rescan = true
				arm()
			}
			missing = now
		case <-timer.C:
			if held {
				continue // the release event re-arms the timer
			}
			if wait := wt.cfg.Debounce - time.Since(lastEvent); wait > 0 && (rescan || !wt.settled(pending, renamedIn)) {
				timer.Reset(wait) // not known complete: wait out the debounce
				continue
			}
			clear(renamedIn)
			if rescan {
				wt.addAll()
			}
			missing = wt.missing()
			sum := wt.hash(pending)
			if sum == wt.last && !rescan {
				// Content unchanged (a save that wrote the same bytes, or an
				// editor's rename dance that ended where it started).
				clear(pending)
				first = time.Time{}
				continue
			}
			wt.last = sum
			b := Batch{Paths: sortedKeys(pending), Rescan: rescan, First: first}
			clear(pending)
			rescan = false
			first = time.Time{}
			// Hand the batch over; if the previous one has not been taken
			// yet, merge into it so that the reader sees one batch.
			select {
			case wt.out <- b:
			case old := <-wt.out:
				b.Paths = mergeSorted(old.Paths, b.Paths)
				b.Rescan = b.Rescan || old.Rescan
				b.First = old.First
				select {
				case wt.out <- b:
				case <-ctx.Done():
					return
				}
			case <-ctx.Done():
				return
			}
		}
	}
}

// settled says whether every pending file is known complete: it arrived
// by rename, or it is a JSON file holding one complete JSON value.
func (wt *Watcher) settled(pending, renamedIn map[string]bool) bool {
	if len(pending) == 0 {
		return false
	}
	for f := range pending {
		if renamedIn[f] {
			continue
		}
		if !wholeJSON(f) {
			return false
		}
	}
	return true
}

// wholeJSON says whether the file at p is a JSON file holding one complete
// JSON value (a save caught half-written never is).
func wholeJSON(p string) bool {
	if !strings.EqualFold(filepath.Ext(p), ".json") {
		return false
	}
	b, err := os.ReadFile(p)
	return err == nil && json.Valid(b)
}

func sortedKeys(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func mergeSorted(a, b []string) []string {
	set := map[string]bool{}
	for _, s := range a {
		set[s] = true
	}
	for _, s := range b {
		set[s] = true
	}
	return sortedKeys(set)
}
