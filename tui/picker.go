package tui

import tea "charm.land/bubbletea/v2"

// pickerCmd opens the context picker for the selected slot.
func (m *Model) pickerCmd() tea.Cmd {
	m.note = "context picker: not available in this build"
	return nil
}
