package views

import (
	"fmt"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// This file turns the engine's snapshot into the rows the panes show; it
// formats, it never derives.

// StepRows are the compiled approval steps of c (nil when it is nil).
func StepRows(c *compile.CompiledAgentOas) []StepRow {
	if c == nil {
		return nil
	}
	var rows []StepRow
	for _, s := range c.ApprovalPolicy.Steps {
		row := StepRow{Number: s.StepNumber, Name: s.Name, NodeType: s.NodeType, Approval: s.RequiresApproval,
			HitlOwnedBy: s.HitlOwnedBy, Risk: s.RiskClass, Renderer: s.XRenderer, SkipLLM: s.SkipLlm, NodeID: s.NodeID}
		if row.NodeType == "" && s.StepNumber == 0 {
			row.NodeType = "setup"
		}
		if s.ChildAgent != nil && s.ChildAgent.PackageName != nil {
			row.Child = fmt.Sprint(s.ChildAgent.PackageName)
		}
		rows = append(rows, row)
	}
	return rows
}

// CompiledLines is c as indented JSON, one sanitised line per entry.
func CompiledLines(c *compile.CompiledAgentOas) ([]string, error) {
	b, err := compile.IndentJSON(c) // as `oastui compile` prints it
	if err != nil {
		return nil, err
	}
	var lines []string
	for _, l := range strings.Split(strings.TrimRight(string(b), "\n"), "\n") {
		lines = append(lines, Clean(l))
	}
	return lines, nil
}

// SlotRows are the Slots tab's rows of the snapshot's slot reports.
func SlotRows(reports []analysis.SlotReport) []SlotRow {
	var rows []SlotRow
	for _, r := range reports {
		s := r.Slot
		card := fmt.Sprintf("%d..", s.MinItems)
		if s.MaxItems > 0 {
			card += fmt.Sprint(s.MaxItems)
		} else {
			card += "∞"
		}
		mode := s.ResolutionMode
		if s.SelectionMode != "" {
			mode += " · " + s.SelectionMode
		}
		if s.ReadableOnly {
			mode += " · readable-only"
		}
		row := SlotRow{ID: s.SlotID, Mode: mode, Cardinality: card, Extensions: s.Accepted, OK: true, Status: "wired"}
		if !r.Wired() {
			row.OK = false
			row.Status = strings.Join(r.Problems, ", ")
		}
		rows = append(rows, row)
	}
	return rows
}

// SlotNote is the note above the Slots tab's rows ("" when none).
func SlotNote(problem string) string {
	if problem == "" {
		return ""
	}
	return "context slots ignored: " + problem
}
