package views

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
)

// A slim context slot's context step, which the WayFlow loader adds at
// mount, shows in the Steps tab after the setup step and in the graph,
// marked as not in the file; an agent without slim slots shows none.
func TestStepsShowTheInjectedContextStep(t *testing.T) {
	slim := analysis.Run(filepath.Join("..", "lint", "testdata", "rules", "ok", "context_slot_mount_refused", "slim-one-slot"), analysis.Options{Stages: analysis.Everything})
	var s Steps
	s.SetSize(160, 20)
	s.Show(Shown{LastParsed: slim})
	view := s.View(Theme{})
	if !strings.Contains(view, "Resolve draftContext (at mount)") || !strings.Contains(view, "added by the loader at mount, not in the file") {
		t.Errorf("steps tab:\n%s", view)
	}
	lines := strings.Split(view, "\n")
	at, write := -1, -1
	for i, l := range lines {
		if strings.Contains(l, "Resolve draftContext") {
			at = i
		}
		if strings.Contains(l, " write ") && write < 0 {
			write = i
		}
	}
	if at < 0 || write >= 0 && write < at {
		t.Errorf("the injected step is not before the consumer:\n%s", view)
	}
	g, err := topModel(slim)
	if err != nil {
		t.Fatal(err)
	}
	if i := g.NodeIndex("context_draftContext"); i < 0 || !g.Nodes[i].Injected || g.Nodes[i].Pointer != "" {
		t.Errorf("graph model: %+v", g.Nodes)
	}

	explicit := analysis.Run(filepath.Join("..", "lint", "testdata", "rules", "ok", "context_slot_not_wired", "ok-agentdependencies"), analysis.Options{Stages: analysis.Everything})
	s.Show(Shown{LastParsed: explicit})
	if v := s.View(Theme{}); strings.Contains(v, "at mount") {
		t.Errorf("the explicit form shows an injected step:\n%s", v)
	}
}

// The Slots tab says a slim slot is wired by the loader at mount.
func TestSlotRowsSayTheForm(t *testing.T) {
	slim := analysis.Run(filepath.Join("..", "lint", "testdata", "rules", "ok", "context_slot_mount_refused", "slim-one-slot"), analysis.Options{Stages: analysis.Everything})
	rows := SlotRows(slim.Slots)
	if len(rows) != 1 || !rows[0].OK || rows[0].Status != "wired by the loader at mount (slim)" || slim.Slots[0].Form != "slim" {
		t.Errorf("%+v %+v", rows, slim.Slots)
	}
	explicit := analysis.Run(filepath.Join("..", "lint", "testdata", "rules", "ok", "context_slot_not_wired", "ok-agentdependencies"), analysis.Options{Stages: analysis.Everything})
	if rows := SlotRows(explicit.Slots); len(rows) != 1 || rows[0].Status != "wired" || explicit.Slots[0].Form != "explicit" {
		t.Errorf("%+v", rows)
	}
}
