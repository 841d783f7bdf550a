package lsp

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"go.lsp.dev/protocol"

	"github.com/oastui/oastui/edit"
)

// Confinement of edits. The server reviews what the client opens,
// wherever it is (gopls reviews any file the client opens), reading the
// files beside it as `oastui lint` would. It never returns an edit — a
// quick fix, fix all, a rename, a file move — naming a file outside the
// workspace: the workspace folders the client gave (initialize's
// workspaceFolders, then workspace/didChangeWorkspaceFolders), else its
// rootUri (or rootPath). A client that names no workspace (single-file
// mode) has the packages of its open files as the workspace: the package
// directory of an open flow file (…/pkg for …/pkg/cinatra/oas.json),
// else the open file's directory. Paths are compared with symlinks
// resolved, so a package.json that links out of the workspace is not
// edited either.

// errOutsideWorkspace is the refusal of an edit naming a file outside
// the workspace.
var errOutsideWorkspace = errors.New("outside the workspace folders")

// workspaceDirs are the folders of an initialize request: its
// workspaceFolders, else rootUri, else rootPath (absolute, cleaned).
func workspaceDirs(p *protocol.InitializeParams) []string {
	var dirs []string
	for _, f := range p.WorkspaceFolders {
		if d, ok := pathOf(protocol.DocumentURI(f.URI)); ok {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 && p.RootURI != "" {
		if d, ok := pathOf(p.RootURI); ok {
			dirs = append(dirs, d)
		}
	}
	if len(dirs) == 0 && p.RootPath != "" && filepath.IsAbs(p.RootPath) {
		dirs = append(dirs, filepath.Clean(p.RootPath))
	}
	return dirs
}

// foldersChanged applies workspace/didChangeWorkspaceFolders, in time
// linear in the folders (issue 35, point 14: removing 100,000 folders one
// by one, each a scan and a copy, blocked the server 24 s): the removed
// ones are a set, the list is filtered once.
func (s *Server) foldersChanged(p *protocol.DidChangeWorkspaceFoldersParams) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(p.Event.Removed) > 0 {
		gone := make(map[string]int, len(p.Event.Removed))
		for _, f := range p.Event.Removed {
			if d, ok := pathOf(protocol.DocumentURI(f.URI)); ok {
				gone[d]++ // each removal takes one occurrence, as before
			}
		}
		kept := s.folders[:0:0]
		for _, w := range s.folders {
			if gone[w] > 0 {
				gone[w]--
				continue
			}
			kept = append(kept, w)
		}
		s.folders = kept
	}
	for _, f := range p.Event.Added {
		if d, ok := pathOf(protocol.DocumentURI(f.URI)); ok {
			s.folders = append(s.folders, d)
		}
	}
	s.realRoots = nil // resolved again on the next edit
}

// docRootsLocked are the packages of the open files (single-file mode).
func (s *Server) docRootsLocked() []string {
	var dirs []string
	for p := range s.docs {
		dir := filepath.Dir(p)
		if filepath.Base(dir) == "cinatra" {
			dir = filepath.Dir(dir)
		}
		dirs = append(dirs, dir)
	}
	return dirs
}

// rootSet is the edit roots with their symlinks resolved, as a set: the
// folders' are resolved once per change of the folders (issue 35, point
// 14: resolving 100,000 folders on every code action took 4 s), the open
// files' packages on every call (there are few). It looks at the disk and
// must not hold the server's lock.
func (s *Server) rootSet() map[string]bool {
	s.mu.Lock()
	if s.realRoots != nil {
		set := s.realRoots
		s.mu.Unlock()
		return set
	}
	folders := append([]string(nil), s.folders...)
	var roots []string
	if len(folders) == 0 {
		roots = s.docRootsLocked()
	}
	s.mu.Unlock()
	set := map[string]bool{}
	real := newResolver()
	if len(folders) == 0 {
		for _, r := range roots {
			set[real.path(r)] = true
		}
		return set
	}
	for _, r := range folders {
		set[real.path(r)] = true
	}
	s.mu.Lock()
	if slices.Equal(s.folders, folders) { // unchanged meanwhile
		s.realRoots = set
	}
	s.mu.Unlock()
	return set
}

// outsideWorkspace is the error of a fix that names (edits, or moves from
// or to) a file outside the workspace; nil when every file is inside.
// It looks at the disk (symlinks) and must not hold the server's lock.
// A file is inside when one of its directories is a root: the cost is the
// depth of its path, not the number of roots.
func (s *Server) outsideWorkspace(fx edit.Fix) error {
	roots := s.rootSet()
	resolve := newResolver()
	inside := func(p string) bool {
		real := resolve.path(absPath(p))
		for d := real; ; {
			if roots[d] {
				return true
			}
			parent := filepath.Dir(d)
			if parent == d {
				return false
			}
			d = parent
		}
	}
	files := fx.Files()
	for _, m := range fx.Moves {
		files = append(files, m.From, m.To)
	}
	for _, f := range files {
		if !inside(f) {
			return &outsideError{path: absPath(f)}
		}
	}
	return nil
}

// outsideError is a file outside the workspace. Its message is ours with
// one value, the path: shown, the path alone is masked (the masker reads
// "/etc/passwd: outside" as a password assignment).
type outsideError struct{ path string }

func (e *outsideError) Error() string { return e.path + ": " + errOutsideWorkspace.Error() }
func (e *outsideError) Unwrap() error { return errOutsideWorkspace }

// message is the error as a client sees it: the path sanitised and masked.
func (e *outsideError) message() string { return clean(e.path) + ": " + errOutsideWorkspace.Error() }

// resolver resolves the symlinks of the longest existing prefix of
// absolute, clean paths (a move's target need not exist yet), remembering
// each directory's answer: paths that share their parents (100,000
// workspace folders side by side) cost one lstat each, not a walk of
// every component of each (issue 35, point 14: 12 s on a loaded machine
// for a code action after a change of 100,000 folders).
type resolver struct {
	memo map[string]string // path → its resolution
	gone map[string]bool   // paths that do not exist (nor anything under them)
}

func newResolver() *resolver {
	return &resolver{memo: map[string]string{}, gone: map[string]bool{}}
}

// path is p with the symlinks of its longest existing prefix resolved,
// the rest joined as it is; p itself when looking at the disk fails
// otherwise than by a missing file.
func (r *resolver) path(p string) string {
	if v, ok := r.memo[p]; ok {
		return v
	}
	parent := filepath.Dir(p)
	if parent == p { // the root of a volume
		r.memo[p] = p
		return p
	}
	if r.gone[parent] { // under a missing directory: missing too
		r.gone[p] = true
		v := filepath.Join(r.path(parent), filepath.Base(p))
		r.memo[p] = v
		return v
	}
	base := r.path(parent)
	var v string
	switch fi, err := os.Lstat(p); {
	case errors.Is(err, fs.ErrNotExist):
		r.gone[p] = true
		v = filepath.Join(base, filepath.Base(p))
	case err != nil:
		v = p
	case fi.Mode()&fs.ModeSymlink != 0:
		if real, err := filepath.EvalSymlinks(p); err == nil {
			v = real
		} else if errors.Is(err, fs.ErrNotExist) { // a dangling link: as missing
			r.gone[p] = true
			v = filepath.Join(base, filepath.Base(p))
		} else {
			v = p
		}
	default:
		v = filepath.Join(base, filepath.Base(p))
	}
	r.memo[p] = v
	return v
}
