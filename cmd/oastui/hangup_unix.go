//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
)

// removeOnHangup runs cleanup when the terminal closes (SIGHUP), then
// ends the process as SIGHUP would have; SIGTERM and SIGINT already end
// the TUI normally, and the caller's deferred cleanup runs then. It returns
// a function that stops listening.
func removeOnHangup(cleanup func()) (stop func()) {
	ch := make(chan os.Signal, 1)
	done := make(chan struct{})
	signal.Notify(ch, syscall.SIGHUP)
	go func() {
		select {
		case <-ch:
			cleanup()
			signal.Reset(syscall.SIGHUP)
			_ = syscall.Kill(os.Getpid(), syscall.SIGHUP)
		case <-done:
		}
	}()
	return func() {
		signal.Stop(ch)
		close(done)
	}
}
