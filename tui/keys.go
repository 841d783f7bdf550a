package tui

import (
	"fmt"
	"strings"

	"charm.land/bubbles/v2/key"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/views"
)

// keyMap is every key oastui answers to. Key handling matches on these
// bindings (key.Matches), and the help line and the `?` overlay are built
// from them, so what the help says and what the keys do cannot drift
// apart. The help key of a binding names every key it matches (a test
// checks that).
type keyMap struct {
	// everywhere
	Quit      key.Binding
	ForceQuit key.Binding // quits from the help overlay, the filter and the picker too
	Help      key.Binding
	CloseHelp key.Binding
	Focus     key.Binding
	Tab       key.Binding // the number keys of the side tabs (set from the tab slice)
	PrevTab   key.Binding
	NextTab   key.Binding
	Reload    key.Binding
	Mode      key.Binding
	Filter    key.Binding
	Zoom      key.Binding
	Edit      key.Binding
	Pick      key.Binding
	Project   key.Binding
	Fix       key.Binding // preview the selected finding's fix (Findings)
	Undo      key.Binding // undo the last fix applied

	// movement (graph and tabs)
	Up          key.Binding
	Down        key.Binding
	Left        key.Binding
	Right       key.Binding
	PageUp      key.Binding
	PageDown    key.Binding
	Space       key.Binding // page down in the text tabs
	Top         key.Binding
	Bottom      key.Binding
	ScrollLeft  key.Binding
	ScrollRight key.Binding
	Open        key.Binding
	Back        key.Binding

	// while typing a findings filter
	FilterKeep   key.Binding
	FilterClear  key.Binding
	FilterDelete key.Binding

	// the fix preview
	FixApply  key.Binding
	FixCancel key.Binding
	FixNext   key.Binding
	FixPrev   key.Binding
	FixChoose key.Binding // 1-9: the fix of that number

}

func bindKeys(label, desc string, keys ...string) key.Binding {
	return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, desc))
}

// newKeyMap builds the bindings; tabs are the side tabs' names (keys 1…n).
func newKeyMap(tabs []string) keyMap {
	k := keyMap{
		Quit:      bindKeys("q ctrl+c", "quit", "q", "ctrl+c"),
		ForceQuit: bindKeys("ctrl+c", "quit", "ctrl+c"),
		Help:      bindKeys("?", "this help", "?"),
		CloseHelp: bindKeys("? esc q", "close the help", "?", "esc", "q"),
		Focus:     bindKeys("tab ⇧tab", "switch pane", "tab", "shift+tab"),
		PrevTab:   bindKeys("[", "previous tab", "["),
		NextTab:   bindKeys("]", "next tab", "]"),
		Reload:    bindKeys("r", "re-analyse now", "r"),
		Mode:      bindKeys("m", "next review mode", "m"),
		Filter:    bindKeys("/", "filter findings", "/"),
		Zoom:      bindKeys("z", "zoom the pane", "z"),
		Edit:      bindKeys("e", "$EDITOR at the line", "e"),
		Pick:      bindKeys("p", "pick context (Slots)", "p"),
		Project:   bindKeys("P", "next project (Slots)", "P"),
		Fix:       bindKeys("f", "preview the finding's fix", "f"),
		Undo:      bindKeys("u", "undo the last fix", "u"),

		Up:          bindKeys("↑ k", "up", "up", "k"),
		Down:        bindKeys("↓ j", "down", "down", "j"),
		Left:        bindKeys("← h", "left", "left", "h"),
		Right:       bindKeys("→ l", "right", "right", "l"),
		PageUp:      bindKeys("pgup ctrl+u", "page up", "pgup", "ctrl+u"),
		PageDown:    bindKeys("pgdn ctrl+d", "page down", "pgdown", "ctrl+d"),
		Space:       bindKeys("space", "page down", "space"),
		Top:         bindKeys("home g", "top", "home", "g"),
		Bottom:      bindKeys("end G", "bottom", "end", "G"),
		ScrollLeft:  bindKeys("< H", "scroll left", "<", "H"),
		ScrollRight: bindKeys("> L", "scroll right", ">", "L"),
		Open:        bindKeys("enter", "open the subflow", "enter"),
		Back:        bindKeys("⌫ esc", "back out", "backspace", "esc"),

		FilterKeep:   bindKeys("enter", "keep", "enter"),
		FilterClear:  bindKeys("esc", "clear", "esc"),
		FilterDelete: bindKeys("⌫", "delete", "backspace"),

		FixApply:  bindKeys("enter", "apply the fix", "enter"),
		FixCancel: bindKeys("esc", "cancel", "esc"),
		FixNext:   bindKeys("tab →", "next fix", "tab", "right"),
		FixPrev:   bindKeys("⇧tab ←", "previous fix", "shift+tab", "left"),
		FixChoose: bindKeys("1-9", "fix of that number", "1", "2", "3", "4", "5", "6", "7", "8", "9"),
	}
	nums := make([]string, len(tabs))
	for i := range tabs {
		nums[i] = fmt.Sprint(i + 1)
	}
	label, desc := "", ""
	if len(tabs) > 0 {
		label = fmt.Sprintf("1-%d", len(tabs))
		desc = tabs[0] + "…" + tabs[len(tabs)-1] + " tab"
	}
	k.Tab = bindKeys(label, desc, nums...)
	return k
}

// as is b with another description (the same keys mean different things
// in the graph and in the tabs).
func as(b key.Binding, desc string) key.Binding {
	return bindKeys(b.Help().Key, desc, b.Keys()...)
}

// pair is one help row for two opposite bindings (↑ and ↓): label names
// the keys of both.
func pair(label, desc string, a, b key.Binding) key.Binding {
	return bindKeys(label, desc, append(append([]string{}, a.Keys()...), b.Keys()...)...)
}

// short is b for the one-line help: its first key and a short description.
func short(b key.Binding, desc string) key.Binding {
	label, _, _ := strings.Cut(b.Help().Key, " ")
	return bindKeys(label, desc, b.Keys()...)
}

// fullHelp is the `?` overlay; fromList adds the way back to the agents/
// list.
func (k keyMap) fullHelp(fromList ...bool) []views.HelpGroup {
	every := []key.Binding{
		k.Focus, k.Tab, pair("[ ]", "previous/next tab", k.PrevTab, k.NextTab),
		k.Edit, pair("f u", "fix finding, undo fix", k.Fix, k.Undo),
		k.Reload, k.Mode, k.Filter, k.Zoom, k.Help, k.Quit,
	}
	if len(fromList) > 0 && fromList[0] {
		every = append(every, as(k.Back, "back to agents/ list"))
	}
	return []views.HelpGroup{
		{Title: "everywhere", Bindings: every},
		{Title: "moving (graph and tabs)", Bindings: []key.Binding{
			k.upDown("move (graph follows)"), k.leftRight("node left/right"),
			as(k.PageUp, "page up"), as(k.PageDown, "page down"),
			as(k.Top, "top, first node"), as(k.Bottom, "bottom, last node"),
		}},
		{Title: "graph", Bindings: []key.Binding{
			k.Open, k.Back,
			pair("< > H L", "scroll sideways", k.ScrollLeft, k.ScrollRight),
		}},
		{Title: "Findings", Bindings: []key.Binding{
			as(k.Open, "read it in full"),
			pair("enter space", "fold a bucket", k.Open, k.Space),
			as(k.Back, "back to the list"),
		}},
		{Title: "Steps, Slots", Bindings: []key.Binding{
			as(k.Open, "Steps: go to node"), k.Pick, k.Project,
		}},
		{Title: "Node, Compiled", Bindings: []key.Binding{
			k.Space, k.leftRight("scroll sideways"),
		}, Note: []string{"e: editors oastui does not", "know get +LINE FILE"}},
		{Title: "Prompt", Bindings: []key.Binding{
			as(k.Open, "go to feeding node"), as(k.Back, "back to LLM node"),
		}},
		{Title: "Run (dry run)", Bindings: []key.Binding{
			k.upDown("pick a path"), k.leftRight("step back/forward"),
		}},
		{Title: "History", Bindings: []key.Binding{
			k.upDown("choose a commit, a change"), as(k.Open, "its changes, before/after"), as(k.Back, "back"),
		}},
	}
}

// upDown and leftRight are the two-way movement rows.
func (k keyMap) upDown(desc string) key.Binding    { return pair("↑↓ j k", desc, k.Up, k.Down) }
func (k keyMap) leftRight(desc string) key.Binding { return pair("←→ h l", desc, k.Left, k.Right) }

// shortHelp is the help line: graph says whether the graph has the focus,
// slotTab whether the tab shown lists context slots (p and P work there).
func (k keyMap) shortHelp(graph, slotTab bool, project string, mode lint.Mode, opener ...openerState) []key.Binding {
	b := []key.Binding{short(k.Focus, "focus"), short(k.upDown(""), "move")}
	if graph {
		b = append(b, short(k.Open, "open subflow"), short(k.Back, "back"))
	} else {
		b = append(b, short(k.Tab, "tabs"))
		switch append(opener, openerNone)[0] {
		case openerList:
			b = append(b, short(k.Open, "read/fold"))
		case openerDetail:
			b = append(b, short(k.Back, "back to the list"))
		case openerPrompt:
			b = append(b, short(k.Open, "feeding node"))
		case openerPromptBack:
			b = append(b, short(k.Back, "back to LLM node")) // (the LLM node's own view names enter)
		case openerPromptStep:
			b = append(b, short(k.Open, "go to LLM step"))
		}
		if slotTab {
			if project == "" {
				project = "none"
			}
			b = append(b, short(k.Pick, "pick context"), short(k.Project, "project: "+project))
		}
	}
	other := string(nextMode(mode))
	return append(b, short(k.Edit, "edit"), short(k.Filter, "filter"), short(k.Reload, "reload"),
		short(k.Mode, other), short(k.Help, "help"), short(k.Quit, "quit"))
}

// fixHelp is the help line of the fix preview (the `?` overlay does not
// list its keys: the preview shows them); several says there is a choice
// of fixes.
func (k keyMap) fixHelp(several bool) []key.Binding {
	b := []key.Binding{as(k.FixApply, "apply"), as(k.FixCancel, "cancel"), k.upDown("scroll")}
	if several {
		b = append(b, pair("tab ⇧tab ←→", "choose", k.FixNext, k.FixPrev), as(k.FixChoose, "fix N"))
	}
	return b
}

// openerState is what enter and esc do on the tab shown (Findings, Prompt).
type openerState int

const (
	openerNone       openerState = iota
	openerList                   // enter reads the finding or folds the bucket
	openerDetail                 // a finding is open: esc goes back to the list
	openerPrompt                 // enter selects the node feeding the placeholder
	openerPromptBack             // and esc/⌫ goes back to the LLM node it jumped from
	openerPromptStep             // the node sends no prompt: enter selects the LLM step under the cursor
)

// filterHelp is the help line while typing a filter.
func (k keyMap) filterHelp() []key.Binding {
	typing := key.NewBinding(key.WithHelp("type", "filter findings"))
	return []key.Binding{typing, k.FilterDelete, k.FilterKeep, k.FilterClear}
}

// nextMode is the review mode `m` switches to: deterministic → advisory →
// full (advisory plus the dry run) → deterministic.
func nextMode(m lint.Mode) lint.Mode {
	for i, x := range lint.Modes {
		if x == m {
			return lint.Modes[(i+1)%len(lint.Modes)]
		}
	}
	return lint.ModeDeterministic
}
