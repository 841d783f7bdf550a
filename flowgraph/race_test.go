//go:build race

package flowgraph

// raceEnabled: the tests run under the race detector, several times
// slower; the long random tables run a sample (the full table runs
// without -race, and in `go test -fuzz`-style long runs).
const raceEnabled = true
