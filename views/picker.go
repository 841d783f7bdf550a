package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/oastui/oastui/slots"
)

// PickerConfig is what the context picker shows: one slot and its
// resolved candidates (slots.Resolve), with titles from the catalog and,
// when there are no candidates, why (slots.Explain).
type PickerConfig struct {
	Slot       slots.Slot
	Candidates []slots.Ref
	Titles     map[string]string // artifactId → title
	Empty      slots.Empty       // why Candidates is empty
	ProjectID  string            // shown in the header when set
	// Preselect are refs to start with checked (the last pick confirmed
	// for this slot); those no longer among the candidates are left out.
	Preselect []slots.Ref
}

// PickerDoneMsg is sent when the picker is confirmed or cancelled. On
// confirm Envelope is the userResponse envelope and Refs the selected refs.
type PickerDoneMsg struct {
	Canceled bool
	Envelope slots.Envelope
}

// Picker is the ContextSelector (reference §13.8) as a Bubble Tea
// component: candidates grouped by scope, checkboxes (accumulate, capped
// at maxItems) or radio buttons (override), confirm refused below
// minItems with the reason shown. Embed it with NewPicker, SetSize,
// Update and View; it reports the outcome with a PickerDoneMsg.
type Picker struct {
	cfg    PickerConfig
	sel    slots.Selection
	rows   []pickerRow // groups and candidates, in display order
	cursor int         // index into rows (always a candidate row when there is one)
	off    int         // first visible list row
	w, h   int
	note   string // last refusal or hint
	noteOK bool   // note is informational, not a refusal
	help   bool
	keys   PickerKeyMap
	done   bool
}

// pickerRow is a group header (cand < 0) or a candidate.
type pickerRow struct {
	scope string
	cand  int
}

// NewPicker builds a picker over cfg.
func NewPicker(cfg PickerConfig) Picker {
	p := Picker{cfg: cfg, sel: slots.NewSelection(cfg.Slot, cfg.Candidates), w: 80, h: 24, keys: DefaultPickerKeyMap()}
	// Group by source scope in the renderer's order; input order inside a group.
	for _, scope := range slots.Scopes {
		first := true
		for i, c := range p.sel.Candidates {
			if c.SourceScope != scope {
				continue
			}
			if first {
				p.rows = append(p.rows, pickerRow{scope: scope, cand: -1})
				first = false
			}
			p.rows = append(p.rows, pickerRow{scope: scope, cand: i})
		}
	}
	// Candidates of a scope the renderer does not know go last, under their own name.
	known := map[string]bool{}
	for _, s := range slots.Scopes {
		known[s] = true
	}
	seen := map[string]bool{}
	for i, c := range p.sel.Candidates {
		if known[c.SourceScope] {
			continue
		}
		if !seen[c.SourceScope] {
			seen[c.SourceScope] = true
			p.rows = append(p.rows, pickerRow{scope: c.SourceScope, cand: -1})
		}
		p.rows = append(p.rows, pickerRow{scope: c.SourceScope, cand: i})
	}
	p.cursor = p.nextCandidate(-1, 1)
	want := map[string]bool{}
	for _, r := range cfg.Preselect {
		want[r.TripleKey()] = true
	}
	for i, c := range p.sel.Candidates {
		if want[c.TripleKey()] && !p.sel.IsSelected(i) {
			if next, err := p.sel.Toggle(i); err == nil {
				p.sel = next
			}
		}
	}
	return p
}

// SetSize sets the space the picker may use (it draws a box no larger).
func (p Picker) SetSize(w, h int) Picker {
	p.w, p.h = w, h
	return p.scroll()
}

// Selection is the current selection.
func (p Picker) Selection() slots.Selection { return p.sel }

// Cursor is the index of the candidate under the cursor, or -1.
func (p Picker) Cursor() int {
	if p.cursor >= 0 && p.cursor < len(p.rows) {
		return p.rows[p.cursor].cand
	}
	return -1
}

// Note is the message line (a refusal or a hint), "" when none.
func (p Picker) Note() string { return p.note }

// Done reports whether the picker was confirmed or cancelled.
func (p Picker) Done() bool { return p.done }

// nextCandidate finds the next candidate row from i in direction d, or i
// when there is none.
func (p Picker) nextCandidate(i, d int) int {
	for j := i + d; j >= 0 && j < len(p.rows); j += d {
		if p.rows[j].cand >= 0 {
			return j
		}
	}
	if i < 0 {
		return -1
	}
	return i
}

// Init implements the Bubble Tea component protocol.
func (p Picker) Init() tea.Cmd { return nil }

// Update handles keys: ↑↓/jk move, space toggles (accumulate) or selects
// (override), c clears, enter confirms, esc/q cancels, ? shows the keys.
func (p Picker) Update(msg tea.Msg) (Picker, tea.Cmd) {
	if p.done {
		return p, nil
	}
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		p.w, p.h = msg.Width, msg.Height
		p = p.scroll()
	case tea.KeyPressMsg:
		p, cmd := p.key(msg)
		return p.scroll(), cmd
	}
	return p, nil
}

func (p Picker) key(msg tea.KeyPressMsg) (Picker, tea.Cmd) {
	k := p.keys
	switch {
	case key.Matches(msg, k.Up):
		p.cursor = p.nextCandidate(p.cursor, -1)
		p.note = ""
	case key.Matches(msg, k.Down):
		p.cursor = p.nextCandidate(p.cursor, 1)
		p.note = ""
	case key.Matches(msg, k.Top):
		p.cursor = p.nextCandidate(-1, 1)
	case key.Matches(msg, k.Bottom):
		p.cursor = p.nextCandidate(len(p.rows), -1)
		if p.cursor >= len(p.rows) {
			p.cursor = -1
		}
	case key.Matches(msg, k.PageDown):
		for i := 0; i < max(1, p.listHeight()-1); i++ {
			p.cursor = p.nextCandidate(p.cursor, 1)
		}
	case key.Matches(msg, k.PageUp):
		for i := 0; i < max(1, p.listHeight()-1); i++ {
			p.cursor = p.nextCandidate(p.cursor, -1)
		}
	case key.Matches(msg, k.Toggle):
		c := p.Cursor()
		if c < 0 {
			p.note, p.noteOK = "no candidate to select", false
			break
		}
		next, err := p.sel.Toggle(c)
		if err != nil {
			p.note, p.noteOK = err.Error(), false
			break
		}
		p.sel = next
		p.note = ""
		if p.sel.AtCap() {
			p.note, p.noteOK = fmt.Sprintf("limit %d reached — the other rows are disabled", p.cfg.Slot.MaxItems), true
		}
	case key.Matches(msg, k.Clear):
		if !p.sel.Override() && p.sel.Count() > 0 {
			p.sel = p.sel.Clear()
			p.note, p.noteOK = "selection cleared", true
		}
	case key.Matches(msg, k.Help):
		p.help = !p.help
	case key.Matches(msg, k.Confirm):
		if len(p.sel.Candidates) == 0 && p.cfg.Slot.MinItems > 0 {
			p.note, p.noteOK = fmt.Sprintf("cannot confirm: the slot requires at least %d and there are no candidates", p.cfg.Slot.MinItems), false
			break
		}
		if err := p.sel.CanConfirm(); err != nil {
			p.note, p.noteOK = "cannot confirm: "+err.Error(), false
			break
		}
		p.done = true
		env := p.sel.Envelope()
		return p, func() tea.Msg { return PickerDoneMsg{Envelope: env} }
	case key.Matches(msg, k.Cancel):
		p.done = true
		return p, func() tea.Msg { return PickerDoneMsg{Canceled: true} }
	}
	return p, nil
}

// box is the picker's outer size for the space it was given.
func (p Picker) box() (w, h int) {
	w = min(p.w, 100)
	h = min(p.h, len(p.body(pickerStyles{}, max(0, w-2), 1<<20))+2)
	return w, h
}

// fixedLines is the number of body lines around the list.
func (p Picker) fixedLines() int {
	n := len(p.badgeLines(max(0, min(p.w, 100)-2))) + 3 // badges, blank, note, footer
	if p.help {
		n += len(pickerWrap(p.helpText(), max(0, min(p.w, 100)-4)))
	}
	return n
}

// badgeLines are the header badges, wrapped between badges to width iw.
func (p Picker) badgeLines(iw int) []string {
	badges := p.cfg.Slot.Badges()
	if p.cfg.ProjectID != "" {
		badges = append(badges, "project "+p.cfg.ProjectID)
	}
	var out []string
	line := ""
	for _, b := range badges {
		b = Trunc(present.Text(b), max(1, iw-2))
		switch {
		case line == "":
			line = b
		case Width(line)+3+Width(b) <= iw-2:
			line += " · " + b
		default:
			out = append(out, line)
			line = b
		}
	}
	return append(out, line)
}

// listHeight is how many list rows fit.
func (p Picker) listHeight() int {
	return max(1, min(p.h, 1<<20)-2-p.fixedLines())
}

// View draws the picker as a framed box at most as large as SetSize allowed.
func (p Picker) View(th Theme) string {
	w, _ := p.box()
	if w < 4 || p.h < 3 {
		return ""
	}
	body := p.body(newPickerStyles(th), w-2, p.listHeight())
	h := min(p.h, len(body)+2)
	title := th.TitleFocused.Render(present.Text("context · " + p.cfg.Slot.SlotID))
	return pickerFrame(th, title, w, h, body)
}

// body renders the inner lines for an inner width iw with at most lh list rows.
func (p Picker) body(th pickerStyles, iw, lh int) []string {
	var out []string
	// header badges
	for _, l := range p.badgeLines(iw) {
		out = append(out, " "+th.badge.Render(l))
	}
	out = append(out, "")

	if len(p.sel.Candidates) == 0 {
		out = append(out, p.emptyLines(th, iw)...)
	} else {
		out = append(out, p.list(th, iw, lh)...)
	}

	// note line: a refusal (red) or a hint (dim)
	note := ""
	if p.note != "" {
		if p.noteOK {
			note = " " + th.hint.Render(present.Text(p.note))
		} else {
			note = " " + th.refusal.Render("✖ "+present.Text(p.note))
		}
	}
	out = append(out, note)
	out = append(out, " "+p.footer(th, iw-2))
	if p.help {
		for _, l := range pickerWrap(p.helpText(), iw-2) {
			out = append(out, " "+th.hint.Render(l))
		}
	}
	return out
}

func (p Picker) emptyLines(th pickerStyles, iw int) []string {
	why := p.cfg.Empty.Message
	if why == "" {
		why = "no candidates"
	}
	lines := []string{" " + th.group.Render("No candidates")}
	for _, l := range pickerWrap("why: "+present.Text(why), iw-3) {
		lines = append(lines, "  "+th.hint.Render(l))
	}
	var then string
	if m := p.cfg.Slot.MinItems; m > 0 {
		then = fmt.Sprintf("this slot requires at least %d %s — the agent cannot proceed", m, pickerPlural(m, "artifact", "artifacts"))
		for _, l := range pickerWrap(then, iw-3) {
			lines = append(lines, "  "+th.refusal.Render(l))
		}
	} else {
		then = "the agent will run without context — enter confirms an empty selection"
		for _, l := range pickerWrap(then, iw-3) {
			lines = append(lines, "  "+th.hint.Render(l))
		}
	}
	return lines
}

// list renders the candidate rows, scrolled so the cursor shows.
func (p Picker) list(th pickerStyles, iw, lh int) []string {
	all := make([]string, len(p.rows))
	titleW, extW, revW := p.columns(iw - 1) // one column of right margin
	for i, r := range p.rows {
		if r.cand < 0 {
			all[i] = " " + th.group.Render(present.Text(slots.ScopeLabel(r.scope)))
			continue
		}
		c := p.sel.Candidates[r.cand]
		selected := p.sel.IsSelected(r.cand)
		disabled := p.sel.Disabled(r.cand)
		mark := "[ ]"
		if p.sel.Override() {
			mark = "( )"
			if selected {
				mark = "(•)"
			}
		} else if selected {
			mark = "[x]"
		}
		title := p.cfg.Titles[c.ArtifactID]
		if title == "" {
			title = c.ArtifactID
		}
		cells := Fit(present.Text(title), titleW)
		if extW > 0 {
			cells += "  " + Fit(present.Text(slots.ShortExtension(c.Extension)), extW)
		}
		if revW > 0 {
			cells += "  " + Fit(present.Text(pickerRev(c.RepresentationRevisionID)), revW)
		}
		cur := "  "
		if i == p.cursor {
			cur = "› "
		}
		var line string
		switch {
		case disabled:
			line = th.disabled.Render(cur + mark + " " + cells)
		case selected:
			line = th.cursor.Render(cur) + th.checked.Render(mark) + " " + th.text.Render(cells)
		default:
			line = th.cursor.Render(cur) + th.text.Render(mark+" "+cells)
		}
		if i == p.cursor {
			line = th.row.Render(Fit(line, iw))
		}
		all[i] = line
	}
	if len(all) <= lh {
		return all
	}
	if lh < 3 { // no room for scroll markers: the cursor row alone
		return []string{all[max(0, p.cursor)]}
	}
	off := pickerClampOff(p.off, max(0, p.cursor), lh, len(all))
	out := make([]string, 0, lh)
	if off > 0 {
		out = append(out, th.hint.Render(fmt.Sprintf(" ↑ %d more", off)))
	} else {
		out = append(out, "")
	}
	end := min(len(all), off+lh-2)
	out = append(out, all[off:end]...)
	if rest := len(all) - end; rest > 0 {
		out = append(out, th.hint.Render(fmt.Sprintf(" ↓ %d more", rest)))
	}
	return out
}

// pickerClampOff keeps cursor inside the window of lh-2 content rows (one
// row above and below is kept for the scroll markers) starting at off.
func pickerClampOff(off, cursor, lh, n int) int {
	inner := max(1, lh-2)
	if cursor < off {
		off = cursor
	}
	if cursor >= off+inner {
		off = cursor - inner + 1
	}
	return max(0, min(off, n-inner))
}

// scroll updates the remembered list offset after a move or a resize,
// keeping the cursor's group header in view when it fits.
func (p Picker) scroll() Picker {
	lh := p.listHeight()
	if len(p.rows) <= lh || lh < 3 {
		p.off = 0
		return p
	}
	cur := max(0, p.cursor)
	p.off = pickerClampOff(p.off, cur, lh, len(p.rows))
	if cur > 0 && p.off == cur && p.rows[cur-1].cand < 0 {
		p.off--
	}
	return p
}

// columns splits the inner width between title, extension and revision.
func (p Picker) columns(iw int) (titleW, extW, revW int) {
	avail := iw - 6 // cursor (2), mark (3), space (1)
	for _, c := range p.sel.Candidates {
		extW = max(extW, Width(present.Text(slots.ShortExtension(c.Extension))))
		revW = max(revW, Width(present.Text(pickerRev(c.RepresentationRevisionID))))
	}
	extW, revW = min(extW, 32), min(revW, 14)
	switch {
	case avail-extW-revW-4 >= 16:
	case avail-revW-2 >= 14:
		extW = 0
	default:
		extW, revW = 0, 0
	}
	titleW = avail
	if extW > 0 {
		titleW -= extW + 2
	}
	if revW > 0 {
		titleW -= revW + 2
	}
	return max(1, titleW), extW, revW
}

// footer is "n selected / max" with the reason when at a bound, and keys.
func (p Picker) footer(th pickerStyles, fw int) string {
	n := p.sel.Count()
	s := fmt.Sprintf("%d selected", n)
	if m := p.cfg.Slot.MaxItems; m > 0 {
		s += fmt.Sprintf(" / %d", m)
	}
	state := ""
	switch {
	case n < p.cfg.Slot.MinItems:
		state = th.refusal.Render(fmt.Sprintf(" — need at least %d", p.cfg.Slot.MinItems))
	case p.sel.AtCap():
		state = th.warn.Render(" — maximum selected")
	}
	head := th.count.Render(s) + state
	for _, keys := range p.keys.footers(p.sel.Override()) {
		if Width(head)+3+Width(keys) <= fw {
			return head + th.hint.Render(" · "+keys)
		}
	}
	return head
}

func (p Picker) helpText() string { return p.keys.fullHelp(p.sel.Override()) }

// pickerWrap breaks plain text into lines of at most w columns at spaces.
func pickerWrap(s string, w int) []string {
	if w < 8 {
		w = 8
	}
	var out []string
	line := ""
	for _, word := range strings.Fields(s) {
		for Width(word) > w {
			if line != "" {
				out = append(out, line)
				line = ""
			}
			out = append(out, Trunc(word, w))
			word = TruncLeft(word, w-1)
		}
		switch {
		case line == "":
			line = word
		case Width(line)+1+Width(word) <= w:
			line += " " + word
		default:
			out = append(out, line)
			line = word
		}
	}
	if line != "" {
		out = append(out, line)
	}
	return out
}

func pickerPlural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// pickerFrame draws a rounded frame of exactly w×h cells with title in
// the top border; body lines are cut or padded to the inner width.
func pickerFrame(th Theme, title string, w, h int, body []string) string {
	border := th.BorderFocused
	inner := w - 2
	var b strings.Builder
	if title != "" && inner >= 4 {
		t := Trunc(title, inner-3)
		b.WriteString(border.Render("╭ ") + t + border.Render(" "+strings.Repeat("─", max(0, inner-2-Width(t)))+"╮"))
	} else {
		b.WriteString(border.Render("╭" + strings.Repeat("─", inner) + "╮"))
	}
	side := border.Render("│")
	for i := 0; i < h-2; i++ {
		line := ""
		if i < len(body) {
			line = body[i]
		}
		b.WriteString("\n" + side + Fit(line, inner) + side)
	}
	b.WriteString("\n" + border.Render("╰"+strings.Repeat("─", inner)+"╯"))
	return b.String()
}

// pickerRev labels a revision id: "rev r2", or the id alone when it
// already says rev.
func pickerRev(id string) string {
	if strings.HasPrefix(strings.ToLower(id), "rev") {
		return id
	}
	return "rev " + id
}
