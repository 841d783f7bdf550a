package diff

import (
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Helpers that only tests use (deadcode ./cmd/... reports none in production code).

// Analyze is the snapshot AnalyzeSide gives for the agent at path as the
// revision rev has it (nil: the files on disk) with the diff's options and
// the config cfg: what Run reads each side as.
func Analyze(path string, rev *compile.GitRev, cfg *analysis.ConfigResult) *analysis.Snapshot {
	return analyzeSide(path, rev, sideOptions(cfg))
}
