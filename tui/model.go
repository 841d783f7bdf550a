package tui

import (
	"fmt"
	"os"
	"strings"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/tui/watch"
	"github.com/oastui/oastui/views"
)

type focus int

const (
	focusGraph focus = iota
	focusSide
)

// Tabs of the side pane, in order (keys 1–5).
const (
	tabFindings = iota
	tabSteps
	tabNode
	tabCompiled
	tabSlots
	numTabs
)

var tabNames = [numTabs]string{"Findings", "Steps", "Node", "Compiled", "Slots"}

// Messages.
type (
	analysisMsg struct{ an *Analysis }
	batchMsg    struct{ b watch.Batch }
	watchErrMsg struct{ err error }
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
	Project     string              // project the context picker starts with (--project)

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

	seqReq     uint64 // last analysis requested
	seqApplied uint64 // last analysis shown
	pending    int    // analyses in flight

	focus    focus
	tab      int
	zoom     bool
	showHelp bool

	filtering bool
	filterBuf string

	findings views.Findings
	steps    views.Steps
	node     views.Text
	compiled views.Text
	slots    views.Slots
	graph    graphState
	pick     pickerState

	note    string // one-line message (editor failure, watch error)
	project string // project the context picker resolves for ("" = none); P cycles it
}

// New builds the model; call Init through a tea.Program.
func New(cfg Config) *Model {
	if cfg.Options.Mode == "" {
		cfg.Options.Mode = lint.ModeDeterministic
	}
	m := &Model{cfg: cfg, th: views.NewTheme(true), w: 80, h: 24, project: cfg.Project}
	m.compiled.SetNumbered(true)
	m.graph.init()
	return m
}

// Init starts the first analysis and listens to the watcher.
func (m *Model) Init() tea.Cmd {
	return tea.Batch(m.requestAnalysis(time.Time{}), m.waitBatch(), m.waitWatchErr(), tea.RequestBackgroundColor)
}

func (m *Model) waitBatch() tea.Cmd {
	return waitOn(m.cfg.Batches, func(b watch.Batch) tea.Msg { return batchMsg{b} })
}

func (m *Model) waitWatchErr() tea.Cmd {
	return waitOn(m.cfg.WatchErrors, func(err error) tea.Msg { return watchErrMsg{err} })
}

// waitOn is a command that waits for the next value on ch and wraps it as a
// message; nil when there is no channel (tests) or once it is closed.
func waitOn[T any](ch <-chan T, wrap func(T) tea.Msg) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		v, ok := <-ch
		if !ok {
			return nil
		}
		return wrap(v)
	}
}

// requestAnalysis runs Analyze off the UI goroutine with a new sequence
// number; results arriving out of order are dropped (the newest wins).
func (m *Model) requestAnalysis(trigger time.Time) tea.Cmd {
	m.seqReq++
	m.pending++
	seq, path, opts, tr, pin := m.seqReq, m.cfg.Path, m.cfg.Options, m.cfg.Tracer, m.cfg.pin
	return func() tea.Msg {
		an := Analyze(path, opts, seq)
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
	case editorMsg:
		if msg.err != nil {
			m.note = "editor: " + msg.err.Error()
		}
		// The file was probably saved; the watcher reports that. Without
		// a watcher, re-analyse here.
		if m.cfg.Batches != nil {
			return m, nil
		}
		return m, m.requestAnalysis(time.Time{})
	case tea.KeyPressMsg:
		if m.pick.open {
			if msg.String() == "ctrl+c" {
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
	if an.Good() {
		m.good = an
	}
	m.findings.SetFindings(an.Review.Findings, an.Docs(), an.FlowFile())
	if g := m.good; g != nil {
		m.steps.SetSteps(views.StepRows(g.Compiled), errText(g.CompileErr))
		lines, err := []string(nil), g.CompileErr
		if g.Compiled != nil {
			lines, err = views.CompiledLines(g.Compiled)
		}
		if err == nil {
			m.compiled.SetLines(lines)
		} else {
			m.compiled.SetLines([]string{m.th.Blocker.Render("not compiled: " + views.Clean(err.Error()))})
		}
		m.slots.SetSlots(views.SlotRows(g.Slots), views.SlotNote(g.SlotProblem))
		m.graph.setAnalysis(g, an)
	} else {
		m.graph.note = "no graph yet: the agent does not load or its flow file does not parse (see Findings)"
		m.compiled.SetLines([]string{m.th.Dim.Render(m.graph.note)})
		m.steps.SetSteps(nil, "not compiled: the flow file does not parse")
	}
	m.layout()
	m.refreshNode()
}

// errText is err's message, or "" for nil.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Stale says the graph and steps on screen are older than the newest
// analysis (the flow file is broken or gone).
func (m *Model) Stale() bool { return m.cur != nil && m.good != m.cur }

// Current and LastGood expose the snapshots (tests).
func (m *Model) Current() *Analysis  { return m.cur }
func (m *Model) LastGood() *Analysis { return m.good }

// key handles one key press.
func (m *Model) key(k tea.KeyPressMsg) tea.Cmd {
	s := k.String()
	m.note = "" // a message stays until the next key
	if m.filtering {
		return m.filterKey(k)
	}
	if m.showHelp {
		switch s {
		case "?", "esc", "q":
			m.showHelp = false
		case "ctrl+c":
			return tea.Quit
		}
		return nil
	}
	switch s {
	case "q", "ctrl+c":
		return tea.Quit
	case "?":
		m.showHelp = true
		return nil
	case "tab":
		m.focus = 1 - m.focus
		return nil
	case "shift+tab":
		m.focus = 1 - m.focus
		return nil
	case "1", "2", "3", "4", "5":
		m.tab = int(s[0] - '1')
		m.focus = focusSide
		m.layout()
		return nil
	case "[":
		m.tab = (m.tab + numTabs - 1) % numTabs
		return nil
	case "]":
		m.tab = (m.tab + 1) % numTabs
		return nil
	case "r":
		m.note = ""
		return m.requestAnalysis(time.Time{})
	case "m":
		if m.cfg.Options.Mode == lint.ModeAdvisory {
			m.cfg.Options.Mode = lint.ModeDeterministic
		} else {
			m.cfg.Options.Mode = lint.ModeAdvisory
		}
		return m.requestAnalysis(time.Time{})
	case "/":
		m.tab = tabFindings
		m.focus = focusSide
		m.filtering = true
		m.filterBuf = m.findings.Filter()
		m.layout()
		return nil
	case "z":
		m.zoom = !m.zoom
		m.layout()
		return nil
	case "e":
		return m.openEditor()
	case "p":
		if m.tab == tabSlots {
			return m.openPicker()
		}
	case "P":
		if m.tab == tabSlots {
			return m.nextProjectCmd()
		}
	}
	if m.focus == focusGraph {
		m.graphKey(s)
		return nil
	}
	m.sideKey(s)
	return nil
}

func (m *Model) filterKey(k tea.KeyPressMsg) tea.Cmd {
	switch k.String() {
	case "enter":
		m.filtering = false
	case "esc":
		m.filtering = false
		m.filterBuf = ""
		m.findings.SetFilter("")
	case "backspace":
		if r := []rune(m.filterBuf); len(r) > 0 {
			m.filterBuf = string(r[:len(r)-1])
			m.findings.SetFilter(m.filterBuf)
		}
	case "ctrl+c":
		return tea.Quit
	default:
		if k.Text != "" {
			m.filterBuf += views.Clean(k.Text)
			m.findings.SetFilter(m.filterBuf)
		}
	}
	m.layout()
	m.syncSelectionFromSide()
	return nil
}

// listPane is what the Findings, Steps and Slots tabs share: a cursor over rows.
type listPane interface {
	Move(d int)
	Home()
	End()
}

func (m *Model) sideKey(s string) {
	page := max(1, m.sideInnerH()-2)
	var list listPane
	switch m.tab {
	case tabFindings:
		if s == "enter" {
			m.syncSelectionFromSide()
			m.focus = focusGraph
			return
		}
		list = &m.findings
	case tabSteps:
		list = &m.steps
	case tabSlots:
		list = &m.slots
	case tabNode, tabCompiled:
		m.textKey(s, page)
		return
	}
	switch s {
	case "down", "j":
		list.Move(1)
	case "up", "k":
		list.Move(-1)
	case "pgdown", "ctrl+d":
		list.Move(page)
	case "pgup", "ctrl+u":
		list.Move(-page)
	case "home", "g":
		list.Home()
	case "end", "G":
		list.End()
	default:
		return
	}
	m.syncSelectionFromSide()
}

// textKey scrolls the Node or Compiled tab.
func (m *Model) textKey(s string, page int) {
	t := &m.node
	if m.tab == tabCompiled {
		t = &m.compiled
	}
	switch s {
	case "down", "j":
		t.Scroll(1)
	case "up", "k":
		t.Scroll(-1)
	case "pgdown", "ctrl+d", "space":
		t.Scroll(page)
	case "pgup", "ctrl+u":
		t.Scroll(-page)
	case "home", "g":
		t.Home()
	case "end", "G":
		t.End()
	case "right", "l":
		t.ScrollH(4)
	case "left", "h":
		t.ScrollH(-4)
	}
}

// syncSelectionFromSide selects in the graph the node of the finding or
// step under the side cursor.
func (m *Model) syncSelectionFromSide() {
	switch m.tab {
	case tabFindings:
		if f, ok := m.findings.Selected(); ok && f.Location != "" && (m.good == nil || m.good.Agent == nil || f.File == m.good.Agent.FlowPath) {
			m.graph.selectPointer(f.Location)
		}
	case tabSteps:
		if st, ok := m.steps.Selected(); ok && st.NodeID != "" {
			m.graph.selectID(st.NodeID)
		}
	}
	m.refreshNode()
}

func (m *Model) graphKey(s string) {
	switch s {
	case "down", "j":
		m.graph.move(1)
	case "up", "k":
		m.graph.move(-1)
	case "left", "h":
		m.graph.moveSide(-1)
	case "right", "l":
		m.graph.moveSide(1)
	case "pgdown", "ctrl+d":
		m.graph.scroll(0, max(1, m.graph.h-2))
	case "pgup", "ctrl+u":
		m.graph.scroll(0, -max(1, m.graph.h-2))
	case ">", "L":
		m.graph.scroll(8, 0)
	case "<", "H":
		m.graph.scroll(-8, 0)
	case "home", "g":
		m.graph.first()
	case "end", "G":
		m.graph.last()
	case "enter":
		m.graph.open()
	case "backspace", "esc":
		m.graph.back()
	default:
		return
	}
	m.refreshNode()
}

func (m *Model) refreshNode() {
	m.node.SetLines(views.NodeLines(m.th, m.graph.nodeInfo(), m.sideInnerW()))
}

// openEditor suspends the TUI and opens the editor at the selected finding
// (Findings tab) or node.
func (m *Model) openEditor() tea.Cmd {
	file, line, col := "", 0, 0
	if m.focus == focusSide && m.tab == tabFindings {
		if f, ok := m.findings.Selected(); ok {
			file, line, col = f.File, f.Line, f.Column
		}
	}
	if file == "" {
		file, line, col = m.graph.nodePosition()
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
	c := EditorCommand(getenv, file, line, col)
	return tea.ExecProcess(c, func(err error) tea.Msg { return editorMsg{err} })
}

// openPicker opens the context picker for the selected slot (see picker.go).
func (m *Model) openPicker() tea.Cmd {
	if _, ok := m.slots.Selected(); !ok {
		m.note = "no context slot to pick for"
		return nil
	}
	return m.pickerCmd()
}
