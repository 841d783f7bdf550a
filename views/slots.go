package views

import (
	"strings"

	"github.com/oastui/oastui/present"
)

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
	note   string
	picked map[string]string // slot id → the last pick confirmed, as a line
}

// SetPicked records the last pick confirmed for a slot (shown under it).
func (s *Slots) SetPicked(id, summary string) {
	if s.picked == nil {
		s.picked = map[string]string{}
	}
	s.picked[id] = summary
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
	if len(s.picked) > 0 {
		per = 3
	}
	visible := max(1, s.h/per)
	s.off = clampScroll(s.cursor, s.off, visible, len(s.rows))
	for i := s.off; i < len(s.rows) && len(out)+per <= s.h; i++ {
		r := s.rows[i]
		mark := "  "
		if i == s.cursor {
			mark = th.Cursor.Render("› ")
		}
		st := th.StatusClean.Render("● " + present.Text(r.Status))
		if !r.OK {
			st = th.Blocker.Render("✖ " + present.Text(r.Status))
		}
		l1 := mark + th.Bold.Render(present.Text(r.ID)) + "  " + th.Dim.Render(present.Text(r.Mode)+" "+present.Text(r.Cardinality)) + "  " + st
		exts := make([]string, len(r.Extensions))
		for j, e := range r.Extensions {
			exts[j] = present.Text(e)
		}
		l2 := "    " + th.Dim.Render(strings.Join(exts, ", "))
		if i == s.cursor {
			l1 = th.Selected.Render(Fit(l1, s.w))
		}
		out = append(out, l1, l2)
		if per == 3 {
			l3 := "    no pick yet"
			if p, ok := s.picked[r.ID]; ok {
				l3 = "    last pick: " + present.Text(p)
			}
			out = append(out, th.Dim.Render(Trunc(l3, s.w)))
		}
	}
	out = append(out, th.Dim.Render("p open the context picker for the selected slot"))
	return fill(out, s.w, s.h)
}

// Name is the tab's title.
func (s *Slots) Name() string { return "Slots" }

// Show takes the context slots of the newest good analysis (kept as they
// are while none has parsed).
func (s *Slots) Show(sh Shown) {
	if sh.LastParsed != nil {
		s.SetSlots(SlotRows(sh.LastParsed.Slots), SlotNote(sh.LastParsed.SlotProblem))
	}
}

// Nav moves the cursor.
func (s *Slots) Nav(n Nav, page int) { listNav(s, n, page) }

// SelectedSlot is the id of the slot under the cursor.
func (s *Slots) SelectedSlot() (string, bool) {
	r, ok := s.Selected()
	return r.ID, ok
}

// ShowsLastParsed: the slots are those of the newest good analysis.
func (s *Slots) ShowsLastParsed() {}
