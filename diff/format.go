package diff

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint/report"
)

// The faces of a diff: one Formatter per output format (Formats), each
// given the Document of one run (one or more agents). They paint and escape
// with lint's palette and escapes (lint/report), and lead each agent with
// its headline and its callers, the approval and contract rows before the
// rest, the package.json detail collapsed into one row.

// Document is the JSON document of `oastui diff --format json`
// (schema/diff-output.schema.json): every agent compared and the total.
type Document struct {
	SchemaVersion int       `json:"schemaVersion"`
	Agents        []*Result `json:"agents"`
	Summary       Summary   `json:"summary"`
}

// NewDocument collects results into one document.
func NewDocument(results []*Result) *Document {
	doc := &Document{SchemaVersion: SchemaVersion, Agents: results}
	if doc.Agents == nil {
		doc.Agents = []*Result{}
	}
	for _, r := range results {
		doc.Summary.Breaking += r.Summary.Breaking
		doc.Summary.Warn += r.Summary.Warn
		doc.Summary.Info += r.Summary.Info
	}
	return doc
}

// FormatOptions are how a document is written: Base makes paths relative
// (the working directory), Color paints text for a terminal.
type FormatOptions struct {
	Base  string
	Color bool
}

// Formatter writes a document in one output format.
type Formatter interface {
	Format(w io.Writer, doc *Document, opts FormatOptions) error
}

// Formats are the output formats by name. Add a format here.
var Formats = map[string]Formatter{
	"text":     textFormat{},
	"json":     jsonFormat{},
	"markdown": markdownFormat{},
	"github":   githubFormat{},
}

// FormatNames lists the formats, sorted.
func FormatNames() []string { return sortedKeys(Formats) }

type (
	textFormat     struct{}
	jsonFormat     struct{}
	markdownFormat struct{}
	githubFormat   struct{}
)

// changed are the agents of a tree with changes (every agent when one).
func changed(doc *Document) []*Result {
	if len(doc.Agents) <= 1 {
		return doc.Agents
	}
	var out []*Result
	for _, r := range doc.Agents {
		if len(r.Changes) > 0 {
			out = append(out, r)
		}
	}
	return out
}

func treeTrailer(w io.Writer, doc *Document, shown int) error {
	if len(doc.Agents) <= 1 {
		return nil
	}
	_, err := fmt.Fprintf(w, "\n%d agents compared, %d without changes\n", len(doc.Agents), len(doc.Agents)-shown)
	return err
}

func (jsonFormat) Format(w io.Writer, doc *Document, opts FormatOptions) error {
	for _, r := range doc.Agents {
		r.Relative(opts.Base)
	}
	out, err := compile.IndentJSON(doc) // as every face prints JSON
	if err != nil {
		return err
	}
	_, err = w.Write(out)
	return err
}

func (textFormat) Format(w io.Writer, doc *Document, opts FormatOptions) error {
	shown := changed(doc)
	for i, r := range shown {
		if i > 0 {
			if _, err := io.WriteString(w, "\n"); err != nil {
				return err
			}
		}
		if err := Text(w, r, opts.Base, opts.Color); err != nil {
			return err
		}
	}
	return treeTrailer(w, doc, len(shown))
}

// Notices are the safety notices of a document's results (Result.Notices),
// each once, in order: a run with one config says each once however many
// agents it compares.
func (doc *Document) Notices() []string {
	var out []string
	seen := map[string]bool{}
	for _, r := range doc.Agents {
		for _, n := range r.Notices {
			if !seen[n] {
				seen[n] = true
				out = append(out, n)
			}
		}
	}
	return out
}

func (markdownFormat) Format(w io.Writer, doc *Document, opts FormatOptions) error {
	if ns := doc.Notices(); len(ns) > 0 {
		var b strings.Builder
		for _, n := range ns {
			fmt.Fprintf(&b, "> %s\n", mdEscape(n))
		}
		b.WriteString("\n")
		if _, err := io.WriteString(w, b.String()); err != nil {
			return err
		}
	}
	shown := changed(doc)
	for _, r := range shown {
		if err := Markdown(w, r, opts.Base); err != nil {
			return err
		}
	}
	return treeTrailer(w, doc, len(shown))
}

func (githubFormat) Format(w io.Writer, doc *Document, opts FormatOptions) error {
	for _, n := range doc.Notices() {
		if _, err := fmt.Fprintf(w, "::warning title=oastui diff::%s\n", report.GitHubData(n)); err != nil {
			return err
		}
	}
	for _, r := range changed(doc) {
		if err := GitHub(w, r, opts.Base); err != nil {
			return err
		}
	}
	return nil
}

func levelStyle(l Level) string {
	switch l {
	case Breaking:
		return report.StyleRed
	case Warn:
		return report.StyleYellow
	}
	return report.StyleCyan
}

// relTo shows file relative to base when below it (lint's RelFile).
func relTo(base, file string) string {
	if base == "" || file == "" {
		return file
	}
	if r, err := filepath.Rel(base, file); err != nil || strings.HasPrefix(r, "..") {
		return file
	}
	return report.RelFile(file, base)
}

func where(p *Pos, base string) string {
	if p == nil {
		return ""
	}
	s := relTo(base, p.File)
	if p.Line > 0 {
		s += fmt.Sprintf(":%d:%d", p.Line, p.Column)
	}
	return s
}

// at is where a reviewer finds a change: its new position; for something
// removed, the anchor in the new file (the nearest place that still
// exists) when there is one, else the old position marked as the old file's.
func at(c *Change, base string) string {
	if s := where(c.New, base); s != "" {
		return s
	}
	if c.Anchor != nil {
		return where(c.Anchor, base) + " (where it was)"
	}
	if s := where(c.Old, base); s != "" {
		return s + " (old file)"
	}
	return ""
}

// rows orders a result's changes for a reader: by level, and within one,
// approval and contract first, packaging last; the non-breaking package.json
// changes fold into one row (the JSON keeps each).
type row struct {
	c    *Change
	fold []*Change // the package.json changes of a folded row
}

func rows(r *Result) []row {
	var out, pkg []row
	var folded []*Change
	for i := range r.Changes {
		c := &r.Changes[i]
		if byID[c.Check] != nil && byID[c.Check].Area == "package" && c.Level != Breaking {
			folded = append(folded, c)
			continue
		}
		out = append(out, row{c: c})
	}
	switch len(folded) {
	case 0:
	case 1:
		pkg = append(pkg, row{c: folded[0]})
	default:
		lv := Info
		for _, c := range folded {
			if c.Level.AtLeast(lv) {
				lv = c.Level
			}
		}
		pkg = append(pkg, row{c: &Change{Check: "package.json", Level: lv, Message: packageSummary(folded)}, fold: folded})
	}
	// the folded row goes after the last row of its level
	for _, p := range pkg {
		i := len(out)
		for j, x := range out {
			if x.c.Level.rank() > p.c.Level.rank() {
				i = j
				break
			}
		}
		out = append(out[:i], append([]row{p}, out[i:]...)...)
	}
	return out
}

// packageSummary is the one line of the folded package.json changes.
func packageSummary(cs []*Change) string {
	count := map[string]int{}
	var order []string
	var version string
	for _, c := range cs {
		if c.Check == CheckVersionChanged.ID {
			version = c.Message
			continue
		}
		k := strings.TrimPrefix(c.Check, "diff_")
		if count[k] == 0 {
			order = append(order, k)
		}
		count[k]++
	}
	var parts []string
	if version != "" {
		parts = append(parts, version)
	}
	for _, k := range order {
		parts = append(parts, fmt.Sprintf("%d %s", count[k], strings.ReplaceAll(k, "_", " ")))
	}
	return fmt.Sprintf("%s (%d changes)", strings.Join(parts, "; "), len(cs))
}

// callersLine is the agent's callers as one line: who calls it, through
// what, which inputs it binds and outputs it reads, its range.
func callersLine(r *Result) string {
	switch {
	case !r.Tree:
		return "Callers: not searched (no agents/ tree around the agent)"
	case len(r.Callers) == 0:
		return "Callers: none in the tree"
	}
	var parts []string
	for _, c := range r.Callers {
		var d []string
		if c.Via != "" {
			d = append(d, c.Via)
		}
		if len(c.BindsInputs) > 0 {
			d = append(d, "binds "+strings.Join(c.BindsInputs, ", "))
		}
		if len(c.ReadsOutputs) > 0 {
			d = append(d, "reads "+strings.Join(c.ReadsOutputs, ", "))
		}
		if c.Range != "" {
			d = append(d, "range "+c.Range)
		}
		s := c.Package
		if len(d) > 0 {
			s += " (" + strings.Join(d, "; ") + ")"
		}
		parts = append(parts, s)
	}
	return "Callers: " + strings.Join(parts, ", ")
}

// Text writes the result for a terminal or a log: the agent and its sides,
// the headline, the callers, one line per change (level, check, message,
// position), callers under breaking ones, and the summary. base makes
// paths relative (the working directory).
func Text(w io.Writer, r *Result, base string, color bool) error {
	paint := func(c, s string) string { return report.Paint(color, c, s) }
	var b strings.Builder
	name := r.Agent
	if r.Package != "" {
		name += " (" + r.Package + ")"
	}
	fmt.Fprintf(&b, "%s %s → %s\n", paint(report.StyleBold, name), sideText(r.Old), sideText(r.New))
	if r.Headline != "" {
		fmt.Fprintf(&b, "%s\n", r.Headline)
	}
	fmt.Fprintf(&b, "%s\n", paint(report.StyleDim, callersLine(r)))
	if len(r.Changes) == 0 {
		b.WriteString("no changes\n")
	}
	shown, more := shownRows(r) // budget.go
	for _, rw := range shown {
		c := rw.c
		fmt.Fprintf(&b, "%s %s %s\n", paint(levelStyle(c.Level)+report.StyleBold, fmt.Sprintf("%-8s", c.Level)), paint(report.StyleDim, c.Check), c.Message)
		if len(rw.fold) > 0 {
			for _, f := range rw.fold {
				fmt.Fprintf(&b, "         %s %s\n", paint(report.StyleDim, f.Check), f.Message)
			}
			continue
		}
		if where := at(c, base); where != "" { // diff_gate_relaxed has no place in the flow
			fmt.Fprintf(&b, "         %s\n", paint(report.StyleDim, where))
		}
		if c.Reason != "" {
			fmt.Fprintf(&b, "         %s\n", paint(report.StyleDim, "("+c.Reason+")"))
		}
		for _, cl := range c.Callers {
			fmt.Fprintf(&b, "         caller %s%s\n", cl.Package, callerText(cl, *c))
		}
		if len(c.Words) > 0 {
			fmt.Fprintf(&b, "         %s\n", wordText(c.Words, paint))
		}
	}
	b.WriteString(moreNote(more))
	fmt.Fprintf(&b, "%s breaking, %s warn, %s info\n", paint(report.StyleRed, fmt.Sprint(r.Summary.Breaking)), paint(report.StyleYellow, fmt.Sprint(r.Summary.Warn)), paint(report.StyleCyan, fmt.Sprint(r.Summary.Info)))
	_, err := io.WriteString(w, b.String())
	return err
}

func sideText(s Side) string {
	t := s.Rev
	if s.Version != "" {
		t += " (" + s.Version + ")"
	}
	return t
}

// callerText says how a caller is affected: what calls, whether it binds
// the changed port (for a change about one), whether its range accepts
// the new version (and so will pick the change up).
func callerText(c Caller, ch Change) string {
	port := ch.Port
	var parts []string
	if c.Via != "" {
		parts = append(parts, "via "+c.Via)
	}
	switch {
	case port == "":
	case c.Binds:
		parts = append(parts, "binds "+port)
	default:
		parts = append(parts, "does not bind "+port)
	}
	switch {
	case ch.Check == CheckAgentRemoved.ID:
		parts = append(parts, "still calls or declares it") // no new version to accept
	case c.Range == "":
		parts = append(parts, "declares no range")
	case c.Accepts:
		parts = append(parts, "range "+c.Range+" accepts the new version")
	default:
		parts = append(parts, "range "+c.Range+" does not accept the new version")
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

// Markdown writes one pull-request comment: the headline and callers, a
// summary table, the changes breaking first, each reworded prompt as a
// word diff and the package.json detail in collapsible sections.
func Markdown(w io.Writer, r *Result, base string) error {
	var b strings.Builder
	name := r.Agent
	if r.Package != "" {
		name = r.Package
	}
	fmt.Fprintf(&b, "### oastui diff: %s\n\n", mdEscape(name))
	fmt.Fprintf(&b, "`%s` → `%s`\n\n", strings.ReplaceAll(sideText(r.Old), "`", "'"), strings.ReplaceAll(sideText(r.New), "`", "'"))
	if r.Headline != "" {
		fmt.Fprintf(&b, "**%s**\n\n", mdEscape(r.Headline))
	}
	fmt.Fprintf(&b, "%s\n\n", mdEscape(callersLine(r)))
	b.WriteString("| breaking | warn | info |\n|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %d | %d | %d |\n\n", r.Summary.Breaking, r.Summary.Warn, r.Summary.Info)
	if len(r.Changes) == 0 {
		b.WriteString("No changes.\n")
	}
	all, more := shownRows(r) // budget.go
	for _, lv := range []Level{Breaking, Warn, Info} {
		var rs []row
		for _, rw := range all {
			if rw.c.Level == lv {
				rs = append(rs, rw)
			}
		}
		if len(rs) == 0 {
			continue
		}
		fmt.Fprintf(&b, "#### %s (%d)\n\n| check | change | where |\n|---|---|---|\n", lv, len(rs))
		for _, rw := range rs {
			c := rw.c
			msg := mdEscape(c.Message)
			if c.Reason != "" {
				msg += " _(" + mdEscape(c.Reason) + ")_"
			}
			for _, cl := range c.Callers {
				msg += "<br>caller " + mdEscape(cl.Package+callerText(cl, *c))
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Check, msg, mdEscape(at(c, base)))
		}
		b.WriteString("\n")
		for _, rw := range rs {
			if len(rw.fold) > 0 {
				fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n| check | change | where |\n|---|---|---|\n", mdEscape(rw.c.Message))
				for _, f := range rw.fold {
					fmt.Fprintf(&b, "| `%s` | %s | %s |\n", f.Check, mdEscape(f.Message), mdEscape(at(f, base)))
				}
				b.WriteString("\n</details>\n\n")
			}
		}
		for _, rw := range rs {
			c := rw.c
			if len(c.Words) == 0 {
				continue
			}
			fmt.Fprintf(&b, "<details><summary>%s</summary>\n\n", mdEscape(c.Message))
			var d strings.Builder
			for _, wd := range c.Words {
				t := htmlEscape(wd.Text)
				switch wd.Op {
				case "-":
					d.WriteString("<del>" + t + "</del>")
				case "+":
					d.WriteString("<ins>" + t + "</ins>")
				default:
					d.WriteString(htmlEscape(shorten(wd.Text, false, false)))
				}
			}
			fmt.Fprintf(&b, "<blockquote>%s</blockquote>\n\n</details>\n\n", d.String())
		}
	}
	if more != "" {
		b.WriteString("_" + mdEscape(more) + "_\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// GitHub writes one workflow annotation per change (::error for breaking,
// ::warning for warn, ::notice for info), at the new position; a removed
// item at its anchor in the new file, else at the old position with the
// message saying so.
func GitHub(w io.Writer, r *Result, base string) error {
	var b strings.Builder
	shown, more := shownChanges(r) // budget.go
	for _, c := range shown {
		cmd := "notice"
		switch c.Level {
		case Breaking:
			cmd = "error"
		case Warn:
			cmd = "warning"
		}
		msg := c.Message
		p := c.New
		switch {
		case p != nil:
		case c.Anchor != nil:
			p = c.Anchor
			msg += " (removed here)"
		default:
			p = c.Old
			if p != nil {
				msg += fmt.Sprintf(" (line %d of the old file)", p.Line)
			}
		}
		var props []string
		if p != nil && p.File != "" {
			props = append(props, "file="+report.GitHubProperty(relTo(base, p.File)))
			if p.Line > 0 && (c.New != nil || c.Anchor != nil) {
				props = append(props, fmt.Sprintf("line=%d,col=%d", p.Line, p.Column))
			}
		}
		props = append(props, "title="+report.GitHubProperty(c.Check))
		if c.Reason != "" {
			msg += " (" + c.Reason + ")"
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), report.GitHubData(msg))
	}
	if more != "" {
		fmt.Fprintf(&b, "::notice title=oastui diff::%s\n", report.GitHubData(more))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func wordText(ws []Word, paint func(c, s string) string) string {
	var b strings.Builder
	for i, w := range ws {
		switch w.Op {
		case "-":
			b.WriteString(paint(report.StyleRed, "[-"+clip(w.Text)+"-]"))
		case "+":
			b.WriteString(paint(report.StyleGreen, "{+"+clip(w.Text)+"+}"))
		default:
			b.WriteString(shorten(w.Text, i == 0, i == len(ws)-1))
		}
	}
	return b.String()
}
func shorten(s string, first, last bool) string {
	f := strings.Fields(s)
	const k = 6
	lead, trail := s != strings.TrimLeft(s, " \t\n"), s != strings.TrimRight(s, " \t\n")
	sp := func(b bool) string {
		if b {
			return " "
		}
		return ""
	}
	switch {
	case first && len(f) > k:
		return "… " + strings.Join(f[len(f)-k:], " ") + sp(trail)
	case last && len(f) > k:
		return sp(lead) + strings.Join(f[:k], " ") + " …"
	case !first && !last && len(f) > 2*k:
		return sp(lead) + strings.Join(f[:k], " ") + " … " + strings.Join(f[len(f)-k:], " ") + sp(trail)
	}
	return s
}
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'", "\n", " ", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`)
	return mdNeutral(r.Replace(s)) // safe_md.go
}
func htmlEscape(s string) string {
	return mdNeutral(strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)) // safe_md.go
}
func (r *Result) Relative(base string) {
	r.Old.File, r.New.File = relTo(base, r.Old.File), relTo(base, r.New.File)
	for i := range r.Changes {
		c := &r.Changes[i]
		for _, p := range []*Pos{c.Old, c.New, c.Anchor} {
			if p != nil {
				p.File = relTo(base, p.File)
			}
		}
		for j := range c.Callers {
			c.Callers[j].Dir = relTo(base, c.Callers[j].Dir)
		}
	}
}
func clip(s string) string {
	f := strings.Fields(s)
	if len(f) <= 40 {
		return s
	}
	return strings.Join(f[:40], " ") + fmt.Sprintf(" … (%d more words)", len(f)-40)
}
