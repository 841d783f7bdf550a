package tui

import (
	"context"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
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
	tooLarge  string // the call graph is too large to draw: what the Graph tab says instead
	// The call graph as an indented tree, for a pane narrower than the
	// drawing (as `oastui graph --workspace` prints it): the lines, the
	// width they were cut to, and the agent selected when they were last
	// scrolled to it.
	tree    []string
	treeW   int
	treeSel int
	tab     int // 0 Agents, 1 Graph

	total, done int             // the first full review's progress
	queued      map[string]bool // agents waiting for (or in) a review: their rows are stale
	pool        *reviewPool

	all      []workspace.Row // every row, in index order (rebuild)
	sorted   []workspace.Row // all, sorted by sortedBy
	sortedBy sortKey
	counts   rowCounts
	nameOf   map[string]string // the agent column's text by package directory (rebuild)
	nameW    int               // the widest of them

	// The index is rebuilt after reviews come in (dirty), at most so often
	// on a big tree (rebuildSoon).
	dirty        bool
	rebuiltAt    time.Time
	rebuildTook  time.Duration
	rebuildArmed bool
	building     bool // an index is being built off the UI goroutine
	releaseDue   bool // reviews ran since the memory was last given back (release)

	in     *inbox
	ctx    context.Context // the screen's life: the pool and every waiting command stop when it is done
	cancel context.CancelFunc
	fwd    sync.WaitGroup // the watcher forwarders
	note   string
	// wcfg is the .oastui.yaml of the tree (found upward from the root,
	// or --config), whose rules: apply to the workspace findings; read
	// again when a config changes.
	wcfg *lint.Config

	w, h     int
	th       views.Theme
	keys     wsKeyMap
	showHelp bool
	helpTop  int // the help overlay's first line shown
	now      func() time.Time
	pin      func(*workspace.Agent) // tests: pin mtimes
}

type wsPokeMsg struct{}

// wsTickMsg redraws the table so that its "changed" column keeps time.
type wsTickMsg struct{}

// wsTick is how often the "changed" column is brought up to date.
const wsTick = time.Second

func (m *wsModel) tick() tea.Cmd {
	ctx := m.ctx
	return tea.Tick(wsTick, func(time.Time) tea.Msg {
		if ctx.Err() != nil {
			return nil
		}
		return wsTickMsg{}
	})
}

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
	ctx, cancel := context.WithCancel(context.Background())
	m := &wsModel{root: root, opts: opts, agents: map[string]workspace.Agent{}, queued: map[string]bool{}, in: newInbox(),
		ctx: ctx, cancel: cancel, th: views.NewTheme(true), w: 100, h: 30, keys: newWSKeyMap(), now: time.Now, gsel: -1}
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
			m.agents[d] = workspace.Agent{Dir: d, Rel: relOf(m.root, d), Title: filepath.Base(d), Steps: -1, Stale: true}
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
		m.pool = newReviewPool(m.ctx, m.root, m.opts, max(1, min(4, numCPU())), m.in)
		var first []string
		for _, d := range m.dirs {
			if m.queued[d] {
				first = append(first, d)
			}
		}
		m.pool.add(first...)
	}
}

// close stops the screen: the pool's workers, the watcher forwarders and
// every command waiting on the inbox; it returns once they have stopped.
func (m *wsModel) close() {
	m.cancel()
	if m.pool != nil {
		m.pool.wait()
	}
	m.fwd.Wait()
}

func (m *wsModel) Init() tea.Cmd {
	m.start()
	return tea.Batch(tea.RequestBackgroundColor, m.poke(), m.readConfig(), m.tick())
}

// poke takes everything waiting in the inbox and waits for more.
func (m *wsModel) poke() tea.Cmd {
	wait := m.in.wait(m.ctx) // before draining: nothing put in between is missed
	return tea.Batch(m.take(), wait)
}

// take installs everything waiting in the inbox: finished reviews, watch
// errors, and watcher batches (queued for review); it returns what the
// batches ask for besides (the config read again, the tree listed again).
func (m *wsModel) take() tea.Cmd {
	rs, bs, es := m.in.drain()
	var cmds []tea.Cmd
	if len(rs) > 0 {
		cmds = append(cmds, m.apply(rs))
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

// watchTree forwards a tree watcher's batches and errors to the inbox
// until the screen stops.
func (m *wsModel) watchTree(batches <-chan watch.Batch, errs <-chan error) {
	m.in.forward(m.ctx, batches, errs, &m.fwd)
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

// apply installs finished reviews; the index follows (rebuildSoon).
func (m *wsModel) apply(got []review) tea.Cmd {
	for _, r := range got {
		a, d := r.agent, r.agent.Dir
		if _, ok := m.agents[d]; !ok {
			// The pool names the agent by its package directory; the list by
			// what FindAgents returned (the same path).
			continue
		}
		if r.status == reviewGone {
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
	m.dirty, m.releaseDue = true, true
	return m.rebuildSoon()
}

// rebuildSoon rebuilds the index now when that is quick (a small tree);
// on a big tree it builds it off the UI goroutine (keys are answered
// meanwhile), one build at a time, and at most a fifth of the time.
// It returns the command that builds later or builds.
func (m *wsModel) rebuildSoon() tea.Cmd {
	if cmd := m.rebuildCmd(); cmd != nil {
		return cmd
	}
	return m.release()
}

// release, once a review pass is over and its index installed, gives the
// memory the reviews used back to the system, off the UI goroutine: the
// table keeps only summaries (tens of MB on 10,000 agents), and the heap
// the reviews grew would otherwise stay the process's size while it sits.
func (m *wsModel) release() tea.Cmd {
	if !m.releaseDue || m.dirty || m.building || len(m.queued) > 0 || m.done < m.total {
		return nil
	}
	m.releaseDue = false
	return func() tea.Msg {
		debug.FreeOSMemory()
		return nil
	}
}

func (m *wsModel) rebuildCmd() tea.Cmd {
	if !m.dirty || m.building {
		return nil // (a build in flight calls rebuildSoon again when it is in)
	}
	if m.rebuildTook < wsRebuildCheap && len(m.agents) < wsSmallTree {
		m.rebuild()
		return nil
	}
	if wait := 4*m.rebuildTook - time.Since(m.rebuiltAt); wait > 0 {
		if m.rebuildArmed {
			return nil
		}
		m.rebuildArmed = true
		ctx := m.ctx
		return tea.Tick(wait, func(time.Time) tea.Msg {
			if ctx.Err() != nil {
				return nil
			}
			return wsRebuildMsg{}
		})
	}
	m.building, m.dirty = true, false
	in, ctx := m.indexInput(), m.ctx
	return func() tea.Msg {
		if ctx.Err() != nil {
			return nil
		}
		return wsIndexMsg{in.build()}
	}
}

// wsRebuildCheap is a rebuild too quick to be worth putting off, on a
// tree of fewer than wsSmallTree agents (a bigger one's rebuilds grow as
// its reviews come in: they are always built off the UI goroutine).
const (
	wsRebuildCheap = 5 * time.Millisecond
	wsSmallTree    = 1000
)

// wsRebuildMsg: the index may be rebuilt now (rebuildSoon).
type wsRebuildMsg struct{}

// wsIndexMsg brings an index built off the UI goroutine.
type wsIndexMsg struct{ b *wsBuilt }

// wsIndexInput is what an index is built from: a copy of the summaries,
// so that the build may run off the UI goroutine.
type wsIndexInput struct {
	root, shown string
	list        []workspace.Agent
	cfg         *lint.Config
	packages    bool // the reviews are all in: make the package index for the next ones
}

// wsBuilt is an index and what the screen keeps of it.
type wsBuilt struct {
	ix     *workspace.Index
	all    []workspace.Row
	counts rowCounts
	names  map[string]string
	nameW  int
	pkgs   *compile.PackageIndex
	took   time.Duration
}

func (m *wsModel) indexInput() wsIndexInput {
	list := make([]workspace.Agent, 0, len(m.agents))
	for _, d := range m.dirs {
		if a, ok := m.agents[d]; ok {
			list = append(list, a)
		}
	}
	return wsIndexInput{root: m.root, shown: m.shown(), list: list, cfg: m.wcfg, packages: m.pool != nil && len(m.queued) == 0}
}

func (in wsIndexInput) build() *wsBuilt {
	t0 := time.Now()
	b := &wsBuilt{ix: workspace.Build(in.shown, in.list, in.cfg)}
	if in.packages {
		b.pkgs = b.ix.Packages(in.root)
	}
	b.all = b.ix.Rows()
	for _, r := range b.all {
		switch {
		case r.Problem != workspace.Readable:
			b.counts.broken++
		case r.Blockers > 0:
			b.counts.blocked++
		case r.Warnings > 0:
			b.counts.warned++
		}
	}
	b.names = names(b.ix)
	b.nameW = 5
	for _, n := range b.names {
		b.nameW = max(b.nameW, ansi.StringWidth(n))
	}
	b.took = time.Since(t0)
	return b
}

// rebuild makes the index and rows from the agents, on the UI goroutine
// (the call graph when the Graph tab next shows).
func (m *wsModel) rebuild() {
	m.dirty = false
	m.install(m.indexInput().build())
}

// install shows a built index.
func (m *wsModel) install(b *wsBuilt) {
	m.rebuiltAt, m.rebuildTook = time.Now(), b.took
	m.ix, m.all, m.counts, m.nameOf, m.nameW = b.ix, b.all, b.counts, b.names, b.nameW
	m.sorted = nil
	if m.pool != nil && b.pkgs != nil {
		m.pool.pkgs.Store(b.pkgs) // what the reviews read, without walking the tree again
	}
	m.refilter()
	m.cg = nil
	m.canvas, m.layout = nil, nil
	m.tree = nil
}

// sortKey is an order of the rows.
type sortKey struct {
	col     workspace.Column
	reverse bool
}

// rowCounts are the header's counts over every row.
type rowCounts struct{ broken, blocked, warned int }

// refilter sorts and filters the rows, keeping the selected agent.
func (m *wsModel) refilter() {
	// The sorted rows are kept until the index or the order changes: a
	// filter keystroke on a big tree only filters.
	if k := (sortKey{m.sortCol, m.reverse}); m.sorted == nil || m.sortedBy != k {
		m.sorted = slices.Clone(m.all)
		workspace.Sort(m.sorted, m.sortCol, m.reverse)
		m.sortedBy = k
	}
	m.rows = workspace.Filter(m.sorted, m.filter)
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
	case wsRebuildMsg:
		m.rebuildArmed = false
		return m, m.rebuildSoon()
	case wsIndexMsg:
		m.building = false
		m.install(msg.b)
		return m, m.rebuildSoon()
	case wsTickMsg:
		return m, m.tick() // the next frame shows the ages as of now
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
