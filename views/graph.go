package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"

	"charm.land/lipgloss/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/flowgraph"
)

// Graph is the graph pane: it draws the snapshot's flows (the flow being
// shown is a stack of flow pointers for drill-down, root first), keeps the
// selected node per flow (by id, so it survives re-analysis) and the
// scroll position. The root model decides its size and sends it keys.
type Graph struct {
	good     *analysis.Snapshot
	stack    []string
	selID    map[string]string // flow pointer → selected node id
	offX     int
	offY     int
	w, h     int
	follow   bool   // scroll to the selection on the next view
	selected int    // index of the selected node in the current flow, -1 none
	note     string // shown when there is no good snapshot at all
	fit      struct {
		fg *analysis.Flow
		w  int
		c  *flowgraph.Canvas
		l  *flowgraph.Layout
	} // drawing's cache
	marks map[string]rune // node id → mark the History tab puts on it (graph_marks.go)
	// notDrawn is the note on compiled steps the top-level flow cannot
	// draw, made once per snapshot (SetSnapshot), not once per frame.
	notDrawn string
	// Built once per snapshot when first asked (SetSnapshot drops them),
	// so that selecting a finding's node and describing it cost the
	// pointer's depth, not the flow's nodes or the review's findings:
	// nodeOf, per drawn graph, the node holding each of its nodes' and
	// subflows' pointers (the first node wins, as nodeAt's scan did);
	// findingsAt, the flow file's findings (indexes in the review) under
	// each pointer, in the review's order.
	nodeOf     map[*flowgraph.Graph]map[string]int
	findingsAt map[string][]int
	described  struct { // the last NodeInfo (per snapshot: SetSnapshot drops it)
		fg   *analysis.Flow
		node int
		info *NodeInfo
	}
	// fullScan makes nodeAt and NodeInfo scan every node and finding, as
	// they did before the maps: the tests' oracle.
	fullScan bool
}

// NewGraph is an empty graph pane ("analysing…" until SetSnapshot).
func NewGraph() *Graph {
	g := &Graph{}
	g.init()
	return g
}

// SetNote is what the pane shows while there is no good snapshot.
func (g *Graph) SetNote(s string) { g.note = s }

// Height is the inner height (a page for pgup/pgdn).
func (g *Graph) Height() int { return g.h }

// Depth is how many flows deep the drill-down is (1 = the root flow).
func (g *Graph) Depth() int { return len(g.stack) }

func (g *Graph) init() {
	g.stack = []string{""}
	g.selID = map[string]string{}
	g.selected = -1
}

// cur is the flow on top of the stack.
func (g *Graph) cur() *analysis.Flow {
	if g.good == nil {
		return nil
	}
	if fg := g.good.Flow(g.stack[len(g.stack)-1]); fg != nil {
		return fg.Drawn()
	}
	if len(g.good.Flows) > 0 {
		return g.good.Flows[0].Drawn()
	}
	return nil
}

// SetSnapshot installs a new good snapshot, keeping the drill-down path and
// the selection where they still exist.
func (g *Graph) SetSnapshot(good *analysis.Snapshot) {
	g.good = good
	g.nodeOf, g.findingsAt = nil, nil
	g.described.info = nil
	missing, _ := stepsNotDrawn(good)
	g.notDrawn = notDrawnNote(missing)
	keep := g.stack[:1]
	for _, p := range g.stack[1:] {
		if good.Flow(p) == nil {
			break
		}
		keep = append(keep, p)
	}
	if len(good.Flows) > 0 && good.Flow(keep[0]) == nil {
		keep[0] = good.Flows[0].Pointer
	}
	g.stack = keep
	g.resolveSelection()
}

// resolveSelection turns the remembered id into an index, defaulting to the
// first node in reading order.
func (g *Graph) resolveSelection() {
	g.selected = -1
	fg := g.cur()
	if fg == nil || fg.Graph == nil || len(fg.Graph.Nodes) == 0 {
		return
	}
	if id, ok := g.selID[fg.Pointer]; ok {
		if i := fg.Graph.NodeIndex(id); i >= 0 {
			g.selected = i
			return
		}
	}
	g.setSel(fg, fg.Order[0])
}

func (g *Graph) setSel(fg *analysis.Flow, i int) {
	g.selected = i
	g.selID[fg.Pointer] = fg.Graph.Nodes[i].ID
	g.follow = true
}

// SetSize sets the inner size; the selection is scrolled into view again.
func (g *Graph) SetSize(w, h int) {
	if w != g.w || h != g.h {
		g.follow = true
	}
	g.w, g.h = w, h
}

// Lines renders the visible window of the canvas, the selected node's box
// highlighted.
func (g *Graph) Lines(th Theme) []string {
	fg := g.cur()
	if fg == nil {
		if g.note != "" {
			return strings.Split(ansiWrap(g.note, g.w), "\n")
		}
		return []string{th.Dim.Render("analysing…")}
	}
	if fg.Canvas == nil {
		return []string{th.Blocker.Render(present.Text(fg.Err))}
	}
	c, l := g.drawing(fg)
	c = g.marked(fg, c, l)
	if g.follow {
		g.scrollToSelection(fg)
		g.follow = false
	}
	g.clampScroll(c)
	sel := g.selected + 1
	// A run of cells with the same style id is rendered in one go; the id
	// is the class, plus a flag for the selected node's border and text.
	styleOf := func(id int) lipgloss.Style {
		switch id {
		case -1:
			return th.GraphSelected
		case -2:
			return th.GraphSelected.Reverse(true)
		}
		return th.ClassStyle(flowgraph.Class(id))
	}
	out := make([]string, 0, g.h)
	pad := ""
	if c.W < g.w {
		pad = strings.Repeat(" ", (g.w-c.W)/2) // a narrow drawing sits in the middle
	}
	var b, run strings.Builder
	for y := g.offY; y < g.offY+g.h && y < c.H; y++ {
		b.Reset()
		b.WriteString(pad)
		runID := -100
		flush := func() {
			if run.Len() > 0 {
				b.WriteString(styleOf(runID).Render(run.String()))
				run.Reset()
			}
		}
		for x := g.offX; x < g.offX+g.w && x < c.W; x++ {
			cell := c.At(x, y)
			r := cell.R
			if r == 0 {
				if x != g.offX {
					continue // second half of a wide character
				}
				r = ' '
			}
			if r > 0x1000 && Width(string(r)) == 2 && x+1 >= g.offX+g.w {
				r = ' ' // a wide character cut by the right edge
			}
			id := int(cell.Class)
			if sel > 0 && cell.Node == sel {
				switch cell.Class {
				case flowgraph.ClassNodeBorder, flowgraph.ClassSelected:
					id = -1
				case flowgraph.ClassNodeText:
					id = -2
				}
			}
			if r == ' ' && id >= 0 && cell.Class != flowgraph.ClassNone {
				id = int(flowgraph.ClassNone) // spaces need no colour: longer runs
			}
			if id != runID {
				flush()
				runID = id
			}
			run.WriteRune(r)
		}
		flush()
		out = append(out, b.String())
	}
	if len(g.stack) == 1 { // the top-level flow: say which compiled steps it cannot draw
		if n := g.notDrawn; n != "" && g.h > 0 {
			var note []string
			for _, l := range strings.Split(ansiWrap(n, g.w), "\n") {
				note = append(note, th.Warning.Render(l))
			}
			note = note[:min(len(note), g.h)]
			if len(out)+len(note) < g.h {
				out = append(out, "") // a blank line between the drawing and the note
			}
			keep := min(len(out), g.h-len(note)) // the note takes the pane's last lines
			out = append(out[:keep], note...)
		}
	}
	return out
}

// Overflow says whether the drawing goes on past the left and right
// edges of the pane (after the last Lines): the pane title says the
// drawing scrolls sideways.
func (g *Graph) Overflow() (left, right bool) {
	fg := g.cur()
	if fg == nil || fg.Canvas == nil {
		return false, false
	}
	c, _ := g.drawing(fg)
	return g.offX > 0, g.offX+g.w < c.W
}

// drawing is the flow's drawing as the pane shows it: the snapshot's,
// or, when a box is wider than the pane, one drawn again with boxes no
// wider than the pane (names cut inside whole boxes; kept until the flow
// or the width changes).
func (g *Graph) drawing(fg *analysis.Flow) (*flowgraph.Canvas, *flowgraph.Layout) {
	if fg.Canvas == nil || fg.Layout == nil || fg.Graph == nil || g.w < 12 {
		return fg.Canvas, fg.Layout
	}
	if g.fit.fg == fg && g.fit.w == g.w {
		return g.fit.c, g.fit.l
	}
	widest := 0
	for i := range fg.Graph.Nodes {
		widest = max(widest, fg.Layout.Box(i).W)
	}
	c, l := fg.Canvas, fg.Layout
	if widest > g.w {
		c, l = flowgraph.Render(fg.Graph, flowgraph.Options{MaxBox: g.w})
	}
	if c.W > g.w && len(fg.Graph.Nodes) <= fitNodes {
		// Wider than the pane: the narrowest boxes (no narrower than
		// minFitBox) with which the whole drawing fits, so that no box is
		// cut at the pane's edge; when none fits, the pane scrolls.
		if fc, fl, ok := fitWidth(fg.Graph, min(widest, g.w), g.w); ok {
			c, l = fc, fl
		}
	}
	g.fit.fg, g.fit.w, g.fit.c, g.fit.l = fg, g.w, c, l
	return c, l
}

// fitNodes bounds the flows the pane redraws to fit its width (each try is
// a layout); a larger flow scrolls.
const fitNodes = 300

// minFitBox is the narrowest box fitWidth draws: a name cut shorter than
// about a dozen cells no longer says which node it is.
const minFitBox = 16

// fitWidth is g drawn with the widest boxes, at most widest cells, for
// which the drawing is no wider than w (a binary search over the box
// width: the drawing's width grows with it); ok is false when even boxes
// of minFitBox cells do not fit.
func fitWidth(g *flowgraph.Graph, widest, w int) (*flowgraph.Canvas, *flowgraph.Layout, bool) {
	lo, hi := minFitBox, widest-1
	var c *flowgraph.Canvas
	var l *flowgraph.Layout
	for lo <= hi {
		mid := (lo + hi) / 2
		mc, ml := flowgraph.Render(g, flowgraph.Options{MaxBox: mid})
		if mc.W <= w {
			c, l, lo = mc, ml, mid+1
		} else {
			hi = mid - 1
		}
	}
	return c, l, c != nil
}

func (g *Graph) clampScroll(c *flowgraph.Canvas) {
	g.offX = max(0, min(g.offX, c.W-g.w))
	g.offY = max(0, min(g.offY, c.H-g.h))
}

// scrollToSelection scrolls the least needed to show the selected box
// (its top-left corner when it is bigger than the pane).
func (g *Graph) scrollToSelection(fg *analysis.Flow) {
	if g.selected < 0 || fg.Layout == nil {
		return
	}
	_, l := g.drawing(fg)
	b := l.Box(g.selected)
	if b.W == 0 {
		return
	}
	if b.X+b.W > g.offX+g.w {
		g.offX = b.X + b.W - g.w
	}
	if b.X < g.offX {
		g.offX = b.X
	}
	if b.Y+b.H+1 > g.offY+g.h {
		g.offY = b.Y + b.H + 1 - g.h
	}
	if b.Y < g.offY {
		g.offY = max(0, b.Y-1)
	}
}

// Breadcrumb names the flows from the root to the one shown.
func (g *Graph) Breadcrumb() string {
	if g.good == nil {
		return ""
	}
	var parts []string
	for _, p := range g.stack {
		if fg := g.good.Flow(p); fg != nil {
			parts = append(parts, present.Text(fg.Name))
		}
	}
	return strings.Join(parts, " › ")
}

func (g *Graph) flowOK() *analysis.Flow {
	fg := g.cur()
	if fg == nil || fg.Graph == nil || len(fg.Graph.Nodes) == 0 {
		return nil
	}
	return fg
}

// Move selects the previous/next node in reading order.
func (g *Graph) Move(d int) {
	fg := g.flowOK()
	if fg == nil {
		return
	}
	pos := 0
	for i, n := range fg.Order {
		if n == g.selected {
			pos = i
		}
	}
	pos = max(0, min(len(fg.Order)-1, pos+d))
	g.setSel(fg, fg.Order[pos])
}

// First selects the first node in reading order.
func (g *Graph) First() {
	if fg := g.flowOK(); fg != nil {
		g.setSel(fg, fg.Order[0])
	}
}

// Last selects the last node in reading order.
func (g *Graph) Last() {
	if fg := g.flowOK(); fg != nil {
		g.setSel(fg, fg.Order[len(fg.Order)-1])
	}
}

// MoveSide selects the nearest node to the left (d<0) or right (d>0);
// with none there it scrolls.
func (g *Graph) MoveSide(d int) {
	fg := g.flowOK()
	if fg == nil || g.selected < 0 {
		return
	}
	_, l := g.drawing(fg)
	cur := l.Box(g.selected)
	cx, cy := cur.X+cur.W/2, cur.Y+cur.H/2
	best, bestCost := -1, 0
	for i := range fg.Graph.Nodes {
		b := l.Box(i)
		if i == g.selected || b.W == 0 {
			continue
		}
		x, y := b.X+b.W/2, b.Y+b.H/2
		dx := (x - cx) * d
		if dx <= 0 {
			continue
		}
		dy := y - cy
		if dy < 0 {
			dy = -dy
		}
		cost := dx + 3*dy
		if best < 0 || cost < bestCost {
			best, bestCost = i, cost
		}
	}
	if best >= 0 {
		g.setSel(fg, best)
		return
	}
	g.Scroll(8*d, 0)
}

// Scroll moves the window over the drawing by dx columns and dy rows.
func (g *Graph) Scroll(dx, dy int) {
	g.offX = max(0, g.offX+dx)
	g.offY = max(0, g.offY+dy)
	if fg := g.cur(); fg != nil && fg.Canvas != nil {
		c, _ := g.drawing(fg)
		g.clampScroll(c)
	}
}

// Open drills into the selected node's subflow.
func (g *Graph) Open() bool {
	fg := g.flowOK()
	if fg == nil || g.selected < 0 {
		return false
	}
	n := fg.Graph.Nodes[g.selected]
	if n.Subflow == "" || g.good.Flow(n.Subflow).Drawn() == nil {
		return false
	}
	g.stack = append(g.stack, n.Subflow)
	g.offX, g.offY = 0, 0
	g.resolveSelection()
	return true
}

// Back returns to the enclosing flow, its FlowNode still selected.
func (g *Graph) Back() bool {
	if len(g.stack) <= 1 {
		return false
	}
	g.stack = g.stack[:len(g.stack)-1]
	g.resolveSelection()
	return true
}

// pathTo is the chain of flow pointers from the root flow to ptr.
func (g *Graph) pathTo(ptr string) []string {
	var chain []string
	for p, ok := ptr, true; ok; {
		fg := g.good.Flow(p)
		if fg == nil {
			break
		}
		chain = append([]string{p}, chain...)
		if p == g.good.Flows[0].Pointer {
			break
		}
		p = fg.Parent
		ok = g.good.Flow(p) != nil
	}
	return chain
}

// SelectPointer selects the node a finding's JSON Pointer belongs to: in the
// flow shown when it has one, else in the innermost flow holding the
// pointer (the drill-down path follows).
func (g *Graph) SelectPointer(loc string) {
	if g.good == nil {
		return
	}
	if fg := g.flowOK(); fg != nil {
		if i := g.nodeAt(fg.Graph, loc); i >= 0 {
			g.setSel(fg, i)
			return
		}
	}
	// The innermost flow whose subtree holds the pointer (drawn only now).
	var best *analysis.Flow
	for _, fg := range g.good.Flows {
		if under(loc, fg.Pointer) && (best == nil || len(fg.Pointer) > len(best.Pointer)) {
			best = fg
		}
	}
	// Walk outwards until a flow has a node holding it (bounded: flows nest
	// at most len(Flows) deep).
	for i := 0; best != nil && i <= len(g.good.Flows); i++ {
		if best.Drawn().Graph != nil && g.nodeAt(best.Graph, loc) >= 0 {
			break
		}
		if best.Pointer == best.Parent {
			best = nil
			break
		}
		best = g.good.Flow(best.Parent)
	}
	if best == nil || best.Graph == nil || g.nodeAt(best.Graph, loc) < 0 {
		return
	}
	if chain := g.pathTo(best.Pointer); len(chain) > 0 {
		g.stack = chain
		g.setSel(best, g.nodeAt(best.Graph, loc))
	}
}

// nodeAt is the node whose component (or subflow) holds loc, the most
// specific one winning; -1 when none: the longest of loc and its parent
// pointers that is a node's or a subflow's pointer.
func (g *Graph) nodeAt(gr *flowgraph.Graph, loc string) int {
	if g.fullScan {
		best, bestLen := -1, -1
		for i, n := range gr.Nodes {
			for _, p := range append([]string{n.Pointer}, n.Subflows...) {
				if p != "" && under(loc, p) && len(p) > bestLen {
					best, bestLen = i, len(p)
				}
			}
		}
		return best
	}
	at := g.nodeOf[gr]
	if at == nil {
		at = map[string]int{}
		for i, n := range gr.Nodes {
			for _, p := range append([]string{n.Pointer}, n.Subflows...) {
				if _, ok := at[p]; !ok && p != "" {
					at[p] = i
				}
			}
		}
		if g.nodeOf == nil {
			g.nodeOf = map[*flowgraph.Graph]map[string]int{}
		}
		g.nodeOf[gr] = at
	}
	for p := loc; p != ""; p = parentPointer(p) {
		if i, ok := at[p]; ok {
			return i
		}
	}
	return -1
}

// parentPointer is p without its last reference token ("" for one token
// or none): the pointers p is under (see under) are p and its parents.
func parentPointer(p string) string {
	return p[:max(0, strings.LastIndexByte(p, '/'))]
}

func under(ptr, parent string) bool {
	return parent == "" || ptr == parent || strings.HasPrefix(ptr, parent+"/")
}

// SelectID selects the node with id in the shown flow, else in the first
// flow that has it.
func (g *Graph) SelectID(id string) {
	if fg := g.flowOK(); fg != nil {
		if i := fg.Graph.NodeIndex(id); i >= 0 {
			g.setSel(fg, i)
			return
		}
	}
	if g.good == nil {
		return
	}
	for _, fg := range g.good.Flows {
		if fg.Drawn().Graph == nil {
			continue
		}
		if i := fg.Graph.NodeIndex(id); i >= 0 {
			if chain := g.pathTo(fg.Pointer); len(chain) > 0 {
				g.stack = chain
				g.setSel(fg, i)
			}
			return
		}
	}
}

// SelectedNode is the selected node and its flow (nil, nil when none).
func (g *Graph) SelectedNode() (*analysis.Flow, *flowgraph.Node) {
	fg := g.flowOK()
	if fg == nil || g.selected < 0 || g.selected >= len(fg.Graph.Nodes) {
		return nil, nil
	}
	return fg, fg.Graph.Nodes[g.selected]
}

// NodeInfo describes the selected node for the Node tab. Every move in
// the Findings tab asks again; moves between findings of one node (a node
// of thousands of ports or data edges) describe it once per snapshot:
// the description is a function of the snapshot, the flow and the node,
// and callers only read it.
func (g *Graph) NodeInfo() *NodeInfo {
	fg, n := g.SelectedNode()
	if n == nil {
		return nil
	}
	if d := g.described; !g.fullScan && d.info != nil && d.fg == fg && d.node == g.selected {
		return d.info
	}
	info := g.describe(fg, n)
	g.described.fg, g.described.node, g.described.info = fg, g.selected, info
	return info
}

// describe is NodeInfo of node n of fg.
func (g *Graph) describe(fg *analysis.Flow, n *flowgraph.Node) *NodeInfo {
	info := &NodeInfo{Name: n.Name, Pointer: n.Pointer}
	add := func(k, v string) {
		if v != "" {
			info.Fields = append(info.Fields, [2]string{k, v})
		}
	}
	add("id", n.ID)
	add("type", n.ComponentType)
	add("kind", string(n.Kind))
	add("flow", fg.Name)
	doc := g.good.Agent.Flow
	if n.Pointer != "" {
		line, col := doc.PointerPosition(n.Pointer)
		add("at", fmt.Sprintf("%s  (line %d:%d)", n.Pointer, line, col))
	} else {
		add("at", "global registry")
	}
	if len(n.Steps) > 0 {
		s := make([]string, len(n.Steps))
		for i, x := range n.Steps {
			s[i] = fmt.Sprint(x)
		}
		add("steps", strings.Join(s, ", "))
	}
	if n.Approval {
		add("approval", "✋ requires approval")
	}
	add("risk", n.Risk)
	if n.Subflow != "" {
		add("subflow", n.Subflow+"  (enter opens it)")
	}
	if !n.Reachable {
		add("reachable", "no: not reachable from the start node")
	}
	if n.Blockers+n.Warnings+n.Suggestions > 0 {
		add("findings", Count(n.Blockers, "blocker")+", "+Count(n.Warnings, "warning")+", "+Count(n.Suggestions, "suggestion"))
	}
	comp := doc.Lookup(n.Pointer)
	if n.Pointer == "" {
		comp = nil
	}
	info.Inputs = flowgraph.Ports(comp.Get("inputs"))
	info.Outputs = flowgraph.Ports(comp.Get("outputs"))
	info.DataIn, info.DataOut = fg.Graph.DataEdgesOf(n.ID)
	if n.Pointer != "" && !g.fullScan {
		for _, i := range g.findingsUnder(n.Pointer) {
			f := g.good.Review.Findings[i]
			info.Findings = append(info.Findings, fmt.Sprintf("%d:%d %s %s", f.Line, f.Column, f.Code, f.Message))
		}
	}
	if g.fullScan {
		for _, f := range g.good.Review.Findings {
			if n.Pointer != "" && f.File == g.good.Agent.FlowPath && under(f.Location, n.Pointer) {
				info.Findings = append(info.Findings, fmt.Sprintf("%d:%d %s %s", f.Line, f.Column, f.Code, f.Message))
			}
		}
	}
	return info
}

// findingsUnder are the flow file's findings whose location is ptr or
// under it (indexes in the review, in its order).
func (g *Graph) findingsUnder(ptr string) []int {
	if g.findingsAt == nil {
		g.findingsAt = map[string][]int{}
		for i, f := range g.good.Review.Findings {
			if f.File != g.good.Agent.FlowPath {
				continue
			}
			for p := f.Location; p != ""; p = parentPointer(p) {
				g.findingsAt[p] = append(g.findingsAt[p], i)
			}
		}
	}
	return g.findingsAt[ptr]
}

// NodePosition is where the selected node is defined, for the editor.
func (g *Graph) NodePosition() (string, int, int) {
	_, n := g.SelectedNode()
	if n == nil || n.Pointer == "" {
		return "", 0, 0
	}
	line, col := g.good.Agent.Flow.PointerPosition(n.Pointer)
	return g.good.Agent.FlowPath, line, col
}
