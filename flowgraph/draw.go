package flowgraph

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/clipperhouse/displaywidth"
)

// Class is the style class of a canvas cell; the view maps classes to
// colours.
type Class uint8

const (
	ClassNone        Class = iota
	ClassEdge              // a line or arrowhead of a forward edge
	ClassLabel             // a branch label, a node's kind, the subflow mark, legends
	ClassNodeBorder        // a node box border
	ClassNodeText          // a node's name
	ClassStart             // the start marker (▶)
	ClassEnd               // the end marker (■)
	ClassStepBadge         // the step number(s)
	ClassApproval          // the approval marker (✋)
	ClassBlocker           // the blocker count (✖n)
	ClassWarning           // the warning count (⚠n)
	ClassUnreachable       // a box (border and text) of a node not reachable from start, and the separator
	ClassSelected          // the border of the selected node (Options.Selected)
	ClassBackEdge          // a line or arrowhead of a back edge (a loop)
)

// Options of Render.
type Options struct {
	ASCII    bool // draw with ASCII only (| - + v ^) for terminals without box drawing
	ShowData bool // list the data edges under the drawing
	Selected int  // index+1 of a node whose border gets ClassSelected; 0 for none
	// MaxBox, when above 0, is the widest a node's box is drawn: a longer
	// name is cut to fit (to no fewer than 4 cells), then the labels after
	// it are dropped, so that a narrow pane shows whole boxes.
	MaxBox int
	// TooLarge, when set, is the notice drawn instead of a graph too large
	// to draw (nodes and edges counted); "" says "flow too large to draw
	// … use --format dot".
	TooLarge func(nodes, edges int) string

	sparse bool // tests: store the canvas sparsely whatever its size
	// maxCells, when above 0, is the cell limit instead of MaxCells: tests
	// under -race refuse a wide layer of 1,000 nodes rather than 65,000
	// (a layout of seconds there), by the same path.
	maxCells int
	// assignFirst assigns every channel's tracks before the size is
	// measured (the tests' oracle: the path before a drawing could be
	// refused on the fewest tracks its channels need).
	assignFirst bool
}

// Cell is one character cell. A wide character (East Asian, emoji) takes
// two cells: the first holds the rune, the second has R == 0.
type Cell struct {
	R     rune
	Class Class
	Node  int // index+1 into Graph.Nodes of the box this cell belongs to; 0 for none
}

// Canvas is a grid of cells, row-major. Read it with At (or Line and
// String): a very large drawing (more than DenseLimit cells) is stored
// sparsely, row by row from its first to its last used column, and then
// Cells is nil.
type Canvas struct {
	W, H  int
	Cells []Cell // W×H cells, row-major; nil when the canvas is sparse
	rows  []canvasRow
}

type canvasRow struct {
	off   int
	cells []Cell
}

// DenseLimit is the largest canvas (in cells) kept as one W×H slice;
// MaxCells the most cells a drawing may store (16 bytes each): beyond it
// Render draws a one-line notice instead.
const (
	DenseLimit = 1 << 20
	MaxCells   = 8 << 20
)

var blank = Cell{R: ' '}

// At returns the cell at column x, row y (a blank cell outside the canvas).
func (c *Canvas) At(x, y int) Cell {
	if p := c.ref(x, y); p != nil {
		return *p
	}
	return blank
}

// ref is the stored cell at x, y, or nil.
func (c *Canvas) ref(x, y int) *Cell {
	if x < 0 || y < 0 || x >= c.W || y >= c.H {
		return nil
	}
	if c.Cells != nil {
		return &c.Cells[y*c.W+x]
	}
	r := &c.rows[y]
	if x < r.off || x >= r.off+len(r.cells) {
		return nil
	}
	return &r.cells[x-r.off]
}

// row returns the stored cells of row y and the column of the first.
func (c *Canvas) row(y int) (int, []Cell) {
	if c.Cells != nil {
		return 0, c.Cells[y*c.W : (y+1)*c.W]
	}
	return c.rows[y].off, c.rows[y].cells
}

// Line returns row y as text (continuation cells of wide characters
// skipped), trailing spaces trimmed.
func (c *Canvas) Line(y int) string {
	if y < 0 || y >= c.H {
		return ""
	}
	off, cells := c.row(y)
	var b strings.Builder
	b.WriteString(strings.Repeat(" ", off))
	for _, cell := range cells {
		if cell.R != 0 {
			b.WriteRune(cell.R)
		}
	}
	return strings.TrimRight(b.String(), " ")
}

// String is the canvas as plain text: one line per row, trailing spaces
// trimmed, each line ending in a newline.
func (c *Canvas) String() string {
	var b strings.Builder
	for y := 0; y < c.H; y++ {
		b.WriteString(c.Line(y))
		b.WriteByte('\n')
	}
	return b.String()
}

// newCanvas makes a blank canvas. With spans (per row, the first and one
// past the last column that will be drawn) and more than DenseLimit cells,
// or with sparse set, only those columns are stored.
func newCanvas(w, h int, spans [][2]int, sparse bool) *Canvas {
	c := &Canvas{W: w, H: h}
	if spans == nil || (!sparse && w*h <= DenseLimit) {
		c.Cells = make([]Cell, w*h)
		for i := range c.Cells {
			c.Cells[i] = blank
		}
		return c
	}
	total := 0
	for _, sp := range spans {
		if sp[1] > sp[0] {
			total += sp[1] - sp[0]
		}
	}
	buf := make([]Cell, total)
	for i := range buf {
		buf[i] = blank
	}
	c.rows = make([]canvasRow, h)
	for y, sp := range spans {
		if sp[1] <= sp[0] {
			continue
		}
		n := sp[1] - sp[0]
		c.rows[y] = canvasRow{off: sp[0], cells: buf[:n:n]}
		buf = buf[n:]
	}
	return c
}

func (c *Canvas) set(x, y int, r rune, cl Class, node int) {
	if p := c.ref(x, y); p != nil {
		*p = Cell{R: r, Class: cl, Node: node}
	}
}

// text writes s from column x; returns the column after it.
func (c *Canvas) text(x, y int, s string, cl Class, node int) int {
	for _, r := range s {
		w := runeWidth(r)
		if w == 0 {
			continue
		}
		c.set(x, y, r, cl, node)
		if w == 2 {
			c.set(x+1, y, 0, cl, node)
		}
		x += w
	}
	return x
}

// Rect is a rectangle of cells.
type Rect struct{ X, Y, W, H int }

// Layout is where Render put things.
type Layout struct {
	boxes     []Rect
	Width     int // columns of the drawing
	Height    int // rows of the drawing
	Layers    int // layers of the reachable part
	Dummies   int // dummy elements added for long edges
	Crossings int // edge crossings counted from the layer orders
	parts     []*lay
}

// Box returns the rectangle of node nodeIndex's box (zero when out of range).
func (l *Layout) Box(nodeIndex int) Rect {
	if l == nil || nodeIndex < 0 || nodeIndex >= len(l.boxes) {
		return Rect{}
	}
	return l.boxes[nodeIndex]
}

// runeWidth is the number of cells r takes, measured the way Lip Gloss v2
// measures (clipperhouse/displaywidth, East Asian ambiguous = 1), so the
// canvas and the view agree on every cell.
func runeWidth(r rune) int { return displaywidth.Rune(r) }

func textWidth(s string) int {
	w := 0
	for _, r := range s {
		w += runeWidth(r)
	}
	return w
}

// truncate cuts s to at most max cells, ending in tail when cut.
func truncate(s string, max int, tail string) string {
	if textWidth(s) <= max {
		return s
	}
	max -= textWidth(tail)
	w := 0
	for i, r := range s {
		rw := runeWidth(r)
		if w+rw > max {
			return s[:i] + tail
		}
		w += rw
	}
	return s
}

// glyphs of one drawing style.
type glyphs struct {
	lines                        [16]rune // by direction mask N=1 E=2 S=4 W=8
	tl, tr, bl, br, h, v         rune
	in, out, backIn, backOut     rune
	start, end                   string
	approval, subflow, selfLoop  string
	blocker, warning, arrow      string
	ellipsis, stepSep, stepRange string
	sepFill                      rune
}

const (
	dN = 1 << iota
	dE
	dS
	dW
)

var unicodeGlyphs = glyphs{
	lines: [16]rune{' ', '│', '─', '╰', '│', '│', '╭', '├', '─', '╯', '─', '┴', '╮', '┤', '┬', '┼'},
	tl:    '╭', tr: '╮', bl: '╰', br: '╯', h: '─', v: '│',
	in: '▼', out: '┬', backIn: '▲', backOut: '┴',
	start: "▶ ", end: "■ ", approval: "✋ ", subflow: " ⊞", selfLoop: " ↺",
	blocker: " ✖", warning: " ⚠", arrow: "→", ellipsis: "…", stepSep: "·", stepRange: "–",
	sepFill: '╌',
}

var asciiGlyphs = glyphs{
	lines: [16]rune{' ', '|', '-', '+', '|', '|', '+', '+', '-', '+', '-', '+', '+', '+', '+', '+'},
	tl:    '+', tr: '+', bl: '+', br: '+', h: '-', v: '|',
	in: 'v', out: '+', backIn: '^', backOut: '+',
	start: "> ", end: "# ", approval: "(A) ", subflow: " [+]", selfLoop: " (loop)",
	blocker: " x", warning: " !", arrow: "->", ellipsis: "...", stepSep: ",", stepRange: "-",
	sepFill: '-',
}

// MaxNameWidth is the widest a node name is drawn, MaxLabelWidth a branch
// label; longer ones are cut.
const (
	MaxNameWidth  = 32
	MaxLabelWidth = 20
)

type span struct {
	s string
	c Class
}

func stepBadge(steps []int, gl *glyphs) string {
	switch {
	case len(steps) == 0:
		return ""
	case len(steps) == 1:
		return strconv.Itoa(steps[0])
	case len(steps) == 2:
		return strconv.Itoa(steps[0]) + gl.stepSep + strconv.Itoa(steps[1])
	}
	return strconv.Itoa(steps[0]) + gl.stepRange + strconv.Itoa(steps[len(steps)-1])
}

func kindLabel(n *Node) string {
	if n.Kind == KindOther {
		if n.ComponentType == "" {
			return "unresolved"
		}
		return truncate(n.ComponentType, 20, "…")
	}
	return string(n.Kind)
}

// boxSpans is the text inside a node's box.
func boxSpans(g *Graph, i int, gl *glyphs, exits []string) []span {
	n := g.Nodes[i]
	var out []span
	if b := stepBadge(n.Steps, gl); b != "" {
		out = append(out, span{b + " ", ClassStepBadge})
	}
	if n.Approval {
		out = append(out, span{gl.approval, ClassApproval})
	}
	switch n.Kind {
	case KindStart:
		out = append(out, span{gl.start, ClassStart})
	case KindEnd:
		out = append(out, span{gl.end, ClassEnd})
	}
	out = append(out, span{truncate(n.Name, MaxNameWidth, gl.ellipsis), ClassNodeText})
	if n.Kind != KindStart && n.Kind != KindEnd {
		out = append(out, span{"  " + kindLabel(n), ClassLabel})
	}
	if len(n.Subflows) > 0 {
		out = append(out, span{gl.subflow, ClassLabel})
	}
	if n.SelfLoop {
		out = append(out, span{gl.selfLoop, ClassBackEdge})
	}
	if n.Blockers > 0 {
		out = append(out, span{gl.blocker + strconv.Itoa(n.Blockers), ClassBlocker})
	}
	if n.Warnings > 0 {
		out = append(out, span{gl.warning + strconv.Itoa(n.Warnings), ClassWarning})
	}
	if len(exits) > 0 {
		out = append(out, span{" " + gl.arrow + " " + truncate(strings.Join(exits, ", "), MaxNameWidth, gl.ellipsis), ClassLabel})
	}
	return out
}

// fitSpans cuts a box's text to w cells: the node's name first (to no
// fewer than 4 cells), then the labels after it, last first.
func fitSpans(ss []span, w int, ellipsis string) []span {
	over := spansWidth(ss) - w
	if over <= 0 {
		return ss
	}
	ss = append([]span(nil), ss...)
	for i := range ss {
		if ss[i].c == ClassNodeText {
			nw := textWidth(ss[i].s)
			keep := max(min(4, nw), nw-over)
			ss[i].s = truncate(ss[i].s, keep, ellipsis)
			over -= nw - textWidth(ss[i].s)
			break
		}
	}
	for over > 0 && len(ss) > 0 && ss[len(ss)-1].c != ClassNodeText {
		over -= textWidth(ss[len(ss)-1].s)
		ss = ss[:len(ss)-1]
	}
	return ss
}

func spansWidth(ss []span) int {
	w := 0
	for _, s := range ss {
		w += textWidth(s.s)
	}
	return w
}

// Render lays the graph out and draws it. The reachable nodes come first;
// the nodes not reachable from start_node are laid out apart below a
// separator, their boxes in ClassUnreachable, with "→ name" for their edges
// into the reachable part. It never fails: an empty graph gives a one-line
// canvas saying so.
func Render(g *Graph, opts Options) (*Canvas, *Layout) {
	gl := &unicodeGlyphs
	if opts.ASCII {
		gl = &asciiGlyphs
	}
	lo := &Layout{boxes: make([]Rect, len(g.Nodes))}
	if len(g.Nodes) == 0 {
		c := writeLines([]span{{"(flow has no nodes)", ClassLabel}})
		lo.Width, lo.Height = c.W, c.H
		return c, lo
	}
	idx := make(map[string]int, len(g.Nodes))
	for i, n := range g.Nodes {
		if _, dup := idx[n.ID]; !dup {
			idx[n.ID] = i
		}
	}
	back := backEdges(g, idx)

	// Split: reachable from start, and the rest.
	reach := reachable(g, idx)
	var main, rest []int
	for i := range g.Nodes {
		if idx[g.Nodes[i].ID] != i {
			continue // a duplicate id: not drawn
		}
		if reach[i] {
			main = append(main, i)
		} else {
			rest = append(rest, i)
		}
	}
	exits := make([][]string, len(g.Nodes))
	for _, e := range g.Edges {
		f, ok1 := idx[e.From]
		t, ok2 := idx[e.To]
		if ok1 && ok2 && !reach[f] && reach[t] {
			exits[f] = append(exits[f], g.Nodes[t].Name)
		}
	}
	texts := make([][]span, len(g.Nodes))
	for i := range g.Nodes {
		texts[i] = boxSpans(g, i, gl, exits[i])
		if opts.MaxBox > 0 {
			texts[i] = fitSpans(texts[i], opts.MaxBox-4, gl.ellipsis)
		}
	}
	widthOf := func(n int) int { return spansWidth(texts[n]) + 4 }

	var parts []*lay
	if len(main) > 0 {
		parts = append(parts, newLay(g, idx, main, back, widthOf, gl.ellipsis))
	}
	if len(rest) > 0 {
		p := newLay(g, idx, rest, back, widthOf, gl.ellipsis)
		p.unreachable = true
		parts = append(parts, p)
	}
	for _, p := range parts {
		if p.tooBig {
			msg := fmt.Sprintf("(flow too large to draw: %d nodes, %d control edges; use --format dot)", len(g.Nodes), len(g.Edges))
			if opts.TooLarge != nil {
				msg = opts.TooLarge(len(g.Nodes), len(g.Edges))
			}
			c := writeLines([]span{{msg, ClassLabel}})
			lo.Width, lo.Height = c.W, c.H
			return c, lo
		}
	}
	lo.parts = parts
	sepText := " not reachable from start "
	if _, ok := idx[g.Start]; !ok {
		sepText = " no start node: nothing is reachable "
	}
	for _, p := range parts {
		lo.Crossings += p.cross
		for i := range p.elems {
			if p.elems[i].node < 0 {
				lo.Dummies++
			}
		}
	}
	if len(main) > 0 {
		lo.Layers = len(parts[0].layers)
	}
	var data []string
	dataW := 0
	if opts.ShowData && len(g.Data) > 0 {
		data = append(data, "data flow:")
		for _, d := range g.Data {
			line := "  " + nodeName(g, idx, d.From) + "." + d.Output + " " + gl.arrow + " " + nodeName(g, idx, d.To) + "." + d.Input
			data = append(data, line)
			dataW = max(dataW, textWidth(line))
		}
	}
	// measure is the drawing's size from the parts' heights and, for a
	// canvas stored sparsely, its rows' spans and the cells they hold.
	measure := func() (W, H int, spans [][2]int, cells int) {
		for pi, p := range parts {
			if p.width > W {
				W = p.width
			}
			if pi > 0 || len(main) == 0 {
				H += 2 // separator and a blank row
				if pi > 0 {
					H++
				}
			}
			H += p.height
		}
		if w := textWidth(sepText) + 4; len(rest) > 0 && w > W {
			W = w
		}
		if len(data) > 0 {
			W = max(W, dataW)
			H += 1 + len(data)
		}
		if W*H > DenseLimit || opts.sparse {
			spans = make([][2]int, 0, H)
			for pi, p := range parts {
				if pi > 0 || len(main) == 0 {
					if pi > 0 {
						spans = append(spans, [2]int{})
					}
					spans = append(spans, [2]int{0, W}, [2]int{})
				}
				spans = p.rowSpans(spans)
			}
			for len(spans) < H {
				spans = append(spans, [2]int{0, W})
			}
			for _, sp := range spans {
				cells += max(0, sp[1]-sp[0])
			}
		}
		return W, H, spans, cells
	}
	limit := MaxCells
	if opts.maxCells > 0 {
		limit = opts.maxCells
	}
	tooLarge := func(W, H int, atLeast bool) (*Canvas, *Layout) {
		size := fmt.Sprintf("%dx%d cells", W, H)
		if atLeast {
			size = "at least " + size // W and H measured on the fewest tracks
		}
		msg := fmt.Sprintf("(flow too large to draw: %d nodes, %d control edges, %s; use --format dot)", len(g.Nodes), len(g.Edges), size)
		if opts.TooLarge != nil {
			msg = opts.TooLarge(len(g.Nodes), len(g.Edges))
		}
		c := writeLines([]span{{msg, ClassLabel}})
		lo.Width, lo.Height = c.W, c.H
		lo.boxes = make([]Rect, len(g.Nodes))
		return c, lo
	}
	// First with the fewest tracks each channel needs (route's bound, no
	// pairwise work): a drawing already too large is refused before its
	// tracks are assigned, the size said "at least" unless every channel's
	// bound is its count. The old path (opts.assignFirst, the tests'
	// oracle) assigned them first.
	if opts.assignFirst {
		for _, p := range parts {
			p.assign()
		}
	}
	if W, H, _, cells := measure(); cells > limit {
		exact := true
		for _, p := range parts {
			for k := range p.chans {
				exact = exact && p.chans[k].exact
			}
		}
		return tooLarge(W, H, !exact)
	}
	if !opts.assignFirst {
		for _, p := range parts {
			p.assign()
		}
	}
	W, H, spans, cells := measure()
	if cells > limit {
		return tooLarge(W, H, false)
	}
	c := newCanvas(W, H, spans, opts.sparse)
	y := 0
	for pi, p := range parts {
		if pi > 0 || len(main) == 0 {
			if pi > 0 {
				y++
			}
			fill := string(gl.sepFill)
			s := fill + fill + sepText
			s += strings.Repeat(fill, max(0, W-textWidth(s)))
			c.text(0, y, s, ClassUnreachable, 0)
			y += 2
		}
		drawPart(c, p, y, gl, texts, &opts, lo)
		y += p.height
	}
	if len(data) > 0 {
		y++
		for i, line := range data {
			cl := ClassNone
			if i == 0 {
				cl = ClassLabel
			}
			c.text(0, y, line, cl, 0)
			y++
		}
	}
	lo.Width, lo.Height = c.W, c.H
	return c, lo
}

func nodeName(g *Graph, idx map[string]int, id string) string {
	if i, ok := idx[id]; ok {
		return g.Nodes[i].Name
	}
	return id
}

func writeLines(ss []span) *Canvas {
	c := newCanvas(spansWidth(ss), 1, nil, false)
	x := 0
	for _, s := range ss {
		x = c.text(x, 0, s.s, s.c, 0)
	}
	return c
}

// reachable marks the nodes reachable from start over control edges.
func reachable(g *Graph, idx map[string]int) []bool {
	seen := make([]bool, len(g.Nodes))
	s, ok := idx[g.Start]
	if !ok {
		return seen
	}
	out := make([][]int, len(g.Nodes))
	for _, e := range g.Edges {
		f, ok1 := idx[e.From]
		t, ok2 := idx[e.To]
		if ok1 && ok2 {
			out[f] = append(out[f], t)
		}
	}
	seen[s] = true
	queue := []int{s}
	for h := 0; h < len(queue); h++ {
		for _, t := range out[queue[h]] {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return seen
}

// backEdges returns, per edge, whether a depth-first search from start
// (then from each unvisited node in node order) finds it closing a loop.
// Self-loops count as back edges.
func backEdges(g *Graph, idx map[string]int) []bool {
	back := make([]bool, len(g.Edges))
	out := make([][]int, len(g.Nodes))
	for i, e := range g.Edges {
		f, ok1 := idx[e.From]
		_, ok2 := idx[e.To]
		if ok1 && ok2 {
			out[f] = append(out[f], i)
		}
	}
	color := make([]uint8, len(g.Nodes)) // 0 white, 1 on stack, 2 done
	type frame struct{ node, next int }
	var stack []frame
	visit := func(root int) {
		stack = append(stack[:0], frame{root, 0})
		color[root] = 1
		for len(stack) > 0 {
			top := &stack[len(stack)-1]
			if top.next >= len(out[top.node]) {
				color[top.node] = 2
				stack = stack[:len(stack)-1]
				continue
			}
			ei := out[top.node][top.next]
			top.next++
			t := idx[g.Edges[ei].To]
			switch color[t] {
			case 1:
				back[ei] = true
			case 0:
				color[t] = 1
				stack = append(stack, frame{t, 0})
			}
		}
	}
	if s, ok := idx[g.Start]; ok {
		visit(s)
	}
	for i := range g.Nodes {
		if color[i] == 0 && idx[g.Nodes[i].ID] == i {
			visit(i)
		}
	}
	return back
}

// maskBase is where line masks are kept in cells while a part is drawn
// (a private-use plane: no glyph).
const maskBase = 0xF0000

// rowSpans appends, per row of the part, the columns it may draw on.
func (L *lay) rowSpans(out [][2]int) [][2]int {
	nl := len(L.layers)
	ls := make([][2]int, nl)
	for k, layer := range L.layers {
		ls[k] = [2]int{math.MaxInt, 0}
		for _, e := range layer {
			el := &L.elems[e]
			ls[k][0] = min(ls[k][0], el.x)
			ls[k][1] = max(ls[k][1], el.x+el.w)
		}
	}
	for k := 0; k < nl; k++ {
		out = append(out, ls[k], ls[k], ls[k])
		if k < len(L.chans) {
			u := [2]int{min(ls[k][0], ls[k+1][0]), max(ls[k][1], ls[k+1][1])}
			for j := 0; j < L.chans[k].h; j++ {
				out = append(out, u)
			}
		}
	}
	return out
}

// drawPart draws one laid-out part with its top row at oy.
func drawPart(c *Canvas, L *lay, oy int, gl *glyphs, texts [][]span, opts *Options, lo *Layout) {
	// Lines are first collected as direction masks kept in the cells
	// themselves (runes maskBase+bits), then turned into glyphs.
	mark := func(x, y int, m uint8, back bool) {
		p := c.ref(x, oy+y)
		if p == nil {
			return
		}
		bits := uint8(0)
		if p.R >= maskBase && p.R < maskBase+64 {
			bits = uint8(p.R - maskBase)
		}
		bits |= m
		if back {
			bits |= 32
		} else {
			bits |= 16
		}
		p.R = maskBase + rune(bits)
	}
	vline := func(x, y0, y1 int, back bool) { // inclusive, continuing beyond both ends
		for y := y0; y <= y1; y++ {
			mark(x, y, dN|dS, back)
		}
	}
	// Dummies: vertical lines through their layer.
	for i := range L.elems {
		el := &L.elems[i]
		if el.node >= 0 {
			continue
		}
		back := len(el.up) > 0 && L.edges[L.segs[el.up[0]].e].back
		y := L.layerY[el.layer]
		vline(el.x, y, y+2, back)
	}
	// Channels.
	for k := range L.chans {
		ch := &L.chans[k]
		if ch.h == 0 {
			continue
		}
		y0, y1 := ch.y, ch.y+ch.h-1
		top := 0
		if ch.labelTop {
			top = 1
		}
		for gi := range ch.groups {
			gr := &ch.groups[gi]
			if gr.track < 0 {
				vline(gr.x1s[0], y0, y1, gr.back)
				continue
			}
			ty := y0 + top + gr.track
			for _, x1 := range gr.x1s {
				vline(x1, y0, ty-1, gr.back)
				mark(x1, ty, dN, gr.back)
			}
			for x := gr.l; x <= gr.r; x++ {
				var m uint8
				if x > gr.l {
					m |= dW
				}
				if x < gr.r {
					m |= dE
				}
				mark(x, ty, m, gr.back)
			}
			for _, x2 := range gr.x2s {
				mark(x2, ty, dS, gr.back)
				vline(x2, ty+1, y1, gr.back)
			}
		}
	}
	for y := oy; y < oy+L.height; y++ {
		_, cells := c.row(y)
		for i := range cells {
			p := &cells[i]
			if p.R < maskBase || p.R >= maskBase+64 {
				continue
			}
			bits := uint8(p.R - maskBase)
			p.Class = ClassEdge
			if bits&48 == 32 {
				p.Class = ClassBackEdge
			}
			p.R = gl.lines[bits&15]
		}
	}
	// Boxes.
	for i := range L.elems {
		el := &L.elems[i]
		if el.node < 0 {
			continue
		}
		n := el.node
		node := n + 1
		x, y := el.x, oy+L.layerY[el.layer]
		lo.boxes[n] = Rect{X: x, Y: y, W: el.w, H: 3}
		border, textCl := ClassNodeBorder, ClassNone
		if L.unreachable {
			border, textCl = ClassUnreachable, ClassUnreachable
		}
		if opts.Selected == node {
			border = ClassSelected
		}
		c.set(x, y, gl.tl, border, node)
		c.set(x+el.w-1, y, gl.tr, border, node)
		c.set(x, y+1, gl.v, border, node)
		c.set(x+el.w-1, y+1, gl.v, border, node)
		c.set(x, y+2, gl.bl, border, node)
		c.set(x+el.w-1, y+2, gl.br, border, node)
		for xx := x + 1; xx < x+el.w-1; xx++ {
			c.set(xx, y, gl.h, border, node)
			c.set(xx, y+1, ' ', ClassNone, node)
			c.set(xx, y+2, gl.h, border, node)
		}
		for _, p := range el.top {
			r, cl := gl.in, ClassEdge
			if p.kind == portBackOut {
				r, cl = gl.backOut, ClassBackEdge
			}
			c.set(x+p.off, y, r, cl, node)
		}
		for _, p := range el.bot {
			r, cl := gl.out, ClassEdge
			if p.kind == portBackIn {
				r, cl = gl.backIn, ClassBackEdge
			}
			c.set(x+p.off, y+2, r, cl, node)
		}
		ss := texts[n]
		tw := spansWidth(ss)
		tx := x + 2 + (el.w-4-tw)/2
		for _, s := range ss {
			cl := s.c
			if textCl == ClassUnreachable && (cl == ClassNodeText || cl == ClassLabel) {
				cl = ClassUnreachable
			}
			tx = c.text(tx, y+1, s.s, cl, node)
		}
		// Labels of labelled ports, in the label rows of the channels.
		if el.layer < len(L.chans) {
			ch := &L.chans[el.layer]
			for _, p := range el.bot {
				if p.lw > 0 && ch.labelTop {
					c.text(x+p.off+2, oy+ch.y, p.label, ClassLabel, 0)
				}
			}
		}
		if el.layer > 0 {
			ch := &L.chans[el.layer-1]
			for _, p := range el.top {
				if p.lw > 0 && ch.labelBot {
					c.text(x+p.off+2, oy+ch.y+ch.h-1, p.label, ClassLabel, 0)
				}
			}
		}
	}
}
