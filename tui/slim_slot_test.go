package tui

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
)

// slimSlotFixture is the minimal slim-slot agent of the lint fixtures
// (lint/testdata/gen_slim_slots.py): it declares the slot draftContext
// and names the consumer's input contextSlotBindings; the WayFlow loader
// injects the context step context_<slot> after the start at mount
// (cinatra-ai/cinatra docker/wayflow/context_subflow_injection.py).
var slimSlotFixture = filepath.Join("..", "lint", "testdata", "rules", "ok", "context_slot_mount_refused", "slim-one-slot")

// TestSlimSlotGolden (issue 33 §3): the graph and the Steps tab of a
// slim-slot agent show the context step the loader injects, marked as
// added by the loader at mount (it is not in the file), at the three
// sizes of the screen goldens.
func TestSlimSlotGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {100, 30}, {140, 40}} {
		name := itoa(sz.w) + "x" + itoa(sz.h)
		for _, c := range []struct {
			view string
			keys []string
		}{{"graph", nil}, {"steps", []string{"2"}}} {
			t.Run(name+"_"+c.view, func(t *testing.T) {
				m := newModel(t, slimSlotFixture, sz.w, sz.h, analyze(t, slimSlotFixture, 1))
				m.cfg.DisplayPath = "agents/acme/slim-agent"
				press(m, c.keys...)
				out := m.Render()
				assertFrame(t, out, m.w, m.h)
				screen := ansi.Strip(out)
				// the pane that shows the view: the graph on the left of each
				// line, the tab on the right
				var left, right strings.Builder
				for _, line := range strings.Split(screen, "\n")[2:] {
					l, r, _ := strings.Cut(line, "││")
					left.WriteString(l + "\n")
					right.WriteString(r + "\n")
				}
				switch {
				case c.view == "graph" && strings.Count(left.String(), "Resolve draftContext (at mount)") != 1,
					c.view == "steps" && (!strings.Contains(right.String(), "+  Resolve draf") || !strings.Contains(right.String(), "at mount")):
					t.Errorf("the %s view does not show the injected context step marked at mount:\n%s", c.view, screen)
				}
				golden.RequireEqual(t, screen)
			})
		}
	}
}
