package compile

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"
)

// ErrRevision is the error (wrapped) of OpenGitRev for a revision that
// cannot be read: not a git work tree, an unknown revision, a shallow
// clone that lacks it, or no git. The CLI maps it to exit code 2.
var ErrRevision = errors.New("cannot read the git revision")

// GitRev is one commit of a git repository as a source of loading: with
// LoadOptions.Rev set, every read of loading (the flow file, package.json,
// cinatra.json, the registry, sibling files, the package.json files of the
// tree and child agents) takes the file as it was at that commit instead of
// from the disk, under the same absolute paths as the work tree's. A file
// absent at the commit is absent, even when it exists on disk now.
//
// The files are read through the user's git (`git ls-tree` once, then one
// `git cat-file --batch` process for the blobs), so the user's git config
// applies. Close ends that process.
type GitRev struct {
	Repo   string // top-level directory of the work tree, as the caller spelled it (absolute)
	Rev    string // the revision as given
	Commit string // the commit it names (full hash)

	files map[string]gitEntry      // slash path relative to Repo → entry
	dirs  map[string][]fs.DirEntry // slash path ("." for the top) → entries, sorted by name

	mu  sync.Mutex
	cmd *exec.Cmd
	in  io.WriteCloser
	out *bufio.Reader
}

type gitEntry struct {
	mode fs.FileMode // 0 for a regular file, fs.ModeSymlink, fs.ModeIrregular (submodule)
	oid  string
	size int64
	name string
}

// gitCmd runs git in dir and returns its stdout; a failure carries git's
// stderr.
func gitCmd(dir string, args ...string) ([]byte, error) {
	cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		msg := strings.TrimSpace(stderr.String())
		if msg == "" {
			msg = err.Error()
		}
		return out, errors.New(msg)
	}
	return out, nil
}

// OpenGitRev opens revision rev of the git repository around dir (any
// directory of its work tree). A revision the repository does not have is
// an error wrapping ErrRevision, which says when the clone is shallow.
func OpenGitRev(dir, rev string) (*GitRev, error) {
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrRevision, rev, err)
	}
	if _, err := exec.LookPath("git"); err != nil {
		return nil, fmt.Errorf("%w %q: git is not installed (%v)", ErrRevision, rev, err)
	}
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return nil, fmt.Errorf("%w %q: not a revision", ErrRevision, rev)
	}
	prefix, err := gitCmd(absDir, "rev-parse", "--show-prefix")
	if err != nil {
		return nil, fmt.Errorf("%w %q: %s is not in a git work tree (%v)", ErrRevision, rev, dir, err)
	}
	top := absDir
	if p := strings.TrimSuffix(strings.TrimSpace(string(prefix)), "/"); p != "" {
		for range strings.Split(p, "/") {
			top = filepath.Dir(top)
		}
	}
	commit, err := gitCmd(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	if err != nil || len(bytes.TrimSpace(commit)) == 0 {
		hint := ""
		if sh, _ := gitCmd(top, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(sh)) == "true" {
			hint = " (the clone is shallow: fetch the history it needs, e.g. git fetch --unshallow, or actions/checkout with fetch-depth: 0)"
		}
		return nil, fmt.Errorf("%w %q: no such revision in %s%s", ErrRevision, rev, top, hint)
	}
	g := &GitRev{Repo: top, Rev: rev, Commit: strings.TrimSpace(string(commit)),
		files: map[string]gitEntry{}, dirs: map[string][]fs.DirEntry{".": nil}}
	list, err := gitCmd(top, "ls-tree", "-r", "-z", "-l", "--full-tree", g.Commit)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrRevision, rev, err)
	}
	if err := g.index(list); err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrRevision, rev, err)
	}
	return g, nil
}

// index reads `git ls-tree -r -z -l` output: "<mode> <type> <oid> <size>\t<path>\0".
func (g *GitRev) index(list []byte) error {
	seenDir := map[string]map[string]bool{}
	addDir := func(dir, name string, isDir bool, e *gitEntry) {
		if seenDir[dir] == nil {
			seenDir[dir] = map[string]bool{}
		}
		if seenDir[dir][name] {
			return
		}
		seenDir[dir][name] = true
		de := gitDirEntry{name: name, dir: isDir}
		if e != nil {
			de.e = *e
		}
		g.dirs[dir] = append(g.dirs[dir], de)
	}
	for _, rec := range bytes.Split(list, []byte{0}) {
		if len(rec) == 0 {
			continue
		}
		tab := bytes.IndexByte(rec, '\t')
		if tab < 0 {
			return fmt.Errorf("unexpected git ls-tree output %q", rec)
		}
		f := strings.Fields(string(rec[:tab]))
		if len(f) != 4 {
			return fmt.Errorf("unexpected git ls-tree output %q", rec)
		}
		p := string(rec[tab+1:])
		e := gitEntry{oid: f[2], name: pathpkg.Base(p)}
		switch {
		case f[0] == "120000":
			e.mode = fs.ModeSymlink
		case f[1] != "blob":
			e.mode = fs.ModeIrregular
		}
		e.size, _ = strconv.ParseInt(f[3], 10, 64)
		g.files[p] = e
		child, dir := p, pathpkg.Dir(p)
		addDir(dir, pathpkg.Base(child), false, &e)
		for dir != "." {
			child, dir = dir, pathpkg.Dir(dir)
			if _, ok := g.dirs[child]; !ok {
				g.dirs[child] = nil
			}
			addDir(dir, pathpkg.Base(child), true, nil)
		}
	}
	for _, ents := range g.dirs {
		sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	}
	return nil
}

// Close ends the git process reading blobs (if one was started).
func (g *GitRev) Close() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd == nil {
		return nil
	}
	_ = g.in.Close()
	err := g.cmd.Wait()
	g.cmd, g.in, g.out = nil, nil, nil
	return err
}

// rel is the slash path of abs inside the repository; false outside it.
func (g *GitRev) rel(p string) (string, bool) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", false
	}
	r, err := filepath.Rel(g.Repo, abs)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// Has says the file (not directory) at path exists at the revision.
func (g *GitRev) Has(p string) bool {
	r, ok := g.rel(p)
	if !ok {
		return false
	}
	_, ok = g.files[r]
	return ok
}

// stat is os.Stat over the revision (a symlink is reported as one: the
// revision's links are not followed, and loading refuses them as not
// regular files).
func (g *GitRev) stat(p string) (fs.FileInfo, error) {
	r, ok := g.rel(p)
	if ok {
		if e, ok := g.files[r]; ok {
			return gitDirEntry{name: e.name, e: e}, nil
		}
		if _, ok := g.dirs[r]; ok {
			return gitDirEntry{name: pathpkg.Base(filepath.ToSlash(p)), dir: true}, nil
		}
	}
	return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
}

// readDir is os.ReadDir over the revision.
func (g *GitRev) readDir(p string) ([]fs.DirEntry, error) {
	r, ok := g.rel(p)
	if ok {
		if ents, ok := g.dirs[r]; ok {
			return ents, nil
		}
	}
	return nil, &fs.PathError{Op: "readdir", Path: p, Err: fs.ErrNotExist}
}

// readFile is ReadFileLimited over the revision.
func (g *GitRev) readFile(p string, limit int64) ([]byte, error) {
	r, ok := g.rel(p)
	e, found := g.files[r]
	if !ok || !found {
		if _, isDir := g.dirs[r]; ok && isDir {
			return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{"directory"}}
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	switch e.mode {
	case fs.ModeSymlink:
		return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{"symlink"}}
	case fs.ModeIrregular:
		return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{"submodule"}}
	}
	if e.size > limit {
		return nil, &fs.PathError{Op: "read", Path: p, Err: &TooLargeError{Size: e.size, Limit: limit}}
	}
	b, err := g.blob(e.oid)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: p, Err: err}
	}
	return b, nil
}

// blob reads one object through the `git cat-file --batch` process,
// started on first use.
func (g *GitRev) blob(oid string) ([]byte, error) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.cmd == nil {
		cmd := exec.Command("git", "-C", g.Repo, "cat-file", "--batch")
		in, err := cmd.StdinPipe()
		if err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		if err := cmd.Start(); err != nil {
			return nil, err
		}
		g.cmd, g.in, g.out = cmd, in, bufio.NewReaderSize(out, 64<<10)
	}
	fail := func(err error) ([]byte, error) {
		// The stream is out of step: end the process, start afresh next time.
		_ = g.in.Close()
		if g.cmd.Process != nil {
			_ = g.cmd.Process.Kill()
		}
		_ = g.cmd.Wait()
		g.cmd, g.in, g.out = nil, nil, nil
		return nil, err
	}
	if _, err := io.WriteString(g.in, oid+"\n"); err != nil {
		return fail(err)
	}
	head, err := g.out.ReadString('\n')
	if err != nil {
		return fail(err)
	}
	f := strings.Fields(head)
	if len(f) != 3 {
		return nil, fmt.Errorf("git cat-file: %s", strings.TrimSpace(head))
	}
	n, err := strconv.Atoi(f[2])
	if err != nil || n < 0 {
		return fail(fmt.Errorf("git cat-file: bad header %q", head))
	}
	b := make([]byte, n+1) // contents and the trailing newline
	if _, err := io.ReadFull(g.out, b); err != nil {
		return fail(err)
	}
	return b[:n], nil
}

// gitDirEntry is both the fs.DirEntry and the fs.FileInfo of a revision's
// file or directory.
type gitDirEntry struct {
	name string
	dir  bool
	e    gitEntry
}

func (d gitDirEntry) Name() string { return d.name }
func (d gitDirEntry) IsDir() bool  { return d.dir }
func (d gitDirEntry) Type() fs.FileMode {
	if d.dir {
		return fs.ModeDir
	}
	return d.e.mode
}
func (d gitDirEntry) Info() (fs.FileInfo, error) { return d, nil }
func (d gitDirEntry) Size() int64                { return d.e.size }
func (d gitDirEntry) Mode() fs.FileMode {
	if d.dir {
		return fs.ModeDir | 0o755
	}
	return d.e.mode | 0o644
}
func (d gitDirEntry) ModTime() time.Time { return time.Time{} }
func (d gitDirEntry) Sys() any           { return nil }

// walkDir is filepath.WalkDir over the disk or the revision of ov.
func walkDir(ov overlay, root string, fn fs.WalkDirFunc) error {
	if ov.rev == nil {
		return filepath.WalkDir(root, fn)
	}
	st, err := ov.rev.stat(root)
	if err != nil {
		return fn(root, nil, err)
	}
	return walkRev(ov.rev, root, fs.FileInfoToDirEntry(st), fn)
}

func walkRev(g *GitRev, p string, d fs.DirEntry, fn fs.WalkDirFunc) error {
	if err := fn(p, d, nil); err != nil || !d.IsDir() {
		if err == filepath.SkipDir && d.IsDir() {
			err = nil
		}
		return err
	}
	ents, err := g.readDir(p)
	if err != nil {
		return fn(p, d, err)
	}
	for _, e := range ents {
		if err := walkRev(g, filepath.Join(p, e.Name()), e, fn); err != nil {
			if err == filepath.SkipDir {
				if e.IsDir() {
					continue
				}
				return nil
			}
			return err
		}
	}
	return nil
}

// ScanPackagesRev is ScanPackages over a git revision (nil: the disk).
func ScanPackagesRev(root string, rev *GitRev) *PackageIndex {
	return &PackageIndex{Root: root, ByName: scanPackageNames(root, overlay{rev: rev})}
}

// FindAgentsRev is FindAgents over a git revision (nil: the disk): the
// agent packages below root as the revision has them.
func FindAgentsRev(root string, rev *GitRev) ([]string, error) {
	return findAgents(overlay{rev: rev}, root, 0)
}

// IsAgentDirRev is IsAgentDir over a git revision (nil: the disk).
func IsAgentDirRev(dir string, rev *GitRev) bool {
	if rev == nil {
		return IsAgentDir(dir)
	}
	for _, rel := range FlowCandidates {
		if rev.Has(filepath.Join(dir, filepath.FromSlash(rel))) {
			return true
		}
	}
	return false
}
