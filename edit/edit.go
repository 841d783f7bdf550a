// Package edit writes files for the faces of oastui (the compiled agent of
// `oastui compile -o`, the envelope of `pick --out`, the audit chain head)
// without ever replacing something that is not a regular file.
package edit

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// ErrNotRegular is returned (wrapped) when the target exists and is not a
// regular file: a device, a FIFO, a socket, a directory or a symlink.
var ErrNotRegular = errors.New("not a regular file")

// WriteFileAtomic writes data to path through a temporary file in the same
// directory (fsynced, then renamed over path), so a reader never sees a
// half-written file. It refuses, with an error naming path, when path
// exists and is not a regular file, and when path is a symlink: it never
// follows one (a link could point out of the directory, or at a device).
// The mode of an existing file is kept; a new file gets 0644 (set
// explicitly, whatever the umask).
func WriteFileAtomic(path string, data []byte) error {
	mode := os.FileMode(0o644)
	st, err := os.Lstat(path)
	switch {
	case err == nil:
		if st.Mode()&fs.ModeSymlink != 0 {
			return fmt.Errorf("%s: is a symlink; refusing to write through it: %w", path, ErrNotRegular)
		}
		if !st.Mode().IsRegular() {
			return fmt.Errorf("%s: %w (%s); refusing to replace it", path, ErrNotRegular, FileKind(st.Mode()))
		}
		mode = st.Mode().Perm()
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, werr := f.Write(data)
	if werr == nil {
		werr = f.Chmod(mode)
	}
	if werr == nil {
		werr = f.Sync()
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr == nil {
		// The target may have changed since the Lstat: check again just
		// before the rename (the window left is the rename itself).
		if st, err := os.Lstat(path); err == nil && !st.Mode().IsRegular() {
			werr = fmt.Errorf("%w (%s, appeared while writing); refusing to replace it", ErrNotRegular, FileKind(st.Mode()))
		}
	}
	if werr == nil {
		werr = os.Rename(tmp, path)
	}
	if werr != nil {
		os.Remove(tmp)
		return fmt.Errorf("%s: %w", path, werr)
	}
	if d, err := os.Open(dir); err == nil { // make the rename durable
		_ = d.Sync()
		d.Close()
	}
	return nil
}

// FileKind names a non-regular file mode for an error message ("a FIFO",
// "a character device", …): the one wording of every refusal of a special
// file, in loading and in writing.
func FileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symlink"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	default:
		return "a special file"
	}
}
