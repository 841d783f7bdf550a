//go:build !unix

package audit

import "testing"

// mkfifo: no FIFOs here; the test skips.
func mkfifo(t *testing.T, path string) {
	t.Helper()
	t.Skip("no FIFOs on this system")
}
