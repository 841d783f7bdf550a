package diff

import (
	"github.com/oastui/oastui/analysis"
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
