package edit

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteFileAtomic(t *testing.T) {
	tests := []struct {
		name    string
		setup   func(t *testing.T, dir, path string)
		wantErr string // "" : the write succeeds
		mode    fs.FileMode
	}{
		{"missing path", func(t *testing.T, dir, path string) {}, "", 0o644},
		{"regular file keeps its mode", func(t *testing.T, dir, path string) {
			must(t, os.WriteFile(path, []byte("old content, longer than the new"), 0o600))
		}, "", 0o600},
		{"FIFO", func(t *testing.T, dir, path string) {
			mkfifo(t, path)
		}, "a FIFO", fs.ModeNamedPipe},
		{"symlink to a regular file", func(t *testing.T, dir, path string) {
			target := filepath.Join(dir, "target")
			must(t, os.WriteFile(target, []byte("target"), 0o644))
			must(t, os.Symlink(target, path))
		}, "is a symlink", fs.ModeSymlink},
		{"symlink out of the directory to a device", func(t *testing.T, dir, path string) {
			must(t, os.Symlink(os.DevNull, path))
		}, "is a symlink", fs.ModeSymlink},
		{"dangling symlink", func(t *testing.T, dir, path string) {
			must(t, os.Symlink(filepath.Join(dir, "nowhere"), path))
		}, "is a symlink", fs.ModeSymlink},
		{"directory", func(t *testing.T, dir, path string) {
			must(t, os.Mkdir(path, 0o755))
		}, "a directory", fs.ModeDir},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "out.json")
			tc.setup(t, dir, path)
			err := WriteFileAtomic(path, []byte("new"))
			st, lerr := os.Lstat(path)
			if lerr != nil {
				t.Fatal(lerr)
			}
			if tc.wantErr == "" {
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := os.ReadFile(path); string(got) != "new" || !st.Mode().IsRegular() || st.Mode().Perm() != tc.mode {
					t.Fatalf("content %q, mode %v; want \"new\", regular, %v", got, st.Mode(), tc.mode)
				}
			} else {
				if err == nil || !errors.Is(err, ErrNotRegular) || !strings.Contains(err.Error(), tc.wantErr) || !strings.Contains(err.Error(), path) {
					t.Fatalf("got %v, want an ErrNotRegular naming %s and %q", err, path, tc.wantErr)
				}
				if st.Mode().Type() != tc.mode.Type() {
					t.Fatalf("the %s became %v", tc.name, st.Mode())
				}
			}
			if tc.name == "symlink to a regular file" {
				if got, _ := os.ReadFile(filepath.Join(dir, "target")); string(got) != "target" {
					t.Fatalf("the symlink's target was written: %q", got)
				}
			}
			ents, _ := os.ReadDir(dir)
			for _, e := range ents {
				if strings.HasSuffix(e.Name(), ".tmp") {
					t.Errorf("temporary file left behind: %s", e.Name())
				}
			}
		})
	}
}

func TestWriteFileAtomicMissingDirectory(t *testing.T) {
	path := filepath.Join(t.TempDir(), "no", "such", "out.json")
	if err := WriteFileAtomic(path, []byte("x")); err == nil {
		t.Fatal("wrote into a missing directory")
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
