package views

import (
	"fmt"
	"strings"
)

// Text is a scrollable block of lines (the Compiled and Node tabs). Lines
// are drawn as given: callers pass text already cleaned with Clean.
type Text struct {
	lines  []string
	off    int
	left   int
	w, h   int
	number bool
}

// SetLines replaces the content, keeping the scroll position when possible.
func (t *Text) SetLines(lines []string) {
	t.lines = lines
	t.clamp()
}

// SetNumbered turns line numbers on.
func (t *Text) SetNumbered(on bool) { t.number = on }

// SetSize sets the inner size.
func (t *Text) SetSize(w, h int) { t.w, t.h = w, h; t.clamp() }

// Scroll moves the view by d lines; ScrollH by d columns.
func (t *Text) Scroll(d int)  { t.off += d; t.clamp() }
func (t *Text) ScrollH(d int) { t.left = max(0, t.left+d) }

// Home and End jump to the top and bottom.
func (t *Text) Home() { t.off = 0 }
func (t *Text) End()  { t.off = len(t.lines); t.clamp() }

// Offset is the first visible line.
func (t *Text) Offset() int { return t.off }

// Len is the number of lines.
func (t *Text) Len() int { return len(t.lines) }

func (t *Text) clamp() {
	t.off = max(0, min(t.off, len(t.lines)-t.h))
}

// View renders the visible window.
func (t *Text) View(th Theme) string {
	out := make([]string, 0, t.h)
	num := len(fmt.Sprint(len(t.lines)))
	for i := t.off; i < len(t.lines) && len(out) < t.h; i++ {
		l := t.lines[i]
		if t.left > 0 {
			l = cutLeft(l, t.left)
		}
		if t.number {
			l = th.LineNo.Render(fmt.Sprintf("%*d ", num, i+1)) + l
		}
		out = append(out, Fit(l, t.w))
	}
	for len(out) < t.h {
		out = append(out, "")
	}
	return strings.Join(out, "\n")
}

func cutLeft(s string, n int) string {
	w := Width(s)
	if n >= w {
		return ""
	}
	return TruncLeft(s, n)
}

// StepRow is one compiled approval step (Steps tab).
type StepRow struct {
	Number      int
	Name        string
	NodeType    string
	Approval    bool
	HitlOwnedBy string
	Risk        string
	Renderer    string
	Child       string
	SkipLLM     bool
	NodeID      string // graph node of the step, for selection
}

// Steps is the steps tab: the compiled approval steps in BFS order.
type Steps struct {
	cursorList[StepRow]
	errText string
}

// SetSteps replaces the rows; errText is shown instead when compiling failed
// (the rows may still be the last good ones).
func (s *Steps) SetSteps(rows []StepRow, errText string) {
	s.setRows(rows)
	s.errText = errText
}

// View renders the table.
func (s *Steps) View(th Theme) string {
	var out []string
	if s.errText != "" {
		for _, l := range strings.Split(ansiWrap(Clean(s.errText), s.w), "\n") {
			out = append(out, th.Blocker.Render(l))
		}
	}
	if len(s.rows) == 0 {
		if s.errText == "" {
			out = append(out, th.Dim.Render("no compiled steps"))
		}
		return fill(out, s.w, s.h)
	}
	nameW := 8
	for _, r := range s.rows {
		nameW = max(nameW, Width(Clean(r.Name)))
	}
	nameW = min(nameW, max(10, s.w/3))
	head := fmt.Sprintf("%3s  %-*s  %-14s %-9s %-8s %-10s %s", "#", nameW, "name", "node type", "approval", "risk", "renderer", "child agent")
	out = append(out, th.Bold.Render(Trunc(head, s.w)))
	listH := s.h - len(out)
	s.off = clampScroll(s.cursor, s.off, listH, len(s.rows))
	for i := s.off; i < len(s.rows) && i < s.off+listH; i++ {
		r := s.rows[i]
		appr := "-"
		if r.Approval {
			appr = "✋ " + orDash(Clean(r.HitlOwnedBy))
		}
		num := fmt.Sprint(r.Number)
		line := fmt.Sprintf("%3s  %-*s  %-14s %-9s %-8s %-10s %s", num, nameW, Trunc(Clean(r.Name), nameW),
			Trunc(Clean(r.NodeType), 14), Trunc(appr, 9), Trunc(orDash(Clean(r.Risk)), 8),
			Trunc(orDash(Clean(r.Renderer)), 10), orDash(Clean(r.Child)))
		if i == s.cursor {
			line = th.Selected.Render(Fit(th.Cursor.Render("›")+line[1:], s.w))
		}
		out = append(out, line)
	}
	return fill(out, s.w, s.h)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

func fill(lines []string, w, h int) string {
	out := make([]string, 0, h)
	for i := 0; i < len(lines) && i < h; i++ {
		out = append(out, Fit(lines[i], w))
	}
	for len(out) < h {
		out = append(out, strings.Repeat(" ", max(0, w)))
	}
	return strings.Join(out, "\n")
}

// SlotRow is one context slot and its wiring status (Slots tab).
type SlotRow struct {
	ID          string
	Mode        string // override | accumulate
	Cardinality string // "1..5"
	Extensions  []string
	Status      string // "wired", or the problem
	OK          bool
}

// Slots is the slots tab.
type Slots struct {
	cursorList[SlotRow]
	note string
}

// SetSlots replaces the rows; note is shown when there are none.
func (s *Slots) SetSlots(rows []SlotRow, note string) {
	s.setRows(rows)
	s.note = note
}

// View renders the list, two lines per slot.
func (s *Slots) View(th Theme) string {
	if len(s.rows) == 0 {
		note := s.note
		if note == "" {
			note = "this agent declares no context slots"
		}
		return fill([]string{th.Dim.Render(note)}, s.w, s.h)
	}
	var out []string
	per := 2
	visible := max(1, s.h/per)
	s.off = clampScroll(s.cursor, s.off, visible, len(s.rows))
	for i := s.off; i < len(s.rows) && len(out)+per <= s.h; i++ {
		r := s.rows[i]
		mark := "  "
		if i == s.cursor {
			mark = th.Cursor.Render("› ")
		}
		st := th.StatusClean.Render("● " + Clean(r.Status))
		if !r.OK {
			st = th.Blocker.Render("✖ " + Clean(r.Status))
		}
		l1 := mark + th.Bold.Render(Clean(r.ID)) + "  " + th.Dim.Render(Clean(r.Mode)+" "+Clean(r.Cardinality)) + "  " + st
		exts := make([]string, len(r.Extensions))
		for j, e := range r.Extensions {
			exts[j] = Clean(e)
		}
		l2 := "    " + th.Dim.Render(strings.Join(exts, ", "))
		if i == s.cursor {
			l1 = th.Selected.Render(Fit(l1, s.w))
		}
		out = append(out, l1, l2)
	}
	out = append(out, th.Dim.Render("p open the context picker for the selected slot"))
	return fill(out, s.w, s.h)
}
