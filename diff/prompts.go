package diff

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/prompts"
)

// prompts: each LLM node's templates (system, user) and model.
func (d *differ) prompts() {
	if !d.old.ok || !d.new.ok {
		return
	}
	for _, k := range unionKeys(d.old.prompts, d.new.prompts) {
		o, n := d.old.prompts[k], d.new.prompts[k]
		if o == nil || n == nil {
			continue // the node's own change says it
		}
		fk, id, _ := strings.Cut(k, "/")
		subj := nodeSubject(fk, id)
		ot, nt := o.templates, n.templates
		for _, field := range unionKeys(ot, nt) {
			a, b := ot[field], nt[field]
			at, bt := a.joined(), b.joined()
			if at != bt {
				c := d.add(CheckPromptChanged, subj+" "+field, id, hashShort(at), hashShort(bt),
					fmt.Sprintf("%s prompt of %s (%s) reworded", roleOf(a, b), quote(n.name), field), pos(d.old.flow, ptrOf(a, o.pointer)), pos(d.new.flow, ptrOf(b, n.pointer)))
				c.wordsOf = &[2]string{at, bt}
			}
			op, np := a.placeholderList(), b.placeholderList()
			added, removed := minus(np, op), minus(op, np)
			// One room for all the placeholder changes: a prompt renaming
			// 100,000 placeholders adds 200,000 changes, which growing the
			// list by doubling would copy many times over.
			k := len(added) + len(removed)
			if m := d.opts.MaxChanges; m > 0 {
				k = min(k, 3*m) // past the cap's share of each group, changes are only counted (spill)
			}
			d.out = slices.Grow(d.out, k)
			// What a placeholder change explains (the template on each side),
			// for one only counted (spill).
			cov := coveredAt(coveredAt(nil, CheckPromptPlaceholderAdded.ID, true, d.old.flow.Path, ptrOf(a, o.pointer)),
				CheckPromptPlaceholderAdded.ID, false, d.new.flow.Path, ptrOf(b, n.pointer))
			for _, ph := range added {
				// already fed: nothing to wire, a change of what the model reads
				by, lvl := n.fed[ph], CheckPromptPlaceholderAdded.Level
				if by != "" {
					lvl = Info
				}
				if d.spill(CheckPromptPlaceholderAdded, lvl, cov...) {
					continue
				}
				c := d.add(CheckPromptPlaceholderAdded, subj+" "+field+" {{"+ph+"}}", id, "", ph,
					fmt.Sprintf("%s (%s) uses {{%s}} now", quote(n.name), field, ph), pos(d.old.flow, ptrOf(a, o.pointer)), pos(d.new.flow, ptrOf(b, n.pointer)))
				if by != "" {
					c.Level, c.Reason = Info, "already fed by "+by
				}
			}
			for _, ph := range removed {
				if !d.spill(CheckPromptPlaceholderRemoved, CheckPromptPlaceholderRemoved.Level, cov...) {
					d.add(CheckPromptPlaceholderRemoved, subj+" "+field+" {{"+ph+"}}", id, ph, "",
						fmt.Sprintf("%s (%s) no longer uses {{%s}}", quote(n.name), field, ph), pos(d.old.flow, ptrOf(a, o.pointer)), pos(d.new.flow, ptrOf(b, n.pointer)))
				}
			}
			oe, ne := a.expressionSet(), b.expressionSet()
			for _, x := range sortedKeys(ne) {
				if !oe[x] {
					d.add(CheckPromptExpressionAdded, subj+" "+field+" "+x, id, "", x,
						fmt.Sprintf("%s (%s) has %s now: the runtime renders only {{ name }} placeholders, so the model is sent it as written", quote(n.name), field, x),
						pos(d.old.flow, ptrOf(a, o.pointer)), pos(d.new.flow, ptrOf(b, n.pointer)))
				}
			}
			for _, x := range sortedKeys(oe) {
				if !ne[x] {
					d.add(CheckPromptExpressionRemoved, subj+" "+field+" "+x, id, x, "",
						fmt.Sprintf("%s (%s) no longer has %s", quote(n.name), field, x), pos(d.old.flow, ptrOf(a, o.pointer)), pos(d.new.flow, ptrOf(b, n.pointer)))
				}
			}
		}
	}
}

// models: each LLM node's model or provider.
func (d *differ) models() {
	if !d.old.ok || !d.new.ok {
		return
	}
	for _, k := range unionKeys(d.old.prompts, d.new.prompts) {
		o, n := d.old.prompts[k], d.new.prompts[k]
		if o == nil || n == nil {
			continue
		}
		fk, id, _ := strings.Cut(k, "/")
		subj := nodeSubject(fk, id)
		om, nm := o.model, n.model
		if om != nm {
			d.add(CheckModelChanged, subj+" model", id, om, nm, fmt.Sprintf("%s uses %s now (was %s)", quote(n.name), orNone(nm), orNone(om)),
				pos(d.old.flow, o.pointer), pos(d.new.flow, n.pointer))
		}
	}
}

// promptView is what the prompt checks read of one node's prompt (a
// prompts.NodePrompt): its name, place and model, its templates by field,
// and what feeds each placeholder. It keeps nothing of the report.
type promptView struct {
	name, pointer, model string
	templates            map[string]*templateView // by field (role when fields repeat)
	// fed is what feeds each placeholder that something feeds (fedBy):
	// a placeholder added and already fed is a change of what the model
	// reads, not something to wire.
	fed map[string]string
}

// templateView is one template: its role, place and text, its
// placeholders (sorted, each once: a list is a tenth of a set's memory
// for a prompt of 100,000) and its expressions.
type templateView struct {
	role, pointer, text string
	placeholders        []string
	expressions         map[string]bool // {{ … }} and {% … %} that are not placeholders, by their text
}

func newPromptView(n *prompts.NodePrompt) *promptView {
	v := &promptView{name: n.Name, pointer: n.Pointer, model: modelText(n.Model), templates: map[string]*templateView{}}
	for i := range n.Templates {
		t := &n.Templates[i]
		k := t.Field
		if k == "" {
			k = t.Role
		}
		if _, dup := v.templates[k]; dup {
			k += " (" + t.Role + ")"
		}
		tv := &templateView{role: t.Role, pointer: t.Pointer, expressions: map[string]bool{}}
		var b strings.Builder
		for _, s := range t.Segments {
			b.WriteString(s.Text)
			switch s.Kind {
			case prompts.SegPlaceholder:
				tv.placeholders = append(tv.placeholders, s.Name)
			case prompts.SegExpression:
				tv.expressions[strings.Join(strings.Fields(s.Text), " ")] = true
			}
		}
		tv.text = b.String()
		slices.Sort(tv.placeholders)
		tv.placeholders = slices.Clip(slices.Compact(tv.placeholders))
		v.templates[k] = tv
	}
	for i := range n.Placeholders { // the first of a name
		p := &n.Placeholders[i]
		if _, seen := v.fed[p.Name]; seen {
			continue
		}
		if v.fed == nil {
			v.fed = map[string]string{}
		}
		v.fed[p.Name] = fedBy(p)
	}
	for k, by := range v.fed {
		if by == "" {
			delete(v.fed, k) // read as "" all the same: kept small
		}
	}
	return v
}

func roleOf(a, b *templateView) string {
	if b != nil && b.role != "" {
		return b.role
	}
	if a != nil && a.role != "" {
		return a.role
	}
	return "the"
}

func ptrOf(t *templateView, def string) string {
	if t != nil && t.pointer != "" {
		return t.pointer
	}
	return def
}

// joined is the template's text ("" for none).
func (t *templateView) joined() string {
	if t == nil {
		return ""
	}
	return t.text
}

// placeholderList is the template's placeholders, sorted (none for no
// template).
func (t *templateView) placeholderList() []string {
	if t == nil {
		return nil
	}
	return t.placeholders
}

// minus is the members of sorted list a that sorted list b lacks, in order.
func minus(a, b []string) []string {
	var out []string
	j := 0
	for _, x := range a {
		for j < len(b) && b[j] < x {
			j++
		}
		if j < len(b) && b[j] == x {
			continue
		}
		out = append(out, x)
	}
	return out
}

// expressionSet is the template's expressions that are not placeholders.
func (t *templateView) expressionSet() map[string]bool {
	if t == nil {
		return map[string]bool{}
	}
	return t.expressions
}

func modelText(m prompts.Model) string {
	switch {
	case m.Provider != "" && m.ID != "":
		return m.Provider + "/" + m.ID
	case m.ID != "":
		return m.ID
	}
	return m.Provider
}

// fedBy says what feeds placeholder p ("" when nothing does): the prompt
// report's provenance.
func fedBy(p *prompts.Placeholder) string {
	pv := p.Provenance
	switch pv.Kind {
	case prompts.FromUnresolved, "":
		return ""
	case prompts.FromEdge:
		return pv.From + "." + pv.Output
	case prompts.FromStart:
		return "the run input " + p.Name
	case prompts.FromSlot:
		return "context slot " + pv.Slot
	case prompts.FromDefault:
		return "its default"
	}
	return pv.Kind
}

func wordSummary(ws []Word) string {
	del, ins := 0, 0
	for _, w := range ws {
		if strings.TrimSpace(w.Text) == "" {
			continue
		}
		switch w.Op {
		case "-":
			del += len(strings.Fields(w.Text))
		case "+":
			ins += len(strings.Fields(w.Text))
		}
	}
	return fmt.Sprintf(": %d word(s) removed, %d added", del, ins)
}

// tokens cuts text into words and the runs of space between them.
func tokens(s string) []string {
	var out []string
	start, space := 0, false
	for i, r := range s {
		sp := unicode.IsSpace(r)
		if i > start && sp != space {
			out = append(out, s[start:i])
			start = i
		}
		space = sp
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}

// wordsWithin is Words spending the cells of its alignment table from bud
// (nil: only the bound of one diff); past the budget, the middle that
// differs is one removal and one addition.
func wordsWithin(a, b string, bud *budget) []Word {
	x, y := tokens(a), tokens(b)
	// Common prefix and suffix first: a reworded sentence in a long prompt
	// leaves a small middle for the quadratic part.
	p := 0
	for p < len(x) && p < len(y) && x[p] == y[p] {
		p++
	}
	s := 0
	for s < len(x)-p && s < len(y)-p && x[len(x)-1-s] == y[len(y)-1-s] {
		s++
	}
	var out []Word
	push := func(op, text string) {
		if text == "" {
			return
		}
		if len(out) > 0 && out[len(out)-1].Op == op {
			out[len(out)-1].Text += text
			return
		}
		out = append(out, Word{Op: op, Text: text})
	}
	push("=", strings.Join(x[:p], ""))
	mx, my := x[p:len(x)-s], y[p:len(y)-s]
	if !bud.take(len(mx) * len(my)) { // too large to align word by word (budget.go)
		push("-", strings.Join(mx, ""))
		push("+", strings.Join(my, ""))
	} else {
		n, m := len(mx), len(my)
		lcs := make([][]int32, n+1)
		for i := range lcs {
			lcs[i] = make([]int32, m+1)
		}
		for i := n - 1; i >= 0; i-- {
			for j := m - 1; j >= 0; j-- {
				if mx[i] == my[j] {
					lcs[i][j] = lcs[i+1][j+1] + 1
				} else {
					lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
				}
			}
		}
		i, j := 0, 0
		for i < n || j < m {
			switch {
			case i < n && j < m && mx[i] == my[j]:
				push("=", mx[i])
				i, j = i+1, j+1
			case i < n && (j == m || lcs[i+1][j] >= lcs[i][j+1]):
				push("-", mx[i])
				i++
			default:
				push("+", my[j])
				j++
			}
		}
	}
	push("=", strings.Join(x[len(x)-s:], ""))
	return joinChanges(out)
}

// joinChanges folds the spaces kept between two changes into them, so
// that a reworded phrase reads as one removal and one addition rather
// than word by word.
func joinChanges(ws []Word) []Word {
	var out []Word
	for i := 0; i < len(ws); {
		if ws[i].Op == "=" {
			out = append(out, ws[i])
			i++
			continue
		}
		// A run of changes, with whitespace-only kept pieces between them.
		var del, ins strings.Builder
		j := i
		for j < len(ws) {
			w := ws[j]
			if w.Op == "=" {
				if strings.TrimSpace(w.Text) != "" || j+1 >= len(ws) || ws[j+1].Op == "=" {
					break
				}
				del.WriteString(w.Text)
				ins.WriteString(w.Text)
			} else if w.Op == "-" {
				del.WriteString(w.Text)
			} else {
				ins.WriteString(w.Text)
			}
			j++
		}
		hasDel, hasIns := false, false
		for _, w := range ws[i:j] {
			hasDel = hasDel || w.Op == "-"
			hasIns = hasIns || w.Op == "+"
		}
		if hasDel {
			out = append(out, Word{Op: "-", Text: del.String()})
		}
		if hasIns {
			out = append(out, Word{Op: "+", Text: ins.String()})
		}
		i = j
	}
	return out
}

// descriptions: each node's description and the one its gate shows.
func (d *differ) descriptions() {
	if !d.old.ok || !d.new.ok {
		return
	}
	// the flow's own description (the agent's, as the catalogue shows it)
	if a, b := d.old.flow.Root.Get("description").StringOr(""), d.new.flow.Root.Get("description").StringOr(""); a != b {
		c := d.add(CheckDescriptionChanged, "flow description", "", hashShort(a), hashShort(b), "the agent's description reworded",
			pos(d.old.flow, "/description"), pos(d.new.flow, "/description"))
		c.wordsOf = &[2]string{a, b}
	}
	d.bothNodes(func(p *nodePair) {
		if noDescriptions(p) {
			return // neither description there on either side (most nodes)
		}
		fk, id, o, n := p.fk, p.id, p.o, p.n
		for _, f := range []struct {
			label, ptr string
			a, b       *compile.Node
		}{
			{"description", "/description", p.of.description, p.nf.description},
			{"gate description", "/metadata/cinatra/description", p.of.metadata.Path("cinatra", "description"), p.nf.metadata.Path("cinatra", "description")},
		} {
			a, b := f.a.StringOr(""), f.b.StringOr("")
			if a == b {
				continue
			}
			label := f.label
			if label == "gate description" && !d.isGate(fk, id, n.ComponentType) {
				label = "step description" // metadata.cinatra.description of a node that asks no one
			}
			c := d.add(CheckDescriptionChanged, nodeSubject(fk, id)+" "+f.label, id, hashShort(a), hashShort(b),
				fmt.Sprintf("%s of %s reworded", label, quote(n.Name)), pos(d.old.flow, o.Pointer+f.ptr), pos(d.new.flow, n.Pointer+f.ptr))
			c.wordsOf = &[2]string{a, b}
		}
	})
}

// noDescriptions says neither component of p has a description or
// metadata: both descriptions descriptions compares are "" on each side.
func noDescriptions(p *nodePair) bool {
	return p.of.description == nil && p.nf.description == nil && p.of.metadata == nil && p.nf.metadata == nil
}

// isGate says node id of flow fk asks a person on the new side (or the old
// one): an InputMessageNode, or a step or node that requires approval.
func (d *differ) isGate(fk, id, componentType string) bool {
	if componentType == "InputMessageNode" {
		return true
	}
	a := d.approvingGates()
	return a.keys[id] || a.keys[nodeSubject(fk, id)] || a.nodes[id]
}

// approving is, of both sides' gates that require approval, their keys and
// their nodes: isGate's sets, made on its first call (it scanned every gate
// of both sides for each node whose gate description changed, a flow of
// n such nodes n² times).
type approving struct {
	keys, nodes map[string]bool
}

func (d *differ) approvingGates() *approving {
	if d.approving == nil {
		a := &approving{keys: map[string]bool{}, nodes: map[string]bool{}}
		for _, v := range []*sideView{d.new, d.old} {
			for i := range v.gates.list {
				k, g := v.gates.list[i].k, &v.gates.list[i].g
				if g.approval {
					a.keys[k] = true
					a.nodes[g.node] = true
				}
			}
		}
		d.approving = a
	}
	return d.approving
}
