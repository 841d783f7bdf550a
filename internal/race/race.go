//go:build race

// Package race says whether the binary was built with the race detector,
// so that tests can run a sample of their long tables under it (the full
// tables run without -race; `go test -race ./...` must stay fast).
package race

// Enabled is true under -race.
const Enabled = true
