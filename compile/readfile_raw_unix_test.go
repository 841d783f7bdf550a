//go:build unix

package compile

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestReadRegularRaw: the raw read gives a regular file's bytes exactly
// (empty, small, the size of the buffer, with and without blocks), and
// declines (ok false, so that the os path decides and words the error)
// a missing file, a directory, a FIFO, a link to /dev/null and a file over
// the limit.
func TestReadRegularRaw(t *testing.T) {
	dir := t.TempDir()
	var blocks Blocks
	for _, size := range []int{0, 1, 511, 4096, 70000} {
		want := bytes.Repeat([]byte("{}\n"), size/3+1)[:size]
		p := filepath.Join(dir, "f.json")
		if err := os.WriteFile(p, want, 0o644); err != nil {
			t.Fatal(err)
		}
		for _, b := range []*Blocks{nil, &blocks} {
			got, ok := readRegularRaw(p, int64(size), b)
			if !ok || !bytes.Equal(got, want) {
				t.Fatalf("size %d (blocks %v): ok %v, %d bytes", size, b != nil, ok, len(got))
			}
			viaOS, err := readFileInto(p, int64(size), b, true)
			if err != nil || !bytes.Equal(viaOS, want) {
				t.Fatalf("size %d: readFileInto %v", size, err)
			}
		}
		if size > 0 {
			if _, ok := readRegularRaw(p, int64(size-1), nil); ok {
				t.Fatalf("size %d over a limit of %d read", size, size-1)
			}
		}
	}
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	link := filepath.Join(dir, "null")
	if err := os.Symlink("/dev/null", link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{filepath.Join(dir, "missing"), dir, fifo, link} {
		if _, ok := readRegularRaw(p, 1<<20, nil); ok {
			t.Errorf("%s: read, want declined", p)
		}
	}
}
