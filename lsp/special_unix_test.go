//go:build unix

package lsp

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A path that is not open and is not a regular file (a FIFO named
// *.json, a symlink to /dev/zero) is never read: hover and didSave on it
// are answered, and so is shutdown after them. (The server read the FIFO
// holding its lock and answered nothing again; /dev/zero grew it by
// gigabytes.)
func TestSpecialFilesNotRead(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { // a reader blocked on the FIFO (the failure) is let go
		if f, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	zero := filepath.Join(dir, "zero.json")
	if err := os.Symlink("/dev/zero", zero); err != nil {
		t.Fatal(err)
	}
	agent := filepath.Join(dir, "agents", "v", "a")
	if err := os.MkdirAll(filepath.Join(agent, "cinatra"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(agent, "package.json"), []byte(`{"name":"a"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	flowFifo := filepath.Join(agent, "cinatra", "oas.json")
	if err := syscall.Mkfifo(flowFifo, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if f, err := os.OpenFile(flowFifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			f.Close()
		}
	})
	for _, path := range []string{fifo, zero, flowFifo} {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, out, _ := newTestServer(t, -1)
			u := string(uriOf(path))
			done := make(chan struct{})
			go func() {
				defer close(done)
				s.Handle(req(1, "textDocument/hover", map[string]any{"textDocument": map[string]any{"uri": u}, "position": map[string]any{"line": 0, "character": 0}}))
				s.Handle(note("textDocument/didSave", map[string]any{"textDocument": map[string]any{"uri": u}}))
				s.Handle(req(2, "textDocument/documentSymbol", map[string]any{"textDocument": map[string]any{"uri": u}}))
				s.Handle(req(3, "shutdown", nil))
			}()
			select {
			case <-done:
			case <-time.After(time.Minute): // only so that the failure does not hang the test
				t.Fatal("the server does not answer")
			}
			for _, id := range []string{"1", "2", "3"} {
				if r := out.response(id); r == nil || r["error"] != nil {
					t.Errorf("request %s: %v", id, r)
				}
			}
			for _, m := range out.all() {
				if strings.Contains(string(m["params"]), "\\u0000") {
					t.Errorf("the special file was read: %s", m["params"])
				}
			}
		})
	}
}
