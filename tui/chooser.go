package tui

import (
	"fmt"
	"path/filepath"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/views"
)

// chooser lists the agents of an agents/ tree; enter picks one.
type chooser struct {
	root     string
	paths    []string
	cursor   int
	off      int
	w, h     int
	th       views.Theme
	picked   string
	keys     keyMap
	showHelp bool
	status   []agentStatus // per path, filled in the background
	next     int           // the next path whose status is read
	reading  bool          // a status read is in flight
}

// agentStatus is one agent's review summary in the list.
type agentStatus struct {
	done               bool
	blockers, warnings int
	broken             string // the agent did not load
}

type statusMsg struct {
	i  int
	st agentStatus
}

func newChooser(root string, paths []string) *chooser {
	return &chooser{root: root, paths: paths, th: views.NewTheme(true), w: 80, h: 24, keys: newKeyMap(nil),
		status: make([]agentStatus, len(paths))}
}

func (c *chooser) Init() tea.Cmd {
	c.picked = ""
	return tea.Batch(tea.RequestBackgroundColor, c.readNext())
}

// readNext reviews the next agent without a status, off the UI goroutine,
// one at a time (the list stays responsive; statuses fill in as they come).
func (c *chooser) readNext() tea.Cmd {
	for c.next < len(c.paths) && c.status[c.next].done {
		c.next++
	}
	if c.next >= len(c.paths) || c.reading {
		return nil
	}
	i, path := c.next, c.paths[c.next]
	c.reading = true
	return func() tea.Msg {
		s := analysis.Run(path, analysis.Options{Stages: analysis.ReviewOnly})
		st := agentStatus{done: true, blockers: len(s.Review.Blockers), warnings: len(s.Review.Warnings)}
		if s.LoadErr != nil {
			st.broken = "does not load"
		}
		return statusMsg{i, st}
	}
}

func (c *chooser) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		c.w, c.h = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		c.th = views.NewTheme(msg.IsDark())
	case statusMsg:
		c.reading = false
		c.status[msg.i] = msg.st
		return c, c.readNext()
	case tea.KeyPressMsg:
		k := &c.keys
		if c.showHelp {
			switch {
			case key.Matches(msg, k.ForceQuit):
				return c, tea.Quit
			case key.Matches(msg, k.CloseHelp):
				c.showHelp = false
			}
			return c, nil
		}
		switch {
		case key.Matches(msg, k.Help):
			c.showHelp = true
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
		st := c.statusText(i)
		nameW := max(0, w-3-2-views.Width(st)-2)
		line := "  " + views.Fit(views.Clean(rel), nameW) + "  " + st
		if i == c.cursor {
			line = c.th.Selected.Render(views.Fit(c.th.Cursor.Render("› ")+views.Fit(views.Clean(rel), nameW)+"  "+st, w-3))
		}
		body = append(body, line)
	}
	title := c.th.TitleFocused.Render(fmt.Sprintf("%d agents in %s", len(c.paths), views.Clean(c.root)))
	box := views.Box(c.th, title, w, h-1, body, true)
	help := views.HelpLine(c.th, w, c.keys.chooserHelp())
	screen := strings.Join([]string{box, help}, "\n")
	if c.showHelp {
		screen = views.Overlay(screen, views.HelpOverlay(c.th, w-2, h-2, c.keys.chooserFullHelp()), w, h)
	}
	return screen
}

// statusText is an agent's status in the list: its blockers and warnings
// once its review is done.
func (c *chooser) statusText(i int) string {
	st := c.status[i]
	switch {
	case !st.done:
		return c.th.Dim.Render("…")
	case st.broken != "":
		return c.th.Blocker.Render("✖ " + st.broken)
	case st.blockers > 0:
		s := c.th.StatusBlocked.Render("✖ " + views.Count(st.blockers, "blocker"))
		if st.warnings > 0 {
			s += c.th.Warning.Render(" " + views.Count(st.warnings, "warning"))
		}
		return s
	case st.warnings > 0:
		return c.th.Warning.Render("⚠ " + views.Count(st.warnings, "warning"))
	}
	return c.th.StatusClean.Render("● clean")
}

// ChooseAgent shows the agents of a tree and returns the one picked, or ""
// when the user quit.
func ChooseAgent(root string, paths []string) (string, error) {
	return newChooser(root, paths).run()
}

func (c *chooser) run() (string, error) {
	c.reading = false // a read cut short by the last run is started again
	if _, err := tea.NewProgram(c).Run(); err != nil {
		return "", err
	}
	return c.picked, nil
}

// RunTree shows the list of an agents/ tree; the agent picked opens in the
// TUI (rc without Path), and esc/⌫ there comes back to the list, its
// cursor where it was. It returns when the user quits.
func RunTree(root string, paths []string, rc RunConfig) error {
	c := newChooser(root, paths)
	for {
		picked, err := c.run()
		if err != nil || picked == "" {
			return err
		}
		rc.Path, rc.Agent, rc.FromList = picked, nil, true
		back, err := run(rc)
		if err != nil || !back {
			return err
		}
	}
}
