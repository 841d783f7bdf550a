package lsp

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"go.lsp.dev/protocol"

	"github.com/oastui/oastui/edit"
)

// foldersEvent adds or removes folders /ws/0 … /ws/n-1 under base.
func foldersEvent(base string, n int, add bool) *protocol.DidChangeWorkspaceFoldersParams {
	fs := make([]protocol.WorkspaceFolder, n)
	for i := range fs {
		fs[i] = protocol.WorkspaceFolder{URI: string(protocol.DocumentURI("file://" + filepath.ToSlash(filepath.Join(base, fmt.Sprint(i)))))}
	}
	p := &protocol.DidChangeWorkspaceFoldersParams{}
	if add {
		p.Event.Added = fs
	} else {
		p.Event.Removed = fs
	}
	return p
}

// TestFoldersChangedLinear (issue 35, point 14): removing n folders
// allocates memory linear in n, not a copy of the list per folder (n²);
// the result is what removing them one by one gives.
func TestFoldersChangedLinear(t *testing.T) {
	const n = 4000
	base := t.TempDir()
	s := New(io.Discard, Options{})
	add, remove := foldersEvent(base, n, true), foldersEvent(base, n, false)
	s.foldersChanged(add)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	s.foldersChanged(remove)
	runtime.ReadMemStats(&after)
	if len(s.folders) != 0 {
		t.Fatalf("%d folders left", len(s.folders))
	}
	// Parsing a folder's URI costs about a kilobyte; a copy of the list
	// per removal costs n·16 bytes per folder (64 KB here).
	if perFolder := (after.TotalAlloc - before.TotalAlloc) / n; perFolder > 4096 {
		t.Errorf("%d bytes allocated per folder removed", perFolder)
	}
	// Removing one of two equal folders keeps the other.
	s.folders = nil
	s.foldersChanged(foldersEvent(base, 2, true))
	s.foldersChanged(foldersEvent(base, 2, true))
	s.foldersChanged(foldersEvent(base, 1, false))
	if len(s.folders) != 3 {
		t.Errorf("folders %v", s.folders)
	}
}

// TestOutsideWorkspaceCachedRoots (issue 35, point 14): with many folders,
// a code action does not resolve every folder again: the resolved roots
// are kept until the folders change, and a file is checked against them
// by its own directories.
func TestOutsideWorkspaceCachedRoots(t *testing.T) {
	const n = 3000
	base := t.TempDir()
	s := New(io.Discard, Options{})
	s.foldersChanged(foldersEvent(base, n, true))
	inside := edit.Fix{Edits: []edit.Edit{{Path: filepath.Join(base, "7", "cinatra", "oas.json")}}}
	outside := edit.Fix{Edits: []edit.Edit{{Path: filepath.Join(filepath.Dir(base), "elsewhere.json")}}}
	if err := s.outsideWorkspace(inside); err != nil {
		t.Fatal(err)
	}
	if err := s.outsideWorkspace(outside); err == nil {
		t.Fatal("a file outside every folder was inside")
	}
	allocs := testing.AllocsPerRun(5, func() { _ = s.outsideWorkspace(inside) })
	if allocs > 200 {
		t.Errorf("%.0f allocations per check with %d folders: the folders are resolved again", allocs, n)
	}
	// after a change, the folders are resolved again: one lstat of each
	// (their parent's answer remembered), not a walk of every component
	// of each (issue 35, point 14: 12 s for 100,000 folders)
	none := &protocol.DidChangeWorkspaceFoldersParams{}
	if perFolder := testing.AllocsPerRun(3, func() { s.foldersChanged(none); _ = s.outsideWorkspace(inside) }) / n; perFolder > 8 {
		t.Errorf("%.1f allocations per folder to resolve the folders again", perFolder)
	}
	s.foldersChanged(foldersEvent(base, 8, false)) // 0…7 gone
	if err := s.outsideWorkspace(inside); err == nil {
		t.Error("a removed folder still holds its files")
	}
}

// realPathWalk is the resolution resolver.path must agree with: the
// longest existing prefix through filepath.EvalSymlinks, the rest joined.
func realPathWalk(p string) string {
	rest := ""
	for cur := p; ; {
		if real, err := filepath.EvalSymlinks(cur); err == nil {
			return filepath.Join(real, rest)
		} else if !errors.Is(err, fs.ErrNotExist) {
			return p
		}
		parent := filepath.Dir(cur)
		if parent == cur {
			return p
		}
		rest = filepath.Join(filepath.Base(cur), rest)
		cur = parent
	}
}

// The resolver resolves as EvalSymlinks of the longest existing prefix
// does: links (to directories, chained, dangling), missing parts, files.
func TestResolver(t *testing.T) {
	base, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	j := func(p ...string) string { return filepath.Join(append([]string{base}, p...)...) }
	if err := os.MkdirAll(j("a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(j("a", "f"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"l": j("a"), "ll": j("l"), "rel": "a/b", "dangling": j("nowhere"), "up": ".."} {
		if err := os.Symlink(to, j(link)); err != nil {
			t.Skip("no symlinks here:", err)
		}
	}
	r := newResolver()
	for _, p := range []string{j("a", "f"), j("l", "f"), j("ll", "b", "x", "y"), j("rel", "z"), j("dangling", "x"), j("missing", "y", "z"),
		j("a"), j("l"), j("up", filepath.Base(base), "a"), j("a", "f", "under-a-file"), base, string(filepath.Separator)} {
		if got, want := r.path(p), realPathWalk(p); got != want {
			t.Errorf("%s: %s, want %s", p, got, want)
		}
	}
}
