package views

import (
	"github.com/oastui/oastui/present"
	"strings"
	"testing"
	"time"

	"charm.land/bubbles/v2/key"
	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/compile"
)

var th = NewTheme(true)

func lines(s string) []string { return strings.Split(ansi.Strip(s), "\n") }

func checkBox(t *testing.T, s string, w, h int) {
	t.Helper()
	ls := strings.Split(s, "\n")
	if len(ls) != h {
		t.Errorf("%d lines, want %d", len(ls), h)
	}
	for i, l := range ls {
		if got := ansi.StringWidth(l); got != w {
			t.Errorf("line %d: width %d, want %d: %q", i, got, w, ansi.Strip(l))
		}
	}
}

func TestClean(t *testing.T) {
	cases := map[string]string{
		"plain":               "plain",
		"a\x1b[31mred\x1b[0m": "ared",
		"x\x1b]0;title\x07y":  "xy",
		"x\x1b]8;;http://e\x1b\\link\x1b]8;;\x1b\\": "xlink",
		"tab\there\nnl":  "tab here nl",
		"bidi\u202eevil": "bidievil",
		"bell\x07":       "bell",
	}
	for in, want := range cases {
		if got := present.Text(in); got != want {
			t.Errorf("present.Text(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestBoxAndFit(t *testing.T) {
	for _, w := range []int{4, 10, 37} {
		b := Box(th, "a very long title that does not fit", w, 5, []string{"x", strings.Repeat("y", 80), "\x1b[1mbold\x1b[0m"}, true)
		checkBox(t, b, w, 5)
	}
	if got := ansi.StringWidth(Fit("héllo wörld", 5)); got != 5 {
		t.Errorf("Fit width %d", got)
	}
	if got := Fit("ab", 4); got != "ab  " {
		t.Errorf("Fit pad %q", got)
	}
}

func doc() *compile.Doc {
	return compile.ParseDoc("f.json", []byte("{\n  \"a\": 1,\n  \"b\": {\"c\": true}\n}\n"))
}

func TestFindings(t *testing.T) {
	d := doc()
	fs := []compile.Finding{
		d.At("/a", "rule_one", compile.Blocker, "first blocker"),
		d.At("/b/c", "rule_two", compile.Warning, "a warning"),
		d.At("/b", "rule_three", compile.Suggestion, "a suggestion"),
		{Code: "pkg_rule", Severity: compile.Blocker, Message: "in package.json", File: "package.json", Line: 3, Column: 2},
	}
	var f Findings
	f.SetSize(50, 20)
	f.SetFindings(compile.SortFindings(fs), map[string]*compile.Doc{"f.json": d}, "f.json")
	if c := f.Counts(); c != [3]int{2, 1, 1} {
		t.Fatalf("counts %v", c)
	}
	out := f.View(th)
	checkBox(t, out, 50, 20)
	ls := lines(out)
	if !strings.HasPrefix(ls[0], "▾ Blockers (2)") {
		t.Errorf("first line %q", ls[0])
	}
	if !strings.Contains(out, "2:8") || !strings.Contains(out, "package.json:3:2") {
		t.Errorf("rows lack line:col / file:line:col:\n%s", ansi.Strip(out))
	}
	sel, _ := f.Selected()
	if sel.Code != "rule_one" {
		t.Errorf("first selection %s", sel.Code)
	}
	// The excerpt shows the line and a caret under the column.
	var caret, src int
	for i, l := range ls {
		if strings.Contains(l, `"a": 1,`) {
			src = i
		}
		if strings.HasSuffix(strings.TrimRight(l, " "), "^") {
			caret = i
		}
	}
	if src == 0 || caret != src+1 || strings.Index(ls[caret], "^") != strings.Index(ls[src], "1") {
		t.Errorf("caret not under the value (src %d caret %d):\n%s", src, caret, strings.Join(ls, "\n"))
	}
	f.Move(1)
	f.Move(1)
	if _, ok := f.Selected(); ok || !strings.Contains(ansi.Strip(f.View(th)), "▾ Warnings (1)") {
		t.Errorf("after two moves the cursor is not on the Warnings header")
	}
	f.Move(1)
	if s, _ := f.Selected(); s.Code != "rule_two" {
		t.Errorf("after three moves: %s", s.Code)
	}
	// Refresh keeps the cursor on the same finding.
	f.SetFindings(compile.SortFindings(append([]compile.Finding{}, fs...)), map[string]*compile.Doc{"f.json": d}, "f.json")
	if s, _ := f.Selected(); s.Code != "rule_two" {
		t.Errorf("after refresh: %s", s.Code)
	}
	f.SetFilter("SUGG")
	if f.Len() != 1 || f.Counts() != [3]int{0, 0, 1} {
		t.Errorf("filter: %d %v", f.Len(), f.Counts())
	}
	f.SetFilter("")
	f.End()
	if s, _ := f.Selected(); s.Code != "rule_three" {
		t.Errorf("end: %s", s.Code)
	}
}

func TestFindingsSmall(t *testing.T) {
	var f Findings
	f.SetSize(20, 3)
	d := doc()
	var fs []compile.Finding
	for i := 0; i < 10; i++ {
		fs = append(fs, d.At("/a", "r", compile.Warning, strings.Repeat("m", i)))
	}
	f.SetFindings(fs, nil, "f.json")
	for i := 0; i < 12; i++ {
		checkBox(t, f.View(th), 20, 3)
		if _, onFinding := f.Selected(); onFinding && !strings.Contains(f.View(th), "›") {
			t.Fatalf("cursor scrolled out of view at %d:\n%s", i, ansi.Strip(f.View(th)))
		}
		f.Move(1)
	}
}

func TestSteps(t *testing.T) {
	var s Steps
	s.SetSize(90, 6)
	s.SetSteps([]StepRow{
		{Number: 0, Name: "Inputs", NodeType: "setup", Approval: true, HitlOwnedBy: "self"},
		{Number: 1, Name: "Draft", NodeType: "agent", Risk: "low", Renderer: "form", Child: "@x/child"},
		{Number: 2, Name: "Review", NodeType: "input_message"},
	}, "")
	out := s.View(th)
	checkBox(t, out, 90, 6)
	if !strings.Contains(out, "✋ self") || !strings.Contains(out, "@x/child") || !strings.Contains(out, "input_message") {
		t.Errorf("steps:\n%s", ansi.Strip(out))
	}
	s.Move(5)
	if r, _ := s.Selected(); r.Number != 2 {
		t.Errorf("selected %d", r.Number)
	}
	s.SetSteps(nil, "compile failed: boom")
	if out := ansi.Strip(s.View(th)); !strings.Contains(out, "compile failed: boom") {
		t.Errorf("error not shown:\n%s", out)
	}
}

func TestSlots(t *testing.T) {
	var s Slots
	s.SetSize(60, 6)
	s.SetSlots(nil, "")
	if !strings.Contains(s.View(th), "declares no context slots") {
		t.Error("empty note missing")
	}
	s.SetSlots([]SlotRow{{ID: "ctx", Mode: "accumulate", Cardinality: "0..5", Extensions: []string{"@a/b"}, Status: "wired", OK: true},
		{ID: "bad", Mode: "override", Cardinality: "1..1", Status: "context_slot_not_wired"}}, "")
	out := s.View(th)
	checkBox(t, out, 60, 6)
	if !strings.Contains(out, "● wired") || !strings.Contains(out, "✖ context_slot_not_wired") {
		t.Errorf("slots:\n%s", ansi.Strip(out))
	}
	s.Move(1)
	if r, _ := s.Selected(); r.ID != "bad" {
		t.Errorf("selected %s", r.ID)
	}
}

func TestText(t *testing.T) {
	var x Text
	x.SetSize(10, 3)
	x.SetNumbered(true)
	var ls []string
	for i := 0; i < 10; i++ {
		ls = append(ls, strings.Repeat("x", i))
	}
	x.SetLines(ls)
	x.Scroll(100)
	if x.Offset() != 7 {
		t.Errorf("offset %d", x.Offset())
	}
	checkBox(t, x.View(th), 10, 3)
	x.Home()
	x.ScrollH(3)
	if got := lines(x.View(th))[2]; !strings.HasPrefix(strings.TrimLeft(got, " "), "3 ") {
		t.Errorf("numbered line %q", got)
	}
}

func TestHeader(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	cases := []struct {
		d    HeaderData
		want string
	}{
		{HeaderData{Agent: "A", Package: "@x/a@1.0.0", Path: "agents/x/a", At: at, Took: 4 * time.Millisecond}, "● clean"},
		{HeaderData{Agent: "A", Blockers: 2, Warnings: 1}, "✖ 2 blockers  1 warning"},
		{HeaderData{Agent: "A", Blockers: 1, Stale: true}, "◌ stale · 1 blocker"},
		{HeaderData{Agent: "A", Warnings: 1}, "⚠ 1 warning"}, // not "● clean  1 warning" (issue 13 item 8)
		{HeaderData{Loading: true}, "analysing…"},
	}
	for _, c := range cases {
		for _, w := range []int{40, 80, 200} {
			h := Header(th, w, c.d)
			if ansi.StringWidth(h) != w {
				t.Errorf("width %d at %d", ansi.StringWidth(h), w)
			}
			if w >= 80 && !strings.Contains(ansi.Strip(h), c.want) {
				t.Errorf("header %q lacks %q", ansi.Strip(h), c.want)
			}
			if c.d.Warnings > 0 && strings.Contains(h, "clean") {
				t.Errorf("header says clean with warnings: %q", ansi.Strip(h))
			}
		}
	}
	if h := ansi.Strip(Header(th, 120, cases[0].d)); !strings.Contains(h, "@x/a@1.0.0") || !strings.Contains(h, "03:04:05 4ms") {
		t.Errorf("header %q", h)
	}
}

func TestHelpLineKeepsHelpAndQuit(t *testing.T) {
	var bs []key.Binding
	for _, kd := range [][2]string{{"tab", "focus"}, {"↑↓", "move"}, {"e", "edit"}, {"/", "filter"}, {"?", "help"}, {"q", "quit"}} {
		bs = append(bs, key.NewBinding(key.WithKeys(kd[0]), key.WithHelp(kd[0], kd[1])))
	}
	for _, w := range []int{20, 30, 60, 200} {
		l := HelpLine(th, w, bs)
		if ansi.StringWidth(l) != w {
			t.Errorf("width %d at %d", ansi.StringWidth(l), w)
		}
		if w >= 30 && !strings.Contains(ansi.Strip(l), "q quit") {
			t.Errorf("at %d: %q", w, ansi.Strip(l))
		}
	}
}

func TestHelpOverlayFits(t *testing.T) {
	groups := []HelpGroup{{Title: "g", Bindings: []key.Binding{
		key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "b")),
		key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "d")),
	}}}
	out := HelpOverlay(th, 30, 10, groups, 0)
	for _, l := range strings.Split(out, "\n") {
		if ansi.StringWidth(l) > 30 {
			t.Errorf("too wide: %q", ansi.Strip(l))
		}
	}
	screen := strings.Repeat(strings.Repeat(".", 40)+"\n", 11) + strings.Repeat(".", 40)
	o := Overlay(screen, out, 40, 12)
	if len(strings.Split(o, "\n")) != 12 {
		t.Errorf("overlay changed the height")
	}
}

func TestNodeLines(t *testing.T) {
	ls := NodeLines(th, &NodeInfo{Name: "N\x1b[2J", Fields: [][2]string{{"id", "n"}}, Inputs: []string{"a: string"},
		DataIn: []string{"start.a → a"}}, 40)
	s := ansi.Strip(strings.Join(ls, "\n"))
	if strings.Contains(strings.Join(ls, ""), "\x1b[2J") || !strings.Contains(s, "inputs (1)") || !strings.Contains(s, "start.a → a") {
		t.Errorf("node lines:\n%s", s)
	}
	if got := NodeLines(th, nil, 40); len(got) != 1 {
		t.Errorf("nil node: %v", got)
	}
}

// TestHelpOverlayNoOrphanHeading: split in two columns, no column ends
// with a group title (issue 13 item 6: at 80×24 a heading was left at the
// bottom of the left column, its keys at the top of the right one); when
// the help is taller than the box, nothing is cut: scrolling from the top
// to HelpScrollMax shows every title and every key, and the title says so.
func TestHelpOverlayNoOrphanHeading(t *testing.T) {
	var groups []HelpGroup
	var want []string
	for g := 0; g < 5; g++ {
		var bs []key.Binding
		for i := 0; i < 2+g*2; i++ {
			k := string(rune('a' + i))
			bs = append(bs, key.NewBinding(key.WithKeys(k), key.WithHelp(k, "does thing "+itoa(g)+k)))
			want = append(want, "does thing "+itoa(g)+k)
		}
		groups = append(groups, HelpGroup{Title: "group" + itoa(g), Bindings: bs})
		want = append(want, "group"+itoa(g))
	}
	scrolled := 0
	for _, w := range []int{78, 40} {
		for h := 8; h <= 40; h += 3 {
			most := HelpScrollMax(th, w, h, groups)
			seen := ""
			for top := 0; ; top = min(top+h-2, most) { // page by page: every line shows once at least

				out := ansi.Strip(HelpOverlay(th, w, h, groups, top))
				ls := strings.Split(out, "\n")
				if len(ls) > h {
					t.Fatalf("%dx%d top %d: %d lines", w, h, top, len(ls))
				}
				if most > 0 && !strings.Contains(ls[0], "↑↓ lines") {
					t.Errorf("%dx%d: the help does not fit and its title does not say it scrolls: %q", w, h, ls[0])
				}
				seen += out
				if most == 0 {
					checkNoOrphan(t, w, h, ls, out)
				}
				if top == most {
					break
				}
			}
			if most > 0 {
				scrolled++
			}
			for _, s := range want {
				if !strings.Contains(seen, s) {
					t.Errorf("%dx%d: %q never shows, scrolling from 0 to %d", w, h, s, most)
				}
			}
			if got := ansi.Strip(HelpOverlay(th, w, h, groups, most+5)); got != ansi.Strip(HelpOverlay(th, w, h, groups, most)) {
				t.Errorf("%dx%d: a top past the end is not clamped", w, h)
			}
		}
	}
	if scrolled == 0 {
		t.Error("no size needed scrolling: the test checks nothing of it")
	}
}

// checkNoOrphan: neither column of a help box ends with a group title.
func checkNoOrphan(t *testing.T, w, h int, ls []string, out string) {
	t.Helper()
	body := ls[1 : len(ls)-1]
	last := [2]string{}
	for _, l := range body {
		r := []rune(strings.Trim(l, "│"))
		left := strings.TrimSpace(string(r[:min(len(r), 30)]))
		right := strings.TrimSpace(string(r[min(len(r), 30):]))
		if left != "" {
			last[0] = left
		}
		if right != "" {
			last[1] = right
		}
	}
	for _, l := range last {
		if strings.HasPrefix(l, "group") {
			t.Errorf("%dx%d: column ends with heading %q:\n%s", w, h, l, out)
		}
	}
}

// TestFindingsFoldAndDetail: enter/space on a bucket header folds it (▸)
// and unfolds it (▾); enter on a finding shows it in full, its whole
// message and the rule's doc; esc (Close) goes back to the list.
func TestFindingsFoldAndDetail(t *testing.T) {
	d := doc()
	long := strings.Repeat("a long message that goes on ", 12) + "THE END."
	fs := []compile.Finding{
		d.At("/a", "agentnode_hitl_owned_by", compile.Blocker, long),
		d.At("/b/c", "rule_two", compile.Warning, "a warning"),
	}
	var f Findings
	f.SetSize(40, 40)
	f.SetFindings(compile.SortFindings(fs), map[string]*compile.Doc{"f.json": d}, "f.json")
	f.Move(-1) // onto the Blockers header
	if !f.Open() || !f.Folded(0) || !strings.Contains(ansi.Strip(f.View(th)), "▸ Blockers (1)") {
		t.Fatalf("enter on the header did not fold:\n%s", ansi.Strip(f.View(th)))
	}
	if strings.Contains(ansi.Strip(f.View(th)), "a long message") {
		t.Errorf("folded bucket still lists its finding")
	}
	f.Nav(NavSpace, 5)
	if f.Folded(0) || !strings.Contains(ansi.Strip(f.View(th)), "▾ Blockers (1)") {
		t.Fatalf("space did not unfold")
	}
	// A refresh keeps the cursor on the header the user chose.
	f.SetFindings(compile.SortFindings(append([]compile.Finding{}, fs...)), map[string]*compile.Doc{"f.json": d}, "f.json")
	if _, ok := f.Selected(); ok {
		t.Errorf("refresh moved the cursor off the header")
	}
	f.Move(1)
	if !f.Open() || !f.DetailOpen() {
		t.Fatal("enter on a finding did not open it")
	}
	out := ansi.Strip(f.View(th))
	flat := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{"THE END.", "hitlOwnedBy is neither", "/a", "f.json:2:8", "^"} {
		if !strings.Contains(flat, want) {
			t.Errorf("detail lacks %q:\n%s", want, out)
		}
	}
	if !f.Close() || f.DetailOpen() || f.Close() {
		t.Error("close")
	}
}

// TestStepsColumns: the node column is shown beside the step name, empty
// columns are left out, and risk and renderer are not cut when the name
// columns can give way.
func TestStepsColumns(t *testing.T) {
	var s Steps
	s.SetSize(70, 6)
	s.SetSteps([]StepRow{
		{Number: 1, Name: "Check the draft inside the subflow", NodeName: "Review", NodeType: "agent", Risk: "external_write", Renderer: "approval-card"},
		{Number: 2, Name: "Send", NodeName: "Send", NodeType: "tool"},
	}, "")
	out := ansi.Strip(s.View(th))
	if !strings.Contains(out, "node") || !strings.Contains(out, "Review") || !strings.Contains(out, "external_write") || !strings.Contains(out, "approval-card") {
		t.Errorf("steps:\n%s", out)
	}
	if strings.Contains(out, "child agent") || strings.Contains(out, "approval ") {
		t.Errorf("empty columns shown:\n%s", out)
	}
	checkBox(t, s.View(th), 70, 6)
}
