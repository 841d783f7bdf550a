package compile

import (
	"bufio"
	"bytes"
	"encoding/hex"
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
// The files are read through the user's git, hardened (gitproc.go): one
// `git cat-file --batch` process reads the trees of the directories
// loading asks about (and no others: a repository's paths elsewhere are
// never listed) and the blobs of the files it reads, and one `git cat-file
// --batch-check` process the sizes of files loading stats. Every request
// has a deadline; Close ends both processes.
type GitRev struct {
	Repo   string // top-level directory of the work tree, as the caller spelled it (absolute)
	Rev    string // the revision as given
	Commit string // the commit it names (full hash)

	mu     sync.Mutex
	rawLen int                      // bytes of a binary object id (20 for SHA-1, 32 for SHA-256)
	dirs   map[string][]fs.DirEntry // slash path ("." for the top) → entries, sorted by name; read lazily
	sizes  map[string]int64         // blob id → size
	batch  *catFile                 // --batch: trees and blobs
	check  *catFile                 // --batch-check: sizes
}

type gitEntry struct {
	mode fs.FileMode // 0 for a regular file, fs.ModeSymlink, fs.ModeIrregular (submodule), fs.ModeDir
	oid  string
	name string
}

// OpenGitRev opens revision rev of the git repository around dir (any
// directory of its work tree). A revision the repository does not have is
// an error wrapping ErrRevision, which says when the clone is shallow. A
// repository whose .git holds a special file is refused before git runs.
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
	if err := checkGitDir(absDir); err != nil {
		return nil, fmt.Errorf("%w %q: %w", ErrRevision, rev, err)
	}
	top, err := gitTop(absDir)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %s is not in a git work tree (%v)", ErrRevision, rev, dir, err)
	}
	commit, ok, err := resolveCommit(top, rev)
	if err != nil {
		return nil, fmt.Errorf("%w %q: %v", ErrRevision, rev, err)
	}
	if !ok {
		hint := ""
		if sh, _ := gitCmd(top, "rev-parse", "--is-shallow-repository"); strings.TrimSpace(string(sh)) == "true" {
			hint = " (the clone is shallow: fetch the history it needs, e.g. git fetch --unshallow, or actions/checkout with fetch-depth: 0)"
		}
		return nil, fmt.Errorf("%w %q: no such revision in %s%s", ErrRevision, rev, top, hint)
	}
	g := &GitRev{Repo: top, Rev: rev, Commit: commit, rawLen: len(commit) / 2,
		dirs: map[string][]fs.DirEntry{}, sizes: map[string]int64{}}
	return g, nil
}

// gitTop is the top directory of the work tree around absDir, spelled as
// absDir is (not with its symlinks resolved, as git would).
func gitTop(absDir string) (string, error) {
	prefix, err := gitCmd(absDir, "rev-parse", "--show-prefix")
	if err != nil {
		return "", err
	}
	top := absDir
	if p := strings.TrimSuffix(strings.TrimSpace(string(prefix)), "/"); p != "" {
		for range strings.Split(p, "/") {
			top = filepath.Dir(top)
		}
	}
	return top, nil
}

// resolveCommit is the commit rev names in the repository at top (false
// when it names none); err only when git could not answer.
func resolveCommit(top, rev string) (string, bool, error) {
	out, err := gitCmd(top, "rev-parse", "--verify", "--quiet", "--end-of-options", rev+"^{commit}")
	commit := strings.TrimSpace(string(out))
	if err != nil {
		if errors.Is(err, errTooMuchOutput) || strings.Contains(err.Error(), "did not finish") {
			return "", false, err
		}
		return "", false, nil
	}
	if len(commit) != 40 && len(commit) != 64 {
		return "", false, nil
	}
	return commit, true, nil
}

// IsRevision says rev names a commit of the git repository around dir, as
// git's own revision-or-path rule asks (false outside a work tree, or for
// anything git does not resolve). A repository whose .git holds a special
// file is an error.
func IsRevision(dir, rev string) (bool, error) {
	if rev == "" || strings.HasPrefix(rev, "-") || strings.ContainsAny(rev, "\x00\n") {
		return false, nil
	}
	if _, err := exec.LookPath("git"); err != nil {
		return false, nil
	}
	absDir, err := filepath.Abs(dir)
	if err != nil {
		return false, nil
	}
	if err := checkGitDir(absDir); err != nil {
		return false, fmt.Errorf("%w %q: %w", ErrRevision, rev, err)
	}
	top, err := gitTop(absDir)
	if err != nil {
		return false, nil
	}
	_, ok, err := resolveCommit(top, rev)
	return ok, err
}

// maxTreeBytes bounds one tree object oastui reads (a directory of a
// quarter of a million entries).
const maxTreeBytes = 32 << 20

// Close ends the git processes reading objects (if any were started).
func (g *GitRev) Close() error {
	if g == nil {
		return nil
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	err := g.batch.close()
	if e := g.check.close(); err == nil {
		err = e
	}
	g.batch, g.check = nil, nil
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
	st, err := g.stat(p)
	return err == nil && !st.IsDir()
}

// entry is the tree entry at slash path r (r != ".").
func (g *GitRev) entry(r string) (gitDirEntry, bool) {
	ents, err := g.dirLocked(pathpkg.Dir(r))
	if err != nil {
		return gitDirEntry{}, false
	}
	name := pathpkg.Base(r)
	i := sort.Search(len(ents), func(i int) bool { return ents[i].Name() >= name })
	if i < len(ents) && ents[i].Name() == name {
		return ents[i].(gitDirEntry), true
	}
	return gitDirEntry{}, false
}

// dirLocked is the entries of the directory at slash path r, reading its
// tree (and its parents') on first use.
func (g *GitRev) dirLocked(r string) ([]fs.DirEntry, error) {
	if ents, ok := g.dirs[r]; ok {
		return ents, nil
	}
	var oid string
	if r == "." {
		oid = g.Commit + "^{tree}"
	} else {
		e, ok := g.entry(r)
		if !ok || !e.dir {
			return nil, fs.ErrNotExist
		}
		oid = e.e.oid
	}
	body, typ, err := g.object(oid, maxTreeBytes)
	if err != nil {
		return nil, err
	}
	if typ != "tree" {
		return nil, fmt.Errorf("git: %s is a %s, not a tree", oid, typ)
	}
	ents, err := g.parseTree(body)
	if err != nil {
		return nil, err
	}
	g.dirs[r] = ents
	return ents, nil
}

// parseTree reads a tree object: "<mode> <name>\0<raw id>"…
func (g *GitRev) parseTree(b []byte) ([]fs.DirEntry, error) {
	var ents []fs.DirEntry
	for len(b) > 0 {
		sp := bytes.IndexByte(b, ' ')
		nul := bytes.IndexByte(b, 0)
		if sp < 0 || nul < sp || nul+1+g.rawLen > len(b) {
			return nil, errors.New("git: malformed tree object")
		}
		mode, name := string(b[:sp]), string(b[sp+1:nul])
		oid := hex.EncodeToString(b[nul+1 : nul+1+g.rawLen])
		b = b[nul+1+g.rawLen:]
		if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
			continue // not a name a work tree could hold
		}
		e := gitDirEntry{name: name, g: g, e: gitEntry{oid: oid, name: name}}
		switch mode {
		case "40000", "040000":
			e.dir = true
			e.e.mode = fs.ModeDir
		case "120000":
			e.e.mode = fs.ModeSymlink
		case "100644", "100755", "100664":
		default: // a gitlink (submodule) or anything else
			e.e.mode = fs.ModeIrregular
		}
		ents = append(ents, e)
	}
	sort.Slice(ents, func(i, j int) bool { return ents[i].Name() < ents[j].Name() })
	return ents, nil
}

// stat is os.Stat over the revision (a symlink is reported as one: the
// revision's links are not followed, and loading refuses them as not
// regular files).
func (g *GitRev) stat(p string) (fs.FileInfo, error) {
	r, ok := g.rel(p)
	if ok {
		g.mu.Lock()
		defer g.mu.Unlock()
		if r == "." {
			if _, err := g.dirLocked("."); err == nil {
				return gitDirEntry{name: pathpkg.Base(filepath.ToSlash(p)), dir: true, g: g}, nil
			}
		} else if e, ok := g.entry(r); ok {
			return e, nil
		}
	}
	return nil, &fs.PathError{Op: "stat", Path: p, Err: fs.ErrNotExist}
}

// readDir is os.ReadDir over the revision.
func (g *GitRev) readDir(p string) ([]fs.DirEntry, error) {
	r, ok := g.rel(p)
	if ok {
		g.mu.Lock()
		ents, err := g.dirLocked(r)
		g.mu.Unlock()
		if err == nil {
			return ents, nil
		}
		if !errors.Is(err, fs.ErrNotExist) {
			return nil, &fs.PathError{Op: "readdir", Path: p, Err: err}
		}
	}
	return nil, &fs.PathError{Op: "readdir", Path: p, Err: fs.ErrNotExist}
}

// ReadFile is ReadFileLimited over the revision: the file at path (under
// the work tree's absolute paths) as the revision has it.
func (g *GitRev) ReadFile(path string, limit int64) ([]byte, error) { return g.readFile(path, limit) }

// readFile is ReadFileLimited over the revision.
func (g *GitRev) readFile(p string, limit int64) ([]byte, error) {
	r, ok := g.rel(p)
	if !ok || r == "." {
		if ok {
			return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{"directory"}}
		}
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	e, found := g.entry(r)
	if !found {
		return nil, &fs.PathError{Op: "open", Path: p, Err: fs.ErrNotExist}
	}
	switch e.e.mode {
	case fs.ModeDir:
		return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{"directory"}}
	case fs.ModeSymlink:
		return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{"symlink"}}
	case fs.ModeIrregular:
		return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{"submodule"}}
	}
	b, typ, err := g.object(e.e.oid, limit)
	if err != nil {
		return nil, &fs.PathError{Op: "read", Path: p, Err: err}
	}
	if typ != "blob" {
		return nil, &fs.PathError{Op: "read", Path: p, Err: notRegularError{typ}}
	}
	return b, nil
}

// object reads one object through the `git cat-file --batch` process,
// started on first use: its contents (at most limit bytes: a larger one is
// a *TooLargeError, unread) and its type.
func (g *GitRev) object(oid string, limit int64) ([]byte, string, error) {
	if g.batch == nil {
		c, err := startCatFile(g.Repo, "--batch")
		if err != nil {
			return nil, "", err
		}
		g.batch = c
	}
	b, typ, err := g.batch.get(oid, limit)
	if g.batch.broken {
		_ = g.batch.close()
		g.batch = nil
	}
	return b, typ, err
}

// size is the size of blob oid (-1 when git cannot say), through the
// `git cat-file --batch-check` process.
func (g *GitRev) size(oid string) int64 {
	g.mu.Lock()
	defer g.mu.Unlock()
	if n, ok := g.sizes[oid]; ok {
		return n
	}
	if g.check == nil {
		c, err := startCatFile(g.Repo, "--batch-check")
		if err != nil {
			return -1
		}
		g.check = c
	}
	n, err := g.check.info(oid)
	if g.check.broken {
		_ = g.check.close()
		g.check = nil
	}
	if err != nil {
		return -1
	}
	g.sizes[oid] = n
	return n
}

// catFile is one long-lived `git cat-file --batch[-check]` process; each
// request has the deadline GitTimeout (the process group is killed when it
// passes). broken: the stream is out of step, the process must go.
type catFile struct {
	cmd    *exec.Cmd
	in     io.WriteCloser
	out    *bufio.Reader
	stderr *limitedBuffer
	broken bool
}

func startCatFile(repo, mode string) (*catFile, error) {
	cmd := newGitCmd(repo, "cat-file", mode)
	stderr := &limitedBuffer{max: 16 << 10}
	cmd.Stderr = stderr
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
	return &catFile{cmd: cmd, in: in, out: bufio.NewReaderSize(out, 64<<10), stderr: stderr}, nil
}

// close ends the process (and its group).
func (c *catFile) close() error {
	if c == nil {
		return nil
	}
	_ = c.in.Close()
	if c.cmd.Process == nil {
		return nil // died and waited for
	}
	t := time.AfterFunc(GitTimeout, func() { killGroup(c.cmd) })
	err := c.cmd.Wait()
	t.Stop()
	killGroup(c.cmd)
	if c.broken {
		return nil // killed on purpose
	}
	return err
}

// header sends one request and reads the answer's header line
// "<oid> <type> <size>" within the deadline (the timer keeps running for
// the body; stop it when done).
func (c *catFile) header(oid string) (typ string, size int64, timer *time.Timer, err error) {
	timer = time.AfterFunc(GitTimeout, func() { killGroup(c.cmd) })
	fail := func(e error) (string, int64, *time.Timer, error) {
		c.broken = true
		killGroup(c.cmd)
		return "", 0, timer, e
	}
	if _, err := io.WriteString(c.in, oid+"\n"); err != nil {
		return fail(err)
	}
	head, err := c.out.ReadString('\n')
	if err != nil {
		return fail(c.died(err))
	}
	f := strings.Fields(head)
	if len(f) == 2 && f[1] == "missing" {
		return "", 0, timer, fmt.Errorf("git cat-file: %s is missing (a partial clone is not fetched)", oid)
	}
	if len(f) != 3 {
		return fail(fmt.Errorf("git cat-file: %s", strings.TrimSpace(head)))
	}
	n, err := strconv.ParseInt(f[2], 10, 64)
	if err != nil || n < 0 {
		return fail(fmt.Errorf("git cat-file: bad header %q", head))
	}
	return f[1], n, timer, nil
}

// died is the error of a request the process did not answer: what git
// said, once it is gone (an object a partial clone lacks is never fetched:
// every transport is refused).
func (c *catFile) died(err error) error {
	killGroup(c.cmd)
	_ = c.cmd.Wait()
	c.cmd.Process = nil // waited for
	if msg := strings.TrimSpace(c.stderr.String()); msg != "" {
		return fmt.Errorf("git cat-file failed (no object is ever fetched): %s", msg)
	}
	return fmt.Errorf("git cat-file did not answer within %s (%v)", GitTimeout, err)
}

// get reads one object of at most limit bytes (--batch).
func (c *catFile) get(oid string, limit int64) ([]byte, string, error) {
	typ, n, timer, err := c.header(oid)
	defer timer.Stop()
	if err != nil {
		return nil, "", err
	}
	if n > limit {
		c.broken = true // its body is not read: the process goes
		killGroup(c.cmd)
		return nil, typ, &TooLargeError{Size: n, Limit: limit}
	}
	b := make([]byte, n+1) // contents and the trailing newline
	if _, err := io.ReadFull(c.out, b); err != nil {
		c.broken = true
		killGroup(c.cmd)
		return nil, "", c.died(err)
	}
	return b[:n], typ, nil
}

// info reads one object's size (--batch-check).
func (c *catFile) info(oid string) (int64, error) {
	_, n, timer, err := c.header(oid)
	timer.Stop()
	return n, err
}

// gitDirEntry is both the fs.DirEntry and the fs.FileInfo of a revision's
// file or directory.
type gitDirEntry struct {
	name string
	dir  bool
	e    gitEntry
	g    *GitRev // for the size, read on first use
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
func (d gitDirEntry) Size() int64 {
	if d.dir || d.g == nil || d.e.mode != 0 {
		return 0
	}
	return d.g.size(d.e.oid)
}
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
