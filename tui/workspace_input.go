package tui

import (
	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/present"
	"github.com/oastui/oastui/views"
	"github.com/oastui/oastui/workspace"
)

func (m *wsModel) key(k tea.KeyPressMsg) tea.Cmd {
	km := &m.keys
	m.note = ""
	if m.filtering {
		switch {
		case key.Matches(k, km.FilterKeep):
			m.filtering = false
		case key.Matches(k, km.FilterClear):
			m.filtering, m.filter = false, ""
		case key.Matches(k, km.FilterDelete):
			if r := []rune(m.filter); len(r) > 0 {
				m.filter = string(r[:len(r)-1])
			}
		case key.Matches(k, km.ForceQuit):
			return tea.Quit
		default:
			if k.Text != "" {
				m.filter += present.Text(k.Text)
			}
		}
		m.refilter()
		return nil
	}
	if m.showHelp {
		switch {
		case key.Matches(k, km.ForceQuit):
			return tea.Quit
		case key.Matches(k, km.CloseHelp):
			m.showHelp = false
		default:
			w, h := m.screenSize()
			mv := helpMoves{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom}
			m.helpTop = mv.scroll(m.helpTop, views.HelpScrollMax(m.th, w-2, h-2, m.keys.fullHelp()), h-4, k)
		}
		return nil
	}
	switch {
	case key.Matches(k, km.Quit):
		return tea.Quit
	case key.Matches(k, km.Help):
		m.showHelp, m.helpTop = true, 0
	case key.Matches(k, km.Tab):
		switch k.String() {
		case "1":
			m.tab = 0
		case "2":
			m.tab = 1
		default:
			m.tab = 1 - m.tab
		}
	case key.Matches(k, km.Filter):
		// a fresh filter: what was kept goes (issue 37: typing after /
		// added to a kept filter nobody saw being edited)
		m.filtering = true
		if m.filter != "" {
			m.filter = ""
			m.refilter()
		}
	case key.Matches(k, km.FilterClear) && m.filter != "":
		m.filter = "" // esc in the table drops a kept filter
		m.refilter()
	case key.Matches(k, km.Sort):
		m.sortCol = (m.sortCol + 1) % workspace.NumColumns
		m.refilter()
	case key.Matches(k, km.Reverse):
		m.reverse = !m.reverse
		m.refilter()
	case key.Matches(k, km.Reload):
		m.queue(m.dirs...)
	case key.Matches(k, km.Open):
		if m.tab == 1 {
			m.graphSelect()
		}
		if dir := m.selDir; dir != "" {
			return func() tea.Msg { return openAgentMsg{dir} }
		}
	default:
		if m.tab == 1 {
			m.graphKey(k)
			return nil
		}
		m.move(k)
	}
	return nil
}

func (m *wsModel) move(k tea.KeyPressMsg) {
	km := &m.keys
	page := max(1, m.listH()-1)
	switch {
	case key.Matches(k, km.Down):
		m.cursor++
	case key.Matches(k, km.Up):
		m.cursor--
	case key.Matches(k, km.PageDown):
		m.cursor += page
	case key.Matches(k, km.PageUp):
		m.cursor -= page
	case key.Matches(k, km.Top):
		m.cursor = 0
	case key.Matches(k, km.Bottom):
		m.cursor = len(m.rows) - 1
	default:
		return
	}
	m.cursor = max(0, min(m.cursor, len(m.rows)-1))
	if len(m.rows) > 0 {
		m.selDir = m.rows[m.cursor].Dir
	}
	m.moved = true
}
