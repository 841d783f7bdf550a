package tui

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"os"
	"slices"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/slots"
	"github.com/oastui/oastui/tui/watch"
	"github.com/oastui/oastui/views"
)

type focus int

const (
	focusGraph focus = iota
	focusSide
)

// Messages.
type (
	analysisMsg struct{ an *Analysis }
	batchMsg    struct{ b watch.Batch }
	watchErrMsg struct{ err error }
	outsideMsg  struct{ fs []compile.Finding }
	editorMsg   struct{ err error }
)

// Config starts a Model.
type Config struct {
	Path        string // agent directory or flow file
	DisplayPath string // what the header shows instead of Path ("" = Path)
	Options     Options
	Tracer      *Tracer
	// Batches and WatchErrors come from a running watch.Watcher; nil in
	// tests (feed batchMsg-equivalent reloads through Reload instead).
	Batches     <-chan watch.Batch
	WatchErrors <-chan error
	Getenv      func(string) string // for the editor; nil = os.Getenv
	// Rewatch, when set, gets what each new analysis read, so that the
	// watcher watches exactly those files (a running watcher's Update).
	Rewatch func(watch.Config)
	Project string // project the context picker starts with (--project)
	Catalog string // --catalog: the context picker's artifact catalog ("" = .oastui/catalog.json at the workspace root)
	Audit   string // --audit: the audit database confirmations go to ("" = .oastui/audit.db at the workspace root)
	// FromList says the agent was opened from the agents/ list: esc/⌫
	// with nothing left to close goes back to it (Model.Back).
	FromList bool

	// Outside are findings about this agent that its analysis does not
	// raise: the workspace's (workspace_*, over the whole tree) when it was
	// opened from the workspace. They show with the review's (the Findings
	// tab, the header's counts); the workspace sends an outsideMsg with
	// their new value each time its index changes them (a child's save).
	Outside []compile.Finding
	// Done, when set, is closed when the view stops (the workspace went
	// back to its table, or the program ended): the commands waiting on
	// the watcher return then.
	Done <-chan struct{}

	// First is the first analysis, already made by the caller (the
	// workspace analyses an agent to open it): Init shows it instead of
	// analysing again. Later analyses load the files afresh.
	First *Analysis
	// Packages, when set, is the tree's package index at each analysis
	// (the workspace's, current): child look-ups read it instead of
	// scanning the tree.
	Packages func() *compile.PackageIndex

	// pin, when set, adjusts each finished analysis before it is sent
	// to the model (tests pin time and findings for goldens).
	pin func(*Analysis)
}

// Model is the root Bubble Tea model.
type Model struct {
	cfg Config
	th  views.Theme
	w   int
	h   int

	cur  *Analysis // the newest analysis
	good *Analysis // the newest analysis whose flow parsed (graph, steps, compiled)

	watched analysis.WatchSet // what the watcher was last told to watch

	seqReq     uint64 // last analysis requested
	seqApplied uint64 // last analysis shown
	pending    int    // analyses in flight

	focus    focus
	tab      int // index in tabs
	zoom     bool
	showHelp bool
	helpTop  int // the help overlay's first line shown (it scrolls when taller than the screen)
	keys     keyMap

	filtering bool
	filterBuf string

	graph    *views.Graph
	tabs     []views.Pane    // the side pane's tabs, in order (keys 1…n)
	findings *views.Findings // the Findings tab (also in tabs): `/` filters it
	pick     pickerState
	picks    map[string][]slots.Ref // slot id → the last pick confirmed (the picker starts from it)
	fix      fixState

	note string // one-line message (editor failure, watch error), shown on the message line
	back bool   // the user asked to go back to the agents/ list

	outside []compile.Finding // Config.Outside, then each OutsideUpdates value

	reloadSeq uint64 // the analysis `r` asked for: the message line says when it is done
	project   string // project the context picker resolves for ("" = none); P cycles it
}

// New builds the model; call Init through a tea.Program.
func New(cfg Config) *Model {
	if cfg.Options.Mode == "" {
		cfg.Options.Mode = lint.ModeDeterministic
	}
	m := &Model{cfg: cfg, th: views.NewTheme(true), w: 80, h: 24, project: cfg.Project, graph: views.NewGraph(), outside: cfg.Outside}
	m.findings = &views.Findings{}
	// The side tabs: a new tab is a views.Pane and one line here.
	m.tabs = []views.Pane{
		m.findings,
		&views.Steps{},
		&views.NodeText{},
		views.NewCompiledText(),
		&views.Slots{},
		&views.Prompt{},
		&views.Run{},
		&views.History{},
	}
	names := make([]string, len(m.tabs))
	for i, p := range m.tabs {
		names[i] = p.Name()
	}
	m.keys = newKeyMap(names)
	return m
}

// Init starts the first analysis and listens to the watcher.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.requestAnalysis(time.Time{}), m.waitBatch(), m.waitWatchErr(), tea.RequestBackgroundColor)
}

func (m *Model) waitBatch() tea.Cmd {
	return waitOn(m.cfg.Batches, m.cfg.Done, func(b watch.Batch) tea.Msg { return batchMsg{b} })
}

func (m *Model) waitWatchErr() tea.Cmd {
	return waitOn(m.cfg.WatchErrors, m.cfg.Done, func(err error) tea.Msg { return watchErrMsg{err} })
}

// waitOn is a command that waits for the next value on ch and wraps it as a
// message; nil when there is no channel (tests), once it is closed, or
// once done is closed.
func waitOn[T any](ch <-chan T, done <-chan struct{}, wrap func(T) tea.Msg) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		select {
		case v, ok := <-ch:
			if !ok {
				return nil
			}
			return wrap(v)
		case <-done:
			return nil
		}
	}
}

// requestAnalysis runs Analyze off the UI goroutine with a new sequence
// number; results arriving out of order are dropped (the newest wins).
func (m *Model) requestAnalysis(trigger time.Time) tea.Cmd {
	m.seqReq++
	m.pending++
	seq, path, opts, tr, pin, first := m.seqReq, m.cfg.Path, m.cfg.Options, m.cfg.Tracer, m.cfg.pin, m.cfg.First
	m.cfg.Options.Agent = nil // an agent the entry loaded serves the first analysis only
	m.cfg.First = nil         // and so does an analysis the caller made
	if m.cfg.Packages != nil {
		opts.Load.Packages = m.cfg.Packages()
	}
	return func() tea.Msg {
		an := first
		if an != nil {
			an.Seq = seq
		} else {
			an = Analyze(path, opts, seq)
		}
		an.Trigger = trigger
		if pin != nil {
			pin(an)
		}
		tr.Event(time.Now(), "analysis-done", seq, fmt.Sprintf("took=%s", an.Took))
		return analysisMsg{an}
	}
}

// Update handles one message.
func (m *Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	next, cmd := m.update(msg)
	return next, tea.Batch(cmd, m.paneTasks(msg))
}

func (m *Model) update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
		m.layout()
		if m.pick.open {
			m.pick.picker = m.pick.picker.SetSize(m.w, m.h)
		}
		return m, nil
	case pickerReadyMsg:
		m.pickerReady(msg)
		return m, nil
	case views.PickerDoneMsg:
		return m, m.pickerDone(msg)
	case pickerSavedMsg:
		m.pickerSaved(msg)
		return m, nil
	case tea.BackgroundColorMsg:
		m.th = views.NewTheme(msg.IsDark())
		return m, nil
	case analysisMsg:
		m.pending--
		m.apply(msg.an)
		return m, nil
	case batchMsg:
		m.cfg.Tracer.Event(msg.b.First, "write-detected", m.seqReq+1, strings.Join(msg.b.Paths, ","))
		return m, tea.Batch(m.requestAnalysis(msg.b.First), m.waitBatch())
	case watchErrMsg:
		m.note = "watch: " + msg.err.Error()
		return m, m.waitWatchErr()
	case outsideMsg:
		m.outside = msg.fs
		if m.cur != nil {
			m.findings.Show(m.shown())
			m.layout()
		}
		return m, nil
	case editorMsg:
		if msg.err != nil {
			m.note = "the editor failed: " + msg.err.Error()
		}
		// The file was probably saved; the watcher reports that. Without
		// a watcher, re-analyse here.
		if m.cfg.Batches != nil {
			return m, nil
		}
		return m, m.requestAnalysis(time.Time{})
	case fixDoneMsg:
		return m, m.fixDone(msg)
	case tea.KeyPressMsg:
		if m.fixOpen() {
			return m, m.fixKey(msg)
		}
		if m.pick.open {
			if key.Matches(msg, m.keys.ForceQuit) {
				return m, tea.Quit
			}
			return m, m.pickerUpdate(msg)
		}
		return m, m.key(msg)
	}
	return m, nil
}

// apply installs a finished analysis if it is newer than what is shown.
func (m *Model) apply(an *Analysis) {
	if an == nil || an.Seq <= m.seqApplied {
		return
	}
	m.seqApplied = an.Seq
	m.cur = an
	if an.Seq == m.reloadSeq {
		// The header's time may not change within a second: say it.
		m.note = "re-analysed at " + an.Started.Add(an.Took).Format("15:04:05.000") + " in " + views.Duration(an.Took)
	}
	if an.Parsed() {
		m.good = an
	}
	m.rewatch(an)
	sh := m.shown()
	for _, p := range m.tabs {
		p.Show(sh)
	}
	if m.good != nil {
		m.graph.SetSnapshot(m.good.Snapshot)
	} else {
		m.graph.SetNote(views.NoGraphNote)
	}
	m.layout()
	m.refreshNode()
}

// shown is what the panes are given: the newest analysis, the last good
// one, and the findings raised outside them.
func (m *Model) shown() views.Shown {
	sh := views.Shown{Cur: m.cur.Snapshot, Theme: m.th, Outside: m.outside}
	if m.good != nil {
		sh.LastParsed, sh.Refusal = m.good.Snapshot, m.good.Refusal
	}
	return sh
}

// rewatch hands the watcher what the analysis read, when that changed.
// A snapshot that did not load keeps the last set: the files the agent
// was made of are the ones whose repair brings it back.
func (m *Model) rewatch(an *Analysis) {
	if m.cfg.Rewatch == nil || an.Agent == nil {
		return
	}
	ws := an.WatchSet()
	if slices.Equal(ws.Files, m.watched.Files) && slices.Equal(ws.Dirs, m.watched.Dirs) && slices.Equal(ws.Trees, m.watched.Trees) {
		return
	}
	m.watched = ws
	m.cfg.Rewatch(WatchConfig(ws))
}

// Stale says the graph and steps on screen are older than the newest
// analysis (the flow file is broken or gone).
func (m *Model) Stale() bool { return m.cur != nil && m.good != m.cur }

// Current and LastParsed expose the snapshots (tests).
func (m *Model) Current() *Analysis    { return m.cur }
func (m *Model) LastParsed() *Analysis { return m.good }

// curTab is the side tab shown.
func (m *Model) curTab() views.Pane { return m.tabs[m.tab] }

// tabIndex is p's index in tabs (0 when it is not there).
func (m *Model) tabIndex(p views.Pane) int {
	for i, x := range m.tabs {
		if x == p {
			return i
		}
	}
	return 0
}

// key handles one key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	km := &m.keys
	m.note = "" // a message stays until the next key
	if m.filtering {
		return m.filterKey(k)
	}
	if m.showHelp {
		switch {
		case key.Matches(k, km.CloseHelp):
			m.showHelp = false
		case key.Matches(k, km.ForceQuit):
			return tea.Quit
		default:
			mv := helpMoves{km.Up, km.Down, km.PageUp, km.PageDown, km.Top, km.Bottom}
			m.helpTop = mv.scroll(m.helpTop, views.HelpScrollMax(m.th, m.w-2, m.h-2, m.keys.fullHelp(m.cfg.FromList)), m.h-4, k)
		}
		return nil
	}
	switch {
	case key.Matches(k, km.Quit):
		return tea.Quit
	case key.Matches(k, km.Help):
		m.showHelp, m.helpTop = true, 0
		return nil
	case key.Matches(k, km.Focus):
		m.focus = 1 - m.focus
		return nil
	case key.Matches(k, km.Tab):
		m.tab = max(0, slices.Index(km.Tab.Keys(), k.String()))
		m.focus = focusSide
		m.layout()
		return nil
	case key.Matches(k, km.PrevTab):
		m.tab = (m.tab + len(m.tabs) - 1) % len(m.tabs)
		return nil
	case key.Matches(k, km.NextTab):
		m.tab = (m.tab + 1) % len(m.tabs)
		return nil
	case key.Matches(k, km.Reload):
		cmd := m.requestAnalysis(time.Time{})
		m.reloadSeq = m.seqReq
		return cmd
	case key.Matches(k, km.Mode):
		m.cfg.Options.Mode = nextMode(m.cfg.Options.Mode)
		return m.requestAnalysis(time.Time{})
	case key.Matches(k, km.Filter):
		m.tab = m.tabIndex(m.findings)
		m.focus = focusSide
		m.filtering = true
		m.filterBuf = m.findings.Filter()
		m.layout()
		return nil
	case key.Matches(k, km.Zoom):
		m.zoom = !m.zoom
		m.layout()
		return nil
	case key.Matches(k, km.Edit):
		return m.openEditor()
	case key.Matches(k, km.Fix):
		m.openFix()
		return nil
	case key.Matches(k, km.Undo):
		return m.undo()
	case key.Matches(k, km.Pick):
		if id, ok := m.selectedSlot(); ok {
			return m.pickerCmd(id)
		}
		if _, ok := m.curTab().(views.SlotSelector); ok {
			m.note = "no context slot to pick for"
		}
		return nil
	case key.Matches(k, km.Project):
		if id, ok := m.selectedSlot(); ok {
			return m.nextProjectCmd(id)
		}
		if _, ok := m.curTab().(views.SlotSelector); ok {
			m.note = "no context slot to pick for"
		}
		return nil
	}
	if m.focus == focusGraph {
		return m.graphKey(k)
	}
	return m.sideKey(k)
}

// selectedSlot is the context slot selected on the current tab, if it
// lists slots.
func (m *Model) selectedSlot() (string, bool) {
	if s, ok := m.curTab().(views.SlotSelector); ok && m.good != nil && m.good.Agent != nil {
		return s.SelectedSlot()
	}
	return "", false
}

func (m *Model) filterKey(k tea.KeyPressMsg) tea.Cmd {
	km := &m.keys
	switch {
	case key.Matches(k, km.FilterKeep):
		m.filtering = false
	case key.Matches(k, km.FilterClear):
		m.filtering = false
		m.filterBuf = ""
		m.findings.SetFilter("")
	case key.Matches(k, km.FilterDelete):
		if r := []rune(m.filterBuf); len(r) > 0 {
			m.filterBuf = string(r[:len(r)-1])
			m.findings.SetFilter(m.filterBuf)
		}
	case key.Matches(k, km.ForceQuit):
		return tea.Quit
	default:
		if k.Text != "" {
			m.filterBuf += present.Text(k.Text)
			m.findings.SetFilter(m.filterBuf)
		}
	}
	m.layout()
	m.syncSelectionFromSide()
	return nil
}

// navOf is the movement a key asks of a side tab.
func (m *Model) navOf(k tea.KeyPressMsg) (views.Nav, bool) {
	km := &m.keys
	for _, x := range []struct {
		b key.Binding
		n views.Nav
	}{
		{km.Up, views.NavUp}, {km.Down, views.NavDown}, {km.PageUp, views.NavPageUp}, {km.PageDown, views.NavPageDown},
		{km.Top, views.NavTop}, {km.Bottom, views.NavBottom}, {km.Left, views.NavLeft}, {km.Right, views.NavRight},
		{km.Space, views.NavSpace},
	} {
		if key.Matches(k, x.b) {
			return x.n, true
		}
	}
	return 0, false
}

// sideKey handles a key for the side tab: enter on a Jumper goes to its
// node in the graph; movement keys go to the tab, and the graph follows
// the selection of a Locator.
func (m *Model) sideKey(k tea.KeyPressMsg) tea.Cmd {
	p := m.curTab()
	if o, ok := p.(views.Opener); ok {
		switch {
		case key.Matches(k, m.keys.Open):
			if o.Open() {
				m.syncSelectionFromSide()
			}
			return nil
		case key.Matches(k, m.keys.Back):
			if o.Close() {
				m.syncSelectionFromSide() // Prompt: back to the LLM node
				return nil
			}
		}
	}
	if _, ok := p.(views.Jumper); ok && key.Matches(k, m.keys.Open) {
		m.syncSelectionFromSide()
		m.focus = focusGraph
		return nil
	}
	if key.Matches(k, m.keys.Back) {
		return m.backToList()
	}
	n, ok := m.navOf(k)
	if !ok {
		return nil
	}
	p.Nav(n, max(1, m.sideInnerH()-2))
	if _, ok := p.(views.Locator); ok && (n <= views.NavBottom || n == views.NavSpace || n == views.NavLeft || n == views.NavRight) {
		m.syncSelectionFromSide()
	}
	return nil
}

// backToList leaves this agent for the agents/ list it was opened from
// (esc/⌫ with nothing left to close): the root model shows the table
// again on backMsg. Nothing when there is no list.
func (m *Model) backToList() tea.Cmd {
	if !m.cfg.FromList {
		return nil
	}
	m.back = true
	return func() tea.Msg { return backMsg{} }
}

// Back says the user went back to the agents/ list.
func (m *Model) Back() bool { return m.back }

// syncSelectionFromSide selects in the graph the node of the current tab's
// selection (a finding, a step).
func (m *Model) syncSelectionFromSide() {
	if l, ok := m.curTab().(views.Locator); ok {
		if t, ok := l.Target(); ok {
			switch {
			case t.Pointer != "":
				if m.good == nil || m.good.Agent == nil || t.File == m.good.Agent.FlowPath {
					m.graph.SelectPointer(t.Pointer)
				}
			case t.NodeID != "":
				m.graph.SelectID(t.NodeID)
			}
		}
	}
	m.refreshNode()
}

// graphKey handles a key for the graph pane.
func (m *Model) graphKey(k tea.KeyPressMsg) tea.Cmd {
	km, g := &m.keys, m.graph
	page := max(1, g.Height()-2)
	switch {
	case key.Matches(k, km.Down):
		g.Move(1)
	case key.Matches(k, km.Up):
		g.Move(-1)
	case key.Matches(k, km.Left):
		g.MoveSide(-1)
	case key.Matches(k, km.Right):
		g.MoveSide(1)
	case key.Matches(k, km.PageDown):
		g.Scroll(0, page)
	case key.Matches(k, km.PageUp):
		g.Scroll(0, -page)
	case key.Matches(k, km.ScrollRight):
		g.Scroll(8, 0)
	case key.Matches(k, km.ScrollLeft):
		g.Scroll(-8, 0)
	case key.Matches(k, km.Top):
		g.First()
	case key.Matches(k, km.Bottom):
		g.Last()
	case key.Matches(k, km.Open):
		g.Open()
	case key.Matches(k, km.Back):
		if !g.Back() {
			return m.backToList()
		}
	default:
		return nil
	}
	m.refreshNode()
	return nil
}

// refreshNode shows the graph's selected node in the tabs that follow it.
func (m *Model) refreshNode() {
	info := m.graph.NodeInfo()
	for _, p := range m.tabs {
		if f, ok := p.(views.NodeFollower); ok {
			f.SetNode(m.th, info)
		}
	}
}

// openEditor suspends the TUI and opens the editor at the selected finding
// (Findings tab) or node.
func (m *Model) openEditor() tea.Cmd {
	file, line, col := "", 0, 0
	if l, ok := m.curTab().(views.Locator); ok && m.focus == focusSide {
		if t, ok := l.Target(); ok && t.File != "" {
			file, line, col = t.File, t.Line, t.Col
		}
	}
	if file == "" {
		file, line, col = m.graph.NodePosition()
	}
	if file == "" && m.cur != nil && m.cur.Agent != nil {
		file, line, col = m.cur.Agent.FlowPath, 1, 1
	}
	if file == "" {
		m.note = "nothing to edit"
		return nil
	}
	getenv := m.cfg.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	argv := EditorArgs(getenv, file, line, col)
	if msg := EditorMissing(argv); msg != "" {
		m.note = msg
		return nil
	}
	return tea.Exec(newEditorExec(argv), func(err error) tea.Msg { return editorMsg{err} })
}
