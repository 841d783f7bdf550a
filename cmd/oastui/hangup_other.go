//go:build !unix

package main

// removeOnHangup: there is no SIGHUP to catch here; the caller's deferred
// cleanup runs when the TUI ends.
func removeOnHangup(cleanup func()) (stop func()) { return func() {} }
