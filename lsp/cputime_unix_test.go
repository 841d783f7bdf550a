//go:build unix

package lsp

import (
	"syscall"
	"time"
)

// cpuTime is the process's user and system CPU time so far (a loaded
// machine's wall times are noise; its CPU times are not).
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
