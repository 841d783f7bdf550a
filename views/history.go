package views

import (
	"errors"
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"

	tea "charm.land/bubbletea/v2"
	"charm.land/lipgloss/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/diff"
)

// Tasker panes run their work (git, a diff) in tea.Cmds: the root model
// hands them every message after handling it, with whether the pane is the
// tab shown, and runs the command they return (nil: none).
type Tasker interface {
	Receive(msg tea.Msg, shown bool) tea.Cmd
}

// History is the History tab: the agent's commits (git log of the files its
// analysis read), newest first, the working tree's uncommitted changes on
// top. ↑↓ choose one; its changes against its parent (diff package) are
// listed below, node changes marked + added, − removed, ~ changed. Enter
// moves into the changes (the graph selects a change's node), enter again
// shows a change's before and after (prompts as word diffs); esc/⌫ back.
// The log and every diff are computed in tea.Cmds (Receive), only while
// the tab is shown.
type History struct {
	cursorList[diff.Entry]
	snap *analysis.Snapshot // the newest good analysis

	seq      int  // the log asked for last; older answers are dropped
	logWant  bool // the log must be (re)read
	logBusy  bool
	notGit   string // the agent is not in a git work tree: this says so
	logErr   string
	results  map[string]*diff.Result // by entry hash ("" the working tree)
	errs     map[string]string
	stepBusy string // the hash being diffed ("-" none)

	level  int // 0 commits, 1 changes, 2 a change's before and after
	change int // cursor in the chosen entry's changes
	detOff int // scroll of the before/after view
}

type historyLogMsg struct {
	seq     int
	entries []diff.Entry
	err     error
}

type historyStepMsg struct {
	seq  int
	hash string
	res  *diff.Result
	err  error
}

// Name is the tab's title.
func (h *History) Name() string { return "History" }

// ShowsLastParsed: the history is that of the newest good analysis's agent.
func (h *History) ShowsLastParsed() {}

// Show takes the newest good analysis: the log is read again and the
// working tree's diff recomputed (the files changed); commits' diffs stay.
func (h *History) Show(sh Shown) {
	if sh.LastParsed == nil {
		return
	}
	h.snap = sh.LastParsed
	h.seq++
	h.logWant = true
	h.logBusy = false
	h.stepBusy = "-"
	if h.results != nil {
		delete(h.results, "")
		delete(h.errs, "")
	}
}

// Receive starts the log or the chosen entry's diff when the tab is shown
// and takes their answers.
func (h *History) Receive(msg tea.Msg, shown bool) tea.Cmd {
	switch msg := msg.(type) {
	case historyLogMsg:
		if msg.seq != h.seq {
			return nil
		}
		h.logBusy = false
		h.notGit, h.logErr = "", ""
		switch {
		case errors.Is(msg.err, compile.ErrNotGitWorkTree):
			h.notGit = "This agent is not in a git work tree: there is no history to show."
			h.setRows(nil)
		case msg.err != nil:
			h.logErr = "git log failed: " + present.Text(msg.err.Error())
			h.setRows(nil)
		default:
			prev, _ := h.Selected()
			h.setRows(msg.entries)
			for i, e := range msg.entries {
				if e.Hash == prev.Hash {
					h.cursor = i
				}
			}
		}
	case historyStepMsg:
		if msg.seq != h.seq {
			return nil
		}
		h.stepBusy = "-"
		if h.results == nil {
			h.results, h.errs = map[string]*diff.Result{}, map[string]string{}
		}
		if msg.err != nil {
			h.errs[msg.hash] = present.Text(msg.err.Error())
		} else {
			h.results[msg.hash] = msg.res
		}
		h.clampChange()
	}
	if !shown || h.snap == nil {
		return nil
	}
	if h.logWant {
		h.logWant, h.logBusy = false, true
		snap, seq := h.snap, h.seq
		return func() tea.Msg {
			entries, err := diff.History(snap)
			return historyLogMsg{seq: seq, entries: entries, err: err}
		}
	}
	if h.logBusy || h.stepBusy != "-" {
		return nil
	}
	e, ok := h.Selected()
	if !ok {
		return nil
	}
	if _, done := h.results[e.Hash]; done {
		return nil
	}
	if _, failed := h.errs[e.Hash]; failed {
		return nil
	}
	h.stepBusy = e.Hash
	snap, seq := h.snap, h.seq
	path := snap.Path
	if snap.Agent != nil && snap.Agent.Dir != "" {
		path = snap.Agent.Dir
	}
	cfg := snap.Config
	return func() tea.Msg {
		res, err := diff.Step(path, e, &cfg)
		return historyStepMsg{seq: seq, hash: e.Hash, res: res, err: err}
	}
}

// result is the chosen entry's diff (nil while it is computed).
func (h *History) result() *diff.Result {
	e, ok := h.Selected()
	if !ok {
		return nil
	}
	return h.results[e.Hash]
}

func (h *History) clampChange() {
	n := 0
	if r := h.result(); r != nil {
		n = len(r.Changes)
	}
	h.change = max(0, min(h.change, n-1))
	if n == 0 && h.level > 0 {
		h.level = 0
	}
}

// Nav: in the commits, ↑↓ choose the commit; in the changes, the change;
// in a change's before and after, scroll.
func (h *History) Nav(n Nav, page int) {
	switch h.level {
	case 0:
		before := h.cursor
		listNav(h, n, page)
		if h.cursor != before {
			h.change, h.detOff = 0, 0
		}
	case 1:
		switch n {
		case NavUp:
			h.change--
		case NavDown:
			h.change++
		case NavPageUp:
			h.change -= page
		case NavPageDown:
			h.change += page
		case NavTop:
			h.change = 0
		case NavBottom:
			h.change = 1 << 30
		}
		h.detOff = 0
		h.clampChange()
	case 2:
		switch n {
		case NavUp:
			h.detOff--
		case NavDown:
			h.detOff++
		case NavPageUp:
			h.detOff -= page
		case NavPageDown, NavSpace:
			h.detOff += page
		case NavTop:
			h.detOff = 0
		case NavBottom:
			h.detOff = 1 << 30
		}
		h.detOff = max(0, h.detOff)
	}
}

// Open: enter on a commit moves into its changes; on a change, shows its
// before and after.
func (h *History) Open() bool {
	r := h.result()
	if r == nil || len(r.Changes) == 0 || h.level >= 2 {
		return false
	}
	h.level++
	h.detOff = 0
	return true
}

// Close: esc/⌫ goes back one level.
func (h *History) Close() bool {
	if h.level == 0 {
		return false
	}
	h.level--
	return true
}

// Target is the chosen change's node, which the graph selects.
func (h *History) Target() (Target, bool) {
	r := h.result()
	if h.level == 0 || r == nil || h.change >= len(r.Changes) {
		return Target{}, false
	}
	c := r.Changes[h.change]
	if c.Node == "" || c.New == nil {
		return Target{}, false // a removed node is not in the graph shown
	}
	return Target{NodeID: c.Node}, true
}

// Mark is the sign of a change in the node list: + a node added, − removed,
// ~ a node changed, · anything else.
func Mark(c diff.Change) string {
	switch {
	case c.Check == "diff_node_added":
		return "+"
	case c.Check == "diff_node_removed":
		return "−"
	case c.Node != "":
		return "~"
	}
	return "·"
}

// View renders the tab.
func (h *History) View(th Theme) string {
	w := h.w
	var out []string
	switch {
	case h.snap == nil:
		return fill([]string{th.Dim.Render("no analysis yet")}, w, h.h)
	case h.notGit != "":
		for _, l := range strings.Split(ansiWrap(h.notGit, max(1, w)), "\n") {
			out = append(out, th.Warning.Render(l))
		}
		return fill(out, w, h.h)
	case h.logErr != "":
		for _, l := range strings.Split(ansiWrap(h.logErr, max(1, w)), "\n") {
			out = append(out, th.Blocker.Render(l))
		}
		return fill(out, w, h.h)
	case len(h.rows) == 0:
		return fill([]string{th.Dim.Render("reading the git log…")}, w, h.h)
	}
	if h.level == 2 {
		return fill(h.detail(th), w, h.h)
	}
	listH := min(len(h.rows), max(1, h.h/3))
	h.off = clampScroll(h.cursor, h.off, listH, len(h.rows))
	for i := h.off; i < len(h.rows) && i < h.off+listH; i++ {
		line := " " + entryRow(h.rows[i])
		if i == h.cursor {
			st := th.Selected
			if h.level > 0 {
				st = th.Bold
			}
			out = append(out, st.Render(Fit(th.Cursor.Render("›")+line[1:], w)))
			continue
		}
		out = append(out, th.Text.Render(Trunc(line, w)))
	}
	out = append(out, th.Dim.Render(strings.Repeat("─", max(0, w))))
	e, _ := h.Selected()
	if msg, ok := h.errs[e.Hash]; ok {
		for _, l := range strings.Split(ansiWrap(msg, max(1, w)), "\n") {
			out = append(out, th.Blocker.Render(l))
		}
		return fill(out, w, h.h)
	}
	r := h.result()
	if r == nil {
		return fill(append(out, th.Dim.Render("comparing with "+parentLabel(e)+"…")), w, h.h)
	}
	out = append(out, th.Bold.Render(Trunc(fmt.Sprintf("vs %s: %d breaking · %d warn · %d info", parentLabel(e),
		r.Summary.Breaking, r.Summary.Warn, r.Summary.Info), w)))
	for _, n := range r.Notices { // a safety check the config lowers (diff.Run computes them)
		for _, l := range strings.Split(ansiWrap(present.Text(n), max(1, w)), "\n") {
			out = append(out, th.Warning.Render(Trunc(l, w)))
		}
	}
	if r.Truncated > 0 {
		out = append(out, th.Dim.Render(Trunc(fmt.Sprintf("%d listed; %d more changes (oastui diff --format json --max-changes 0 lists them all)", len(r.Changes), r.Truncated), w)))
	}
	if len(r.Changes) == 0 {
		return fill(append(out, th.Dim.Render("no changes to this agent")), w, h.h)
	}
	rest := max(1, h.h-len(out))
	off := clampScroll(h.change, 0, rest, len(r.Changes))
	for i := off; i < len(r.Changes) && i < off+rest; i++ {
		c := r.Changes[i]
		line := " " + Mark(c) + " " + levelWord(c.Level) + " " + present.Text(c.Message)
		if h.level == 1 && i == h.change {
			out = append(out, th.Selected.Render(Fit(th.Cursor.Render("›")+line[1:], w)))
			continue
		}
		out = append(out, h.levelStyle(th, c.Level).Render(Trunc(line, w)))
	}
	return fill(out, w, h.h)
}

func (h *History) levelStyle(th Theme, l diff.Level) lipgloss.Style {
	switch l {
	case diff.Breaking:
		return th.Blocker
	case diff.Warn:
		return th.Warning
	}
	return th.Text
}

func levelWord(l diff.Level) string {
	switch l {
	case diff.Breaking:
		return "breaking"
	case diff.Warn:
		return "warn    "
	}
	return "info    "
}

// entryRow is one line of the commit list.
func entryRow(e diff.Entry) string {
	if e.WorkingTree() {
		return "working tree  (uncommitted changes)"
	}
	return fmt.Sprintf("%s  %s  %s", present.Text(e.Short), e.When.Format("2006-01-02"), present.Text(e.Subject))
}

func parentLabel(e diff.Entry) string {
	switch {
	case e.WorkingTree():
		return "HEAD"
	case e.Parent == "":
		return "nothing (the first commit)"
	case len(e.Parent) > 7:
		return e.Parent[:7]
	}
	return e.Parent
}

// detail is the chosen change's before and after: a prompt as a word diff
// (before: kept and removed words, after: kept and added ones).
func (h *History) detail(th Theme) []string {
	r := h.result()
	if r == nil || h.change >= len(r.Changes) {
		return nil
	}
	c := r.Changes[h.change]
	w := max(1, h.w)
	var lines []string
	add := func(style lipgloss.Style, s string) {
		for _, l := range strings.Split(ansiWrap(s, w), "\n") {
			lines = append(lines, style.Render(Trunc(l, w)))
		}
	}
	add(th.Bold, Mark(c)+" "+strings.TrimSpace(levelWord(c.Level))+" · "+present.Text(c.Check))
	add(th.Text, present.Text(c.Message))
	if c.Node != "" {
		add(th.Dim, "node "+present.Text(c.Node))
	}
	if c.Reason != "" {
		add(th.Dim, present.Text(c.Reason))
	}
	lines = append(lines, "")
	if len(c.Words) > 0 {
		lines = append(lines, th.Bold.Render("before"))
		lines = append(lines, h.words(th, c.Words, "-")...)
		lines = append(lines, "", th.Bold.Render("after"))
		lines = append(lines, h.words(th, c.Words, "+")...)
	} else {
		lines = append(lines, th.Bold.Render("before"))
		add(th.DiffDel, orNone(present.Text(c.Before)))
		lines = append(lines, "", th.Bold.Render("after"))
		add(th.DiffAdd, orNone(present.Text(c.After)))
	}
	h.detOff = min(h.detOff, max(0, len(lines)-h.h))
	return lines[h.detOff:]
}

// words is one side of a word diff: the kept words and those of side op
// ("-" before, "+" after) highlighted, wrapped to the pane.
func (h *History) words(th Theme, ws []diff.Word, op string) []string {
	w := max(1, h.w)
	var lines []string
	line, lw := "", 0
	for _, x := range ws {
		if x.Op != "=" && x.Op != op {
			continue
		}
		style := th.Text
		if x.Op == "-" {
			style = th.DiffDel
		} else if x.Op == "+" {
			style = th.DiffAdd
		}
		for i, part := range strings.Split(present.Text(x.Text), "\n") {
			if i > 0 {
				lines = append(lines, line)
				line, lw = "", 0
			}
			for _, tok := range strings.SplitAfter(part, " ") {
				if tok == "" {
					continue
				}
				tw := Width(tok)
				if lw+tw > w && lw > 0 {
					lines = append(lines, line)
					line, lw = "", 0
				}
				line += style.Render(Trunc(tok, w))
				lw += min(tw, w)
			}
		}
	}
	if line != "" || len(lines) == 0 {
		lines = append(lines, line)
	}
	return lines
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}
