package views

import (
	"strings"

	"charm.land/bubbles/v2/key"
)

// PickerKeyMap is the context picker's keys. The picker matches keys on
// these bindings and builds its footer and its `?` help from them. (The
// picker is a component of its own, also run alone by `oastui pick`, so it
// owns its bindings as Bubbles components do; the TUI's are in
// tui/keys.go.)
type PickerKeyMap struct {
	Up       key.Binding
	Down     key.Binding
	Top      key.Binding
	Bottom   key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	Toggle   key.Binding
	Clear    key.Binding
	Help     key.Binding
	Confirm  key.Binding
	Cancel   key.Binding
}

// DefaultPickerKeyMap is the picker's bindings.
func DefaultPickerKeyMap() PickerKeyMap {
	b := func(label, desc string, keys ...string) key.Binding {
		return key.NewBinding(key.WithKeys(keys...), key.WithHelp(label, desc))
	}
	return PickerKeyMap{
		Up:       b("↑ k", "up", "up", "k"),
		Down:     b("↓ j", "down", "down", "j"),
		Top:      b("home g", "first", "home", "g"),
		Bottom:   b("end G", "last", "end", "G"),
		PageUp:   b("pgup ctrl+u", "page up", "pgup", "ctrl+u"),
		PageDown: b("pgdn ctrl+d", "page down", "pgdown", "ctrl+d"),
		Toggle:   b("space x", "check/uncheck", "space", "x"),
		Clear:    b("c", "clear", "c"),
		Help:     b("?", "hide keys", "?"),
		Confirm:  b("enter", "confirm", "enter"),
		Cancel:   b("esc q ctrl+c", "cancel", "esc", "q", "ctrl+c"),
	}
}

// Bindings are all the picker's bindings (tests check their help).
func (k PickerKeyMap) Bindings() []key.Binding {
	return []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown, k.Toggle, k.Clear, k.Help, k.Confirm, k.Cancel}
}

// fullHelp is the `?` text: every binding; override slots select one
// candidate and have nothing to clear.
func (k PickerKeyMap) fullHelp(override bool) string {
	move := key.NewBinding(key.WithKeys(append(k.Up.Keys(), k.Down.Keys()...)...), key.WithHelp("↑↓ j k", "move"))
	toggle := k.Toggle
	bs := []key.Binding{move, k.Top, k.Bottom, k.PageUp, k.PageDown}
	if override {
		toggle.SetHelp(toggle.Help().Key, "select this one")
		bs = append(bs, toggle)
	} else {
		bs = append(bs, toggle, k.Clear)
	}
	bs = append(bs, k.Confirm, k.Cancel, k.Help)
	parts := make([]string, len(bs))
	for i, b := range bs {
		parts[i] = b.Help().Key + " " + b.Help().Desc
	}
	return strings.Join(parts, " · ")
}

// footers are the footer's key hints, longest first (the first that fits
// is shown): the first key of each binding and a short word.
func (k PickerKeyMap) footers(override bool) []string {
	first := func(b key.Binding, desc string) string {
		label, _, _ := strings.Cut(b.Help().Key, " ")
		return label + " " + desc
	}
	toggle := first(k.Toggle, "toggle")
	if override {
		toggle = first(k.Toggle, "select")
	}
	tail := first(k.Confirm, "confirm") + " · " + first(k.Cancel, "cancel") + " · " + first(k.Help, "help")
	return []string{toggle + " · " + tail, tail, first(k.Help, "help")}
}
