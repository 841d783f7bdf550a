package watch

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
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
