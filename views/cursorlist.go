package views

// cursorList is the state every list pane shares: its rows, the cursor,
// the first visible row and the inner size. Panes embed it and draw the
// rows their own way.
type cursorList[T any] struct {
	rows   []T
	cursor int
	off    int
	w, h   int
}

// setRows replaces the rows, keeping the cursor where it was when it still
// points at a row.
func (l *cursorList[T]) setRows(rows []T) {
	l.rows = rows
	l.cursor = min(l.cursor, max(0, len(rows)-1))
}

// SetSize sets the inner size.
func (l *cursorList[T]) SetSize(w, h int) { l.w, l.h = w, h }

// Move moves the cursor by d rows, staying on the list.
func (l *cursorList[T]) Move(d int) {
	if len(l.rows) > 0 {
		l.cursor = max(0, min(len(l.rows)-1, l.cursor+d))
	}
}

// Selected is the row under the cursor.
func (l *cursorList[T]) Selected() (T, bool) {
	if l.cursor < len(l.rows) {
		return l.rows[l.cursor], true
	}
	var zero T
	return zero, false
}

// Home moves the cursor to the first row.
func (l *cursorList[T]) Home() { l.cursor = 0 }

// End moves the cursor to the last row.
func (l *cursorList[T]) End() { l.cursor = max(0, len(l.rows)-1) }
