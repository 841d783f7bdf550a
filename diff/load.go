package diff

import (
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Stages are what a diff reads of a snapshot.
const Stages = analysis.StageCompile | analysis.StageSlots | analysis.StagePromptText

// Analyze runs the pipeline over the agent at path as the diff reads it:
// from the git revision rev (nil: the files on disk), with the config cfg
// (nil: the one found upward from the agent), so that both sides of a
// diff are loaded, reviewed and compiled the same way.
func Analyze(path string, rev *compile.GitRev, cfg *analysis.ConfigResult) *analysis.Snapshot {
	return analysis.Run(path, analysis.Options{Load: compile.LoadOptions{Rev: rev}, Stages: Stages, Config: cfg})
}

// AnalyzeLoad is Analyze with the load options of a confined face (an MCP
// call's registry and Allow); lo.Rev is set to rev.
func AnalyzeLoad(path string, lo compile.LoadOptions, rev *compile.GitRev, cfg *analysis.ConfigResult) *analysis.Snapshot {
	lo.Rev = rev
	return analysis.Run(path, analysis.Options{Load: lo, Stages: Stages, Config: cfg})
}
