package views

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/testshared"
)

// largeReview is a review of n findings in the three buckets, some in a
// sibling file, with fixes, from the LLM, with long messages, control
// characters and a credential in agent text (what present.Text masks).
func largeReview(n int) []compile.Finding {
	d := doc()
	sev := []compile.Severity{compile.Blocker, compile.Warning, compile.Suggestion}
	var fs []compile.Finding
	for i := range n {
		x := d.At([]string{"/a", "/b", "/b/c"}[i%3], fmt.Sprintf("rule_%d", i%17), sev[i%3], fmt.Sprintf("finding %d of the review", i))
		switch i % 7 {
		case 1:
			x.Message += " with a token " + testshared.FakeGitHub + " in it"
		case 2:
			x.Message = "\x1b[31mred\x1b[0m and a bell\a " + x.Message
		case 3:
			x.Message += strings.Repeat(" and a long tail", 12)
		case 4:
			x.Fixes = []edit.Fix{{Title: "fix it"}}
		case 5:
			x.Source = "llm"
		case 6:
			x.File, x.Line, x.Column = "package.json", i, 2
		}
		fs = append(fs, x)
	}
	return compile.SortFindings(fs)
}

// TestFindingsWindowedMatchesFullBuild: the Findings tab builds only the
// rows in its window; every frame of a walk through a large review (top,
// middle, bottom, a filter, folds, resizes, a refresh) is byte for byte
// the frame of the path that builds every row (fullBuild, the oracle).
func TestFindingsWindowedMatchesFullBuild(t *testing.T) {
	fs := largeReview(500)
	docs := map[string]*compile.Doc{"f.json": doc()}
	win, full := &Findings{}, &Findings{fullBuild: true}
	step := 0
	both := func(what string, do func(f *Findings)) {
		t.Helper()
		step++
		do(win)
		do(full)
		got, want := win.View(th), full.View(th)
		if got != want {
			t.Fatalf("step %d (%s): the windowed frame differs from the full build\nwindowed:\n%s\nfull:\n%s", step, what, ansi.Strip(got), ansi.Strip(want))
		}
		if strings.Contains(got, testshared.FakeGitHub) || strings.Contains(got, "\a") {
			t.Fatalf("step %d (%s): agent text not presented:\n%q", step, what, got)
		}
	}
	both("open", func(f *Findings) { f.SetSize(78, 22); f.SetFindings(fs, docs, "f.json") })
	for i := range 30 {
		both(fmt.Sprintf("down %d", i), func(f *Findings) { f.Move(1) })
	}
	both("page down", func(f *Findings) { f.Nav(NavPageDown, 10) })
	both("middle", func(f *Findings) { f.Move(200) })
	for i := range 25 {
		both(fmt.Sprintf("up %d", i), func(f *Findings) { f.Move(-1) })
	}
	both("bottom", func(f *Findings) { f.End() })
	both("up from the bottom", func(f *Findings) { f.Move(-3) })
	both("top", func(f *Findings) { f.Home() })
	both("resize 100x30", func(f *Findings) { f.SetSize(98, 28); f.Move(140) })
	both("resize 140x40", func(f *Findings) { f.SetSize(138, 38) })
	both("resize small", func(f *Findings) { f.SetSize(40, 9) })
	both("resize back", func(f *Findings) { f.SetSize(78, 22) })
	both("filter", func(f *Findings) { f.SetFilter("RULE_1") })
	both("filter, down", func(f *Findings) { f.Move(37) })
	both("filter, bottom", func(f *Findings) { f.End() })
	both("filter narrowed", func(f *Findings) { f.SetFilter("rule_12") })
	both("filter nothing", func(f *Findings) { f.SetFilter("no such finding") })
	both("filter cleared", func(f *Findings) { f.SetFilter("") })
	both("to the warnings header", func(f *Findings) {
		f.Home()
		for {
			if _, ok := f.Selected(); !ok && f.cursor > 0 {
				return
			}
			f.Move(1)
		}
	})
	both("fold the warnings", func(f *Findings) { f.Toggle() })
	both("below the fold", func(f *Findings) { f.Move(60) })
	both("refresh, fewer findings", func(f *Findings) { f.SetFindings(fs[:321], docs, "f.json") })
	both("refresh, all", func(f *Findings) { f.SetFindings(fs, docs, "f.json") })
	both("bottom again", func(f *Findings) { f.End(); f.Move(-1) })
	both("open a finding", func(f *Findings) { f.Open() })
	both("close it", func(f *Findings) { f.Close() })
	both("empty review", func(f *Findings) { f.SetFindings(nil, docs, "f.json") })
}
