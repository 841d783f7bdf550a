package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"

	"github.com/oastui/oastui/prompts"
)

// Prompt is the Prompt tab: what the graph's selected LLM node will be
// sent (the engine's prompts.Report): its placeholders with their
// provenance (enter on one selects the node that feeds it), the token bar
// against the model's window, the rendered preview with the sample values
// highlighted, and the agent's budget table by ContextOS bucket.
// After enter, esc/⌫ (Close) goes back to the LLM node the jump started
// from, its placeholder cursor where it was; jumps stack, and moving the
// graph anywhere else forgets them.
type Prompt struct {
	cursorList[prompts.Placeholder]
	report   *prompts.Report
	file     string
	pointer  string // the selected graph node
	name     string // its name (NodeInfo.Name)
	node     *prompts.NodePrompt
	scroll   int  // first line shown
	armed    bool // enter was pressed on a placeholder: Target names its feeding node once
	cursorAt int  // line of the cursor in the last layout
	follow   bool // the cursor moved: scroll it into view at the next View

	step      int  // on a node that sends no prompt: the cursor on the agent's LLM steps
	stepArmed bool // enter was pressed on an LLM step: Target names it once
	boff      int  // the budget table's first bucket column shown (←/→ scroll it when it is too wide)

	hops    []promptHop // the jumps made with enter, newest last
	landing bool        // Target named a feeding node: the next SetNode is where the jump landed
	back    *promptHop  // esc/⌫ was pressed: Target names hop.from once, SetNode restores the cursor
}

// promptHop is one jump from an LLM node to the node feeding one of its
// placeholders.
type promptHop struct {
	from, fromName string // the LLM node's pointer and name
	to             string // the node the graph selected ("" until it answers)
	cursor, scroll int    // where the tab was on the LLM node
}

// Name is the tab's title.
func (p *Prompt) Name() string { return "Prompt" }

// Show takes the prompt report of the newest good analysis.
func (p *Prompt) Show(sh Shown) {
	if sh.LastParsed == nil {
		return
	}
	p.report, p.file = sh.LastParsed.Prompts, ""
	if sh.LastParsed.Agent != nil {
		p.file = sh.LastParsed.Agent.FlowPath
	}
	p.pick()
}

// ShowsLastParsed: the report is that of the newest good analysis.
func (p *Prompt) ShowsLastParsed() {}

// SetNode follows the graph's selected node.
func (p *Prompt) SetNode(_ Theme, info *NodeInfo) {
	ptr, name := "", ""
	if info != nil {
		ptr, name = info.Pointer, info.Name
	}
	moved := ptr != p.pointer
	if moved {
		p.scroll, p.cursor = 0, 0
	}
	p.pointer, p.name = ptr, name
	switch {
	case p.back != nil:
		if b := p.back; ptr == b.from {
			p.cursor, p.scroll = b.cursor, b.scroll
		} else if moved {
			p.hops = nil // the graph could not go back there
		}
		p.back = nil
	case p.landing && len(p.hops) > 0:
		p.landing = false
		if top := &p.hops[len(p.hops)-1]; moved {
			top.to = ptr
		} else {
			p.hops = p.hops[:len(p.hops)-1] // the graph did not move: nothing to go back from
		}
	case moved && len(p.hops) > 0 && ptr != p.hops[len(p.hops)-1].to:
		p.hops = nil // the user moved the graph elsewhere
	}
	p.pick()
}

func (p *Prompt) pick() {
	p.node = p.report.Node(p.pointer)
	if p.node == nil && p.pointer == "" && p.report != nil && len(p.report.Nodes) > 0 {
		p.node = p.report.Nodes[0] // nothing selected yet: the first LLM step
	}
	if p.node != nil {
		p.setRows(p.node.Placeholders)
	} else {
		p.setRows(nil)
	}
}

// StepList says the tab lists the agent's LLM steps (the selected node
// sends no prompt): enter goes to the one under the cursor.
func (p *Prompt) StepList() bool { return p.node == nil && p.report != nil && len(p.report.Nodes) > 0 }

// Nav moves the placeholder cursor (up/down; on a node that sends no
// prompt, the cursor on the LLM steps), scrolls (pages, top, bottom), or
// scrolls the budget table's bucket columns (left/right).
func (p *Prompt) Nav(n Nav, page int) {
	p.armed, p.stepArmed = false, false
	switch n {
	case NavLeft:
		p.boff = max(0, p.boff-1)
		return
	case NavRight:
		p.boff++ // clamped when drawn
		return
	}
	if p.StepList() && (n == NavUp || n == NavDown) {
		d := 1
		if n == NavUp {
			d = -1
		}
		p.step = max(0, min(len(p.report.Nodes)-1, p.step+d))
		p.follow = true
		return
	}
	switch n {
	case NavUp, NavDown:
		if len(p.rows) == 0 {
			d := 1
			if n == NavUp {
				d = -1
			}
			p.scroll = max(0, p.scroll+d)
			return
		}
		listNav(p, n, page)
		p.follow = true
	case NavPageUp:
		p.scroll = max(0, p.scroll-page)
	case NavPageDown, NavSpace:
		p.scroll += page
	case NavTop:
		p.scroll = 0
		p.Home()
	case NavBottom:
		p.scroll = 1 << 30
	}
}

// Open (enter) selects, in the graph, the node that feeds the placeholder
// under the cursor.
func (p *Prompt) Open() bool {
	if p.StepList() {
		p.stepArmed, p.armed, p.back = true, false, nil
		return true
	}
	r, ok := p.Selected()
	if !ok || r.Provenance.FromPointer == "" || p.node == nil {
		return false
	}
	p.armed, p.back = true, nil
	return true
}

// Close (esc, ⌫) goes back to the LLM node the last enter jumped from:
// Target names it once. False when no jump is to be undone.
func (p *Prompt) Close() bool {
	if len(p.hops) == 0 {
		return false
	}
	h := p.hops[len(p.hops)-1]
	p.hops = p.hops[:len(p.hops)-1]
	p.back, p.armed, p.landing = &h, false, false
	return true
}

// BackTo is the LLM node esc/⌫ goes back to (its name and id), if any.
func (p *Prompt) BackTo() (string, bool) {
	if len(p.hops) == 0 {
		return "", false
	}
	h := p.hops[len(p.hops)-1]
	return h.fromName, true
}

// Target is, once, the feeding node of the placeholder enter was pressed
// on, or the LLM node esc/⌫ goes back to; otherwise none (moving the
// cursor leaves the graph alone, as the tab shows the graph's node).
func (p *Prompt) Target() (Target, bool) {
	if p.back != nil {
		return Target{File: p.file, Pointer: p.back.from}, true
	}
	if p.stepArmed {
		p.stepArmed = false
		if p.StepList() {
			return Target{File: p.file, Pointer: p.report.Nodes[min(p.step, len(p.report.Nodes)-1)].Pointer}, true
		}
		return Target{}, false
	}
	if !p.armed {
		return Target{}, false
	}
	p.armed = false
	r, ok := p.Selected()
	if !ok || r.Provenance.FromPointer == "" || p.node == nil {
		return Target{}, false
	}
	name := present.Text(p.node.Name)
	if id := present.Text(p.node.ID); id != "" && id != name {
		name += " (" + id + ")"
	}
	p.hops = append(p.hops, promptHop{from: p.node.Pointer, fromName: name, cursor: p.cursor, scroll: p.scroll})
	p.landing = true
	return Target{File: p.file, Pointer: r.Provenance.FromPointer}, true
}

// View renders the tab.
func (p *Prompt) View(th Theme) string {
	lines := p.lines(th)
	if p.follow {
		p.follow = false
		if p.cursorAt < p.scroll {
			p.scroll = p.cursorAt
		} else if p.cursorAt >= p.scroll+p.h {
			p.scroll = p.cursorAt - p.h + 1
		}
	}
	p.scroll = max(0, min(p.scroll, len(lines)-p.h))
	return fill(lines[p.scroll:], p.w, p.h)
}

// lines lays out the whole tab.
func (p *Prompt) lines(th Theme) []string {
	w := max(10, p.w)
	if p.report == nil {
		return []string{th.Dim.Render("no analysis yet")}
	}
	var out []string
	if p.report.Err != "" {
		out = append(out, th.Warning.Render("tokenizer unavailable: "+present.Text(p.report.Err)))
	}
	n := p.node
	back := ""
	if to, ok := p.BackTo(); ok {
		back = Trunc("⌫ back to "+to, w)
	}
	if n == nil {
		msg := "the selected node sends no prompt to a model"
		if p.name != "" {
			msg = present.Text(p.name) + " sends no prompt to a model"
		}
		if len(p.report.Nodes) == 0 {
			msg = "this agent has no LLM-bearing node (llm-bridge ApiNode, LlmNode, AgentNode, Agent)"
		}
		out = append(out, th.Dim.Render(Trunc(msg, w)))
		if back != "" {
			out = append(out, th.Text.Render(back))
		}
		if len(p.report.Nodes) > 0 {
			out = append(out, "", th.Bold.Render("LLM steps")+th.Dim.Render(fmt.Sprintf(" (%d) · enter selects the step", len(p.report.Nodes))))
			p.step = min(p.step, len(p.report.Nodes)-1)
			for i, x := range p.report.Nodes {
				mark := "  "
				if i == p.step {
					mark = th.Cursor.Render("› ")
					p.cursorAt = len(out)
				}
				l := mark + fmt.Sprintf("%d. %s", x.Order, present.Text(x.Name))
				if id := present.Text(x.ID); id != "" && id != present.Text(x.Name) {
					l += th.Dim.Render(" (" + id + ")")
				}
				if i == p.step {
					l = th.Selected.Render(Fit(l, w))
				}
				out = append(out, Trunc(l, w))
			}
		}
		out = append(out, "")
		return append(out, p.budgetLines(th, w)...)
	}
	enc := n.Model.Encoding
	out = append(out, th.Bold.Render(Trunc(fmt.Sprintf("%d. %s", n.Order, present.Text(n.Name)), w)))
	if back != "" {
		out = append(out, th.Text.Render(back))
	}
	model := strings.TrimSpace(present.Text(n.Model.Provider + " " + n.Model.ID))
	if model == "" {
		model = "no model named"
	}
	est := ""
	if !n.Model.Exact {
		est = " (estimate)"
	}
	out = append(out, th.Dim.Render(Trunc(model+" · "+enc+est+" · system: "+present.Text(n.System.Source), w)))
	out = append(out, tokenBar(th, n, w))
	if n.Skill != nil {
		out = append(out, th.Dim.Render(Trunc("SKILL.md "+present.Text(n.Skill.Path)+": "+n.Skill.Status+" ("+n.Skill.Placement+")", w)))
	}
	if n.Tools != nil {
		out = append(out, th.Dim.Render(Trunc(fmt.Sprintf("tools: %s (%d tokens)", present.Text(strings.Join(n.Tools.Names, ", ")), n.Tools.Tokens), w)))
	}
	out = append(out, "", th.Bold.Render("placeholders")+th.Dim.Render(fmt.Sprintf(" (%d) · enter selects the feeding node", len(n.Placeholders))))
	for i, ph := range n.Placeholders {
		mark := "  "
		if i == p.cursor {
			mark = th.Cursor.Render("› ")
			p.cursorAt = len(out)
		}
		prov := ph.Provenance.Text()
		st := th.Text
		if ph.Provenance.Kind == prompts.FromUnresolved {
			st = th.Warning
		}
		l := mark + th.Code.Render("{{ "+present.Text(ph.Name)+" }}") + " ← " + st.Render(present.Text(prov)) +
			th.Dim.Render(fmt.Sprintf("  %s · %d tok", ph.Bucket, ph.Tokens))
		if i == p.cursor {
			l = th.Selected.Render(Fit(l, w))
		}
		out = append(out, Trunc(l, w))
	}
	values := map[string]string{}
	for _, ph := range n.Placeholders {
		values[ph.Name] = ph.Sample
	}
	for _, t := range n.Templates {
		out = append(out, "", th.Bold.Render("── "+t.Role+" ("+present.Text(t.Field)+") ──"))
		if t.Role == "system" && n.Skill != nil && n.Skill.Placement == "system" && n.Skill.Status == "found" {
			out = append(out, th.Dim.Render("[SKILL.md first, then a blank line]"))
		}
		out = append(out, renderSegments(th, t.Segments, values, w)...)
	}
	out = append(out, "")
	return append(out, p.budgetLines(th, w)...)
}

// tokenBar is the static prompt against the model's window (or, when the
// window is unknown, against the run budget's total).
func tokenBar(th Theme, n *prompts.NodePrompt, w int) string {
	enc := n.Model.Encoding
	static, preview := n.Tokens.Static[enc], n.Tokens.Preview[enc]
	limit, what := n.Model.Window, "window"
	if limit == 0 {
		limit, what = 0, "window unknown"
	}
	label := fmt.Sprintf(" %d static · %d preview", static, preview)
	if limit > 0 {
		label += fmt.Sprintf(" / %d %s (%.2f%%)", limit, what, 100*float64(static)/float64(limit))
	} else {
		label += " · " + what
	}
	bw := max(4, min(20, w-Width(label)-2))
	fillN := 0
	if limit > 0 {
		fillN = min(bw, (static*bw+limit-1)/limit)
	}
	bar := "▕" + th.Warning.Render(strings.Repeat("█", fillN)) + th.Dim.Render(strings.Repeat("░", bw-fillN)) + "▏"
	return Trunc(bar+label, w)
}

// renderSegments draws a template with its sample values highlighted,
// wrapped to w.
func renderSegments(th Theme, segs []prompts.Segment, values map[string]string, w int) []string {
	var b strings.Builder
	for _, s := range segs {
		switch s.Kind {
		case prompts.SegPlaceholder:
			v := values[s.Name]
			if v == "" {
				v = "∅"
			}
			b.WriteString(styleLines(th.Code, cleanLines(v)))
		case prompts.SegText:
			b.WriteString(cleanLines(s.Text))
		default:
			b.WriteString(styleLines(th.Dim, cleanLines(s.Text)))
		}
	}
	var out []string
	for _, l := range strings.Split(b.String(), "\n") {
		out = append(out, strings.Split(ansiWrap(l, w), "\n")...)
	}
	return out
}

// styleLines styles each line of s (a style must not span a line break).
func styleLines(st interface{ Render(...string) string }, s string) string {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		if p != "" {
			parts[i] = st.Render(p)
		}
	}
	return strings.Join(parts, "\n")
}

// budgetLines is the agent's budget table: per step the estimate of each
// bucket, ! where the static part already exceeds the bucket's budget.
// Node names are whole when the pane allows; a table wider than the pane
// keeps the step and node columns and scrolls the buckets (←/→).
func (p *Prompt) budgetLines(th Theme, w int) []string {
	r := p.report
	out := []string{th.Bold.Render("usage") + th.Dim.Render(" per LLM call, tokens (estimate; ! over your budget:)")}
	abbr := map[prompts.Bucket]string{prompts.Policy: "policy", prompts.Tool: "tool", prompts.Evidence: "evid",
		prompts.Memory: "mem", prompts.Business: "biz", prompts.Session: "sess"}
	const numW, cellW = 4, 8
	nameW := len("example")
	for _, s := range r.Steps {
		nameW = max(nameW, Width(present.Text(s.Node)))
	}
	nb := len(prompts.Buckets)
	room := w
	if numW+nameW+cellW*nb > w {
		room = w - 2                                  // the ◂▸ marker
		nameW = min(nameW, max(6, room-numW-cellW*2)) // at least two buckets beside the names
	}
	shown := max(1, min(nb, (room-numW-nameW)/cellW))
	p.boff = max(0, min(p.boff, nb-shown))
	buckets := prompts.Buckets[p.boff : p.boff+shown]
	left, right := p.boff > 0, p.boff+shown < nb
	pad := func(s string, n int) string { return s + strings.Repeat(" ", max(0, n-Width(s))) }
	head := pad("#", numW) + pad("node", nameW)
	for _, b := range buckets {
		head += fmt.Sprintf(" %7s", abbr[b])
	}
	if left || right {
		switch {
		case left && right:
			head += " ◂▸"
		case left:
			head += " ◂"
		default:
			head += " ▸"
		}
	}
	out = append(out, th.Dim.Render(Trunc(head, w)))
	over := map[[2]any]bool{}
	for _, e := range r.Exceeded {
		over[[2]any{e.Order, e.Bucket}] = true
	}
	for _, s := range r.Steps {
		l := pad(fmt.Sprint(s.Order), numW) + pad(Trunc(present.Text(s.Node), nameW), nameW)
		for _, b := range buckets {
			cell := fmt.Sprintf(" %7d", s.Estimate[b])
			if over[[2]any{s.Order, b}] {
				cell = th.Warning.Render(fmt.Sprintf(" %6d!", s.Estimate[b]))
			}
			l += cell
		}
		if p.node != nil && s.Pointer == p.node.Pointer {
			l = th.Bold.Render(l)
		}
		out = append(out, Trunc(l, w))
	}
	l := pad("", numW) + pad("example", nameW)
	for _, b := range buckets {
		l += fmt.Sprintf(" %7d", r.Example.Buckets[b])
	}
	out = append(out, th.Dim.Render(Trunc(l, w)))
	if left || right {
		out = append(out, th.Dim.Render(Trunc(fmt.Sprintf("buckets %d–%d of %d · ←/→ scroll", p.boff+1, p.boff+shown, nb), w)))
	}
	for _, e := range r.Exceeded {
		out = append(out, th.Warning.Render(Trunc(fmt.Sprintf("⚠ step %d %s: %s %d > %d", e.Order, present.Text(e.Node), e.Bucket, e.Tokens, e.Budget), w)))
	}
	out = append(out, th.Dim.Render(Trunc(fmt.Sprintf("example: ContextOS's, not a limit; business: %d tokens/artifact", r.Budget.ArtifactTokens), w)))
	return out
}

// cleanLines is present.Text for each line of a multi-line text.
func cleanLines(s string) string {
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = present.Text(strings.TrimSuffix(p, "\r"))
	}
	return strings.Join(parts, "\n")
}
