//go:build !race

package flowgraph

const raceEnabled = false
