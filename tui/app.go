package tui

import (
	"reflect"
	"slices"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/tui/watch"
)

// app is the root model of the TUI on an agents/ tree: one program whose
// screens are the workspace (the table and call graph of every agent) and
// the agent view of the agent opened from it. It owns the focus (which
// screen gets keys), the terminal's size (both screens are laid out to
// it) and the agent screen's life: its watcher and every command it
// started stop when the user goes back to the table or quits.
type app struct {
	ws *wsModel
	rc RunConfig
	tr *Tracer

	w, h  int
	sized bool // a WindowSizeMsg came: the agent view is laid out to it
	bgMsg tea.Msg

	opening string // the agent being loaded ("" = none)
	gen     int    // the agent screen's generation: messages of an earlier one are dropped
	agent   *agentScreen

	after func(*app) // tests: called after each message
}

// agentScreen is the open agent view and what stops with it.
type agentScreen struct {
	m     *Model
	dir   string
	gen   int
	stop  chan struct{} // closed when the screen goes: its waiting commands return
	watch *watch.Watcher
	last  []compile.Finding // the workspace findings it was last given
}

// Messages of the root model.
type (
	// openAgentMsg: the workspace asks to open the agent at dir.
	openAgentMsg struct{ dir string }
	// agentLoadedMsg: the agent at dir was analysed (off the UI
	// goroutine): the agent view's first analysis.
	agentLoadedMsg struct {
		dir string
		gen int
		an  *Analysis
	}
	// backMsg: the agent view asks to go back to the table.
	backMsg struct{}
	// agentMsg is a message of the agent view of generation gen.
	agentMsg struct {
		gen int
		msg tea.Msg
	}
)

func newApp(ws *wsModel, rc RunConfig, tr *Tracer) *app {
	return &app{ws: ws, rc: rc, tr: tr, w: ws.w, h: ws.h}
}

func (a *app) Init() tea.Cmd { return a.ws.Init() }

// close stops both screens and waits for their goroutines.
func (a *app) close() {
	a.closeAgent()
	a.ws.close()
}

func (a *app) closeAgent() {
	if s := a.agent; s != nil {
		close(s.stop)
		if s.watch != nil {
			s.watch.Close()
		}
		a.agent = nil
	}
}

func (a *app) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := a.update(msg)
	if a.after != nil {
		a.after(a)
	}
	return a, cmd
}

func (a *app) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		a.w, a.h, a.sized = msg.Width, msg.Height, true
		a.ws.Update(msg)
		return a.toAgent(msg)
	case tea.BackgroundColorMsg:
		a.bgMsg = msg
		a.ws.Update(msg)
		return a.toAgent(msg)
	case wsPokeMsg, wsConfigMsg, wsFoundMsg, wsTickMsg, wsRebuildMsg, wsIndexMsg:
		_, cmd := a.ws.Update(msg)
		a.syncOutside()
		return cmd
	case openAgentMsg:
		return a.open(msg.dir)
	case agentLoadedMsg:
		return a.loaded(msg)
	case agentMsg:
		if a.agent == nil || msg.gen != a.agent.gen {
			return nil // a message of an agent view that is gone
		}
		if _, ok := msg.msg.(backMsg); ok {
			a.closeAgent()
			return nil
		}
		return a.toAgent(msg.msg)
	}
	if a.agent != nil {
		return a.toAgent(msg)
	}
	_, cmd := a.ws.Update(msg)
	return cmd
}

// toAgent hands msg to the agent view, if one is open.
func (a *app) toAgent(msg tea.Msg) tea.Cmd {
	if a.agent == nil {
		return nil
	}
	_, cmd := a.agent.m.Update(msg)
	return tag(a.agent.gen, cmd)
}

// open analyses the agent at dir off the UI goroutine, with the tree's
// package index: that analysis is the agent view's first (it loads the
// agent once).
func (a *app) open(dir string) tea.Cmd {
	if a.opening != "" {
		return nil
	}
	a.opening = dir
	a.gen++
	gen, opts := a.gen, a.rc.Options
	opts.Load.Packages = a.packages()
	return func() tea.Msg {
		return agentLoadedMsg{dir: dir, gen: gen, an: Analyze(dir, opts, 1)}
	}
}

// packages is the tree's package index as the workspace has it now (nil
// before its first scan): the agent view's analyses share it.
func (a *app) packages() *compile.PackageIndex {
	if a.ws.pool == nil {
		return nil
	}
	return a.ws.pool.pkgs.Load()
}

// loaded opens the agent view on a loaded agent.
func (a *app) loaded(msg agentLoadedMsg) tea.Cmd {
	if msg.gen != a.gen {
		return nil
	}
	a.opening = ""
	if msg.an.LoadErr != nil {
		a.ws.note = "cannot open " + msg.dir + ": " + msg.an.LoadErr.Error()
		return nil
	}
	s := &agentScreen{dir: msg.dir, gen: msg.gen, stop: make(chan struct{})}
	s.last = a.ws.findingsOf(msg.dir)
	cfg := Config{Path: msg.dir, Options: a.rc.Options, Tracer: a.tr, Project: a.rc.Project, Catalog: a.rc.Catalog,
		Audit: a.rc.Audit, FromList: true, Outside: s.last, Done: s.stop, First: msg.an, Packages: a.packages}
	wcfg := WatchConfig(msg.an.WatchSet())
	w, werr := watch.New(wcfg)
	if werr == nil {
		s.watch = w
		cfg.Batches, cfg.WatchErrors, cfg.Rewatch = w.Batches(), w.Errors(), w.Update
	}
	s.m = New(cfg)
	if werr != nil {
		s.m.note = "not watching: " + werr.Error()
	}
	a.agent = s
	cmds := []tea.Cmd{tag(s.gen, s.m.Init())}
	if a.sized {
		cmds = append(cmds, a.toAgent(tea.WindowSizeMsg{Width: a.w, Height: a.h}))
	}
	if a.bgMsg != nil {
		cmds = append(cmds, a.toAgent(a.bgMsg))
	}
	return tea.Batch(cmds...)
}

// syncOutside hands the agent view its workspace findings when the
// workspace's index changed them (a child's save).
func (a *app) syncOutside() {
	s := a.agent
	if s == nil {
		return
	}
	if fs := a.ws.findingsOf(s.dir); !slices.EqualFunc(fs, s.last, sameFinding) {
		s.last = fs
		s.m.Update(outsideMsg{fs})
	}
}

func (a *app) View() tea.View {
	if a.agent != nil {
		return a.agent.m.View()
	}
	return a.ws.View()
}

// ownPkg is the module's import path: messages of its types that the
// agent view's commands return are tagged with the view's generation.
var ownPkg = strings.TrimSuffix(reflect.TypeFor[app]().PkgPath(), "/tui")

// tag makes cmd's messages agentMsgs of generation gen (a batch's too), so
// that a message of a closed agent view never reaches the next one. Bubble
// Tea's own messages (quit, exec, …) pass as they are.
func tag(gen int, cmd tea.Cmd) tea.Cmd {
	if cmd == nil {
		return nil
	}
	return func() tea.Msg {
		switch msg := cmd().(type) {
		case nil:
			return nil
		case tea.BatchMsg:
			out := make(tea.BatchMsg, len(msg))
			for i, c := range msg {
				out[i] = tag(gen, c)
			}
			return out
		default:
			if t := reflect.TypeOf(msg); t != nil && strings.HasPrefix(t.PkgPath(), ownPkg) {
				return agentMsg{gen, msg}
			}
			return msg
		}
	}
}
