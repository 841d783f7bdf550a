package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"
)

// setup makes pkg/cinatra/oas.json and pkg/package.json and watches them.
func setup(t *testing.T) (*Watcher, string, string) {
	t.Helper()
	return setupHeld(t, false)
}

// releaseName is the file a held watcher waits for (an editor artefact:
// no batch of its own).
const releaseName = ".release.swp"

// setupHeld is setup; with held, the watcher flushes no batch before an
// event on pkg/cinatra/.release.swp (release writes it).
func setupHeld(t *testing.T, held bool) (*Watcher, string, string) {
	t.Helper()
	root := t.TempDir()
	pkg := filepath.Join(root, "pkg")
	flow := filepath.Join(pkg, "cinatra", "oas.json")
	must(t, os.MkdirAll(filepath.Dir(flow), 0o755))
	must(t, os.WriteFile(flow, []byte(`{"v":0}`), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{}`), 0o644))
	cfg := Config{
		Dirs:     []string{pkg, filepath.Join(pkg, "cinatra")},
		Files:    []string{flow, filepath.Join(pkg, "package.json")},
		Debounce: 100 * time.Millisecond,
	}
	if held {
		cfg.releaseOn = filepath.Join(pkg, "cinatra", releaseName)
	}
	w, err := New(cfg)
	must(t, err)
	t.Cleanup(func() { w.Close() })
	return w, pkg, flow
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// next waits for one batch (deadline 5 s).
func next(t *testing.T, w *Watcher) Batch {
	t.Helper()
	select {
	case b := <-w.Batches():
		return b
	case <-time.After(5 * time.Second):
		t.Fatal("no batch within 5s")
	}
	return Batch{}
}

// none asserts that no further batch arrives within several debounce periods.
func none(t *testing.T, w *Watcher) {
	t.Helper()
	select {
	case b := <-w.Batches():
		t.Fatalf("unexpected extra batch %+v", b)
	case <-time.After(500 * time.Millisecond):
	}
}

func TestSavePatternsGiveOneBatch(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	cases := []struct {
		name string
		save func(t *testing.T, pkg, flow string)
	}{
		{"write in place", func(t *testing.T, pkg, flow string) {
			must(t, os.WriteFile(flow, []byte(`{"v":1}`), 0o644))
		}},
		{"vim rename and replace", func(t *testing.T, pkg, flow string) {
			dir := filepath.Dir(flow)
			must(t, os.WriteFile(filepath.Join(dir, "4913"), nil, 0o644))
			must(t, os.Remove(filepath.Join(dir, "4913")))
			must(t, os.WriteFile(filepath.Join(dir, ".oas.json.swp"), []byte("swap"), 0o644))
			must(t, os.Rename(flow, flow+"~"))
			must(t, os.WriteFile(flow, []byte(`{"v":2}`), 0o644))
			must(t, os.Chmod(flow, 0o644))
			must(t, os.Remove(flow+"~"))
			must(t, os.Remove(filepath.Join(dir, ".oas.json.swp")))
		}},
		{"atomic temp rename", func(t *testing.T, pkg, flow string) {
			tmp := filepath.Join(filepath.Dir(flow), ".oas.json.tmp123")
			must(t, os.WriteFile(tmp, []byte(`{"v":3}`), 0o644))
			must(t, os.Rename(tmp, flow))
		}},
		{"delete then create", func(t *testing.T, pkg, flow string) {
			must(t, os.Remove(flow))
			must(t, os.WriteFile(flow, []byte(`{"v":4}`), 0o644))
		}},
		// What a loaded machine does to a save: a pause between its steps
		// longer than the debounce (the cause of the flake of issue 37).
		{"delete, pause, create", func(t *testing.T, pkg, flow string) {
			must(t, os.Remove(flow))
			time.Sleep(300 * time.Millisecond)
			must(t, os.WriteFile(flow, []byte(`{"v":5}`), 0o644))
		}},
		{"package.json", func(t *testing.T, pkg, flow string) {
			must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{"name":"x"}`), 0o644))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			// The save is one batch however long the machine pauses it
			// between its steps: the watcher is held until the save is
			// done (the release event comes after the save's in inotify's
			// order). Without the hold a pause longer than the debounce
			// split a save in two (1 run in 16 under load).
			w, pkg, flow := setupHeld(t, true)
			c.save(t, pkg, flow)
			must(t, os.WriteFile(filepath.Join(pkg, "cinatra", releaseName), nil, 0o644))
			b := next(t, w)
			if len(b.Paths) == 0 || b.First.IsZero() {
				t.Errorf("batch %+v: want changed paths and a first-event time", b)
			}
			none(t, w)
		})
	}
}

func TestNoiseGivesNoBatch(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	cases := []struct {
		name string
		do   func(t *testing.T, pkg, flow string)
	}{
		{"chmod", func(t *testing.T, pkg, flow string) { must(t, os.Chmod(flow, 0o600)) }},
		{"same content", func(t *testing.T, pkg, flow string) {
			must(t, os.WriteFile(flow, []byte(`{"v":0}`), 0o644))
		}},
		{"unrelated file", func(t *testing.T, pkg, flow string) {
			must(t, os.WriteFile(filepath.Join(pkg, "README.md"), []byte("x"), 0o644))
		}},
		{"swap file", func(t *testing.T, pkg, flow string) {
			must(t, os.WriteFile(filepath.Join(filepath.Dir(flow), ".oas.json.swp"), []byte("x"), 0o644))
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			w, pkg, flow := setup(t)
			c.do(t, pkg, flow)
			none(t, w)
		})
	}
}

func TestDirectoryDisappearsAndComesBack(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	w, pkg, flow := setup(t)
	must(t, os.RemoveAll(pkg))
	next(t, w) // the agent is gone
	none(t, w)
	must(t, os.MkdirAll(filepath.Dir(flow), 0o755))
	must(t, os.WriteFile(flow, []byte(`{"v":9}`), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{}`), 0o644))
	b := next(t, w)
	if !b.Rescan && len(b.Paths) == 0 {
		t.Errorf("batch after re-creation: %+v", b)
	}
	// Drain what the re-creation may still deliver, then check that the
	// re-added watches see an ordinary save.
	for {
		select {
		case <-w.Batches():
			continue
		case <-time.After(500 * time.Millisecond):
		}
		break
	}
	must(t, os.WriteFile(flow, []byte(`{"v":10}`), 0o644))
	b = next(t, w)
	if len(b.Paths) != 1 || b.Paths[0] != clean(flow) {
		t.Errorf("save after re-creation: %+v", b)
	}
}

func TestParentDisappearsAndComesBack(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	w, pkg, flow := setup(t)
	parent := filepath.Dir(pkg)
	must(t, os.RemoveAll(parent))
	next(t, w)
	must(t, os.MkdirAll(filepath.Dir(flow), 0o755))
	must(t, os.WriteFile(flow, []byte(`{"v":11}`), 0o644))
	must(t, os.WriteFile(filepath.Join(pkg, "package.json"), []byte(`{}`), 0o644))
	next(t, w) // found by polling: no watch could see it
	for {
		select {
		case <-w.Batches():
			continue
		case <-time.After(700 * time.Millisecond):
		}
		break
	}
	must(t, os.WriteFile(flow, []byte(`{"v":12}`), 0o644))
	if b := next(t, w); len(b.Paths) != 1 {
		t.Errorf("save after re-creation: %+v", b)
	}
}

// TestTreeEntries: in a directory of Trees, a new or removed file is a
// batch (the sibling scan reads a different set), editor artefacts are not;
// a change to a sibling file listed in Files is a batch.
func TestTreeEntries(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	root := t.TempDir()
	pkg := filepath.Join(root, "pkg")
	flow := filepath.Join(pkg, "cinatra", "oas.json")
	notes := filepath.Join(pkg, "notes.md")
	must(t, os.MkdirAll(filepath.Dir(flow), 0o755))
	must(t, os.WriteFile(flow, []byte(`{"v":0}`), 0o644))
	must(t, os.WriteFile(notes, []byte("hello"), 0o644))
	w, err := New(Config{Dirs: []string{filepath.Join(pkg, "cinatra")}, Trees: []string{pkg},
		Files: []string{flow, notes}, Debounce: 100 * time.Millisecond})
	must(t, err)
	t.Cleanup(func() { w.Close() })

	must(t, os.WriteFile(notes, []byte("token ghp_x"), 0o644))
	if b := next(t, w); len(b.Paths) != 1 || b.Paths[0] != notes {
		t.Errorf("sibling edit: %+v", b)
	}
	env := filepath.Join(pkg, ".env")
	must(t, os.WriteFile(env, []byte("KEY=1"), 0o644))
	if b := next(t, w); !b.Rescan || len(b.Paths) != 1 || b.Paths[0] != env {
		t.Errorf("new file in the package: %+v", b)
	}
	for _, junk := range []string{".notes.md.swp", "notes.md~", "4913", ".#notes.md"} {
		must(t, os.WriteFile(filepath.Join(pkg, junk), []byte("x"), 0o644))
	}
	none(t, w)
	must(t, os.Remove(env))
	if b := next(t, w); !b.Rescan {
		t.Errorf("removed file: %+v", b)
	}
}

// TestUpdate: after Update the watcher follows the new set of files and
// forgets the old ones.
func TestUpdate(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	w, pkg, flow := setup(t)
	other := filepath.Join(pkg, "README.md")
	must(t, os.WriteFile(other, []byte("a"), 0o644))
	none(t, w) // not watched yet
	w.Update(Config{Dirs: []string{pkg}, Files: []string{other}})
	must(t, os.WriteFile(other, []byte("b"), 0o644))
	if b := next(t, w); len(b.Paths) != 1 || b.Paths[0] != other {
		t.Errorf("after Update: %+v", b)
	}
	must(t, os.WriteFile(flow, []byte(`{"v":9}`), 0o644))
	none(t, w) // dropped from the set
}

// TestCompleteSaveNeedsNoDebounce: a save known complete (a JSON file that
// holds one whole JSON value, or any watched file that arrived by rename)
// is flushed without waiting out the debounce (here an hour); a JSON file
// caught half-written, or a YAML file written in place, waits for it.
func TestCompleteSaveNeedsNoDebounce(t *testing.T) {
	t.Parallel() // each test watches its own temporary tree; most of their time is waiting out debounce windows
	root := t.TempDir()
	flow := filepath.Join(root, "oas.json")
	spec := filepath.Join(root, "agent.yaml")
	must(t, os.WriteFile(flow, []byte(`{"v":0}`), 0o644))
	must(t, os.WriteFile(spec, []byte("v: 0\n"), 0o644))
	w, err := New(Config{Dirs: []string{root}, Files: []string{flow, spec}, Debounce: time.Hour})
	must(t, err)
	t.Cleanup(func() { w.Close() })

	must(t, os.WriteFile(flow, []byte(`{"v":1}`), 0o644)) // write in place, complete
	if b := next(t, w); len(b.Paths) != 1 || b.Paths[0] != flow {
		t.Errorf("complete JSON write: %+v", b)
	}
	tmp := filepath.Join(root, ".agent.yaml.tmp1")
	must(t, os.WriteFile(tmp, []byte("v: 2\n"), 0o644))
	must(t, os.Rename(tmp, spec)) // atomic save of a non-JSON file
	if b := next(t, w); len(b.Paths) != 1 || b.Paths[0] != spec {
		t.Errorf("rename-over: %+v", b)
	}
	must(t, os.WriteFile(flow, []byte(`{"v":`), 0o644)) // caught half-written
	none(t, w)
	must(t, os.WriteFile(spec, []byte("v: 3\n"), 0o644)) // YAML in place: completeness unknown
	none(t, w)
}
