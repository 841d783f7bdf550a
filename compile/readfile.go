package compile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"github.com/oastui/oastui/edit"
)

// ErrNotRegular is the error (under an *fs.PathError) of ReadFileLimited
// for a path that is not a regular file: a FIFO, a device, a socket
// or a directory (after following symlinks, so a link to /dev/zero is one).
var ErrNotRegular = errors.New("not a regular file")

// ErrTooLarge is the error (under an *fs.PathError, as a *TooLargeError)
// of ReadFileLimited for a file over the limit.
var ErrTooLarge = errors.New("file too large")

type notRegularError struct{ kind string }

func (e notRegularError) Error() string        { return "not a regular file (" + e.kind + ")" }
func (e notRegularError) Is(target error) bool { return target == ErrNotRegular }

// TooLargeError is a file refused by ReadFileLimited for its size. Size is
// the size stat gave, or limit+1 when the file grew while being read.
type TooLargeError struct{ Size, Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("file is %d bytes; oastui reads at most %d", e.Size, e.Limit)
}
func (e *TooLargeError) Is(target error) bool { return target == ErrTooLarge }

// ReadFileLimited reads a regular file of at most limit bytes. It is the
// one way loading (and the config reader) reads a file, so that a hostile
// path costs neither time nor memory:
//   - stat first (following symlinks): anything but a regular file is
//     refused before it is opened, and a file over limit is refused unread;
//   - open with O_NONBLOCK, so a FIFO swapped in after the stat cannot block
//     the open, and check the opened file again with fstat;
//   - read at most limit+1 bytes, so a file growing meanwhile is refused
//     too.
//
// Loading skips the first stat for a file its directory listing
// (Listing) showed as a regular file, not a link: the fstat of the opened
// file still refuses anything else. A read that returns exactly the size
// fstat gave into a buffer one byte larger is the whole file (a regular
// file reads short only at its end): no second read to see the end.
//
// Errors are *fs.PathError; errors.Is finds ErrNotRegular or ErrTooLarge
// in them, and fs.ErrNotExist for a missing file.
func ReadFileLimited(path string, limit int64) ([]byte, error) {
	return readFileInto(path, limit, nil, false)
}

// readable refuses what st says is not a regular file or is over limit.
func readable(path string, st fs.FileInfo, limit int64) error {
	if !st.Mode().IsRegular() {
		return &fs.PathError{Op: "read", Path: path, Err: notRegularError{edit.FileKind(st.Mode())}}
	}
	if st.Size() > limit {
		return &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: st.Size(), Limit: limit}}
	}
	return nil
}

// readFileInto is ReadFileLimited reading into a buffer carved from
// blocks (nil: allocated); listedRegular: the directory listing showed a
// regular file there (no stat before the open).
func readFileInto(path string, limit int64, blocks *Blocks, listedRegular bool) ([]byte, error) {
	if !listedRegular {
		st, err := os.Stat(path)
		if err != nil {
			return nil, err
		}
		if err := readable(path, st, limit); err != nil {
			return nil, err
		}
	}
	if data, ok := readRegularRaw(path, limit, blocks); ok {
		return data, nil
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := readable(path, st, limit); err != nil {
		return nil, err
	}
	// One buffer of the size stat gave plus one byte, so a file that
	// grew since is seen to have (io.ReadAll would double its way up).
	var data []byte
	if size := int(min(st.Size(), limit)) + 1; blocks != nil {
		data = blocks.bytes.take(size, byteBlock)[:0]
	} else {
		data = make([]byte, 0, size)
	}
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grew meanwhile: let append pick the next size
		}
		want := int(min(int64(cap(data)), limit+1)) - len(data)
		n, err := f.Read(data[len(data) : len(data)+want])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
		if n > 0 && n < want && int64(len(data)) == st.Size() {
			break // short of the buffer, at the size fstat gave: the end
		}
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: max(st.Size(), limit+1), Limit: limit}}
	}
	return data, nil
}

// overlay is LoadOptions.Overlay keyed by absolute, cleaned paths: the
// files whose contents loading takes from memory instead of the disk,
// with LoadOptions.Allow, the check of every file read from the disk,
// over the disk or, with LoadOptions.Rev, over a git revision (rev).
// Every read of loading goes through it (the flow file, package.json,
// cinatra.json, the registry, the sibling files and the package.json
// files of the tree), so that an unsaved buffer (a language server),
// stdin (`oastui lint -`) or an old revision is reviewed exactly as that
// file on disk would be.
type overlay struct {
	files map[string][]byte
	allow func(path string) error
	rev   *GitRev // nil: the disk

	blocks *Blocks  // LoadOptions.Blocks: what the files read from disk and parsed as JSON are put in
	seen   *Listing // LoadOptions.Listing: the directories discovery listed (the disk only)
}

// shared is o for a read whose document outlives the load (the registry
// of a RegistryCache): without the load's blocks.
func (o overlay) shared() overlay {
	o.blocks = nil
	return o
}

// newOverlay normalises the keys of m (no map for an empty m: every
// lookup is then a nil-map miss).
func newOverlay(m map[string][]byte, allow func(string) error, rev *GitRev) overlay {
	o := overlay{allow: allow, rev: rev}
	if len(m) == 0 {
		return o
	}
	o.files = make(map[string][]byte, len(m))
	for p, b := range m {
		o.files[overlayKey(p)] = b
	}
	return o
}

func overlayKey(p string) string {
	if abs, err := filepath.Abs(p); err == nil {
		return abs
	}
	return filepath.Clean(p)
}

// get returns the overlaid contents of path.
func (o overlay) get(path string) ([]byte, bool) {
	if o.files == nil {
		return nil, false
	}
	b, ok := o.files[overlayKey(path)]
	return b, ok
}

// readFile is ReadFileLimited with the overlay in front: an overlaid file
// is a regular file of len(contents) bytes, refused over limit as on disk.
// A file on disk is first checked by allow, symlinks resolved: its
// refusal is the read's error (an *fs.PathError).
func (o overlay) readFile(path string, limit int64) ([]byte, error) {
	b, ok := o.get(path)
	if !ok {
		if o.rev != nil {
			// A revision's file is confined by its path in the work tree
			// (a revision's symlinks are never followed: not regular).
			if o.allow != nil {
				if abs, err := filepath.Abs(path); err == nil {
					if err := o.allow(abs); err != nil {
						return nil, &fs.PathError{Op: "read", Path: path, Err: err}
					}
				}
			}
			return o.rev.readFile(path, limit)
		}
		if err := CheckAllowed(path, o.allow); err != nil {
			return nil, err
		}
		return readFileInto(path, limit, o.blocks, o.listed(path) == listedRegular)
	}
	if int64(len(b)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: int64(len(b)), Limit: limit}}
	}
	return b, nil
}

// CheckAllowed applies allow (LoadOptions.Allow; nil allows everything)
// to the real path of path (absolute, symlinks resolved), as loading
// does before it reads a file: the refusal is an *fs.PathError. A path
// that does not resolve is left to the read's own error.
func CheckAllowed(path string, allow func(string) error) error {
	if allow == nil {
		return nil
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		return nil
	}
	if err := allow(real); err != nil {
		return &fs.PathError{Op: "read", Path: path, Err: err}
	}
	return nil
}

// stat is os.Stat of the disk or of the revision under the overlay.
func (o overlay) stat(path string) (fs.FileInfo, error) {
	if o.rev != nil {
		return o.rev.stat(path)
	}
	return os.Stat(path)
}

// lstat is os.Lstat of the disk or of the revision.
func (o overlay) lstat(path string) (fs.FileInfo, error) {
	if o.rev != nil {
		return o.rev.stat(path)
	}
	return os.Lstat(path)
}

// readDir is os.ReadDir of the disk or of the revision (on the disk,
// the listing discovery made of dir, when it made one).
func (o overlay) readDir(dir string) ([]fs.DirEntry, error) {
	if o.rev != nil {
		return o.rev.readDir(dir)
	}
	if ents, ok := o.seen.dir(dir); ok {
		return ents, nil
	}
	return os.ReadDir(dir)
}

// listed is what the listings discovery made say of path on the disk
// (listedUnknown without them, over a revision, or for a link).
func (o overlay) listed(path string) listedKind {
	if o.rev != nil {
		return listedUnknown
	}
	return o.seen.kind(path)
}

// exists: path is overlaid, or anything stands there on disk.
func (o overlay) exists(path string) bool {
	if _, ok := o.get(path); ok {
		return true
	}
	switch o.listed(path) {
	case listedAbsent:
		return false
	case listedRegular, listedDir:
		return true
	}
	_, err := o.stat(path)
	return err == nil
}

// isDir: a directory stands at path on disk (never an overlaid file).
func (o overlay) isDir(path string) (bool, error) {
	switch o.listed(path) {
	case listedDir:
		return true, nil
	case listedRegular:
		return false, nil
	}
	st, err := o.stat(path)
	if err != nil {
		return false, err
	}
	return st.IsDir(), nil
}

// isFile: path is overlaid, or something other than a directory stands
// there on disk (a special file is refused when read, with a finding).
func (o overlay) isFile(path string) bool {
	if _, ok := o.get(path); ok {
		return true
	}
	switch o.listed(path) {
	case listedAbsent, listedDir:
		return false
	case listedRegular:
		return true
	}
	st, err := o.stat(path)
	return err == nil && !st.IsDir()
}
