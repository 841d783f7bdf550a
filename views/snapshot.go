package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
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

// stepsNotDrawn are the compiled steps of s whose node the snapshot's model
// of the top-level flow (topModel, the one model the graph pane draws)
// has no node for, and the model's node names by id. The compiler walks
// control_flow_connections from start_node (reference cinatra.md §11.4),
// so a node that edges reach is compiled into a step even when the flow's
// nodes list lacks it, while the model, like the platform's editor, holds
// only the listed nodes: the Steps tab and the graph pane both read this
// to say which steps the drawing cannot show.
func stepsNotDrawn(s *analysis.Snapshot) (missing []StepRow, names map[string]string) {
	if s == nil || s.Compiled == nil {
		return nil, nil
	}
	model, err := topModel(s)
	if err != nil || model == nil {
		return nil, nil
	}
	names = map[string]string{}
	for _, n := range model.Nodes {
		names[n.ID] = n.Name
	}
	for _, r := range StepRows(s.Compiled) {
		if _, ok := names[r.NodeID]; !ok && r.NodeID != "" {
			missing = append(missing, r)
		}
	}
	return missing, names
}

// notDrawnNote is the graph pane's line under a top-level flow with
// compiled steps it cannot draw ("" when there is none).
func notDrawnNote(missing []StepRow) string {
	if len(missing) == 0 {
		return ""
	}
	var parts []string
	for _, r := range missing {
		parts = append(parts, fmt.Sprintf("%d %s", r.Number, present.Text(r.NodeID)))
	}
	what := "step " + parts[0]
	if len(parts) > 1 {
		what = "steps " + strings.Join(parts, ", ")
	}
	return "⚠ " + what + ": compiled, not drawn (not in the flow's nodes)"
}

// CompiledLines is c as indented JSON, one sanitised line per entry.
func CompiledLines(c *compile.CompiledAgentOas) ([]string, error) {
	lines, err := compiledRaw(c)
	for i, l := range lines {
		lines[i] = present.Text(l)
	}
	return lines, err
}

// compiledRaw is CompiledLines not yet presented: the Compiled tab
// presents the lines it shows.
func compiledRaw(c *compile.CompiledAgentOas) ([]string, error) {
	b, err := compile.IndentJSON(c) // as `oastui compile` prints it
	if err != nil {
		return nil, err
	}
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n"), nil
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
		if r.Form == compile.SlotSlim {
			row.Status = "wired by the loader at mount (slim)"
		}
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

// topModel is the graph model of the document's top-level flow (the root
// when it is a Flow, else its first Flow): analysis.Flow.Model.
func topModel(s *analysis.Snapshot) (*flowgraph.Graph, error) {
	flows := s.Agent.Flows()
	if len(flows) == 0 {
		return nil, flowgraph.ErrNoFlow
	}
	return s.Flow(flows[0].Pointer).Model()
}
