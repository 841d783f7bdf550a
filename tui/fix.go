package tui

import (
	"bytes"
	"errors"
	"fmt"
	"github.com/oastui/oastui/present"
	"path/filepath"
	"strings"
	"time"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/diff"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/views"
)

// fixState is the fix preview overlay (`f` on a finding with fixes) and
// the fixes applied since the TUI started (`u` undoes the newest, then the
// one before, in order).
type fixState struct {
	preview *views.FixPreview // nil when closed
	// srcs are the bytes the analysis the preview was opened on read,
	// by path: the fix's edits are offsets into them, and the write is
	// refused when the disk no longer holds them.
	srcs    map[string][]byte
	display func(string) string
	busy    bool       // a write is in flight
	confirm bool       // Enter was pressed once on a dangerous fix: the next Enter applies it
	undo    []*undoRec // the fixes applied and not undone, oldest first
}

// undoRec is what undoing an applied fix takes: per file, the bytes the
// fix wrote and the edits that turn them back into the bytes it read;
// per file moved, the way back.
type undoRec struct {
	title   string
	applied *edit.Applied       // what the fix wrote (edit.Batch.Write)
	display func(string) string // a path as the messages name it
}

// fixDoneMsg reports a fix's write (or an undo's).
type fixDoneMsg struct {
	undo  bool
	title string
	rec   *undoRec // the files written (a partial write too): what u undoes
	wrote []string // the files written, as shown
	err   error
}

// fixOpen says the fix preview is open.
func (m *Model) fixOpen() bool { return m.fix.preview != nil }

// selectedFixable is the finding selected on the Findings tab when it is
// the tab shown.
func (m *Model) selectedFinding() (ok bool) {
	if m.curTab() != m.findings {
		return false
	}
	_, ok = m.findings.Selected()
	return ok
}

// openFix opens the preview of the selected finding's fixes.
func (m *Model) openFix() {
	if !m.selectedFinding() {
		m.note = "select a finding on the Findings tab (1) to fix it"
		return
	}
	x, _ := m.findings.Selected()
	if len(x.Fixes) == 0 {
		m.note = "no fix for " + x.Code + ": its repair is not mechanical (e edits the file)"
		return
	}
	if m.fix.busy {
		m.note = "a fix is being written; wait for it"
		return
	}
	srcs := map[string][]byte{}
	for p, d := range m.cur.Docs() {
		srcs[p] = d.Src
	}
	m.fix.srcs = srcs
	m.fix.display = m.displayPath
	m.fix.confirm = false
	m.fix.preview = views.NewFixPreview(x, srcs, m.displayPath)
	// An unsafe or dangerous fix changes what the platform compiles or
	// shows: its preview says how, with the diff engine, before it can be
	// applied (docs/fixes.md).
	for i, f := range x.Fixes {
		if f.Tier != edit.Safe {
			if m.cur != nil {
				m.fix.preview.AddCompiled(i, compiledChange(m.cur.Snapshot, m.cfg.Path, m.cfg.Options, f, srcs))
			}
		}
	}
}

// compiledChange is what fix f would change in the agent's compiled
// output and review, as `oastui diff` says it: the agent analysed again
// with the fixed bytes as an overlay, compared with the snapshot shown.
func compiledChange(cur *analysis.Snapshot, path string, opts analysis.Options, f edit.Fix, srcs map[string][]byte) []string {
	if cur == nil || len(f.Moves) > 0 {
		return nil
	}
	overlay := map[string][]byte{}
	for p, b := range opts.Load.Overlay {
		overlay[p] = b
	}
	for _, p := range f.Files() {
		b, err := edit.Apply(srcs[p], edit.EditsOf(f.Edits, p))
		if err != nil {
			return []string{"the compiled output after this fix cannot be shown: " + err.Error()}
		}
		overlay[p] = b
	}
	opts.Load.Overlay, opts.Agent, opts.Stages = overlay, nil, analysis.Everything
	after := analysis.Run(path, opts)
	var b bytes.Buffer
	if err := diff.Text(&b, diff.Diff(cur, after, diff.Options{OldRev: "now", NewRev: "with this fix"}), "", false); err != nil {
		return []string{"the compiled output after this fix cannot be shown: " + err.Error()}
	}
	out := []string{"what the platform gets after this fix (oastui diff):"}
	return append(out, strings.Split(strings.TrimRight(b.String(), "\n"), "\n")...)
}

// displayPath names a file relative to the agent's package directory
// (its base name when it is elsewhere), cleaned for the terminal.
func (m *Model) displayPath(p string) string {
	if m.cur != nil && m.cur.Agent != nil && m.cur.Agent.Dir != "" {
		dir, err1 := filepath.Abs(m.cur.Agent.Dir)
		abs, err2 := filepath.Abs(p)
		if err1 == nil && err2 == nil {
			if rel, err := filepath.Rel(dir, abs); err == nil && !strings.HasPrefix(rel, "..") {
				return present.Text(filepath.ToSlash(rel))
			}
		}
	}
	return present.Text(filepath.Base(p))
}

// fixKey handles a key while the preview is open.
func (m *Model) fixKey(k tea.KeyPressMsg) tea.Cmd {
	km, p := &m.keys, m.fix.preview
	m.note = ""
	switch {
	case key.Matches(k, km.ForceQuit):
		return tea.Quit
	case key.Matches(k, km.FixCancel):
		m.fix.preview = nil
	case key.Matches(k, km.FixApply):
		if fx := p.Chosen(); !fx.Tier.Within(edit.Unsafe) && !m.fix.confirm {
			m.fix.confirm = true // a dangerous fix: one at a time, and only on a second, explicit Enter
			m.note = "dangerous fix (approval, gates or riskClass): read the compiled-output change, then Enter again applies it; Esc cancels"
			return nil
		}
		m.fix.preview = nil
		m.fix.busy = true
		return applyFixCmd(p.Chosen(), m.fix.srcs, m.fix.display)
	case key.Matches(k, km.FixNext):
		p.Cycle(1)
		m.fix.confirm = false
	case key.Matches(k, km.FixPrev):
		p.Cycle(-1)
		m.fix.confirm = false
	case key.Matches(k, km.FixChoose):
		p.Choose(int(k.String()[0] - '1'))
		m.fix.confirm = false
	default:
		if n, ok := m.navOf(k); ok {
			p.Nav(n, max(1, m.h/2))
		}
	}
	return nil
}

// undo undoes the newest fix applied and not undone, when there is one.
func (m *Model) undo() tea.Cmd {
	if len(m.fix.undo) == 0 {
		m.note = "nothing to undo: every fix applied since oastui started was undone (or none was applied)"
		return nil
	}
	if m.fix.busy {
		m.note = "a fix is being written; wait for it"
		return nil
	}
	m.fix.busy = true
	return undoFixCmd(m.fix.undo[len(m.fix.undo)-1])
}

// undoLeft says how many fixes u can still undo.
func (m *Model) undoLeft() string {
	switch n := len(m.fix.undo); n {
	case 0:
		return ""
	case 1:
		return " · u undoes it"
	default:
		return fmt.Sprintf(" · u undoes it (%d fixes can be undone, newest first)", n)
	}
}

// quoted is a fix's title as the message line quotes it (no escapes: the
// title's own quotes show as they are).
func quoted(title string) string { return "“" + title + "”" }

// fixDone takes a write's result: the message line says what happened;
// without a watcher the model re-analyses itself (the watcher reports the
// write otherwise, as after any save).
func (m *Model) fixDone(msg fixDoneMsg) tea.Cmd {
	m.fix.busy = false
	wrote := strings.Join(msg.wrote, ", ")
	switch {
	case msg.undo && msg.err == nil:
		m.fix.undo = m.fix.undo[:len(m.fix.undo)-1]
		m.note = fmt.Sprintf("undone: %s (restored %s)", quoted(msg.title), wrote)
		if n := len(m.fix.undo); n > 0 {
			m.note += fmt.Sprintf(" · u undoes %s next (%d left)", quoted(m.fix.undo[n-1].title), n)
		}
	case msg.undo:
		m.note = fmt.Sprintf("cannot undo: %s (fix %s)", reason(msg.err), quoted(msg.title))
	case msg.err == nil:
		m.fix.undo = append(m.fix.undo, msg.rec)
		m.note = fmt.Sprintf("fixed: %s (wrote %s)", quoted(msg.title), wrote) + m.undoLeft()
	default:
		m.note = fmt.Sprintf("fix not applied: %s", reason(msg.err))
		if len(msg.wrote) > 0 {
			m.fix.undo = append(m.fix.undo, msg.rec)
			m.note += fmt.Sprintf("; %s was written before it, u undoes that", wrote)
		} else {
			m.note += "; nothing was written"
		}
		if errors.Is(msg.err, edit.ErrChanged) {
			m.note += " · r re-analyses"
		}
	}
	m.note = present.Text(m.note)
	if len(msg.wrote) == 0 || m.cfg.Batches != nil {
		return nil
	}
	return m.requestAnalysis(time.Time{})
}

// reason is a write error for the message line.
func reason(err error) string {
	var ce changedErr
	if errors.As(err, &ce) {
		return ce.shown + " changed on disk since " + ce.since
	}
	return err.Error()
}

// changedErr is a refusal because the file on disk is not the one the
// fix was computed from (or, for an undo, the one the fix wrote).
type changedErr struct {
	shown, since string
}

func (e changedErr) Error() string { return e.shown + ": " + edit.ErrChanged.Error() }
func (e changedErr) Unwrap() error { return edit.ErrChanged }

// applyFixCmd writes fix to disk through edit's batch writer, against the
// bytes the analysis read: every file is checked before the first is
// written, so a file changed on disk refuses the whole fix.
func applyFixCmd(fix edit.Fix, srcs map[string][]byte, display func(string) string) tea.Cmd {
	return func() tea.Msg {
		msg := fixDoneMsg{title: fix.Title}
		b := edit.Plan([]edit.Candidate{{ID: "this fix", Fixes: []edit.Fix{fix}}})
		if len(b.Skipped) > 0 {
			msg.err = fmt.Errorf("the fix cannot be applied: %s", b.Skipped[0].Reason) // e.g. it edits a file it moves
			return msg
		}
		applied, err := b.Write(srcs)
		var ce *edit.ChangedError
		if errors.As(err, &ce) {
			err = changedErr{display(ce.Paths[0]), "it was analysed"}
		}
		msg.err = err
		if applied != nil && len(applied.Paths()) > 0 {
			msg.rec = &undoRec{title: fix.Title, applied: applied, display: display}
			msg.wrote = wroteList(applied, display, false)
		}
		return msg
	}
}

// wroteList names what a fix wrote (or, back, what its undo restored).
func wroteList(a *edit.Applied, display func(string) string, back bool) []string {
	var out []string
	for _, f := range a.Files {
		out = append(out, display(f.Path))
	}
	for _, m := range a.Moves {
		from, to := display(m.From), display(m.To)
		if back {
			from, to = to, from
		}
		out = append(out, from+" → "+to)
	}
	return out
}

// undoFixCmd undoes a fix through edit's one undo (Applied.Undo: every
// file checked before any is written back).
func undoFixCmd(rec *undoRec) tea.Cmd {
	return func() tea.Msg {
		msg := fixDoneMsg{undo: true, title: rec.title}
		err := rec.applied.Undo()
		var ce *edit.ChangedError
		if errors.As(err, &ce) {
			err = changedErr{rec.display(ce.Paths[0]), "the fix was applied"}
		}
		if msg.err = err; err == nil {
			msg.wrote = wroteList(rec.applied, rec.display, true)
		}
		return msg
	}
}
