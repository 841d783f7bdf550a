package views

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/race"
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
	fs := largeReview(500 / race.Stride(2)) // 250 under -race (CI runs 500 without it)
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
	for i := range 15 {
		both(fmt.Sprintf("down %d", i), func(f *Findings) { f.Move(1) })
	}
	both("page down", func(f *Findings) { f.Nav(NavPageDown, 10) })
	both("middle", func(f *Findings) { f.Move(200) })
	for i := range 12 {
		both(fmt.Sprintf("up %d", i), func(f *Findings) { f.Move(-1) })
	}
	both("bottom", func(f *Findings) { f.End() })
	both("up from the bottom", func(f *Findings) { f.Move(-3) })
	both("top", func(f *Findings) { f.Home() })
	both("resize 100x30", func(f *Findings) { f.SetSize(98, 28); f.Move(140) })
	both("resize 140x40", func(f *Findings) { f.SetSize(138, 38) })
	both("resize small", func(f *Findings) { f.SetSize(40, 9) })
	both("resize back", func(f *Findings) { f.SetSize(78, 22) })
	// The filter keeps what it kept when it lowercased every finding per
	// keystroke (the search text is now lowercased once per snapshot).
	counted := func(q string) {
		t.Helper()
		var want [3]int
		var codes []string
		for b := range 3 {
			for _, x := range fs {
				if bucketOf(x.Severity) == b && strings.Contains(strings.ToLower(x.Code+" "+x.Message+" "+x.Location), strings.ToLower(q)) {
					want[b]++
					codes = append(codes, x.Code+x.Message)
				}
			}
		}
		var got []string
		for _, r := range win.rows {
			if x := win.item(r); x != nil {
				got = append(got, x.Code+x.Message)
			}
		}
		if win.Counts() != want || win.Len() != len(codes) || (!win.folded[0] && !win.folded[1] && !win.folded[2] && strings.Join(got, "\n") != strings.Join(codes, "\n")) {
			t.Errorf("filter %q: counts %v, want %v; %d shown, want %d", q, win.Counts(), want, win.Len(), len(codes))
		}
	}
	both("filter", func(f *Findings) { f.SetFilter("RULE_1") })
	counted("RULE_1")
	both("filter, down", func(f *Findings) { f.Move(37) })
	both("filter, bottom", func(f *Findings) { f.End() })
	both("filter narrowed", func(f *Findings) { f.SetFilter("rule_12") })
	counted("rule_12")
	both("filter on a pointer", func(f *Findings) { f.SetFilter("/B/C") })
	counted("/B/C")
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
	both("refresh, fewer findings", func(f *Findings) { f.SetFindings(fs[:len(fs)*2/3], docs, "f.json") })
	both("refresh, all", func(f *Findings) { f.SetFindings(fs, docs, "f.json") })
	both("bottom again", func(f *Findings) { f.End(); f.Move(-1) })
	both("open a finding", func(f *Findings) { f.Open() })
	both("close it", func(f *Findings) { f.Close() })
	both("empty review", func(f *Findings) { f.SetFindings(nil, docs, "f.json") })
}

// TestCompiledLaterMatchesFullBuild: the Compiled tab builds its lines
// when first shown and presents those in its window; every frame of a
// walk through a long refusal and the compiled output under it (top,
// middle, bottom, sideways, resizes, a new snapshot while hidden or
// scrolled, a failed compile, a refusal of 5,000 blockers) is byte for byte the
// frame of the path that builds and presents every line in Show
// (fullBuild, the oracle).
func TestCompiledLaterMatchesFullBuild(t *testing.T) {
	good := analysis.Run(filepath.Join("..", "testdata", "tui", "agents", "oastui-tui", "ansi-agent"), analysis.Options{Stages: analysis.Everything})
	if good.Compiled == nil {
		t.Fatalf("the fixture does not compile: %v", good.CompileErr)
	}
	// Refusals as the TUI hands them over: the gate response of the
	// snapshot shown (Shown.Refusal), whose count the tab reads from the
	// gate and the oracle from the JSON.
	refused := func(g *analysis.Snapshot, n int) (*analysis.Snapshot, []byte) {
		r := &analysis.Snapshot{Agent: g.Agent, Compiled: g.Compiled, CompileErr: g.CompileErr} // what the tab reads
		for i := range n {
			x := doc().At(fmt.Sprintf("/nodes/%d", i), fmt.Sprintf("rule_%d", i%13), compile.Blocker, fmt.Sprintf("blocker %d \x1b[2J with %s", i, testshared.FakeGitHub))
			r.Review.Gate.Blockers = append(r.Review.Gate.Blockers, x)
		}
		return r, r.Gate().Response().JSON()
	}
	bad, refusal := refused(good, 300)
	half, halfRefusal := refused(good, 150)
	broken := &analysis.Snapshot{CompileErr: errors.New("no \x1b[31mflow\x1b[0m " + testshared.FakeGitHub)}
	broken.Agent, broken.Review = good.Agent, bad.Review
	later, full := NewCompiledText(), NewCompiledText()
	full.fullBuild = true
	step := 0
	both := func(what string, do func(c *CompiledText)) {
		t.Helper()
		step++
		do(later)
		do(full)
		got, want := later.View(th), full.View(th)
		if got != want || later.Len() != full.Len() || later.Offset() != full.Offset() {
			t.Fatalf("step %d (%s): the frame differs from the full build (len %d/%d, offset %d/%d)\nlater:\n%s\nfull:\n%s",
				step, what, later.Len(), full.Len(), later.Offset(), full.Offset(), ansi.Strip(got), ansi.Strip(want))
		}
		if strings.Contains(got, testshared.FakeGitHub) || strings.Contains(got, "\x1b[2J") {
			t.Fatalf("step %d (%s): agent text not presented:\n%q", step, what, got)
		}
	}
	show := func(g *analysis.Snapshot, refusal []byte) func(c *CompiledText) {
		return func(c *CompiledText) { c.Show(Shown{Cur: g, LastParsed: g, Theme: th, Refusal: refusal}) }
	}
	both("nothing parsed", func(c *CompiledText) { c.SetSize(78, 22); c.Show(Shown{Cur: good, Theme: th}) })
	both("refused", show(bad, refusal))
	both("down", func(c *CompiledText) { c.Nav(NavDown, 20) })
	both("middle", func(c *CompiledText) { c.Nav(NavPageDown, 700) })
	both("sideways", func(c *CompiledText) { c.Nav(NavRight, 20); c.Nav(NavRight, 20) })
	both("bottom", func(c *CompiledText) { c.Nav(NavBottom, 20) })
	both("resize 100x30", func(c *CompiledText) { c.SetSize(98, 28) })
	both("resize small", func(c *CompiledText) { c.SetSize(40, 6) })
	both("new snapshot, scrolled", show(half, halfRefusal))
	both("top", func(c *CompiledText) { c.Nav(NavTop, 20); c.Nav(NavLeft, 20); c.Nav(NavLeft, 20) })
	both("new snapshot at the top, hidden, resized", func(c *CompiledText) {
		c.Show(Shown{Cur: bad, LastParsed: bad, Theme: th, Refusal: refusal})
		c.SetSize(138, 38)
		c.Show(Shown{Cur: good, LastParsed: good, Theme: th})
		c.SetSize(58, 10)
	})
	both("published", func(c *CompiledText) { c.Nav(NavPageDown, 9) })
	both("refused again, up", func(c *CompiledText) { show(bad, refusal)(c); c.Nav(NavUp, 9) })
	both("bottom, a short snapshot and a long one while hidden", func(c *CompiledText) {
		c.End()
		show(good, nil)(c)
		show(bad, refusal)(c)
	})
	both("not compiled", show(broken, refusal))
	both("not compiled, bottom", func(c *CompiledText) { c.End() })
	both("not compiled, published", show(broken, nil))
	big, bigRefusal := refused(good, 5000/race.Stride(5))
	both("a large refusal", show(big, bigRefusal))
	if got := ansi.Strip(later.View(th)); !strings.Contains(got, fmt.Sprintf("compile refused: %d blockers", len(big.Gate().Blockers))) {
		t.Fatalf("a large refusal: the count is not the gate's:\n%s", got)
	}
	both("a large refusal, bottom", func(c *CompiledText) { c.End() })
}

// TestGraphPointerMapsMatchScan: selecting the node of a pointer and
// describing the selected node (the node's findings) read maps built once
// per snapshot; for every finding's location, every node's and subflow's
// pointer and their parents, the selection, the drill-down path and the
// node's description are those of the scans of every node and finding
// (fullScan, the oracle).
func TestGraphPointerMapsMatchScan(t *testing.T) {
	described := 0
	for _, dir := range []string{
		filepath.Join("..", "testdata", "tui", "agents", "oastui-tui", "subflow-agent"),
		filepath.Join("..", "tui", "testdata", "agents", "oastui-tui", "findings-agent"),
	} {
		described += pointerMapsMatchScan(t, dir)
	}
	if described == 0 {
		t.Errorf("no node described with findings: the test compares nothing")
	}
	t.Run("corpus", func(t *testing.T) {
		corpus, slugs := testshared.CorpusAgents(t)
		for i, slug := range slugs {
			if i%race.Stride(8) == 0 { // a sample under -race (CI runs them all without it)
				pointerMapsMatchScan(t, filepath.Join(corpus, "agents", "cinatra-ai", slug))
			}
		}
	})
}

// pointerMapsMatchScan is the test on the agent at dir; it returns how
// many selections described a node with findings.
func pointerMapsMatchScan(t *testing.T, dir string) (described int) {
	t.Helper()
	s := analysis.Run(dir, analysis.Options{Stages: analysis.Everything})
	if s.Agent == nil || len(s.Flows) == 0 {
		t.Fatalf("%s: no flow", dir)
	}
	var locs []string
	for _, f := range s.Review.Findings {
		locs = append(locs, f.Location, f.Location+"/x", parentPointer(f.Location))
	}
	for _, fl := range s.Flows {
		if fl.Drawn().Graph == nil {
			continue
		}
		for _, n := range fl.Graph.Nodes {
			for _, p := range append([]string{n.Pointer}, n.Subflows...) {
				locs = append(locs, p, p+"/inputs/0", parentPointer(p), p+"x")
			}
		}
	}
	locs = append(locs, "", "/", "/nowhere")
	mapped, scan := NewGraph(), NewGraph()
	scan.fullScan = true
	for _, g := range []*Graph{mapped, scan} {
		g.SetSize(60, 20)
		g.SetSnapshot(s)
	}
	for _, loc := range locs {
		mapped.SelectPointer(loc)
		scan.SelectPointer(loc)
		if mapped.selected != scan.selected || strings.Join(mapped.stack, " ") != strings.Join(scan.stack, " ") {
			t.Fatalf("%s: %q selects %d in %v, the scan %d in %v", dir, loc, mapped.selected, mapped.stack, scan.selected, scan.stack)
		}
		a, b := mapped.NodeInfo(), scan.NodeInfo()
		if fmt.Sprintf("%+v", a) != fmt.Sprintf("%+v", b) {
			t.Fatalf("%s: %q: the node described\n%+v\nthe scan's\n%+v", dir, loc, a, b)
		}
		if a != nil && len(a.Findings) > 0 {
			described++
		}
	}
	return described
}

// TestNodeAndRunMatchFullBuild: the Node tab lays a node out when first
// shown, the Run tab lays out only the lines of a step that fit; on every
// node and every step of every path of the bundled agents (and the
// corpus), at two sizes, scrolled, the frames are byte for byte those of
// the full builds (fullBuild, the oracle).
func TestNodeAndRunMatchFullBuild(t *testing.T) {
	for _, dir := range []string{
		filepath.Join("..", "testdata", "tui", "agents", "oastui-tui", "subflow-agent"),
		filepath.Join("..", "tui", "testdata", "agents", "oastui-tui", "findings-agent"),
	} {
		nodeAndRunMatchFullBuild(t, dir)
	}
	t.Run("corpus", func(t *testing.T) {
		corpus, slugs := testshared.CorpusAgents(t)
		for i, slug := range slugs {
			if i%race.Stride(8) == 0 { // a sample under -race (CI runs them all without it)
				nodeAndRunMatchFullBuild(t, filepath.Join(corpus, "agents", "cinatra-ai", slug))
			}
		}
	})
}

func nodeAndRunMatchFullBuild(t *testing.T, dir string) {
	t.Helper()
	s := analysis.Run(dir, analysis.Options{Stages: analysis.Everything})
	if s.Agent == nil {
		t.Fatalf("%s: does not load", dir)
	}
	sizes := [][2]int{{78, 22}, {40, 6}}
	later, full := &NodeText{}, &NodeText{fullBuild: true}
	g := NewGraph()
	g.SetSize(60, 20)
	g.SetSnapshot(s)
	for _, fl := range s.Flows {
		if fl.Drawn().Graph == nil {
			continue
		}
		for i, n := range fl.Graph.Nodes {
			g.SelectPointer(n.Pointer)
			info := g.NodeInfo()
			sz := sizes[i%2]
			for _, x := range []*NodeText{later, full} {
				x.SetSize(sz[0], sz[1])
				x.SetNode(th, info)
				if i%3 == 2 {
					x.SetSize(sz[1]+30, sz[0]/3) // resized while hidden
				}
			}
			for k := range 3 {
				if got, want := later.View(th), full.View(th); got != want {
					t.Fatalf("%s: node %s, scroll %d: the Node tab differs from the full build\nlater:\n%s\nfull:\n%s", dir, n.ID, k, ansi.Strip(got), ansi.Strip(want))
				}
				later.Nav(NavPageDown, 5)
				full.Nav(NavPageDown, 5)
			}
			if i%4 == 0 {
				later.Nav(NavTop, 5)
				full.Nav(NavTop, 5)
			}
		}
	}
	// A name wider than the pane is cut at the width SetNode saw.
	long := &NodeInfo{Name: strings.Repeat("a long name ", 12) + testshared.FakeGitHub, Inputs: []string{"x: " + testshared.FakeGitHub}}
	for _, x := range []*NodeText{later, full} {
		x.Nav(NavTop, 5)
		x.SetSize(30, 10)
		x.SetNode(th, long)
		x.SetSize(78, 22)
	}
	if got, want := later.View(th), full.View(th); got != want || strings.Contains(got, testshared.FakeGitHub) {
		t.Fatalf("%s: a long name: the Node tab differs from the full build or shows the token\nlater:\n%s\nfull:\n%s", dir, ansi.Strip(got), ansi.Strip(want))
	}
	if s.DryRun == nil {
		return
	}
	for _, sz := range sizes {
		later, full := &Run{}, &Run{fullBuild: true}
		for _, r := range []*Run{later, full} {
			r.SetSize(sz[0], sz[1])
			r.Show(Shown{Cur: s, LastParsed: s, Theme: th})
		}
		for p := range len(full.rows) {
			for st := 0; ; st++ {
				if got, want := later.View(th), full.View(th); got != want {
					t.Fatalf("%s: path %d step %d at %v: the Run tab differs from the full build\nlater:\n%s\nfull:\n%s", dir, p, st, sz, ansi.Strip(got), ansi.Strip(want))
				}
				if path, _ := later.path(); st+1 >= len(path.Steps) {
					break
				}
				later.Nav(NavRight, 5)
				full.Nav(NavRight, 5)
			}
			later.Nav(NavDown, 5)
			full.Nav(NavDown, 5)
		}
		// New snapshots while hidden: the cursor and the step are kept
		// or clamped as when each was presented at once.
		for k, shows := range [][]*analysis.Snapshot{{s, s}, {nil, s}, {s}} {
			for _, r := range []*Run{later, full} {
				r.Nav(NavBottom, 5)
				r.Nav(NavRight, 5)
				r.Nav(NavRight, 5)
				for _, x := range shows {
					r.Show(Shown{Cur: s, LastParsed: x, Theme: th})
				}
			}
			lt, lok := later.Target()
			ft, fok := full.Target()
			if got, want := later.View(th), full.View(th); got != want || lt != ft || lok != fok || later.step != full.step {
				t.Fatalf("%s: shows %d at %v: the Run tab differs from the full build\nlater:\n%s\nfull:\n%s", dir, k, sz, ansi.Strip(got), ansi.Strip(want))
			}
		}
	}
}

// TestFindingsHugeMessageMatchesFullBuild: a visible row whose message
// lists thousands of names is presented once and cut past the pane's
// width before Fit measures it; at widths from 1 to 150, cursor on
// or off, every row is byte for byte the row of the full message
// presented on every frame (fullBuild), with a credential, wide and
// combining characters, an emoji sequence, a control character and a
// source tag around every column the cut could fall on.
func TestFindingsHugeMessageMatchesFullBuild(t *testing.T) {
	d := doc()
	names := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "name_%d, ", i)
		}
		return b.String()
	}
	var fs []compile.Finding
	add := func(msg string, mut func(x *compile.Finding)) {
		x := d.At("/a", fmt.Sprintf("rule_%d", len(fs)), compile.Warning, msg)
		if mut != nil {
			mut(&x)
		}
		fs = append(fs, x)
	}
	tail := names(300)                                 // ~3,000 cells: cut at every width tried
	for at := 0; at < 170; at += 3 * race.Stride(12) { // a credential starting at every few columns of the message (a sample under -race)
		add(strings.Repeat("x", at)+" "+testshared.FakeGitHub+" "+tail, nil)
	}
	for at := 0; at < 170; at += 7 * race.Stride(12) { // the same with a key in front: masked as a value
		add(strings.Repeat("n", at)+" token="+testshared.FakeOpenAI+" "+tail, func(x *compile.Finding) { x.Source = "llm" })
	}
	for i, filler := range []string{"界", "e\u0301", "👩\u200d👩\u200d👧", "🇫🇷", "\x1b[31m", "a\u00ad", "\t"} {
		add(strings.Repeat(filler, 40+i*13)+testshared.FakeAnthropic+" "+tail, func(x *compile.Finding) {
			if i%2 == 0 {
				x.Fixes = []edit.Fix{{Title: "fix it"}}
			}
		})
	}
	add("short "+testshared.FakeGitHub, nil)
	// For the summary's wrap: runs of spaces it drops at a break, words
	// longer than the pane it breaks, hyphens it breaks after, wide
	// characters that do not fit at a line's end.
	add("spaces"+strings.Repeat(" ", 3000)+"then "+testshared.FakeGitHub+strings.Repeat(" ", 500)+tail, nil)
	add(strings.Repeat("w", 2500)+" "+testshared.FakeGitHub+" "+strings.Repeat("v", 700)+tail, nil)
	add(strings.Repeat("hy-phen-ated ", 300)+testshared.FakeGitHub+tail, nil)
	add(strings.Repeat("a界", 900)+" "+testshared.FakeGitHub+" "+tail, nil)
	add(strings.Repeat("y", 60)+testshared.FakeJWT+tail, nil)
	fs = compile.SortFindings(fs)
	docs := map[string]*compile.Doc{"f.json": doc()}
	win, full := &Findings{}, &Findings{fullBuild: true}
	for _, f := range []*Findings{win, full} {
		f.SetFindings(fs, docs, "f.json")
	}
	var widths []int // every narrow width, then a spread up to 140x40's
	for w := 1; w <= 150; w += max(1, min(w/4, 7)) * race.Stride(6) {
		widths = append(widths, w)
	}
	for _, w := range widths {
		for _, f := range []*Findings{win, full} {
			f.SetSize(w, len(fs)+2) // every row in the window, no summary under it
			f.Move(1 + w%5)
		}
		for i := range win.rows {
			for _, sel := range []bool{false, true} {
				got, want := Fit(win.line(th, i), w), Fit(full.line(th, i), w)
				if sel {
					win.cursor, full.cursor = i, i
					got, want = win.line(th, i), full.line(th, i)
				}
				if got != want {
					t.Fatalf("width %d, row %d, selected %v: the cut row differs from the full one\ncut:  %q\nfull: %q", w, i, sel, got, want)
				}
				for _, secret := range []string{testshared.FakeGitHub, testshared.FakeOpenAI, testshared.FakeAnthropic, "\x1b[31m"} {
					if strings.Contains(got, secret) {
						t.Fatalf("width %d, row %d: agent text not presented: %q", w, i, got)
					}
				}
			}
		}
		if got, want := win.View(th), full.View(th); got != want {
			t.Fatalf("width %d: the frame differs from the full build\nwindowed:\n%s\nfull:\n%s", w, ansi.Strip(got), ansi.Strip(want))
		}
	}
	// With the summary under the list: the selected message's first
	// lines, wrapped from as much of it as they need (wrapHead).
	for k, w := range []int{20, 21, 33, 57, 78, 98, 138} {
		if k%race.Stride(3) != 0 { // a sample under -race
			continue
		}
		for _, f := range []*Findings{win, full} {
			f.SetSize(w, 22)
			f.Home()
		}
		for i := range len(fs) + 3 {
			if got, want := win.View(th), full.View(th); got != want {
				t.Fatalf("summary at width %d, row %d: the frame differs from the full build\nwindowed:\n%s\nfull:\n%s", w, i, ansi.Strip(got), ansi.Strip(want))
			}
			win.Move(1)
			full.Move(1)
		}
	}
}

// TestRunLargeDryRunMatchesFullBuild: the Run tab presents the paths it
// shows (the list's window, the selected path) when it first shows them,
// not the whole dry run; on a dry run of thousands of paths whose ids,
// ends, branches, values and notes carry a credential and escape
// sequences, every frame and target of a walk (down, page, bottom, steps,
// resizes, a smaller snapshot while scrolled, none, the large one again)
// is byte for byte that of the dry run presented at once (fullBuild), and
// the walk presented a screenful of paths, not all of them.
func TestRunLargeDryRunMatchesFullBuild(t *testing.T) {
	dirty := " \x1b[31m" + testshared.FakeGitHub + "\x1b[0m\a"
	dry := func(n int) *analysis.Snapshot {
		res := &dryrun.Result{File: "flow.json", Note: "explored" + dirty, Explored: n, Total: n}
		for i := range n {
			p := dryrun.Path{ID: i + 1, Status: []string{dryrun.StatusEnd, dryrun.StatusStuck, dryrun.StatusLoop}[i%3], End: fmt.Sprintf("end_%d%s", i, dirty), Note: "path note" + dirty}
			for j := range 1 + i%4 {
				p.Steps = append(p.Steps, dryrun.Step{
					N: j + 1, Depth: j % 2, Flow: "flow", File: "flow.json", Node: fmt.Sprintf("n%d_%d%s", i, j, dirty), Name: "name" + dirty, Type: "ApiNode",
					Pointer: fmt.Sprintf("/$referenced_components/n%d_%d", i, j), Anchor: fmt.Sprintf("/$referenced_components/n%d", i), Branch: []string{"", "next", "yes" + dirty}[j%3], Note: "step note" + dirty,
					Inputs:  []dryrun.IO{{Name: "in" + dirty, Type: "string", Value: map[string]any{"k" + dirty: []any{"v" + dirty, 1.5}}, From: "stubs"}},
					Outputs: []dryrun.IO{{Name: "out", Type: "string", Value: "value" + dirty, Mismatch: "number" + dirty}},
				})
			}
			res.Paths = append(res.Paths, p)
		}
		return &analysis.Snapshot{Path: "flow.json", DryRun: res}
	}
	big, small := dry(4000/race.Stride(4)), dry(40)
	later, full := &Run{}, &Run{fullBuild: true}
	step := 0
	both := func(what string, do func(r *Run)) {
		t.Helper()
		step++
		do(later)
		do(full)
		got, want := later.View(th), full.View(th)
		lt, lok := later.Target()
		ft, fok := full.Target()
		if got != want || lt != ft || lok != fok || later.step != full.step || later.cursor != full.cursor {
			t.Fatalf("step %d (%s): the Run tab differs from the full build (target %v/%v)\nlater:\n%s\nfull:\n%s", step, what, lt, ft, ansi.Strip(got), ansi.Strip(want))
		}
		if strings.Contains(got, testshared.FakeGitHub) || strings.Contains(got, "\a") || strings.Contains(lt.Pointer, testshared.FakeGitHub) {
			t.Fatalf("step %d (%s): agent text not presented:\n%q", step, what, got)
		}
	}
	show := func(s *analysis.Snapshot) func(r *Run) {
		return func(r *Run) { r.Show(Shown{Cur: s, LastParsed: s, Theme: th}) }
	}
	both("open", func(r *Run) { r.SetSize(78, 22); show(big)(r) })
	for i := range 8 {
		both(fmt.Sprintf("down %d", i), func(r *Run) { r.Nav(NavDown, 5) })
		both(fmt.Sprintf("step %d", i), func(r *Run) { r.Nav(NavRight, 5) })
	}
	both("page down", func(r *Run) { r.Nav(NavPageDown, 5) })
	both("step back", func(r *Run) { r.Nav(NavLeft, 5) })
	both("resize 140x40", func(r *Run) { r.SetSize(138, 38) })
	both("bottom", func(r *Run) { r.Nav(NavBottom, 5) })
	both("steps at the bottom", func(r *Run) { r.Nav(NavRight, 5); r.Nav(NavRight, 5); r.Nav(NavRight, 5) })
	both("resize small", func(r *Run) { r.SetSize(40, 6) })
	if n := presentedPaths(later); n == 0 || n > 40 {
		t.Fatalf("the walk presented %d of %d paths, want a few screenfuls", n, len(later.rows))
	}
	both("up", func(r *Run) { r.Nav(NavUp, 5) })
	both("a smaller snapshot, scrolled", show(small))
	both("its top", func(r *Run) { r.Nav(NavTop, 5); r.Nav(NavRight, 5) })
	both("none", show(nil))
	both("large again", show(big))
	both("middle", func(r *Run) { r.SetSize(98, 28); r.Nav(NavPageDown, len(big.DryRun.Paths)/2) })
}

// presentedPaths counts the paths the Run tab has presented.
func presentedPaths(r *Run) (n int) {
	for _, d := range r.done {
		if d {
			n++
		}
	}
	return n
}
