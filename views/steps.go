package views

import (
	"fmt"
	"strings"
)

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

// Name is the tab's title.
func (s *Steps) Name() string { return "Steps" }

// Show takes the compiled steps of the newest good analysis.
func (s *Steps) Show(sh Shown) {
	if sh.Good == nil {
		s.SetSteps(nil, "not compiled: the flow file does not parse")
		return
	}
	s.SetSteps(StepRows(sh.Good.Compiled), errText(sh.Good.CompileErr))
}

// Nav moves the cursor.
func (s *Steps) Nav(n Nav, page int) { listNav(s, n, page) }

// Target is the graph node of the selected step.
func (s *Steps) Target() (Target, bool) {
	r, ok := s.Selected()
	if !ok || r.NodeID == "" {
		return Target{}, false
	}
	return Target{NodeID: r.NodeID}, true
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
