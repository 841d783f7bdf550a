// Package race says whether the binary was built with the race detector,
// so that tests can run a sample of their long tables under it (the full
// tables run without -race; `go test -race ./...` must stay fast).
package race

// Stride is 1 without the race detector and n under it. A test walking a
// long table of single-goroutine engine work (the engine starts no
// goroutines) takes every Stride(n)-th entry under -race, where each entry
// costs several times more and can reveal no race the others do not, and
// the whole table without it: CI runs those packages a second time
// without -race (.ci/run), so every entry is still checked on every run.
func Stride(n int) int {
	if Enabled {
		return n
	}
	return 1
}
