package diff

import (
	"fmt"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
)

// CheckSlotFormChanged: a slot moved between the loader's forms.
var CheckSlotFormChanged = &Check{ID: "diff_slot_form_changed", Level: Info, Area: "slots", Inverse: "diff_slot_form_changed", Doc: "A context slot moved between the slim form (the WayFlow loader injects its context step at mount), the explicit form (the author placed it, with the purpose marker) and the parent-satisfied form."}

// slotForms names a context slot that moved between the forms the WayFlow
// loader tells apart (compile.MountSlots, after
// cinatra-ai/cinatra docker/wayflow/context_subflow_injection.py @b76ddc22):
// slim (only declared; the loader injects the context step at mount),
// explicit (the author placed it, with the purpose marker) and
// parent-satisfied (a parent's parentSatisfiedContextSlots line answers
// it). Slots added or removed are diff_slot_added's and diff_slot_removed's.
func (d *differ) slotForms() {
	if !d.old.ok || !d.new.ok {
		return
	}
	om, nm := compile.MountSlots(d.old.flow), compile.MountSlots(d.new.flow)
	for _, n := range nm.Slots {
		o := om.Slot(n.Definition, n.Slot)
		if o == nil || o.Form == n.Form {
			continue
		}
		subj := "slot " + n.Slot
		if n.Definition != "" {
			subj = n.Definition + "/" + subj
		}
		d.add(CheckSlotFormChanged, subj, "", o.Form, n.Form,
			fmt.Sprintf("context slot %s is in the %s form now (was %s): %s", quote(n.Slot), n.Form, o.Form, slotFormNote(n.Form)),
			pos(d.old.flow, o.Pointer), pos(d.new.flow, n.Pointer))
	}
}

func slotFormNote(form string) string {
	switch form {
	case compile.SlotSlim:
		return "the loader injects the context step at mount (context_<slot> after the start)"
	case compile.SlotExplicit:
		return "the context step is the one written in the file"
	}
	return "a parent's pick is handed down, and the agent does not pause for it"
}

// fileGraph is g as the file writes it: without the context steps the
// loader injects at mount for slim slots (flowgraph.Node.Injected), whose
// form change is diff_slot_form_changed's; the start node's edges the
// injection moved behind them lead from the start again. g itself when it
// holds none.
func fileGraph(g *flowgraph.Graph) *flowgraph.Graph {
	injected := map[string]bool{}
	for _, n := range g.Nodes {
		if n.Injected {
			injected[n.ID] = true
		}
	}
	if len(injected) == 0 {
		return g
	}
	c := *g
	c.Nodes = nil
	for _, n := range g.Nodes {
		if !n.Injected {
			c.Nodes = append(c.Nodes, n)
		}
	}
	c.Edges = nil
	for _, e := range g.Edges {
		switch {
		case e.Pointer == "" && (injected[e.From] || injected[e.To]):
			continue // an edge the injection adds
		case injected[e.From]:
			e.From = g.Start
		}
		c.Edges = append(c.Edges, e)
	}
	c.Data = nil
	for _, d := range g.Data {
		if !injected[d.From] && !injected[d.To] {
			c.Data = append(c.Data, d)
		}
	}
	return &c
}
