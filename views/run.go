package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"

	"github.com/oastui/oastui/dryrun"
)

// Run is the Run tab: the dry run of the newest good analysis (the same
// dryrun.Result the review's dryrun_* findings come from). ↑↓ pick a path
// from the list, ←→ step through it; the graph selects the current step's
// node (for a nested step, the FlowNode running it, unless its subflow is
// open); the step's inputs (with their producers) and outputs are shown
// below.
type Run struct {
	// rows are the dry run's paths as the engine gave them (their counts
	// of paths and steps, all the bookkeeping reads, are the presented
	// ones'); a path is presented when first shown (path).
	cursorList[dryrun.Path]
	res  *dryrun.Result // the dry run of the snapshot (nil: none)
	note string         // res.Note presented
	file string         // the reviewed flow file (steps of other files point at their anchor)
	step int            // index in the selected path's steps
	// shown[i] is rows[i] presented, once per snapshot, when done[i].
	shown []dryrun.Path
	done  []bool

	// fullBuild makes Show present the dry run at once and View lay out
	// every line of the step, not only those that fit: the tests' oracle.
	fullBuild bool
}

// Name is the tab's title.
func (r *Run) Name() string { return "Run" }

// Show takes the dry run of the newest good analysis. Each path is
// presented (every string through present.Text) when the tab first shows
// it, once per snapshot: the list's window and the selected path, not
// every path of the dry run.
func (r *Run) Show(sh Shown) {
	r.shown, r.done = nil, nil
	if sh.LastParsed == nil || sh.LastParsed.DryRun == nil {
		r.res, r.note, r.file = nil, "", ""
		r.setRows(nil)
		r.step = 0
		return
	}
	r.file = sh.LastParsed.FlowFile()
	prev := r.cursor
	r.res = sh.LastParsed.DryRun
	if r.fullBuild { // the oracle: presented at once, as before
		r.res = r.res.Presented(present.Text)
		r.shown, r.done = r.res.Paths, make([]bool, len(r.res.Paths))
		for i := range r.done {
			r.done[i] = true
		}
		r.note = r.res.Note
	} else {
		r.note = present.Text(r.res.Note)
	}
	r.setRows(r.res.Paths)
	if r.cursor != prev {
		r.step = 0
	}
	r.clampStep()
}

// pathAt is path i presented.
func (r *Run) pathAt(i int) dryrun.Path {
	if r.done == nil {
		r.shown, r.done = make([]dryrun.Path, len(r.rows)), make([]bool, len(r.rows))
	}
	if !r.done[i] {
		r.shown[i], r.done[i] = r.rows[i].Presented(present.Text), true
	}
	return r.shown[i]
}

// Selected is the path under the cursor, presented.
func (r *Run) Selected() (dryrun.Path, bool) {
	if _, ok := r.cursorList.Selected(); !ok {
		return dryrun.Path{}, false
	}
	return r.pathAt(r.cursor), true
}

// ShowsLastParsed: the dry run is that of the newest good analysis.
func (r *Run) ShowsLastParsed() {}

func (r *Run) path() (dryrun.Path, bool) { return r.Selected() }

func (r *Run) clampStep() {
	p, ok := r.cursorList.Selected() // raw: the presented path's count of steps
	if !ok {
		r.step = 0
		return
	}
	r.step = max(0, min(r.step, len(p.Steps)-1))
}

// Nav: ↑↓ (page, home, end) choose the path; ←→ step through it.
func (r *Run) Nav(n Nav, page int) {
	switch n {
	case NavLeft:
		r.step--
	case NavRight, NavSpace:
		r.step++
	default:
		before := r.cursor
		listNav(r, n, page)
		if r.cursor != before {
			r.step = 0
		}
	}
	r.clampStep()
}

// Target is the current step's node: its pointer in the flow file (a step
// of a child agent's flow points at the node that leads into it).
func (r *Run) Target() (Target, bool) {
	p, ok := r.path()
	if !ok || len(p.Steps) == 0 {
		return Target{}, false
	}
	st := p.Steps[r.step]
	ptr := st.Pointer
	if st.File != present.Text(r.file) {
		ptr = st.Anchor
	}
	return Target{File: r.file, Pointer: ptr}, true
}

// View: the exploration's note, the path list, then the current step.
func (r *Run) View(th Theme) string {
	var out []string
	if r.res == nil {
		out = append(out, th.Dim.Render(Trunc("no dry run: the flow file does not parse", r.w)))
		return fill(out, r.w, r.h)
	}
	out = append(out, th.Dim.Render(Trunc(r.note, r.w)))
	if len(r.rows) == 0 {
		return fill(out, r.w, r.h)
	}
	listH := min(len(r.rows), max(1, r.h/4))
	r.off = clampScroll(r.cursor, r.off, listH, len(r.rows))
	for i := r.off; i < len(r.rows) && i < r.off+listH; i++ {
		p := r.pathAt(i)
		line := " " + pathRow(p)
		style := th.Dim
		switch p.Status {
		case dryrun.StatusEnd:
			style = th.Bold
		case dryrun.StatusStuck:
			style = th.Blocker
		}
		if i == r.cursor {
			out = append(out, th.Selected.Render(Fit(th.Cursor.Render("›")+line[1:], r.w)))
			continue
		}
		out = append(out, style.Render(Trunc(line, r.w)))
	}
	p, _ := r.path()
	out = append(out, th.Dim.Render(strings.Repeat("─", max(0, r.w))))
	if len(p.Steps) == 0 {
		return fill(out, r.w, r.h)
	}
	st := p.Steps[r.step]
	nav := fmt.Sprintf("step %d/%d", r.step+1, len(p.Steps))
	if r.step > 0 {
		nav = "← " + p.Steps[r.step-1].Node + " · " + nav
	}
	if r.step+1 < len(p.Steps) {
		nav += " · " + p.Steps[r.step+1].Node + " →"
	}
	out = append(out, th.Bold.Render(Trunc(nav, r.w)))
	for i, l := range dryrun.StepLines(st) {
		if len(out) >= r.h && !r.fullBuild {
			break // fill shows the first r.h lines: a step of thousands of bindings costs a screen
		}
		l = strings.TrimLeft(l, " ")
		if i > 0 {
			l = "  " + l
		}
		style := th.Dim
		switch {
		case i == 0:
			style = th.Bold
		case strings.Contains(l, "✗"):
			style = th.Blocker
		case strings.HasPrefix(l, "  in ") || strings.HasPrefix(l, "  out "):
			style = th.Text
		}
		for j, w := range strings.Split(ansiWrap(l, max(1, r.w-6)), "\n") {
			if j > 0 {
				w = "      " + w // a wrapped line stays under its value
			}
			out = append(out, style.Render(Trunc(w, r.w)))
		}
	}
	return fill(out, r.w, r.h)
}

// pathRow is one line of the path list: id, status, length and the
// branches taken.
func pathRow(p dryrun.Path) string {
	s := fmt.Sprintf("%d  %s", p.ID, p.Status)
	if p.End != "" {
		s += " at " + p.End
	}
	s += fmt.Sprintf(" · %d steps", len(p.Steps))
	var brs, nested []string // the top-level flow's branches first
	for _, st := range p.Steps {
		if st.Branch != "" && st.Branch != "next" {
			if st.Depth == 0 {
				brs = append(brs, st.Node+"→"+st.Branch)
			} else {
				nested = append(nested, st.Node+"→"+st.Branch)
			}
		}
	}
	brs = append(brs, nested...)
	if len(brs) > 0 {
		s += " · " + strings.Join(brs, ", ")
	}
	return s
}
