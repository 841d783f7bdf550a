//go:build unix

package audit

import (
	"syscall"
	"testing"
)

// mkfifo makes a FIFO at path (the tests' stand-in for a device).
func mkfifo(t *testing.T, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o644); err != nil {
		t.Fatal(err)
	}
}
