// Package views holds the Bubble Tea panes of oastui: the graph viewport,
// the findings, steps, node, compiled and slots tabs, the header, the key
// help line and the help overlay. Views render only what they are given
// (the tui package's snapshot); they never read files, parse or lint.
package views

import (
	"image/color"

	"charm.land/lipgloss/v2"

	"github.com/oastui/oastui/flowgraph"
)

// Theme is every style of the UI, in one place. Build it with NewTheme; the
// zero value renders plain text.
type Theme struct {
	Text, Dim, Bold lipgloss.Style

	// header
	AppName, AgentName, Status, StatusClean, StatusBlocked, StatusStale lipgloss.Style

	// panes
	Border, BorderFocused, Title, TitleFocused lipgloss.Style
	TabActive, TabInactive                     lipgloss.Style

	// findings
	Blocker, Warning, Suggestion lipgloss.Style
	Cursor, Selected             lipgloss.Style
	LineNo, Caret, Code          lipgloss.Style

	// fix preview: a unified diff's added, removed and hunk lines
	DiffAdd, DiffDel, DiffHunk lipgloss.Style

	// help
	HelpKey, HelpDesc, HelpSep lipgloss.Style
	Overlay                    lipgloss.Style

	// graph canvas classes (see GraphClass)
	GraphEdge, GraphBox, GraphText, GraphStart, GraphEnd lipgloss.Style
	GraphBadge, GraphApproval, GraphSubflow              lipgloss.Style
	GraphBlocker, GraphWarning, GraphBack, GraphData     lipgloss.Style
	GraphSelected                                        lipgloss.Style
}

// NewTheme builds the styles for a dark or light terminal background.
// The program starts with the dark theme and switches when the terminal
// reports its background colour.
func NewTheme(isDark bool) Theme {
	ld := lipgloss.LightDark(isDark)
	c := func(light, dark string) color.Color { return ld(lipgloss.Color(light), lipgloss.Color(dark)) }
	fg := c("#1f2328", "#d0d7de")
	dim := c("#6e7781", "#7d8590")
	accent := c("#0969da", "#58a6ff")
	red := c("#cf222e", "#ff6b6b")
	yellow := c("#9a6700", "#e3b341")
	blue := c("#0550ae", "#79c0ff")
	green := c("#1a7f37", "#56d364")
	purple := c("#8250df", "#d2a8ff")
	selBg := c("#ddf4ff", "#1f3b5c")

	s := lipgloss.NewStyle
	return Theme{
		Text: s().Foreground(fg),
		Dim:  s().Foreground(dim),
		Bold: s().Foreground(fg).Bold(true),

		AppName:       s().Foreground(accent).Bold(true),
		AgentName:     s().Foreground(fg).Bold(true),
		Status:        s().Foreground(dim),
		StatusClean:   s().Foreground(green).Bold(true),
		StatusBlocked: s().Foreground(red).Bold(true),
		StatusStale:   s().Foreground(yellow).Bold(true),

		Border:        s().Foreground(dim),
		BorderFocused: s().Foreground(accent),
		Title:         s().Foreground(dim),
		TitleFocused:  s().Foreground(accent).Bold(true),
		TabActive:     s().Foreground(accent).Bold(true).Underline(true),
		TabInactive:   s().Foreground(dim),

		Blocker:    s().Foreground(red),
		Warning:    s().Foreground(yellow),
		Suggestion: s().Foreground(blue),
		Cursor:     s().Foreground(accent).Bold(true),
		Selected:   s().Background(selBg),
		LineNo:     s().Foreground(dim),
		Caret:      s().Foreground(red).Bold(true),
		Code:       s().Foreground(purple),

		DiffAdd:  s().Foreground(green),
		DiffDel:  s().Foreground(red),
		DiffHunk: s().Foreground(blue),

		HelpKey:  s().Foreground(accent),
		HelpDesc: s().Foreground(dim),
		HelpSep:  s().Foreground(dim),
		Overlay:  s().Foreground(fg),

		GraphEdge:     s().Foreground(dim),
		GraphBox:      s().Foreground(fg),
		GraphText:     s().Foreground(fg),
		GraphStart:    s().Foreground(green),
		GraphEnd:      s().Foreground(green),
		GraphBadge:    s().Foreground(accent).Bold(true),
		GraphApproval: s().Foreground(yellow).Bold(true),
		GraphSubflow:  s().Foreground(purple),
		GraphBlocker:  s().Foreground(red).Bold(true),
		GraphWarning:  s().Foreground(yellow),
		GraphBack:     s().Foreground(purple),
		GraphData:     s().Foreground(blue),
		GraphSelected: s().Foreground(accent).Bold(true),
	}
}

// ClassStyle maps a graph canvas class to its style.
func (t Theme) ClassStyle(c flowgraph.Class) lipgloss.Style {
	switch c {
	case flowgraph.ClassEdge:
		return t.GraphEdge
	case flowgraph.ClassLabel:
		return t.Dim
	case flowgraph.ClassNodeBorder:
		return t.GraphBox
	case flowgraph.ClassNodeText:
		return t.GraphText
	case flowgraph.ClassStart:
		return t.GraphStart
	case flowgraph.ClassEnd:
		return t.GraphEnd
	case flowgraph.ClassStepBadge:
		return t.GraphBadge
	case flowgraph.ClassApproval:
		return t.GraphApproval
	case flowgraph.ClassBlocker:
		return t.GraphBlocker
	case flowgraph.ClassWarning:
		return t.GraphWarning
	case flowgraph.ClassUnreachable:
		return t.Dim.Strikethrough(false)
	case flowgraph.ClassSelected:
		return t.GraphSelected
	case flowgraph.ClassBackEdge:
		return t.GraphBack
	}
	return t.Text
}
