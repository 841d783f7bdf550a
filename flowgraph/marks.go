package flowgraph

// Marked is a copy of c with a mark on the top border of some node boxes
// (a face marking what a revision added or changed): marks maps a node
// index (into Graph.Nodes, as l laid them out) to a one-cell rune and its
// class, written one column in from the box's left corner. c itself is not
// changed (snapshots share their drawings); without marks c is returned.
func (c *Canvas) Marked(l *Layout, marks map[int]Cell) *Canvas {
	if c == nil || l == nil || len(marks) == 0 {
		return c
	}
	cp := *c
	if c.Cells != nil {
		cp.Cells = append([]Cell(nil), c.Cells...)
	} else {
		cp.rows = append([]canvasRow(nil), c.rows...)
	}
	copied := map[int]bool{}
	for i, m := range marks {
		b := l.Box(i)
		if b.W < 4 || runeWidth(m.R) != 1 {
			continue
		}
		x, y := b.X+1, b.Y
		if cp.Cells == nil && y >= 0 && y < cp.H && !copied[y] {
			copied[y] = true
			cp.rows[y].cells = append([]Cell(nil), cp.rows[y].cells...)
		}
		if p := cp.ref(x, y); p != nil {
			*p = Cell{R: m.R, Class: m.Class, Node: i + 1}
		}
	}
	return &cp
}
