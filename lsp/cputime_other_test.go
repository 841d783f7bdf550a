//go:build !unix

package lsp

import "time"

// cpuTime is not measured here (the benchmarks report 0 CPU ms).
func cpuTime() time.Duration { return 0 }
