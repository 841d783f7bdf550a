package tui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"sync"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/slots"
	"github.com/oastui/oastui/views"
)

// FlowGraph is one Flow of the document as the graph pane shows it: the
// graph, its drawing and where each node's box is.
type FlowGraph struct {
	Pointer string // where the Flow is ("" for the root)
	Parent  string // pointer of the enclosing Flow ("" for the root's children and the root)
	Name    string // its name or id, sanitised
	Graph   *flowgraph.Graph
	Canvas  *flowgraph.Canvas
	Layout  *flowgraph.Layout
	Order   []int  // node indexes in reading order (top to bottom, left to right)
	Err     string // why it could not be drawn

	an   *Analysis
	once sync.Once
}

// Drawn builds and draws the flow on first use and returns it. The root
// flow is drawn inside Analyze; nested flows are drawn when first shown
// (drill-down, a finding inside them), which keeps a save's re-analysis
// short for agents with many subflows. The snapshot stays immutable: the
// drawing is a pure function of it, computed once.
func (fg *FlowGraph) Drawn() *FlowGraph {
	if fg != nil {
		fg.once.Do(func() { drawFlow(fg.an, fg) })
	}
	return fg
}

// analyzeCompiled compiles the agent and fills the compiled JSON and steps.
func analyzeCompiled(an *Analysis) {
	defer func() {
		if r := recover(); r != nil {
			an.CompileErr = fmt.Sprintf("internal error in the compiler: %v", r)
			an.CompiledJSON, an.Steps = nil, nil
		}
	}()
	v, err := compile.Compile(an.Agent)
	if err != nil {
		an.CompileErr = err.Error()
		return
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		an.CompileErr = err.Error()
		return
	}
	for _, l := range strings.Split(strings.TrimRight(b.String(), "\n"), "\n") {
		an.CompiledJSON = append(an.CompiledJSON, views.Clean(l))
	}
	for _, s := range v.ApprovalPolicy.Steps {
		row := views.StepRow{Number: s.StepNumber, Name: s.Name, NodeType: s.NodeType, Approval: s.RequiresApproval,
			HitlOwnedBy: s.HitlOwnedBy, Risk: s.RiskClass, Renderer: s.XRenderer, SkipLLM: s.SkipLlm, NodeID: s.NodeID}
		if row.NodeType == "" && s.StepNumber == 0 {
			row.NodeType = "setup"
		}
		if s.ChildAgent != nil && s.ChildAgent.PackageName != nil {
			row.Child = fmt.Sprint(s.ChildAgent.PackageName)
		}
		an.Steps = append(an.Steps, row)
	}
}

// analyzeGraphs lists every Flow of the document and draws the top one.
func analyzeGraphs(an *Analysis) {
	for _, f := range compile.Flows(an.Agent.Flow.Root) {
		fg := &FlowGraph{Pointer: f.Pointer, Name: views.Clean(f.ID()), an: an}
		if f.Parent != nil {
			fg.Parent = f.Parent.Pointer
		}
		an.Flows = append(an.Flows, fg)
		an.ByPtr[f.Pointer] = fg
	}
	if len(an.Flows) > 0 {
		an.Flows[0].Drawn()
	}
}

func drawFlow(an *Analysis, fg *FlowGraph) {
	defer func() {
		if r := recover(); r != nil {
			fg.Graph, fg.Canvas, fg.Layout = nil, nil, nil
			fg.Err = fmt.Sprintf("internal error drawing the graph: %v", r)
		}
	}()
	g, err := flowgraph.Build(an.Agent, fg.Pointer)
	if err != nil {
		fg.Err = err.Error()
		return
	}
	g.SetFindings(an.Review.Findings)
	if g.FlowName != "" {
		fg.Name = g.FlowName
	}
	c, l := flowgraph.Render(g, flowgraph.Options{})
	fg.Graph, fg.Canvas, fg.Layout = g, c, l
	fg.Order = readingOrder(g, l)
}

// readingOrder sorts node indexes by their box: top to bottom, then left
// to right (nodes without a box last, in declaration order).
func readingOrder(g *flowgraph.Graph, l *flowgraph.Layout) []int {
	idx := make([]int, len(g.Nodes))
	for i := range idx {
		idx[i] = i
	}
	key := func(i int) (int, int, int) {
		b := l.Box(i)
		if b.W == 0 {
			return 1 << 30, 0, i
		}
		return b.Y, b.X, i
	}
	for i := 1; i < len(idx); i++ { // insertion sort: small, stable, no closures over sort
		for j := i; j > 0; j-- {
			ay, ax, ai := key(idx[j-1])
			by, bx, bi := key(idx[j])
			if ay < by || ay == by && (ax < bx || ax == bx && ai < bi) {
				break
			}
			idx[j-1], idx[j] = idx[j], idx[j-1]
		}
	}
	return idx
}

// analyzeSlots lists the context slots and their wiring status: a slot is
// wired when no context-slot finding points at it (or, for the agent-wide
// wiring rules, at no slot in particular).
func analyzeSlots(an *Analysis) {
	list, problem := slots.Slots(an.Agent.Flow.Root)
	if problem != "" {
		an.SlotNote = "context slots ignored: " + problem
	}
	var general []string
	perSlot := map[string][]string{}
	for _, f := range an.Review.Findings {
		if !strings.HasPrefix(f.Code, "context_slot") && !strings.HasPrefix(f.Code, "context_dependency") {
			continue
		}
		matched := false
		for _, s := range list {
			if f.Location == s.Pointer || strings.HasPrefix(f.Location, s.Pointer+"/") || strings.Contains(f.Message, "'"+s.SlotID+"'") || strings.Contains(f.Message, `"`+s.SlotID+`"`) || strings.Contains(f.Message, " "+s.SlotID+" ") {
				perSlot[s.SlotID] = append(perSlot[s.SlotID], f.Code)
				matched = true
			}
		}
		if !matched {
			general = append(general, f.Code)
		}
	}
	for _, s := range list {
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
		row := views.SlotRow{ID: s.SlotID, Mode: mode, Cardinality: card, Extensions: s.Accepted, OK: true, Status: "wired"}
		if probs := append(perSlot[s.SlotID], general...); len(probs) > 0 {
			row.OK = false
			row.Status = strings.Join(dedup(probs), ", ")
		}
		an.Slots = append(an.Slots, row)
	}
	an.SlotList = list
}

func dedup(ss []string) []string {
	seen := map[string]bool{}
	out := ss[:0:0]
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
