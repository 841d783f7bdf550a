package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/views"
)

func selectedID(m *Model) string {
	_, n := m.graph.SelectedNode()
	if n == nil {
		return ""
	}
	return n.ID
}

func TestGraphNavigation(t *testing.T) {
	p := fixture("subflow-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	if got := selectedID(m); got != "start" {
		t.Fatalf("initial selection %q", got)
	}
	press(m, "j")
	if got := selectedID(m); got != "draft" {
		t.Errorf("j: %q", got)
	}
	press(m, "j")
	if got := selectedID(m); got != "review" {
		t.Errorf("j j: %q", got)
	}
	info := m.graph.NodeInfo()
	if info == nil || !strings.Contains(strings.Join(info.Inputs, ","), "draft: string") ||
		!strings.Contains(strings.Join(info.DataIn, ","), "draft.draft → draft") ||
		!strings.Contains(strings.Join(info.DataOut, ","), "verdict → end.verdict") {
		t.Errorf("node info %+v", info)
	}
	press(m, "enter")
	if m.graph.Depth() != 2 || !strings.Contains(m.graph.Breadcrumb(), "›") {
		t.Fatalf("enter did not open the subflow: %v %q", m.graph.Depth(), m.graph.Breadcrumb())
	}
	if got := selectedID(m); got != "r_start" {
		t.Errorf("in subflow: %q", got)
	}
	if !strings.Contains(plain(m), "Check draft") {
		t.Error("subflow not drawn")
	}
	press(m, "backspace")
	if m.graph.Depth() != 1 || selectedID(m) != "review" {
		t.Errorf("backspace: stack %v selected %q", m.graph.Depth(), selectedID(m))
	}
	press(m, "k", "k", "k", "k")
	if got := selectedID(m); got != "start" {
		t.Errorf("k at top: %q", got)
	}
	press(m, "G")
	if got := selectedID(m); got != "end" {
		t.Errorf("G: %q", got)
	}
	// Enter on a node without subflow does nothing.
	press(m, "enter")
	if m.graph.Depth() != 1 {
		t.Error("enter on an EndNode opened something")
	}
}

func TestFindingSelectsNode(t *testing.T) {
	// The fixture's blockers are on "draft" and on "r_check" inside the
	// "review" subflow.
	p := findingsFixture
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	press(m, "1") // findings tab, side focus
	press(m, "down", "up")
	if got := selectedID(m); got != "draft" {
		t.Errorf("finding on draft selects %q", got)
	}
	press(m, "down")
	if got := selectedID(m); got != "review" {
		t.Errorf("finding inside the subflow selects %q in the top flow", got)
	}
	// Inside the subflow the same finding selects the inner node.
	press(m, "tab", "enter", "tab")
	m.syncSelectionFromSide()
	if got := selectedID(m); got != "r_check" {
		t.Errorf("inside the subflow: %q (stack %v)", got, m.graph.Depth())
	}
}

func TestStepSelectsNode(t *testing.T) {
	p := fixture("subflow-agent")
	m := newModel(t, p, 120, 30, analyze(t, p, 1))
	if len(views.StepRows(m.good.Compiled)) == 0 {
		t.Fatalf("fixture has no compiled steps: %s", m.good.CompileErr)
	}
	press(m, "2", "down")
	st, _ := tabOf[*views.Steps](m).Selected()
	if st.NodeID == "" || selectedID(m) != st.NodeID {
		t.Errorf("step %d node %q, graph selects %q", st.Number, st.NodeID, selectedID(m))
	}
}

// TestPickerFromSlots opens the context picker over the example agent's
// demo catalog (testdata/.oastui/catalog.json) and cancels it.
func TestPickerFromSlots(t *testing.T) {
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	if _, err := os.Stat(filepath.Join("..", "testdata", ".oastui", "catalog.json")); err != nil {
		t.Fatalf("the demo catalog is missing: %v", err)
	}
	m := newModel(t, p, 120, 40, analyze(t, p, 1))
	press(m, "5")
	if len(m.good.Slots) == 0 {
		t.Fatal("example agent has no slots")
	}
	cmd := press(m, "p")
	if cmd == nil {
		t.Fatalf("p returned no command (note %q)", m.note)
	}
	m.Update(cmd())
	if !m.pick.open {
		t.Fatalf("picker not open (note %q)", m.note)
	}
	if s := plain(m); !strings.Contains(s, "enter confirm") {
		t.Errorf("picker not drawn:\n%s", s)
	}
	assertFrame(t, m.Render(), 120, 40)
	cmd = press(m, "esc")
	for cmd != nil {
		msg := cmd()
		if msg == nil {
			break
		}
		_, cmd = m.Update(msg)
	}
	if m.pick.open || m.note != "picker cancelled" {
		t.Errorf("after esc: open=%v note=%q", m.pick.open, m.note)
	}
}

// TestPickerProjectCycle: P on the Slots tab moves the picker to the
// catalog's project (only that project's artifacts, grouped Project), then
// back to no project (the other four scopes).
func TestPickerProjectCycle(t *testing.T) {
	p := filepath.Join("..", "testdata", "agents", "oastui", "example-agent")
	m := newModel(t, p, 120, 40, analyze(t, p, 1))
	press(m, "5")
	open := func(key string) string {
		t.Helper()
		cmd := press(m, key)
		if cmd == nil {
			t.Fatalf("%s returned no command (note %q)", key, m.note)
		}
		m.Update(cmd())
		if !m.pick.open {
			t.Fatalf("%s: picker not open (note %q)", key, m.note)
		}
		s := plain(m)
		m.pick = pickerState{} // close it without confirming
		return s
	}
	withProject := open("P")
	if m.project != "p-launch" || !strings.Contains(withProject, "Project") || !strings.Contains(withProject, "project p-launch") ||
		strings.Contains(withProject, "Workspace") {
		t.Errorf("P: project %q, picker:\n%s", m.project, withProject)
	}
	if s := plain(m); !strings.Contains(s, "project: p-launch") {
		t.Errorf("help line does not name the project:\n%s", s)
	}
	withoutProject := open("P")
	if m.project != "" || strings.Contains(withoutProject, "project p-launch") || !strings.Contains(withoutProject, "Workspace") {
		t.Errorf("second P: project %q, picker:\n%s", m.project, withoutProject)
	}
}

func TestNextProject(t *testing.T) {
	ids := []string{"p1", "p2"}
	for _, tc := range []struct{ cur, want string }{{"", "p1"}, {"p1", "p2"}, {"p2", ""}, {"gone", ""}} {
		if got := nextProject(tc.cur, ids); got != tc.want {
			t.Errorf("nextProject(%q) = %q, want %q", tc.cur, got, tc.want)
		}
	}
	if got := nextProject("", nil); got != "" {
		t.Errorf("no projects: %q", got)
	}
}
