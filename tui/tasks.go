package tui

import (
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/views"
)

// paneTasks hands msg to the tabs that run work in commands (History: git
// and diffs) and batches what they start; only the tab shown starts any.
func (m *Model) paneTasks(msg tea.Msg) tea.Cmd {
	var cmds []tea.Cmd
	for i, p := range m.tabs {
		if t, ok := p.(views.Tasker); ok {
			cmds = append(cmds, t.Receive(msg, i == m.tab && !m.showHelp))
		}
	}
	var marks map[string]rune
	if mk, ok := m.curTab().(views.Marker); ok {
		marks = mk.Marks()
	}
	m.graph.SetMarks(marks)
	return tea.Batch(cmds...)
}
