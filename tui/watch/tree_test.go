package watch

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/fsnotify/fsnotify"
)

func nextBatch(t *testing.T, tw *TreeWatcher) Batch {
	t.Helper()
	select {
	case b := <-tw.Batches():
		return b
	case <-time.After(5 * time.Second):
		t.Fatal("no batch")
	}
	return Batch{}
}

// TestTreeWatcher: one watcher for a whole tree: a save deep in it is one
// batch naming the file, a save of the same bytes is none, a new package
// directory is watched at once (a file written in it right after is seen)
// and asks for a rescan.
func TestTreeWatcher(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	root := filepath.Join(t.TempDir(), "agents")
	flow := filepath.Join(root, "v", "a", "cinatra", "oas.json")
	os.MkdirAll(filepath.Dir(flow), 0o755)
	os.WriteFile(flow, []byte("{}"), 0o644)
	os.MkdirAll(filepath.Join(root, "node_modules", "x"), 0o755)
	tw, err := NewTree(TreeConfig{Root: root, Debounce: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()

	os.WriteFile(flow, []byte(`{"a":1}`), 0o644)
	if b := nextBatch(t, tw); !slices.Equal(b.Paths, []string{flow}) {
		t.Errorf("save: %+v", b)
	}
	os.WriteFile(flow, []byte(`{"a":1}`), 0o644) // same bytes: no batch
	os.WriteFile(filepath.Join(root, "node_modules", "x", "y.json"), []byte("{}"), 0o644)
	os.WriteFile(filepath.Join(root, "v", "a", "cinatra", "oas.json.swp"), []byte("x"), 0o644)
	select {
	case b := <-tw.Batches():
		t.Errorf("unchanged content, node_modules or a swap file made a batch: %+v", b)
	case <-time.After(100 * time.Millisecond):
	}

	pkg := filepath.Join(root, "v", "b", "cinatra")
	os.MkdirAll(pkg, 0o755)
	b := nextBatch(t, tw)
	if !b.Rescan {
		t.Errorf("new directory: %+v", b)
	}
	newFlow := filepath.Join(pkg, "oas.json")
	os.WriteFile(newFlow, []byte("{}"), 0o644)
	deadline := time.After(5 * time.Second)
	for {
		select {
		case b := <-tw.Batches():
			if slices.Contains(b.Paths, newFlow) {
				return
			}
		case <-deadline:
			t.Fatal("a file in a new package directory was not seen")
		}
	}
}

// TestTreeWatcherLimit: past the system's watch limit (a watch-adder that
// fails with ENOSPC after 3 directories) the watcher says so once, with
// the way out, and keeps working: the directories left unwatched are
// polled, so a save, a new file and a new package there are still seen.
func TestTreeWatcherLimit(t *testing.T) {
	t.Parallel()
	root := filepath.Join(t.TempDir(), "agents")
	var flows []string
	for _, slug := range []string{"a", "b", "c", "d"} {
		f := filepath.Join(root, "v", slug, "cinatra", "oas.json")
		os.MkdirAll(filepath.Dir(f), 0o755)
		os.WriteFile(f, []byte("{}"), 0o644)
		flows = append(flows, f)
	}
	n := 0
	add := func(w *fsnotify.Watcher, dir string) error {
		if n >= 3 {
			return fmt.Errorf("add %s: %w", dir, syscall.ENOSPC)
		}
		n++
		return w.Add(dir)
	}
	tw, err := NewTree(TreeConfig{Root: root, Debounce: 10 * time.Millisecond, PollEvery: 30 * time.Millisecond, addWatch: add})
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	select {
	case err := <-tw.Errors():
		if !errors.Is(err, ErrWatchLimit) || !strings.Contains(err.Error(), "max_user_watches") || !strings.Contains(err.Error(), "after 3 directories") {
			t.Errorf("limit report: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the limit was not reported")
	}
	wait := func(what, p string) {
		t.Helper()
		deadline := time.After(5 * time.Second)
		for {
			select {
			case b := <-tw.Batches():
				if slices.Contains(b.Paths, p) {
					return
				}
			case <-deadline:
				t.Fatalf("%s was not seen: %s", what, p)
			}
		}
	}
	last := flows[3] // v/d/cinatra: past the limit (root, v, v/a were watched)
	os.WriteFile(last, []byte(`{"a":1}`), 0o644)
	wait("a save in a polled directory", last)
	extra := filepath.Join(filepath.Dir(last), "extra.json")
	os.WriteFile(extra, []byte(`{}`), 0o644)
	wait("a new file in a polled directory", extra)
	newFlow := filepath.Join(root, "v", "d", "sub", "oas.json")
	os.MkdirAll(filepath.Dir(newFlow), 0o755)
	os.WriteFile(newFlow, []byte("{}"), 0o644)
	deadline := time.After(5 * time.Second)
	for rescan := false; !rescan; {
		select {
		case b := <-tw.Batches():
			rescan = b.Rescan
		case <-deadline:
			t.Fatal("a new directory under a polled one asked for no rescan")
		}
	}
	os.WriteFile(newFlow, []byte(`{"b":2}`), 0o644)
	wait("a save in a new directory under a polled one", newFlow)
}

// TestTreeCompleteSave: in a tree too, a JSON file saved whole is a batch
// without waiting out the debounce (here an hour); one caught half-written
// waits for it.
func TestTreeCompleteSave(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	root := filepath.Join(t.TempDir(), "agents")
	flow := filepath.Join(root, "v", "a", "cinatra", "oas.json")
	os.MkdirAll(filepath.Dir(flow), 0o755)
	os.WriteFile(flow, []byte("{}"), 0o644)
	tw, err := NewTree(TreeConfig{Root: root, Debounce: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer tw.Close()
	os.WriteFile(flow, []byte(`{"a":1}`), 0o644)
	if b := nextBatch(t, tw); !slices.Equal(b.Paths, []string{flow}) {
		t.Errorf("whole save: %+v", b)
	}
	os.WriteFile(flow, []byte(`{"a":`), 0o644)
	select {
	case b := <-tw.Batches():
		t.Errorf("a half-written JSON file made a batch before the debounce: %+v", b)
	case <-time.After(300 * time.Millisecond):
	}
}
