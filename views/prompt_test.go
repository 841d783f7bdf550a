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
	p.Show(Shown{Cur: s, LastParsed: s, Theme: th})
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

// TestPromptBack: after enter jumps to the node feeding a placeholder,
// esc/⌫ (Close) goes back to the LLM node, the placeholder cursor where
// it was; the tab names the node it goes back to; moving the graph
// elsewhere forgets the jump; a jump the graph could not make is not
// kept.
func TestPromptBack(t *testing.T) {
	if race.Enabled {
		t.Skip("counts tokens: run without -race")
	}
	s := analysis.Run("../prompts/testdata/agents/acme/prompt-agent", analysis.Options{Stages: analysis.Everything})
	const write, fetch = "/$referenced_components/write", "/$referenced_components/fetch"
	writeInfo := &NodeInfo{Name: "Write via /api/llm-bridge", Pointer: write}
	fetchInfo := &NodeInfo{Name: "Fetch facts", Pointer: fetch}
	p := &Prompt{}
	p.SetSize(72, 46)
	p.Show(Shown{Cur: s, LastParsed: s, Theme: th})
	p.SetNode(th, writeInfo)
	if p.Close() {
		t.Fatal("nothing to go back from yet")
	}
	for range 3 { // facts ← fetch.facts
		p.Nav(NavDown, 10)
	}
	jump := func() {
		t.Helper()
		if !p.Open() {
			t.Fatal("enter on an edge-fed placeholder")
		}
		if tg, ok := p.Target(); !ok || tg.Pointer != fetch {
			t.Fatalf("jump target %+v %v", tg, ok)
		}
		p.SetNode(th, fetchInfo) // the graph selected the feeder
	}
	jump()
	if to, ok := p.BackTo(); !ok || to != "Write via /api/llm-bridge (write)" {
		t.Errorf("BackTo = %q %v", to, ok)
	}
	out := p.View(th)
	checkBox(t, out, 72, 46)
	t.Run("after-jump", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(out)) })

	if !p.Close() {
		t.Fatal("esc/⌫ after a jump goes back")
	}
	tg, ok := p.Target()
	if !ok || tg.Pointer != write || tg.File != s.Agent.FlowPath {
		t.Fatalf("back target %+v %v", tg, ok)
	}
	p.SetNode(th, writeInfo)
	if r, _ := p.Selected(); r.Name != "facts" || p.cursor != 3 {
		t.Errorf("back on %q (cursor %d), want facts (3)", r.Name, p.cursor)
	}
	if _, ok := p.Target(); ok {
		t.Error("the way back is given once")
	}
	if p.Close() {
		t.Error("one jump, one way back")
	}

	// moving the graph elsewhere forgets the jump
	jump()
	p.SetNode(th, &NodeInfo{Name: "End", Pointer: "/$referenced_components/end"})
	if _, ok := p.BackTo(); ok || p.Close() {
		t.Error("a graph move forgets the jump")
	}

	// the graph could not select the feeder: nothing to go back from
	p.SetNode(th, writeInfo)
	for range 3 {
		p.Nav(NavDown, 10)
	}
	p.Open()
	p.Target()
	p.SetNode(th, writeInfo)
	if p.Close() {
		t.Error("a jump that did not move is not kept")
	}
}
