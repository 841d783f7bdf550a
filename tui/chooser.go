package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/views"
)

// chooser lists the agents of an agents/ tree; enter picks one.
type chooser struct {
	root   string
	paths  []string
	cursor int
	off    int
	w, h   int
	th     views.Theme
	picked string
	keys   keyMap
}

func newChooser(root string, paths []string) *chooser {
	return &chooser{root: root, paths: paths, th: views.NewTheme(true), w: 80, h: 24, keys: newKeyMap(nil)}
}

func (c *chooser) Init() tea.Cmd { return tea.RequestBackgroundColor }

func (c *chooser) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		c.w, c.h = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		c.th = views.NewTheme(msg.IsDark())
	case tea.KeyPressMsg:
		k := &c.keys
		switch {
		case key.Matches(msg, k.ChooserQuit):
			return c, tea.Quit
		case key.Matches(msg, k.Down):
			c.cursor = min(len(c.paths)-1, c.cursor+1)
		case key.Matches(msg, k.Up):
			c.cursor = max(0, c.cursor-1)
		case key.Matches(msg, k.Top):
			c.cursor = 0
		case key.Matches(msg, k.Bottom):
			c.cursor = len(c.paths) - 1
		case key.Matches(msg, k.Open):
			c.picked = c.paths[c.cursor]
			return c, tea.Quit
		}
	}
	return c, nil
}

func (c *chooser) View() tea.View {
	v := tea.NewView(c.render())
	v.AltScreen = true
	return v
}

func (c *chooser) render() string {
	w, h := max(c.w, 20), max(c.h, 5)
	listH := h - 4
	if c.cursor < c.off {
		c.off = c.cursor
	}
	if c.cursor >= c.off+listH {
		c.off = c.cursor - listH + 1
	}
	var body []string
	for i := c.off; i < len(c.paths) && len(body) < listH; i++ {
		rel, err := filepath.Rel(c.root, c.paths[i])
		if err != nil {
			rel = c.paths[i]
		}
		line := "  " + views.Clean(rel)
		if i == c.cursor {
			line = c.th.Selected.Render(views.Fit(c.th.Cursor.Render("› ")+views.Clean(rel), w-3))
		}
		body = append(body, line)
	}
	title := c.th.TitleFocused.Render(fmt.Sprintf("%d agents in %s", len(c.paths), views.Clean(c.root)))
	box := views.Box(c.th, title, w, h-1, body, true)
	help := views.HelpLine(c.th, w, c.keys.chooserHelp())
	return strings.Join([]string{box, help}, "\n")
}

// ChooseAgent shows the agents of a tree and returns the one picked, or ""
// when the user quit.
func ChooseAgent(root string, paths []string) (string, error) {
	c := newChooser(root, paths)
	if _, err := tea.NewProgram(c).Run(); err != nil {
		return "", err
	}
	return c.picked, nil
}
