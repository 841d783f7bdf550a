package diff

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"
)

// The faces of a Result other than JSON: text (coloured like lint's on a
// terminal), one Markdown pull-request comment, GitHub annotations.

const (
	cReset  = "\x1b[0m"
	cBold   = "\x1b[1m"
	cDim    = "\x1b[2m"
	cRed    = "\x1b[31m"
	cYellow = "\x1b[33m"
	cCyan   = "\x1b[36m"
	cGreen  = "\x1b[32m"
)

func levelColor(l Level) string {
	switch l {
	case Breaking:
		return cRed
	case Warn:
		return cYellow
	}
	return cCyan
}

// relTo shows file relative to base when below it.
func relTo(base, file string) string {
	if base == "" || file == "" {
		return file
	}
	if r, err := filepath.Rel(base, file); err == nil && !strings.HasPrefix(r, "..") {
		return filepath.ToSlash(r)
	}
	return file
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

// Text writes the result for a terminal or a log: a header, one line per
// change (level, check, message, position), callers under breaking ones,
// and the summary. base makes paths relative (the working directory).
func Text(w io.Writer, r *Result, base string, color bool) error {
	paint := func(c, s string) string {
		if !color {
			return s
		}
		return c + s + cReset
	}
	var b strings.Builder
	name := r.Agent
	if r.Package != "" {
		name += " (" + r.Package + ")"
	}
	fmt.Fprintf(&b, "%s %s → %s\n", paint(cBold, name), sideText(r.Old), sideText(r.New))
	if len(r.Changes) == 0 {
		b.WriteString("no changes\n")
	}
	shown, more := shownChanges(r) // budget.go
	for _, c := range shown {
		at := where(c.New, base)
		if at == "" {
			at = where(c.Old, base) + " (old)"
		}
		fmt.Fprintf(&b, "%s %s %s\n", paint(levelColor(c.Level)+cBold, fmt.Sprintf("%-8s", c.Level)), paint(cDim, c.Check), c.Message)
		fmt.Fprintf(&b, "         %s\n", paint(cDim, at))
		if c.Reason != "" {
			fmt.Fprintf(&b, "         %s\n", paint(cDim, "("+c.Reason+")"))
		}
		for _, cl := range c.Callers {
			fmt.Fprintf(&b, "         caller %s%s\n", cl.Package, callerText(cl, c))
		}
		if len(c.Words) > 0 {
			fmt.Fprintf(&b, "         %s\n", wordText(c.Words, paint))
		}
	}
	b.WriteString(moreNote(more))
	fmt.Fprintf(&b, "%s breaking, %s warn, %s info\n", paint(cRed, fmt.Sprint(r.Summary.Breaking)), paint(cYellow, fmt.Sprint(r.Summary.Warn)), paint(cCyan, fmt.Sprint(r.Summary.Info)))
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
// the new version.
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
	case ch.Check == "diff_agent_removed":
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

// wordText renders a word diff as git's --word-diff=plain does, the kept
// text around changes shortened to context words.
func wordText(ws []Word, paint func(c, s string) string) string {
	var b strings.Builder
	for i, w := range ws {
		switch w.Op {
		case "-":
			b.WriteString(paint(cRed, "[-"+clip(w.Text)+"-]"))
		case "+":
			b.WriteString(paint(cGreen, "{+"+clip(w.Text)+"+}"))
		default:
			b.WriteString(shorten(w.Text, i == 0, i == len(ws)-1))
		}
	}
	return b.String()
}

// shorten keeps up to six words of kept text next to a change.
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

// mdEscape makes a string safe inside a Markdown table cell or line.
func mdEscape(s string) string {
	r := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "`", "'", "\n", " ", "*", `\*`, "_", `\_`, "[", `\[`, "]", `\]`)
	return mdNeutral(r.Replace(s)) // safe_md.go
}

// Markdown writes one pull-request comment: a summary table, the changes
// breaking first, and each reworded prompt as a word diff in a
// collapsible section.
func Markdown(w io.Writer, r *Result, base string) error {
	var b strings.Builder
	name := r.Agent
	if r.Package != "" {
		name = r.Package
	}
	fmt.Fprintf(&b, "### oastui diff: %s\n\n", mdEscape(name))
	fmt.Fprintf(&b, "`%s` → `%s`\n\n", strings.ReplaceAll(sideText(r.Old), "`", "'"), strings.ReplaceAll(sideText(r.New), "`", "'"))
	b.WriteString("| breaking | warn | info |\n|---:|---:|---:|\n")
	fmt.Fprintf(&b, "| %d | %d | %d |\n\n", r.Summary.Breaking, r.Summary.Warn, r.Summary.Info)
	if len(r.Changes) == 0 {
		b.WriteString("No changes.\n")
	}
	shown, more := shownChanges(r) // budget.go
	for _, lv := range []Level{Breaking, Warn, Info} {
		var rows []Change
		for _, c := range shown {
			if c.Level == lv {
				rows = append(rows, c)
			}
		}
		if len(rows) == 0 {
			continue
		}
		fmt.Fprintf(&b, "#### %s (%d)\n\n| check | change | where |\n|---|---|---|\n", lv, len(rows))
		for _, c := range rows {
			msg := mdEscape(c.Message)
			if c.Reason != "" {
				msg += " _(" + mdEscape(c.Reason) + ")_"
			}
			for _, cl := range c.Callers {
				msg += "<br>caller " + mdEscape(cl.Package+callerText(cl, c))
			}
			at := where(c.New, base)
			if at == "" {
				at = where(c.Old, base)
			}
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.Check, msg, mdEscape(at))
		}
		b.WriteString("\n")
		for _, c := range rows {
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

func htmlEscape(s string) string {
	return mdNeutral(strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;").Replace(s)) // safe_md.go
}

// GitHub writes one workflow annotation per change (::error for breaking,
// ::warning for warn, ::notice for info), at the new position (the old
// one for something removed).
func GitHub(w io.Writer, r *Result, base string) error {
	var b strings.Builder
	esc := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A")
	prop := strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C")
	shown, more := shownChanges(r) // budget.go
	for _, c := range shown {
		cmd := "notice"
		switch c.Level {
		case Breaking:
			cmd = "error"
		case Warn:
			cmd = "warning"
		}
		p := c.New
		if p == nil {
			p = c.Old
		}
		var props []string
		if p != nil && p.File != "" {
			props = append(props, "file="+prop.Replace(relTo(base, p.File)))
			if p.Line > 0 {
				props = append(props, fmt.Sprintf("line=%d,col=%d", p.Line, p.Column))
			}
		}
		props = append(props, "title="+prop.Replace(c.Check))
		msg := c.Message
		if c.Reason != "" {
			msg += " (" + c.Reason + ")"
		}
		fmt.Fprintf(&b, "::%s %s::%s\n", cmd, strings.Join(props, ","), esc.Replace(msg))
	}
	if more != "" {
		fmt.Fprintf(&b, "::notice title=oastui diff::%s\n", esc.Replace(more))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Relative rewrites the paths of r (positions, sides, callers) relative
// to base where they lie below it, as lint's JSON shows them.
func (r *Result) Relative(base string) {
	r.Old.File, r.New.File = relTo(base, r.Old.File), relTo(base, r.New.File)
	for i := range r.Changes {
		c := &r.Changes[i]
		for _, p := range []*Pos{c.Old, c.New} {
			if p != nil {
				p.File = relTo(base, p.File)
			}
		}
		for j := range c.Callers {
			c.Callers[j].Dir = relTo(base, c.Callers[j].Dir)
		}
	}
}

// clip keeps a long removed or added run short on a terminal (the
// Markdown and JSON faces keep it whole): its first 40 words.
func clip(s string) string {
	f := strings.Fields(s)
	if len(f) <= 40 {
		return s
	}
	return strings.Join(f[:40], " ") + fmt.Sprintf(" … (%d more words)", len(f)-40)
}
