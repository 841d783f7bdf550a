package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
)

// helpMoves are the keys that scroll the help overlay when it is taller
// than the screen (both screens bind the same movement keys).
type helpMoves struct{ Up, Down, PageUp, PageDown, Top, Bottom key.Binding }

// scroll returns the overlay's new top line for k, between 0 and most
// (views.HelpScrollMax); page is the overlay's height.
func (mv helpMoves) scroll(top, most, page int, k tea.KeyPressMsg) int {
	switch {
	case key.Matches(k, mv.Up):
		top--
	case key.Matches(k, mv.Down):
		top++
	case key.Matches(k, mv.PageUp):
		top -= max(1, page)
	case key.Matches(k, mv.PageDown):
		top += max(1, page)
	case key.Matches(k, mv.Top):
		top = 0
	case key.Matches(k, mv.Bottom):
		top = most
	}
	return min(max(0, top), most)
}
