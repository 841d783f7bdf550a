package views

import (
	"github.com/oastui/oastui/internal/race"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/oastui/oastui/analysis"
)

// TestPromptTab: the Prompt tab on the prompts fixture agent, with the
// real engine: the layout (golden), the cursor over placeholders, enter
// naming the feeding node once, a node that sends no prompt.
func TestPromptTab(t *testing.T) {
	if race.Enabled {
		t.Skip("counts tokens: run without -race")
	}
	s := analysis.Run("../prompts/testdata/agents/acme/prompt-agent", analysis.Options{Stages: analysis.Everything})
	if s.Prompts == nil || len(s.Prompts.Nodes) != 1 {
		t.Fatalf("no prompt report: %+v", s.Prompts)
	}
	p := &Prompt{}
	p.SetSize(72, 46)
	p.Show(Shown{Cur: s, Good: s, Theme: th})
	p.SetNode(th, &NodeInfo{Name: "Write", Pointer: "/$referenced_components/write"})
	out := p.View(th)
	checkBox(t, out, 72, 46)
	t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(out)) })

	for range 3 { // tone, lang, topic → facts
		p.Nav(NavDown, 10)
	}
	if _, ok := p.Target(); ok {
		t.Error("moving the cursor must not move the graph")
	}
	if !p.Open() {
		t.Fatal("enter on an edge-fed placeholder")
	}
	tg, ok := p.Target()
	if !ok || tg.Pointer != "/$referenced_components/fetch" || tg.File != s.Agent.FlowPath {
		t.Errorf("target %+v %v", tg, ok)
	}
	if _, ok := p.Target(); ok {
		t.Error("the target is given once per enter")
	}
	p.Nav(NavDown, 10) // extra: unresolved, nothing to select
	if p.Open() {
		t.Error("enter on an unresolved placeholder selects nothing")
	}

	p.SetNode(th, &NodeInfo{Name: "Fetch", Pointer: "/$referenced_components/fetch"})
	out = p.View(th)
	checkBox(t, out, 72, 46)
	t.Run("not-llm", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(out)) })
}
