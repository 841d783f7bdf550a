package compile

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// ErrNotRegular is the error (under an *fs.PathError) of ReadFileLimited
// for a path that is not a regular file: a named pipe, a device, a socket
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

func fileKind(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeDevice != 0:
		return "a device"
	}
	return "a special file"
}

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
// Errors are *fs.PathError; errors.Is finds ErrNotRegular or ErrTooLarge
// in them, and fs.ErrNotExist for a missing file.
func ReadFileLimited(path string, limit int64) ([]byte, error) {
	st, err := os.Stat(path)
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: notRegularError{fileKind(st.Mode())}}
	}
	if st.Size() > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: st.Size(), Limit: limit}}
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() {
		return nil, &fs.PathError{Op: "read", Path: path, Err: notRegularError{fileKind(st.Mode())}}
	}
	// One buffer of the size stat gave plus one byte, so a file that
	// grew since is seen to have (io.ReadAll would double its way up).
	data := make([]byte, 0, min(st.Size(), limit)+1)
	for int64(len(data)) <= limit {
		if len(data) == cap(data) {
			data = append(data, 0)[:len(data)] // grew meanwhile: let append pick the next size
		}
		n, err := f.Read(data[len(data):min(int64(cap(data)), limit+1)])
		data = data[:len(data)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		}
	}
	if int64(len(data)) > limit {
		return nil, &fs.PathError{Op: "read", Path: path, Err: &TooLargeError{Size: max(st.Size(), limit+1), Limit: limit}}
	}
	return data, nil
}
