package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/oastui/oastui/internal/testgit"
	"github.com/oastui/oastui/views"
)

// drain runs cmd and the commands its messages lead to, as the program
// would, feeding every message back to m (commands that do not answer
// within a few seconds are left).
func drain(t *testing.T, m *Model, cmd tea.Cmd) {
	t.Helper()
	queue := []tea.Cmd{cmd}
	for rounds := 0; len(queue) > 0 && rounds < 50; rounds++ {
		c := queue[0]
		queue = queue[1:]
		if c == nil {
			continue
		}
		ch := make(chan tea.Msg, 1)
		go func() { ch <- c() }()
		var msg tea.Msg
		select {
		case msg = <-ch:
		case <-time.After(10 * time.Second):
			continue
		}
		if b, ok := msg.(tea.BatchMsg); ok {
			queue = append(queue, b...)
			continue
		}
		if msg == nil {
			continue
		}
		_, next := m.Update(msg)
		queue = append(queue, next)
	}
}

// historyTab is the number key of the History tab.
func historyTab(m *Model) string {
	return string(rune('1' + m.tabIndex(tabOf[*views.History](m))))
}

// TestHistoryTabEnterShowsBeforeAfter: in the agent view, the History tab
// lists the agent's commits; ↓↓ chooses the prompt rewording, enter moves
// into its changes, enter on the prompt change shows before and after.
func TestHistoryTabEnterShowsBeforeAfter(t *testing.T) {
	dir := testgit.LeafHistory(t, filepath.Join("..", "testdata", "agents"))
	m := newModel(t, dir, 120, 36, analyze(t, dir, 1))
	drain(t, m, press(m, historyTab(m)))
	if out := plain(m); !strings.Contains(out, "reword the summary prompt") || !strings.Contains(out, "add a polish step") {
		t.Fatalf("History tab does not list the commits:\n%s", out)
	}
	drain(t, m, press(m, "down"))
	// the polish step: the graph marks the node added (+) and the node
	// whose control edge changed (~)
	if out := plain(m); !strings.Contains(out, "╭+") || !strings.Contains(out, "╭~") {
		t.Errorf("the graph does not mark the added and changed nodes:\n%s", out)
	}
	drain(t, m, press(m, "down"))
	if out := plain(m); !strings.Contains(out, "system prompt of \"Summarise topic\"") {
		t.Fatalf("the rewording's changes are not shown:\n%s", out)
	}
	drain(t, m, press(m, "enter"))
	if sel := m.graph.NodeInfo(); sel == nil || !strings.HasSuffix(sel.Pointer, "/summarize") {
		t.Errorf("in the changes, the graph does not select the changed node: %+v", sel)
	}
	drain(t, m, press(m, "enter"))
	out := plain(m)
	for _, want := range []string{"before", "after", "five sentences. Cite the sources", "three sentences for a busy reader"} {
		if !strings.Contains(out, want) {
			t.Errorf("enter on the prompt change: no %q:\n%s", want, out)
		}
	}
	drain(t, m, press(m, "esc"))
	drain(t, m, press(m, "esc"))
	press(m, "1")
	if strings.Contains(plain(m), "╭~") {
		t.Errorf("another tab shown, the graph still has History's marks:\n%s", plain(m))
	}
	press(m, historyTab(m))
	if out := plain(m); strings.Contains(out, "five sentences. Cite the sources") || !strings.Contains(out, "reword the summary prompt") {
		t.Errorf("esc esc does not come back to the commits:\n%s", out)
	}
}

// TestHistoryTabOutsideGit: an agent outside a git work tree: the tab says
// so plainly.
func TestHistoryTabOutsideGit(t *testing.T) {
	testgit.Have(t)
	dir := copyDir(t, fixture("clean-agent"))
	m := newModel(t, dir, 120, 30, analyze(t, dir, 1))
	drain(t, m, press(m, historyTab(m)))
	if out := strings.Join(strings.Fields(plain(m)), " "); !strings.Contains(out, "not in a git work tree") {
		t.Errorf("outside git:\n%s", plain(m))
	}
}
