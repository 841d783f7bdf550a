//go:build !unix

package flowgraph

import "time"

// processCPU: no getrusage here; BenchmarkGenerated reports wall time only.
func processCPU() time.Duration { return -1 }
