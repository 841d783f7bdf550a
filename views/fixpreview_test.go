package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// TestFixPreviewCleansAgentText: the diff shows the agent's bytes, so
// escape sequences, OSC titles, bidi controls and CRLF never reach the
// terminal raw; the +/- lines are coloured.
func TestFixPreviewCleansAgentText(t *testing.T) {
	src := []byte("{\r\n  \"name\": \"evil\x1b]0;pwned\x07\u202e\",\r\n  \"v\": \"1\"\r\n}\r\n")
	i := strings.Index(string(src), `"1"`) + 1
	x := compile.Finding{Code: "c\x1b[31m", Message: "m\x1b]0;t\x07", Fixes: []edit.Fix{{
		Title: "set \x1b[2Jv", Tier: edit.Safe,
		Edits: []edit.Edit{{Path: "a.json", Start: i, End: i + 1, New: "2\x1b]0;x\x07"}},
	}}}
	p := NewFixPreview(x, map[string][]byte{"a.json": src}, func(s string) string { return s })
	th := NewTheme(true)
	out := p.View(th, 80, 20)
	plain := ansi.Strip(out)
	for _, bad := range []string{"\x1b]", "\x07", "\r", "\u202e", "\x1b[2J"} {
		if strings.Contains(out, bad) {
			t.Errorf("the preview carries %q:\n%s", bad, plain)
		}
	}
	for _, want := range []string{"--- a/a.json", `-  "v": "1"`, `+  "v": "2"`, "fix: set v", `"name": "evil",`} {
		if !strings.Contains(plain, want) {
			t.Errorf("the preview lacks %q:\n%s", want, plain)
		}
	}
	if add := DiffLine(th, "+x"); add != th.DiffAdd.Render("+x") {
		t.Errorf("added line styled %q", add)
	}
	if del := DiffLine(th, "-x"); del != th.DiffDel.Render("-x") {
		t.Errorf("removed line styled %q", del)
	}
}

// TestFixPreviewScrollsAndChooses: a diff taller than the box scrolls (the
// title says which lines); several fixes are chosen by number or cycled.
func TestFixPreviewScrollsAndChooses(t *testing.T) {
	var b strings.Builder
	for i := range 60 {
		fmt.Fprintf(&b, "line %d\n", i)
	}
	src := []byte(b.String())
	var edits []edit.Edit
	for i := 0; i < 60; i += 5 {
		at := strings.Index(b.String(), fmt.Sprintf("line %d\n", i))
		edits = append(edits, edit.Edit{Path: "f", Start: at, End: at + 4, New: "LINE"})
	}
	x := compile.Finding{Code: "c", Fixes: []edit.Fix{{Title: "one", Tier: edit.Safe, Edits: edits}, {Title: "two", Tier: edit.Safe, Edits: edits[:1]}}}
	p := NewFixPreview(x, map[string][]byte{"f": src}, func(s string) string { return s })
	th := Theme{}
	if out := p.View(th, 60, 15); !strings.Contains(out, "fix preview · lines 1-") {
		t.Fatalf("no scroll position in the title:\n%s", out)
	}
	p.Nav(NavDown, 5)
	p.Nav(NavPageDown, 5)
	if p.Offset() != 6 {
		t.Errorf("offset %d after down and a page", p.Offset())
	}
	if out := p.View(th, 60, 15); !strings.Contains(out, "lines 7-") {
		t.Errorf("title does not follow the scroll:\n%s", out)
	}
	p.Choose(1)
	if p.Chosen().Title != "two" || p.Offset() != 0 {
		t.Errorf("Choose(1): %q at %d", p.Chosen().Title, p.Offset())
	}
	p.Cycle(1)
	if p.ChosenIndex() != 0 {
		t.Error("Cycle does not wrap")
	}
	p.Cycle(-1)
	if p.ChosenIndex() != 1 {
		t.Error("Cycle(-1) does not wrap")
	}
	p.Choose(7)
	if p.ChosenIndex() != 1 {
		t.Error("Choose out of range changed the choice")
	}
	if out := ansi.Strip(p.View(th, 60, 15)); !strings.Contains(out, "▸ 2 two") || !strings.Contains(out, "1 one") {
		t.Errorf("the choice is not shown:\n%s", out)
	}
}

// TestFixPreviewIsEditsPreview: the TUI shows edit's one fix preview (the
// text `lint --diff` and agent_fix show), line for line, for each
// alternative fix; it built its own (a Myers diff of the whole file,
// cleaned but not masked per line) before.
func TestFixPreviewIsEditsPreview(t *testing.T) {
	src := []byte("{\n  \"note\": \"ghp_R8x2Kq7LmZ4vN1pW9sT3yB6cD0fG5hJ8kLmN \u009b2J\",\n  \"password\": \"Zq8vLw3mRt\",\n  \"v\": \"1\"\n}\n")
	i := strings.Index(string(src), `"1"`) + 1
	j := strings.Index(string(src), "Zq8")
	fixes := []edit.Fix{
		{Title: "one", Tier: edit.Safe, Edits: []edit.Edit{{Path: "a.json", Start: i, End: i + 1, New: "2"}}},
		{Title: "two", Tier: edit.Safe, Edits: []edit.Edit{{Path: "a.json", Start: j, End: j + 1, New: "Y"}}},
	}
	srcs := map[string][]byte{"a.json": src}
	ident := func(s string) string { return s }
	p := NewFixPreview(compile.Finding{Code: "c", Fixes: fixes}, srcs, ident)
	for k, f := range fixes {
		want, err := edit.PreviewFix(f, srcs, ident)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Join(p.diffs[k], "\n") + "\n"; got != want {
			t.Errorf("fix %d: the TUI shows\n%s\n--- edit's preview is\n%s", k, got, want)
		}
		if strings.Contains(want, "q8vLw3mRt") || strings.Contains(want, "\u009b") || strings.Contains(want, "R8x2Kq7LmZ4v") {
			t.Errorf("fix %d: the preview shows a secret or C1:\n%s", k, want)
		}
	}
}
