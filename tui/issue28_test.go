package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
)

// TestTabTitleNamesWhole: at every width the side pane's title shows
// whole tab names only (a window around the active tab, ‹ › saying more
// lie either way), the active one always (issue 28: not Fin│Ste│Nod).
func TestTabTitleNamesWhole(t *testing.T) {
	m := newModel(t, findingsFixture, 80, 24, analyze(t, findingsFixture, 1))
	names := map[string]bool{}
	for _, p := range m.tabs {
		names[p.Name()] = true
	}
	for w := 16; w <= 80; w++ {
		for tab := range m.tabs {
			m.tab = tab
			title := ansi.Strip(m.tabTitle(w))
			if ansi.StringWidth(title) > w {
				t.Errorf("width %d: title %q is wider", w, title)
			}
			if !strings.Contains(title, m.tabs[tab].Name()) {
				t.Errorf("width %d: the active tab %s is not in %q", w, m.tabs[tab].Name(), title)
			}
			for _, part := range strings.FieldsFunc(strings.Trim(title, "‹›"), func(r rune) bool { return r == '│' }) {
				name, _, _ := strings.Cut(strings.TrimSpace(part), " ")
				if !names[name] {
					t.Errorf("width %d, tab %d: %q is no whole tab name (title %q)", w, tab, name, title)
				}
			}
		}
	}
}
