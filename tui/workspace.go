package tui

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/tui/watch"
	"github.com/oastui/oastui/views"
	"github.com/oastui/oastui/workspace"
)

// wsModel is the workspace screen, the home of an agents/ tree: a live
// table of every agent (the Agents tab) and the call graph between them
// (the Graph tab). Reviews run on a bounded pool of workers outside the
// UI goroutine; one recursive watcher over the tree re-reviews what a
// save affects (workspace.Index.Affected). Enter opens an agent in the
// agent view; esc/⌫ there comes back with the selection kept.
type wsModel struct {
	root    string
	display string // the root as the header and graph name it ("" = root)
	opts    Options

	agents map[string]workspace.Agent // by package directory
	dirs   []string                   // the packages found, sorted
	ix     *workspace.Index
	rows   []workspace.Row // sorted and filtered
	cg     *workspace.CallGraph
	canvas *flowgraph.Canvas
	layout *flowgraph.Layout
	gsel   int // graph: index into gorder
	gorder []int
	goffX  int
	goffY  int

	sortCol   workspace.Column
	reverse   bool
	filter    string
	filtering bool
	cursor    int
	off       int
	selDir    string // the selected agent, kept across re-sorts, filters and the agent view
	moved     bool   // the user moved the selection: until then it stays on the first (worst) row
	gplaced   bool   // the graph was scrolled to its root once
	tab       int    // 0 Agents, 1 Graph

	total, done int             // the first full review's progress
	queued      map[string]bool // agents waiting for (or in) a review: their rows are stale
	pool        *reviewPool

	in   *inbox
	note string
	// wcfg is the .oastui.yaml of the tree (found upward from the root,
	// or --config), whose rules: apply to the workspace findings; read
	// again when a config changes.
	wcfg *lint.Config

	w, h     int
	th       views.Theme
	keys     wsKeyMap
	showHelp bool
	helpTop  int // the help overlay's first line shown
	picked   string
	now      func() time.Time
	pin      func(*workspace.Agent) // tests: pin mtimes
}

// inbox is where reviews, watcher batches and watch errors wait for the
// UI: appended from any goroutine, drained on the UI goroutine. A waiting
// command is woken by closing the current signal channel, so a waiter left
// over from an earlier program (the agent view ran in between) takes
// nothing away: the next program drains what came meanwhile.
type inbox struct {
	mu      sync.Mutex
	reviews []workspace.Agent
	batches []watch.Batch
	errs    []error
	sig     chan struct{}
}

func newInbox() *inbox { return &inbox{sig: make(chan struct{})} }

func (b *inbox) put(f func()) {
	b.mu.Lock()
	f()
	close(b.sig)
	b.sig = make(chan struct{})
	b.mu.Unlock()
}

func (b *inbox) drain() (rs []workspace.Agent, bs []watch.Batch, es []error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	rs, bs, es = b.reviews, b.batches, b.errs
	b.reviews, b.batches, b.errs = nil, nil, nil
	return
}

// signal is closed once something is put. When something is already
// waiting (put after the last drain, before this call), it is a closed
// channel: the wake-up of that put went to a signal nobody holds, and
// waiting for the next put could wait forever.
func (b *inbox) signal() <-chan struct{} {
	b.mu.Lock()
	defer b.mu.Unlock()
	if len(b.reviews)+len(b.batches)+len(b.errs) > 0 {
		return closedSignal
	}
	return b.sig
}

var closedSignal = func() chan struct{} { c := make(chan struct{}); close(c); return c }()

// wait is a command that returns once something is put.
func (b *inbox) wait() tea.Cmd {
	sig := b.signal()
	return func() tea.Msg {
		<-sig
		return wsPokeMsg{}
	}
}

// reviewPool is a bounded pool of workers reviewing agents into the
// inbox. Jobs wait in an unbounded queue so that the UI never blocks.
type reviewPool struct {
	root string
	opts analysis.Options
	// pkgs is the tree's package index shared by every review's child
	// look-ups (one scan instead of one per orchestrator): scanned by the
	// first review, then taken from the workspace index after each rebuild.
	pkgs     atomic.Pointer[compile.PackageIndex]
	scanOnce sync.Once
	mu       sync.Mutex
	cond     *sync.Cond
	jobs     []string
	in       *inbox
}

func newReviewPool(root string, opts analysis.Options, workers int, in *inbox) *reviewPool {
	p := &reviewPool{root: root, opts: opts, in: in}
	p.cond = sync.NewCond(&p.mu)
	for range workers {
		go p.work()
	}
	return p
}

func (p *reviewPool) add(dirs ...string) {
	if len(dirs) == 0 {
		return
	}
	p.mu.Lock()
	p.jobs = append(p.jobs, dirs...)
	p.mu.Unlock()
	p.cond.Broadcast()
}

func (p *reviewPool) work() {
	for {
		p.mu.Lock()
		for len(p.jobs) == 0 {
			p.cond.Wait()
		}
		dir := p.jobs[0]
		p.jobs = p.jobs[1:]
		p.mu.Unlock()
		p.scanOnce.Do(func() {
			if p.pkgs.Load() == nil {
				if pk := workspace.ScanPackages(p.root); pk != nil {
					p.pkgs.CompareAndSwap(nil, pk)
				}
			}
		})
		opts := p.opts
		opts.Load.Packages = p.pkgs.Load()
		a := workspace.ReviewAgent(p.root, dir, opts)
		a.Dir = dir // the row's key: the path as listed
		if a.Problem == "does not load" && !compile.IsAgentDir(dir) {
			a.Problem = gone // the package was deleted (or moved): the row goes
		}
		p.in.put(func() { p.in.reviews = append(p.in.reviews, a) })
	}
}

// gone marks a review of a package that no longer exists.
const gone = "\x00gone"

type wsPokeMsg struct{}
type wsConfigMsg struct{ cfg *lint.Config }

// readConfig reads the tree's config off the UI goroutine.
func (m *wsModel) readConfig() tea.Cmd {
	root, explicit := m.root, m.opts.ConfigPath
	return func() tea.Msg { return wsConfigMsg{analysis.ResolveConfig(explicit, root).Config} }
}

type wsFoundMsg struct {
	dirs []string
	pkgs *compile.PackageIndex
}

func newWorkspace(root string, dirs []string, opts Options) *wsModel {
	m := &wsModel{root: root, opts: opts, agents: map[string]workspace.Agent{}, queued: map[string]bool{}, in: newInbox(),
		th: views.NewTheme(true), w: 100, h: 30, keys: newWSKeyMap(), now: time.Now, gsel: -1}
	m.setDirs(dirs)
	return m
}

// setDirs installs the list of packages: rows of packages gone are
// dropped, new ones are queued.
func (m *wsModel) setDirs(dirs []string) []string {
	dirs = slices.Clone(dirs)
	slices.Sort(dirs)
	var fresh []string
	keep := map[string]bool{}
	for _, d := range dirs {
		keep[d] = true
		if _, ok := m.agents[d]; !ok && !m.queued[d] {
			fresh = append(fresh, d)
			m.agents[d] = workspace.Agent{Dir: d, Rel: relOf(m.root, d), Title: filepath.Base(d), Steps: -1, Problem: "", Stale: true}
			m.queued[d] = true
		}
	}
	for d := range m.agents {
		if !keep[d] {
			delete(m.agents, d)
			delete(m.queued, d)
		}
	}
	m.dirs = dirs
	m.total += len(fresh)
	m.rebuild()
	return fresh
}

func relOf(root, p string) string {
	r, err := filepath.Rel(root, p)
	if err != nil {
		return p
	}
	return filepath.ToSlash(r)
}

func (m *wsModel) start() {
	if m.pool == nil {
		m.pool = newReviewPool(m.root, m.opts, max(1, min(4, numCPU())), m.in)
		var first []string
		for _, d := range m.dirs {
			if m.queued[d] {
				first = append(first, d)
			}
		}
		m.pool.add(first...)
	}
}

func (m *wsModel) Init() tea.Cmd {
	m.picked = ""
	m.start()
	return tea.Batch(tea.RequestBackgroundColor, m.poke(), m.readConfig())
}

// poke takes everything waiting in the inbox and waits for more.
func (m *wsModel) poke() tea.Cmd {
	wait := m.in.wait() // before draining: nothing put in between is missed
	return tea.Batch(m.take(), wait)
}

// take installs everything waiting in the inbox: finished reviews, watch
// errors, and watcher batches (queued for review); it returns what the
// batches ask for besides (the config read again, the tree listed again).
func (m *wsModel) take() tea.Cmd {
	rs, bs, es := m.in.drain()
	var cmds []tea.Cmd
	if len(rs) > 0 {
		m.apply(rs)
	}
	for _, err := range es {
		m.note = "watch: " + err.Error()
	}
	if len(bs) > 0 {
		b := bs[0]
		for _, x := range bs[1:] {
			b.Paths = append(b.Paths, x.Paths...)
			b.Rescan = b.Rescan || x.Rescan
		}
		cmds = append(cmds, m.changed(b))
	}
	return tea.Batch(cmds...)
}

// follow keeps the workspace live while the agent view of dir runs (no
// program drives m then): it takes what comes to the inbox as the table
// does (reviews, watcher batches, the commands they ask for, run here),
// and sends dir's workspace findings on out each time the index changes
// them, starting from last (what the agent view was opened with), until
// stop is closed. It closes out when it returns.
func (m *wsModel) follow(dir string, last []compile.Finding, out chan<- []compile.Finding, stop <-chan struct{}) {
	defer close(out)
	for {
		sig := m.in.signal() // before taking: nothing put in between is missed
		m.runNow(m.take())
		if fs := m.findingsOf(dir); !slices.EqualFunc(fs, last, sameFinding) {
			select {
			case out <- fs:
				last = fs
			case <-stop:
				return
			}
		}
		select {
		case <-sig:
		case <-stop:
			return
		}
	}
}

// runNow runs cmd and hands its messages (a batch's too) to m, on the
// calling goroutine: follow's stand-in for a program.
func (m *wsModel) runNow(cmd tea.Cmd) {
	if cmd == nil {
		return
	}
	switch msg := cmd().(type) {
	case tea.BatchMsg:
		for _, c := range msg {
			m.runNow(c)
		}
	case nil:
	default:
		_, next := m.Update(msg)
		m.runNow(next)
	}
}

// findingsOf are the workspace findings of the agent at dir (the index's).
func (m *wsModel) findingsOf(dir string) []compile.Finding {
	if i, ok := m.ix.Lookup(dir); ok {
		return m.ix.AgentFindings(i)
	}
	return nil
}

func sameFinding(a, b compile.Finding) bool {
	return a.Code == b.Code && a.Severity == b.Severity && a.File == b.File && a.Line == b.Line && a.Column == b.Column &&
		a.Location == b.Location && a.Message == b.Message
}

// watchTree forwards a tree watcher's batches and errors to the inbox
// until they close.
func (m *wsModel) watchTree(batches <-chan watch.Batch, errs <-chan error) {
	in := m.in
	go func() {
		for b := range batches {
			in.put(func() { in.batches = append(in.batches, b) })
		}
	}()
	go func() {
		for err := range errs {
			in.put(func() { in.errs = append(in.errs, err) })
		}
	}()
}

// apply installs finished reviews.
func (m *wsModel) apply(got []workspace.Agent) {
	for _, a := range got {
		d := a.Dir
		if _, ok := m.agents[d]; !ok {
			// The pool names the agent by its package directory; the list by
			// what FindAgents returned (the same path).
			continue
		}
		if a.Problem == gone {
			delete(m.agents, d)
			delete(m.queued, d)
			m.dirs = slices.DeleteFunc(m.dirs, func(x string) bool { return x == d })
			m.done = min(m.done+1, m.total)
			continue
		}
		if m.pin != nil {
			m.pin(&a)
		}
		if m.queued[d] {
			delete(m.queued, d)
			if m.done < m.total {
				m.done++
			}
		}
		m.agents[d] = workspace.Carry(a, m.agents[d])
	}
	m.rebuild()
}

// rebuild makes the index, rows and graph from the agents.
func (m *wsModel) rebuild() {
	list := make([]workspace.Agent, 0, len(m.agents))
	for _, d := range m.dirs {
		if a, ok := m.agents[d]; ok {
			list = append(list, a)
		}
	}
	m.ix = workspace.Build(m.shown(), list, m.wcfg)
	if m.pool != nil && len(m.queued) == 0 {
		if pk := m.ix.Packages(m.root); pk != nil {
			m.pool.pkgs.Store(pk) // what the reviews read, without walking the tree again
		}
	}
	m.refilter()
	m.cg = m.ix.CallGraph()
	m.canvas, m.layout = nil, nil
}

// refilter sorts and filters the rows, keeping the selected agent.
func (m *wsModel) refilter() {
	rows := m.ix.Rows()
	workspace.Sort(rows, m.sortCol, m.reverse)
	m.rows = workspace.Filter(rows, m.filter)
	m.cursor = 0
	for i, r := range m.rows {
		if r.Dir == m.selDir && m.moved {
			m.cursor = i
		}
	}
	m.cursor = max(0, min(m.cursor, len(m.rows)-1))
	if len(m.rows) > 0 {
		m.selDir = m.rows[m.cursor].Dir
	}
}

func (m *wsModel) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.w, m.h = msg.Width, msg.Height
	case tea.BackgroundColorMsg:
		m.th = views.NewTheme(msg.IsDark())
	case wsPokeMsg:
		return m, m.poke()
	case wsConfigMsg:
		m.wcfg = msg.cfg
		m.rebuild()
	case wsFoundMsg:
		if m.pool != nil && msg.pkgs != nil {
			m.pool.pkgs.Store(msg.pkgs)
		}
		fresh := m.setDirs(msg.dirs)
		if m.pool != nil {
			m.pool.add(fresh...)
		}
	case tea.KeyPressMsg:
		return m, m.key(msg)
	}
	return m, nil
}

// changed queues the agents a batch of changed files affects: the changed
// package and its dependents; every agent for the registry or a config.
// A path in no known package lists the tree again.
func (m *wsModel) changed(b watch.Batch) tea.Cmd {
	ch := m.ix.Affected(b.Paths)
	m.queue(ch.Agents...)
	var cfg tea.Cmd
	if ch.All {
		cfg = m.readConfig()
	}
	if ch.Rescan || b.Rescan {
		root := m.root
		return tea.Batch(cfg, func() tea.Msg {
			dirs, _ := compile.FindAgents(root, 0)
			return wsFoundMsg{dirs, workspace.ScanPackages(root)}
		})
	}
	return cfg
}

func (m *wsModel) queue(dirs ...string) {
	var add []string
	for _, d := range dirs {
		if _, ok := m.agents[d]; ok && !m.queued[d] {
			m.queued[d] = true
			add = append(add, d)
		}
	}
	if m.pool != nil {
		m.pool.add(add...)
	}
}

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
				m.filter += views.Clean(k.Text)
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
		m.filtering = true
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
		if m.selDir != "" {
			m.picked = m.selDir
			return tea.Quit
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

// screenSize is the size the screen is laid out at: the terminal's, but no
// smaller than 40×8.
func (m *wsModel) screenSize() (w, h int) { return max(m.w, 40), max(m.h, 8) }

func (m *wsModel) View() tea.View {
	v := tea.NewView(m.render())
	v.AltScreen = true
	return v
}

func (m *wsModel) listH() int { return max(1, m.h-5) }

// counts over the rows (all, unfiltered).
func (m *wsModel) header(w int) string {
	rows := m.ix.Rows()
	broken, blocked, warned := 0, 0, 0
	for _, r := range rows {
		switch {
		case r.Problem != "":
			broken++
		case r.Blockers > 0:
			blocked++
		case r.Warnings > 0:
			warned++
		}
	}
	parts := []string{m.th.AppName.Render("oastui"), m.th.AgentName.Render("workspace " + views.Clean(displayDir(m.shown()))), views.Count(len(rows), "agent")}
	st := ""
	if broken > 0 {
		st += m.th.Blocker.Render(fmt.Sprintf("✖ %d broken ", broken))
	}
	if blocked > 0 {
		st += m.th.StatusBlocked.Render(fmt.Sprintf("✖ %d blocked ", blocked))
	}
	if warned > 0 {
		st += m.th.Warning.Render(fmt.Sprintf("⚠ %d with warnings ", warned))
	}
	if st == "" && m.done >= m.total {
		st = m.th.StatusClean.Render("● all clean ")
	}
	line := " " + strings.Join(parts, m.th.Dim.Render(" · ")) + "   " + st
	if m.done < m.total {
		line += " " + progressBar(m.th, m.done, m.total, 20)
	} else if n := len(m.queued); n > 0 {
		line += m.th.Dim.Render(fmt.Sprintf(" re-reviewing %d…", n))
	}
	return views.Fit(line, w)
}

// shown is the root as the screen names it.
func (m *wsModel) shown() string {
	if m.display != "" {
		return m.display
	}
	return m.root
}

func displayDir(d string) string {
	d = filepath.ToSlash(filepath.Clean(d))
	if !strings.HasSuffix(d, "/") {
		d += "/"
	}
	return d
}

// progressBar is "reviewing 12/25 ████░░░░".
func progressBar(th views.Theme, done, total, width int) string {
	fill := 0
	if total > 0 {
		fill = done * width / total
	}
	return th.Dim.Render(fmt.Sprintf("reviewing %d/%d ", done, total)) + th.TitleFocused.Render(strings.Repeat("█", fill)) + th.Dim.Render(strings.Repeat("░", width-fill))
}

func (m *wsModel) render() string {
	w, h := m.screenSize()
	var body []string
	title := ""
	tabs := []string{"Agents", "Graph"}
	for i, t := range tabs {
		if i > 0 {
			title += m.th.Dim.Render(" │ ")
		}
		if i == m.tab {
			title += m.th.TabActive.Render(t)
		} else {
			title += m.th.TabInactive.Render(t)
		}
	}
	if m.tab == 0 {
		body = m.tableLines(w - 3)
		title += m.th.Dim.Render(fmt.Sprintf(" · sorted by %s%s", m.sortCol, map[bool]string{true: " (reversed)"}[m.reverse]))
	} else {
		body = m.graphLines(w-3, h-4)
	}
	if m.filter != "" || m.filtering {
		title += m.th.Dim.Render(fmt.Sprintf(" · filter %q: %d of %d", views.Clean(m.filter), len(m.rows), len(m.ix.Agents)))
	}
	box := views.Box(m.th, title, w, h-2, body, true)
	var foot string
	switch {
	case m.filtering:
		foot = views.Fit(" "+m.th.HelpKey.Render("/")+" "+views.Clean(m.filter)+"█  "+m.th.HelpDesc.Render("enter keep · esc clear"), w)
	case m.note != "":
		foot = views.MessageLine(m.th, w, m.note)
	default:
		foot = views.HelpLine(m.th, w, m.keys.shortHelp(m.tab == 1))
	}
	screen := strings.Join([]string{m.header(w), box, foot}, "\n")
	if m.showHelp {
		screen = views.Overlay(screen, views.HelpOverlay(m.th, w-2, h-2, m.keys.fullHelp(), m.helpTop), w, h)
	}
	return screen
}

// The table's columns: fixed widths but for agent and title.
const (
	wsStatusW  = 24
	wsKindW    = 12
	wsVersionW = 8
	wsNumW     = 5
	wsKidsW    = 8
	wsChangedW = 9
)

func (m *wsModel) tableLines(w int) []string {
	fixed := 2 + (wsStatusW + 1) + (wsKindW + 1) + (wsVersionW + 1) + 2*(wsNumW+1) + (wsKidsW + 1) + (wsChangedW + 1) + 2
	flex := max(10, w-fixed)
	agentW := max(8, flex*55/100)
	titleW := max(2, flex-agentW)
	cell := func(s string, n int) string { return views.Fit(s, n) + " " }
	head := "  " + cell("status", wsStatusW) + cell("agent", agentW) + cell("title", titleW) + cell("kind", wsKindW) +
		cell("version", wsVersionW) + cell("steps", wsNumW) + cell("slots", wsNumW) + cell("children", wsKidsW) + cell("changed", wsChangedW)
	lines := []string{m.th.Bold.Render(views.Fit(head, w))}
	listH := m.listH() // rows under the column heads
	detail := m.detailLines(w)
	if m.h >= 16 {
		listH -= len(detail) // the selected agent's worst findings under the table
	} else {
		detail = nil
	}
	if m.cursor < m.off {
		m.off = m.cursor
	}
	if m.cursor >= m.off+listH {
		m.off = m.cursor - listH + 1
	}
	m.off = max(0, min(m.off, max(0, len(m.rows)-listH)))
	if len(m.rows) == 0 {
		msg := "no agent matches the filter"
		if len(m.ix.Agents) == 0 {
			msg = "no agent package in this tree"
		}
		return append(lines, m.th.Dim.Render(msg))
	}
	now := m.now()
	for i := m.off; i < len(m.rows) && len(lines) <= listH; i++ {
		r := &m.rows[i]
		status := m.statusCell(r)
		steps, slots := "—", "—"
		if r.Steps >= 0 {
			steps = fmt.Sprint(r.Steps)
		}
		if r.Parsed || r.Stale {
			slots = fmt.Sprint(r.Slots)
		}
		kids := "—"
		if r.Children > 0 {
			kids = fmt.Sprint(r.Children)
			if r.Missing > 0 {
				kids += m.th.Warning.Render(fmt.Sprintf(" (%d?)", r.Missing))
			}
		}
		changed := ago(now, r.MTime)
		dim := func(s string) string {
			if r.Stale {
				return m.th.Dim.Render(s)
			}
			return s
		}
		line := cell(status, wsStatusW) + cell(views.Clean(r.ID()), agentW) + cell(dim(views.Clean(r.Title)), titleW) +
			cell(dim(views.Clean(r.Kind())), wsKindW) + cell(views.Clean(r.Version), wsVersionW) + cell(dim(steps), wsNumW) +
			cell(dim(slots), wsNumW) + cell(dim(kids), wsKidsW) + cell(changed, wsChangedW)
		if i == m.cursor {
			line = m.th.Selected.Render(views.Fit(m.th.Cursor.Render("› ")+line, w))
		} else {
			line = "  " + line
		}
		lines = append(lines, line)
	}
	for len(lines) < listH+1 && detail != nil {
		lines = append(lines, "")
	}
	return append(lines, detail...)
}

// detailLines are a rule and the selected agent's worst findings (the
// workspace's first), so that the table says where the problems are
// without opening the agent.
func (m *wsModel) detailLines(w int) []string {
	const n = 3
	out := []string{m.th.Border.Render(strings.Repeat("─", max(0, w)))}
	if len(m.rows) == 0 {
		return append(out, "", "", "")
	}
	r := m.rows[m.cursor]
	fs := m.ix.Worst(r.Index, n)
	if len(fs) == 0 {
		msg := views.Clean(r.ID()) + ": no findings"
		if m.queued[r.Dir] {
			msg = views.Clean(r.ID()) + ": reviewing…"
		}
		out = append(out, m.th.Dim.Render(views.Fit(msg, w)))
	}
	for _, f := range fs {
		mark, st := "· ", m.th.Suggestion
		switch f.Severity {
		case compile.Blocker:
			mark, st = "✖ ", m.th.Blocker
		case compile.Warning:
			mark, st = "⚠ ", m.th.Warning
		}
		where := relOf(m.root, f.File)
		if strings.HasPrefix(where, "..") {
			where = f.File
		}
		text := st.Render(mark) + m.th.Dim.Render(fmt.Sprintf("%s:%d:%d ", views.Clean(where), f.Line, f.Column)) +
			views.Clean(f.Message) + m.th.Dim.Render(" ["+f.Code+"]")
		out = append(out, views.Fit(text, w))
	}
	for len(out) < n+1 {
		out = append(out, "")
	}
	return out
}

// statusCell: the status with its mark and colour; "stale" while a
// review of the row is pending or its flow no longer parses.
func (m *wsModel) statusCell(r *workspace.Row) string {
	queued := m.queued[r.Dir]
	if queued && r.Parsed == false && r.Problem == "" {
		return m.th.Dim.Render("… reviewing")
	}
	s := ""
	switch {
	case r.Problem != "":
		s = m.th.Blocker.Render("✖ " + r.Problem)
	case r.Blockers > 0:
		s = m.th.StatusBlocked.Render("✖ " + r.Status())
	case r.Warnings > 0:
		s = m.th.Warning.Render("⚠ " + r.Status())
	case r.Suggestions > 0:
		s = m.th.Suggestion.Render("· " + r.Status())
	default:
		s = m.th.StatusClean.Render("● clean")
	}
	if queued {
		s += m.th.StatusStale.Render(" stale")
	}
	return s
}

// ago is a short age: "12s", "5m", "3h", "4d", else the date.
func ago(now, t time.Time) string {
	if t.IsZero() {
		return "—"
	}
	d := now.Sub(t)
	switch {
	case d < time.Minute:
		return fmt.Sprintf("%ds ago", max(0, int(d.Seconds())))
	case d < time.Hour:
		return fmt.Sprintf("%dm ago", int(d.Minutes()))
	case d < 48*time.Hour:
		return fmt.Sprintf("%dh ago", int(d.Hours()))
	case d < 30*24*time.Hour:
		return fmt.Sprintf("%dd ago", int(d.Hours()/24))
	}
	return t.Format("2006-01-02")
}
