package tui

import (
	"github.com/oastui/oastui/compile"
)

// FlowGraph is one Flow of the document as the graph pane shows it.
type FlowGraph struct {
	Pointer string // where the Flow is ("" for the root)
	Name    string // its name or id
	Err     string // why it could not be drawn
}

// analyzeCompiled fills the compiled output and the steps. (The compiler
// is being written in parallel; until it lands this shows a note.)
func analyzeCompiled(an *Analysis) {
	an.CompileErr = "compiler not available in this build"
}

// analyzeGraphs lists the flows of the document.
func analyzeGraphs(an *Analysis) {
	for _, f := range compile.Flows(an.Agent.Flow.Root) {
		fg := &FlowGraph{Pointer: f.Pointer, Name: f.ID(), Err: "graph drawing not available in this build"}
		an.Flows = append(an.Flows, fg)
		an.ByPtr[f.Pointer] = fg
	}
}

// analyzeSlots lists the context slots and their wiring status.
func analyzeSlots(an *Analysis) {}
