package views

import (
	"fmt"
	"github.com/oastui/oastui/present"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// FixMark is what a findings row whose finding carries a fix shows
// before the code.
const FixMark = "⚒"

// FixPreview is the overlay `f` opens on a finding with fixes: the title of
// the fix chosen, the choice when there are several, and the unified diff
// of every file it edits (coloured, scrollable, agent text cleaned). It
// renders only what it is given: the diffs are computed from the bytes
// the analysis read, never from the disk.
type FixPreview struct {
	finding compile.Finding
	fixes   []edit.Fix
	diffs   [][]string // per fix: the diff lines (presented by edit.PreviewFix)
	chosen  int
	text    Text
}

// NewFixPreview builds the preview of x's fixes. srcs maps a path to the
// bytes the analysis read; display names a path in the diff headers
// (relative to the agent, so the same on every machine).
func NewFixPreview(x compile.Finding, srcs map[string][]byte, display func(string) string) *FixPreview {
	p := &FixPreview{finding: x, fixes: x.Fixes}
	for _, f := range x.Fixes {
		p.diffs = append(p.diffs, fixDiff(f, srcs, display))
	}
	p.show()
	return p
}

// fixDiff is the diff of one fix (edit.PreviewFix: the one fix preview of
// every face, its text presented already), or the reason it has none.
func fixDiff(f edit.Fix, srcs map[string][]byte, display func(string) string) []string {
	if f.Empty() {
		return []string{"! the fix has no edits"}
	}
	d, err := edit.PreviewFix(f, srcs, display)
	if err != nil {
		return []string{"! " + err.Error() + "; the fix cannot be applied"}
	}
	if d == "" {
		return []string{"  no change"}
	}
	return strings.Split(strings.TrimSuffix(d, "\n"), "\n")
}

func (p *FixPreview) show() {
	p.text.SetLines(p.diffs[p.chosen])
	p.text.Home()
}

// AddCompiled appends to fix i's preview the change it makes to the
// compiled output (the diff engine's text, "~ " lines), shown before an
// unsafe or dangerous fix is applied (docs/fixes.md).
func (p *FixPreview) AddCompiled(i int, lines []string) {
	if i < 0 || i >= len(p.diffs) || len(lines) == 0 {
		return
	}
	p.diffs[i] = append(p.diffs[i], "")
	for _, l := range lines {
		p.diffs[i] = append(p.diffs[i], "~ "+l)
	}
	if i == p.chosen {
		p.show()
	}
}

// tierLabel is how the preview names a fix's tier ("" for a safe fix).
func tierLabel(f edit.Fix) string {
	switch f.Tier {
	case edit.Safe:
		return ""
	case edit.Unsafe:
		return "[unsafe: changes what the platform compiles or shows] "
	}
	return "[dangerous: approval, gates or riskClass; Enter twice] "
}

// Finding is the finding the preview is for.
func (p *FixPreview) Finding() compile.Finding { return p.finding }

// Chosen is the fix chosen (the one Enter applies).
func (p *FixPreview) Chosen() edit.Fix { return p.fixes[p.chosen] }

// ChosenIndex is the index of the fix chosen.
func (p *FixPreview) ChosenIndex() int { return p.chosen }

// Len is the number of fixes offered.
func (p *FixPreview) Len() int { return len(p.fixes) }

// Choose chooses fix i (ignored out of range).
func (p *FixPreview) Choose(i int) {
	if i >= 0 && i < len(p.fixes) && i != p.chosen {
		p.chosen = i
		p.show()
	}
}

// Cycle chooses the next (d=1) or previous (d=-1) fix, wrapping.
func (p *FixPreview) Cycle(d int) {
	n := len(p.fixes)
	p.Choose(((p.chosen+d)%n + n) % n)
}

// Nav scrolls the diff.
func (p *FixPreview) Nav(n Nav, page int) { p.text.Nav(n, page) }

// Offset is the first diff line shown (tests).
func (p *FixPreview) Offset() int { return p.text.Offset() }

// DiffLine colours one line of a unified diff (cleaned first: the diff
// holds the agent's text).
func DiffLine(th Theme, l string) string {
	c := present.Text(strings.ReplaceAll(l, "\t", "    "))
	switch {
	case strings.HasPrefix(l, "+++"), strings.HasPrefix(l, "---"):
		return th.Bold.Render(c)
	case strings.HasPrefix(l, "@@"):
		return th.DiffHunk.Render(c)
	case strings.HasPrefix(l, "+"):
		return th.DiffAdd.Render(c)
	case strings.HasPrefix(l, "-"):
		return th.DiffDel.Render(c)
	case strings.HasPrefix(l, "!"):
		return th.Blocker.Render(c)
	}
	return th.Text.Render(c)
}

// View renders the preview as a framed box no larger than w×h (its keys
// are on the model's help line, built from its key bindings).
func (p *FixPreview) View(th Theme, w, h int) string {
	bw := min(w, 110)
	inner := max(1, bw-3)
	var head []string
	x := p.finding
	head = append(head, Trunc(th.Code.Render(present.Text(x.Code))+" "+th.Dim.Render(present.Text(x.Message)), inner))
	if len(p.fixes) == 1 {
		head = append(head, strings.Split(ansiWrap(th.Bold.Render("fix: ")+th.Blocker.Render(tierLabel(p.fixes[0]))+th.Text.Render(present.Text(p.fixes[0].Title)), inner), "\n")...)
	} else {
		var parts []string
		for i, f := range p.fixes {
			label := fmt.Sprintf("%d %s%s", i+1, tierLabel(f), present.Text(f.Title))
			if i == p.chosen {
				parts = append(parts, th.TabActive.Render("▸ "+label))
			} else {
				parts = append(parts, th.TabInactive.Render(label))
			}
		}
		strip := th.Bold.Render(fmt.Sprintf("%d fixes: ", len(p.fixes))) + strings.Join(parts, th.Dim.Render(" │ "))
		head = append(head, Trunc(strip, inner))
		if Width(strip) > inner { // the chosen fix's title, whole, under the cut strip
			chosen := fmt.Sprintf("▸ %d %s%s", p.chosen+1, tierLabel(p.fixes[p.chosen]), present.Text(p.fixes[p.chosen].Title))
			head = append(head, strings.Split(ansiWrap(th.TabActive.Render(chosen), inner), "\n")...)
		}
	}
	head = append(head, th.Border.Render(strings.Repeat("─", inner)))
	diffH := max(1, min(len(p.diffs[p.chosen]), h-2-len(head)))
	p.text.SetSize(inner, diffH)
	raw := p.diffs[p.chosen]
	off := p.text.Offset()
	body := make([]string, 0, diffH)
	for i := off; i < len(raw) && len(body) < diffH; i++ {
		body = append(body, Fit(DiffLine(th, raw[i]), inner))
	}
	more := ""
	if n := len(raw); n > diffH {
		more = fmt.Sprintf(" · lines %d-%d of %d", off+1, min(n, off+diffH), n)
	}
	all := append(head, body...)
	title := th.TitleFocused.Render("fix preview" + more)
	return Box(th, title, bw, min(h, len(all)+2), all, true)
}
