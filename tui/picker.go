package tui

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/slots"
	"github.com/oastui/oastui/slots/audit"
	"github.com/oastui/oastui/views"
)

// The context picker opens over the screen from the Slots tab (`p`): the
// candidates come from the dev catalog (.oastui/catalog.json at the
// workspace root), confirming appends the audit rows (.oastui/audit.db)
// as `oastui pick` does.

type (
	pickerReadyMsg struct {
		p   *slots.Prepared
		err error
		// project is the project the picker was prepared for; changed says
		// it comes from `P` and becomes the model's current project.
		project string
		changed bool
	}
	pickerSavedMsg struct {
		rows  int
		wrote bool
		path  string
		err   error
	}
)

type pickerState struct {
	open     bool
	picker   views.Picker
	prepared *slots.Prepared
}

// pickerCmd prepares the slot (reads the catalog) off the UI goroutine.
func (m *Model) pickerCmd(slot string) tea.Cmd {
	a, project, catalog := m.good.Agent, m.project, m.cfg.Catalog
	return func() tea.Msg {
		p, err := slots.Prepare(a, slot, project, catalog)
		return pickerReadyMsg{p: p, err: err, project: project}
	}
}

// nextProjectCmd moves to the next project of the catalog's actor (none →
// each of actor.projectIds → none) and opens the picker for it: with a
// project only that project's artifacts are candidates, without one only
// artifacts outside every project (SPEC §5), so this is how the Project
// group is reached from the TUI.
func (m *Model) nextProjectCmd(slot string) tea.Cmd {
	a, cur, catalog := m.good.Agent, m.project, m.cfg.Catalog
	return func() tea.Msg {
		p, err := slots.Prepare(a, slot, "", catalog) // reads the actor's projects
		if err != nil {
			return pickerReadyMsg{err: err}
		}
		next := nextProject(cur, p.Catalog.Actor.ProjectIDs)
		if next != "" {
			p, err = slots.Prepare(a, slot, next, catalog)
		}
		return pickerReadyMsg{p: p, err: err, project: next, changed: true}
	}
}

// nextProject returns the project after cur in ids, "" after the last one
// (and when cur is not among them).
func nextProject(cur string, ids []string) string {
	if cur == "" {
		if len(ids) > 0 {
			return ids[0]
		}
		return ""
	}
	for i, id := range ids {
		if id == cur && i+1 < len(ids) {
			return ids[i+1]
		}
	}
	return ""
}

func (m *Model) pickerReady(msg pickerReadyMsg) {
	if msg.err != nil {
		m.note = "picker: " + msg.err.Error()
		return
	}
	if msg.changed {
		m.project = msg.project
	}
	p := msg.p
	cfg := views.PickerConfig{Slot: p.Slot, Candidates: p.Offered, Titles: p.Catalog.Titles(), Empty: p.Empty,
		ProjectID: msg.project, Preselect: m.picks[p.Slot.SlotID]}
	m.pick = pickerState{open: true, picker: views.NewPicker(cfg).SetSize(m.w, m.h), prepared: p}
}

// pickerUpdate routes a message to the open picker.
func (m *Model) pickerUpdate(msg tea.Msg) tea.Cmd {
	var cmd tea.Cmd
	m.pick.picker, cmd = m.pick.picker.Update(msg)
	return cmd
}

// pickerDone closes the picker; a confirmed selection is revalidated and
// recorded in the audit database off the UI goroutine.
func (m *Model) pickerDone(msg views.PickerDoneMsg) tea.Cmd {
	p := m.pick.prepared
	m.pick = pickerState{}
	if msg.Canceled || p == nil || m.good == nil {
		m.note = "picker cancelled"
		return nil
	}
	a, db := m.good.Agent, m.cfg.Audit
	env := msg.Envelope
	m.remember(p, env)
	return func() tea.Msg {
		pkg, err := slots.PackageName(a)
		if err != nil {
			return pickerSavedMsg{err: err}
		}
		if db == "" {
			db = filepath.Join(slots.WorkspaceRoot(a), slots.AuditFile)
		}
		if err := os.MkdirAll(filepath.Dir(db), 0o755); err != nil {
			return pickerSavedMsg{err: err}
		}
		store, err := audit.Open(db)
		if err != nil {
			return pickerSavedMsg{err: err}
		}
		defer store.Close()
		var b [8]byte
		_, _ = rand.Read(b[:])
		refs, rec, err := audit.Confirm(context.Background(), store, p, env, "dev-"+hex.EncodeToString(b[:]), pkg)
		return pickerSavedMsg{rows: len(refs), wrote: rec.Wrote, path: db, err: err}
	}
}

// remember keeps a confirmed pick: the Slots tab shows it under its slot
// and the picker opens on it next time.
func (m *Model) remember(p *slots.Prepared, env slots.Envelope) {
	if m.picks == nil {
		m.picks = map[string][]slots.Ref{}
	}
	m.picks[p.Slot.SlotID] = env.SelectedRefs
	titles := p.Catalog.Titles()
	var names []string
	for _, r := range env.SelectedRefs {
		n := titles[r.ArtifactID]
		if n == "" {
			n = r.ArtifactID
		}
		names = append(names, n)
	}
	summary := "nothing"
	if len(names) > 0 {
		summary = strings.Join(names, ", ")
	}
	for _, t := range m.tabs {
		if s, ok := t.(*views.Slots); ok {
			s.SetPicked(p.Slot.SlotID, summary)
		}
	}
}

func (m *Model) pickerSaved(msg pickerSavedMsg) {
	switch {
	case msg.err != nil:
		m.note = "picker: " + msg.err.Error()
	case msg.rows == 0:
		m.note = "picker: nothing selected, no audit row"
	default:
		m.note = fmt.Sprintf("picker: %d ref(s) recorded in %s", msg.rows, msg.path)
	}
}
