package views

import (
	"bytes"
	"fmt"
	"github.com/oastui/oastui/internal/race"
	"io"
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/vt"

	"github.com/oastui/oastui/slots"
)

func pickerRef(id, scope, ext, rev string) slots.Ref {
	return slots.Ref{ArtifactID: id, RepresentationRevisionID: rev, SemanticAssertionID: "s-" + id,
		Extension: ext, SourceScope: scope, OwnerID: "o-" + scope}
}

// pickerFixture: one candidate or two per scope, in resolver order, with
// a title carrying escape sequences.
func pickerFixture(mode string, min, max int) PickerConfig {
	return PickerConfig{
		Slot: slots.Slot{SlotID: "offeringContext", Accepted: []string{"@cinatra-ai/marketing-icp-artifact"},
			SelectionMode: slots.Interactive, ResolutionMode: mode, MinItems: min, MaxItems: max, ReadableOnly: true},
		Candidates: []slots.Ref{
			pickerRef("icp-q3", "project", "@cinatra-ai/marketing-icp-artifact", "r2"),
			pickerRef("notes", "user", "@cinatra-ai/marketing-strategy-artifact", "r7"),
			pickerRef("team-icp", "team", "@cinatra-ai/marketing-icp-artifact", "r3"),
			pickerRef("portfolio", "organization", "@cinatra-ai/product-portfolio-artifact", "r1"),
			pickerRef("brand", "workspace", "@cinatra-ai/marketing-icp-artifact", "r4"),
			pickerRef("evil", "workspace", "@cinatra-ai/marketing-icp-artifact", "r9"),
		},
		Titles: map[string]string{
			"icp-q3": "ICP — Q3 launch", "notes": "My strategy notes", "team-icp": "Team ICP",
			"portfolio": "Product portfolio 2026", "brand": "Brand ICP (global)",
			"evil": "Evil \x1b[31mred\x1b[0m \x1b]0;pwned\x07title\nnext",
		},
	}
}

func press(p Picker, keys ...string) Picker {
	for _, k := range keys {
		var msg tea.KeyPressMsg
		switch k {
		case "space":
			msg = tea.KeyPressMsg{Code: tea.KeySpace, Text: " "}
		case "enter":
			msg = tea.KeyPressMsg{Code: tea.KeyEnter}
		case "esc":
			msg = tea.KeyPressMsg{Code: tea.KeyEscape}
		case "down":
			msg = tea.KeyPressMsg{Code: tea.KeyDown}
		case "up":
			msg = tea.KeyPressMsg{Code: tea.KeyUp}
		default:
			r := []rune(k)[0]
			msg = tea.KeyPressMsg{Code: r, Text: k}
		}
		p, _ = p.Update(msg)
	}
	return p
}

func plain(p Picker) string { return ansi.Strip(p.View(NewTheme(true))) }

func TestPickerAccumulate(t *testing.T) {
	p := NewPicker(pickerFixture(slots.Accumulate, 1, 2)).SetSize(80, 24)
	if p.Cursor() != 0 {
		t.Fatalf("cursor starts on the first candidate, got %d", p.Cursor())
	}
	// confirm below minItems is refused with the reason
	p, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd != nil || p.Done() || !strings.Contains(p.Note(), "need at least 1") {
		t.Fatalf("confirm below min: note %q done %v", p.Note(), p.Done())
	}
	if v := plain(p); !strings.Contains(v, "✖ cannot confirm: need at least 1 (0 selected)") || !strings.Contains(v, "0 selected / 2 — need at least 1") {
		t.Fatalf("reason not on screen:\n%s", v)
	}
	p = press(p, "space", "j", "j", "space") // icp-q3, team-icp
	if got := p.Selection().Count(); got != 2 {
		t.Fatalf("selected %d", got)
	}
	v := plain(p)
	if !strings.Contains(v, "2 selected / 2 — maximum selected") {
		t.Fatalf("footer at cap:\n%s", v)
	}
	// at the cap an unchecked row refuses the key
	p = press(p, "j", "space")
	if p.Selection().Count() != 2 || p.Note() != "limit 2 reached — uncheck one first" {
		t.Fatalf("cap: count %d note %q", p.Selection().Count(), p.Note())
	}
	if !strings.Contains(plain(p), "✖ limit 2 reached — uncheck one first") {
		t.Fatal("cap refusal not shown")
	}
	// uncheck one, check another
	p = press(p, "k", "space", "j", "space")
	got := p.Selection().Selected()
	if len(got) != 2 || got[0].ArtifactID != "icp-q3" || got[1].ArtifactID != "portfolio" {
		t.Fatalf("selection %+v", got)
	}
	p, cmd = p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil || !p.Done() {
		t.Fatal("confirm did not finish")
	}
	done, ok := cmd().(PickerDoneMsg)
	if !ok || done.Canceled || done.Envelope.SlotID != "offeringContext" || done.Envelope.ResolutionMode != "accumulate" || len(done.Envelope.SelectedRefs) != 2 {
		t.Fatalf("done %+v", done)
	}
	// after done, keys do nothing
	if p2 := press(p, "space"); p2.Selection().Count() != 2 {
		t.Fatal("key after done changed the selection")
	}
}

func TestPickerOverride(t *testing.T) {
	p := NewPicker(pickerFixture(slots.Override, 0, 0)).SetSize(80, 24)
	p = press(p, "space", "j", "space", "space")
	got := p.Selection().Selected()
	if len(got) != 1 || got[0].ArtifactID != "notes" {
		t.Fatalf("override selection %+v", got)
	}
	v := plain(p)
	if !strings.Contains(v, "(•) My strategy notes") || !strings.Contains(v, "( ) ICP — Q3 launch") || !strings.Contains(v, "Pick one (override)") {
		t.Fatalf("override view:\n%s", v)
	}
	if !strings.Contains(v, "1 selected ·") {
		t.Fatalf("footer without max:\n%s", v)
	}
}

func TestPickerCancelAndClear(t *testing.T) {
	for _, k := range []tea.KeyPressMsg{{Code: tea.KeyEscape}, {Code: 'q', Text: "q"}} {
		p := NewPicker(pickerFixture(slots.Accumulate, 0, 5))
		p, cmd := p.Update(k)
		if cmd == nil {
			t.Fatalf("%s: no cmd", k)
		}
		if m := cmd().(PickerDoneMsg); !m.Canceled {
			t.Fatalf("%s: not cancelled", k)
		}
	}
	p := press(NewPicker(pickerFixture(slots.Accumulate, 0, 5)), "space", "j", "space", "c")
	if p.Selection().Count() != 0 {
		t.Fatal("c did not clear")
	}
}

func TestPickerEmpty(t *testing.T) {
	cfg := pickerFixture(slots.Accumulate, 0, 5)
	cfg.Candidates = nil
	cfg.Empty = slots.Empty{Code: "project_not_allowed", Message: `project "p9" is not one of the actor's projects, so nothing is resolved (fail-closed)`}
	p := NewPicker(cfg).SetSize(80, 24)
	v := plain(p)
	for _, want := range []string{"No candidates", "why: project \"p9\" is not one of the actor's projects", "the agent will run without context"} {
		if !strings.Contains(v, want) {
			t.Fatalf("missing %q in\n%s", want, v)
		}
	}
	p, cmd := p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd == nil {
		t.Fatal("an empty selection with minItems 0 confirms")
	}
	cfg.Slot.MinItems = 2
	p = NewPicker(cfg).SetSize(80, 24)
	if v := plain(p); !strings.Contains(v, "requires at least 2 artifacts — the agent cannot") {
		t.Fatalf("blocking message missing:\n%s", v)
	}
	p, cmd = p.Update(tea.KeyPressMsg{Code: tea.KeyEnter})
	if cmd != nil || !strings.Contains(p.Note(), "no candidates") {
		t.Fatalf("confirm allowed with none and minItems 2: %q", p.Note())
	}
}

func TestPickerSanitises(t *testing.T) {
	v := NewPicker(pickerFixture(slots.Accumulate, 0, 5)).SetSize(100, 30).View(NewTheme(true))
	if strings.Contains(v, "\x1b[31m") || strings.Contains(v, "\x1b]") || strings.Contains(v, "\x07") {
		t.Fatalf("escape sequences from the catalog reached the screen: %q", v)
	}
	if !strings.Contains(ansi.Strip(v), "Evil red title next") {
		t.Fatalf("sanitised title missing:\n%s", ansi.Strip(v))
	}
}

func TestPickerScrolls(t *testing.T) {
	cfg := pickerFixture(slots.Accumulate, 0, 0)
	for i := 0; i < 30; i++ {
		cfg.Candidates = append(cfg.Candidates, pickerRef(fmt.Sprintf("w%02d", i), "workspace", "@v/x", "r1"))
	}
	p := NewPicker(cfg).SetSize(60, 14)
	for i := 0; i < 34; i++ {
		p = press(p, "j")
		v := plain(p)
		if lines := strings.Split(v, "\n"); len(lines) > 14 {
			t.Fatalf("view taller than 14 rows: %d", len(lines))
		}
		if !strings.Contains(v, "› ") {
			t.Fatalf("cursor scrolled out of view at step %d:\n%s", i, v)
		}
	}
	if !strings.Contains(plain(p), "↑") {
		t.Fatal("no scroll marker")
	}
}

func TestPickerWidthSweep(t *testing.T) {
	th := NewTheme(true)
	for _, mode := range []string{slots.Accumulate, slots.Override} {
		step := 1
		if race.Enabled {
			step = 7 // a sample under the race detector (the picker starts no goroutines)
		}
		for w := 40; w <= 200; w += step {
			for _, h := range []int{10, 24} {
				p := press(NewPicker(pickerFixture(mode, 1, 2)).SetSize(w, h), "space", "?", "j", "j", "space", "j", "space")
				v := p.View(th)
				lines := strings.Split(v, "\n")
				if len(lines) > h {
					t.Fatalf("%s %dx%d: %d lines", mode, w, h, len(lines))
				}
				for i, l := range lines {
					if lw := ansi.StringWidth(l); lw > w {
						t.Fatalf("%s %dx%d: line %d is %d wide: %q", mode, w, h, i, lw, ansi.Strip(l))
					}
				}
			}
		}
	}
}

func TestPickerGolden(t *testing.T) {
	th := NewTheme(true)
	for _, tc := range []struct {
		name string
		cfg  PickerConfig
		w, h int
		keys []string
	}{
		{"accumulate_80x24", pickerFixture(slots.Accumulate, 1, 2), 80, 24, []string{"space", "j", "j", "space", "j"}},
		{"accumulate_cap_refused_40x20", pickerFixture(slots.Accumulate, 1, 2), 40, 20, []string{"space", "j", "space", "j", "space"}},
		{"override_help_120x24", pickerFixture(slots.Override, 0, 0), 120, 24, []string{"j", "space", "?"}},
		{"below_min_100x24", pickerFixture(slots.Accumulate, 1, 5), 100, 24, []string{"enter"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := press(NewPicker(tc.cfg).SetSize(tc.w, tc.h), tc.keys...)
			t.Run("styled", func(t *testing.T) { golden.RequireEqual(t, p.View(th)) })
			t.Run("plain", func(t *testing.T) { golden.RequireEqual(t, ansi.Strip(p.View(th))) })
		})
	}
}

// onlcr maps \n to \r\n: a headless emulator has no tty to do it.
type onlcr struct{ w io.Writer }

func (o onlcr) Write(p []byte) (int, error) {
	_, err := o.w.Write(bytes.ReplaceAll(p, []byte("\n"), []byte("\r\n")))
	return len(p), err
}

func TestPickerScreenGolden(t *testing.T) {
	const w, h = 80, 20
	emu := vt.NewSafeEmulator(w, h)
	app := NewPickerApp(pickerFixture(slots.Accumulate, 1, 2))
	prog := tea.NewProgram(app, tea.WithInput(emu), tea.WithOutput(onlcr{emu}),
		tea.WithWindowSize(w, h), tea.WithoutSignals())
	type result struct {
		m   tea.Model
		err error
	}
	done := make(chan result, 1)
	go func() { m, err := prog.Run(); done <- result{m, err} }()
	waitFor := func(want string) {
		t.Helper()
		deadline := time.Now().Add(10 * time.Second)
		for !strings.Contains(pickerScreen(emu), want) {
			if time.Now().After(deadline) {
				prog.Kill()
				t.Fatalf("screen never showed %q:\n%s", want, pickerScreen(emu))
			}
			time.Sleep(10 * time.Millisecond)
		}
	}
	waitFor("0 selected / 2")
	prog.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor("1 selected / 2")
	prog.Send(tea.KeyPressMsg{Code: 'j', Text: "j"})
	prog.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor("2 selected / 2 — maximum selected")
	prog.Send(tea.KeyPressMsg{Code: 'j', Text: "j"})
	prog.Send(tea.KeyPressMsg{Code: tea.KeySpace, Text: " "})
	waitFor("limit 2 reached — uncheck one first")
	golden.RequireEqual(t, pickerTrimScreen(pickerScreen(emu)))
	prog.Send(tea.KeyPressMsg{Code: tea.KeyEnter})
	var r result
	select {
	case r = <-done:
	case <-time.After(10 * time.Second):
		prog.Kill()
		t.Fatal("program did not quit after confirm")
	}
	if r.err != nil {
		t.Fatal(r.err)
	}
	res := r.m.(PickerApp).Result
	if res == nil || res.Canceled || len(res.Envelope.SelectedRefs) != 2 {
		t.Fatalf("result %+v", res)
	}
}

// pickerTrimScreen drops trailing spaces of each screen line.
func pickerTrimScreen(s string) string {
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

// pickerScreen is the emulator's visible text. SafeEmulator.String is not
// locked (it races with the program's writes); Render is.
func pickerScreen(emu *vt.SafeEmulator) string { return ansi.Strip(emu.Render()) }

// TestPickerHelpNamesItsKeys: the picker's `?` help lists every binding.
func TestPickerHelpNamesItsKeys(t *testing.T) {
	k := DefaultPickerKeyMap() // that its bindings name their keys: tui's TestHelpNamesItsKeys
	for _, override := range []bool{false, true} {
		help := k.fullHelp(override)
		for _, b := range k.Bindings()[2:] { // [0] and [1], up and down, are one row
			if b.Help().Key == k.Clear.Help().Key && override {
				continue // nothing to clear in an override slot
			}
			if !strings.Contains(help, b.Help().Key) {
				t.Errorf("override=%v: help does not list %q:\n%s", override, b.Help().Key, help)
			}
		}
		if !strings.Contains(help, "↑↓ j k") {
			t.Errorf("help does not list the movement keys:\n%s", help)
		}
	}
}
