package diff

import (
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Stages are what a diff reads of a snapshot.
const Stages = analysis.StageCompile | analysis.StageSlots | analysis.StagePromptText

// sideOptions are the options both sides of a diff are analysed with (by
// AnalyzeSide): the diff's Stages and the config cfg (nil: the one found upward
// from the agent), so that both sides are loaded, reviewed and compiled
// the same way.
func sideOptions(cfg *analysis.ConfigResult) analysis.Options {
	return analysis.Options{Stages: Stages, Config: cfg}
}

// Analyze is the snapshot AnalyzeSide gives for the agent at path as the
// revision rev has it (nil: the files on disk) with the diff's options and
// the config cfg: what Run reads each side as.
func Analyze(path string, rev *compile.GitRev, cfg *analysis.ConfigResult) *analysis.Snapshot {
	return analyzeSide(path, rev, sideOptions(cfg))
}

