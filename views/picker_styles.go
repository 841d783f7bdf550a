package views

import "charm.land/lipgloss/v2"

// pickerStyles are the picker's roles, taken from the one Theme.
type pickerStyles struct {
	badge, hint, refusal, warn, group, disabled lipgloss.Style
	cursor, checked, text, row, count           lipgloss.Style
}

func newPickerStyles(th Theme) pickerStyles {
	return pickerStyles{
		badge:    th.TitleFocused,
		hint:     th.Dim,
		refusal:  th.Blocker,
		warn:     th.Warning,
		group:    th.Bold,
		disabled: th.Dim.Faint(true),
		cursor:   th.Cursor,
		checked:  th.StatusClean,
		text:     th.Text,
		row:      th.Selected,
		count:    th.Bold,
	}
}
