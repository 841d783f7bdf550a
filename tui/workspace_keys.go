package tui

import (
	"charm.land/bubbles/v2/key"
	"github.com/oastui/oastui/views"
)

// wsKeyMap are the workspace screen's keys; its help line and `?` overlay
// are built from them.
type wsKeyMap struct {
	Up, Down, PageUp, PageDown, Top, Bottom key.Binding
	Left, Right                             key.Binding // graph: scroll sideways
	Open                                    key.Binding
	Tab                                     key.Binding // Agents ⇄ Graph
	Sort, Reverse                           key.Binding
	Filter                                  key.Binding
	FilterKeep, FilterClear, FilterDelete   key.Binding
	Reload                                  key.Binding
	Help, CloseHelp                         key.Binding
	Quit, ForceQuit                         key.Binding
}

func newWSKeyMap() wsKeyMap {
	return wsKeyMap{
		Up:           bindKeys("↑ k", "up", "up", "k"),
		Down:         bindKeys("↓ j", "down", "down", "j"),
		PageUp:       bindKeys("pgup ctrl+u", "page up", "pgup", "ctrl+u"),
		PageDown:     bindKeys("pgdn ctrl+d", "page down", "pgdown", "ctrl+d"),
		Top:          bindKeys("home g", "first agent", "home", "g"),
		Bottom:       bindKeys("end G", "last agent", "end", "G"),
		Left:         bindKeys("← h", "scroll left (graph)", "left", "h"),
		Right:        bindKeys("→ l", "scroll right (graph)", "right", "l"),
		Open:         bindKeys("enter", "open the agent", "enter"),
		Tab:          bindKeys("tab ⇧tab 1 2", "Agents / Graph tab", "tab", "shift+tab", "1", "2"),
		Sort:         bindKeys("s", "sort by the next column", "s"),
		Reverse:      bindKeys("S", "reverse the sort", "S"),
		Filter:       bindKeys("/", "filter agents", "/"),
		FilterKeep:   bindKeys("enter", "keep", "enter"),
		FilterClear:  bindKeys("esc", "clear", "esc"),
		FilterDelete: bindKeys("⌫", "delete", "backspace"),
		Reload:       bindKeys("r", "review every agent again", "r"),
		Help:         bindKeys("?", "this help", "?"),
		CloseHelp:    bindKeys("? esc q", "close the help", "?", "esc", "q"),
		Quit:         bindKeys("q ctrl+c", "quit", "q", "ctrl+c"),
		ForceQuit:    bindKeys("ctrl+c", "quit", "ctrl+c"),
	}
}

func (k wsKeyMap) shortHelp(graph bool) []key.Binding {
	b := []key.Binding{short(pair("↑↓", "", k.Up, k.Down), "move"), short(k.Open, "open"), short(k.Tab, "graph")}
	if graph {
		b[2] = short(k.Tab, "table")
		b = append(b, short(pair("←→", "", k.Left, k.Right), "scroll"))
	} else {
		b = append(b, short(k.Sort, "sort"), short(k.Reverse, "reverse"))
	}
	return append(b, short(k.Filter, "filter"), short(k.Reload, "reload"), short(k.Help, "help"), short(k.Quit, "quit"))
}

func (k wsKeyMap) fullHelp() []views.HelpGroup {
	return []views.HelpGroup{
		{Title: "workspace", Bindings: []key.Binding{
			pair("↑↓ j k", "move", k.Up, k.Down), k.PageUp, k.PageDown, k.Top, k.Bottom,
			k.Open, k.Tab, k.Sort, k.Reverse, k.Filter, k.Reload, k.Help, k.Quit,
		}, Note: []string{"in an agent, esc or ⌫ with nothing", "left to close comes back here", "with the same agent selected"}},
		{Title: "Graph tab", Bindings: []key.Binding{pair("←→ h l", "scroll sideways", k.Left, k.Right), as(k.Open, "open the selected agent")}},
		{Title: "filter", Bindings: []key.Binding{k.FilterKeep, as(k.FilterClear, "clear (also in the table)"), k.FilterDelete},
			Note: []string{"words match id, title, kind,", "version, status; is:broken", "is:blocker is:warning is:clean", "is:orchestrator"}},
		{Title: "status", Note: []string{"✖ blockers ⚠ warnings · suggestions", "stale or ~: a review is pending,", "or the flow no longer parses", "(the last good columns show)"}},
	}
}
