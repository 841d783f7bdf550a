package diff

import (
	"fmt"
	"slices"
	"strings"

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
	om, nm := d.old.mount, d.new.mount // the snapshot's model, not recomputed
	if om == nil || nm == nil {
		return
	}
	for _, n := range nm.Slots {
		o := om.Slot(n.Definition, n.Slot)
		if o == nil || o.Form == n.Form {
			continue
		}
		subj := "slot " + n.Slot
		if n.Definition != "" {
			subj = n.Definition + "/" + subj
		}
		c := d.add(CheckSlotFormChanged, subj, "", o.Form, n.Form,
			fmt.Sprintf("context slot %s is in the %s form now (was %s): %s", quote(n.Slot), n.Form, o.Form, slotFormNote(n.Form)),
			pos(d.old.flow, o.Pointer), pos(d.new.flow, n.Pointer))
		d.explainFormMove(c, o, &n)
	}
}

// slotFormMoves says a slot moves between forms (what slotForms names):
// its explainFormMove may then drop graph changes already raised.
func (d *differ) slotFormMoves() bool {
	if !d.old.ok || !d.new.ok || d.old.mount == nil || d.new.mount == nil {
		return false
	}
	for _, n := range d.new.mount.Slots {
		if o := d.old.mount.Slot(n.Definition, n.Slot); o != nil && o.Form != n.Form {
			return true
		}
	}
	return false
}

// explainFormMove: a slot moving between the slim and the explicit form
// changes what the file holds (the explicit side's context FlowNode, its
// subflow and edges, the hidden start inputs) but not what the loader
// mounts: the slim side's step is injected at mount under the same ids
// (context_<slot>, context-<slot>-subflow) with the same hidden inputs.
// So the graph changes about the explicit side's context FlowNode are
// dropped (c, the form change, covers what they covered), and the
// fallback names none of the traces (formNodes, formPorts). The contract
// needs nothing here: the slim side's inputs hold those the loader adds
// (addMountInputs). A refused slim mount injects nothing, and the
// parent-satisfied form mounts no context step: those moves keep every
// change.
func (d *differ) explainFormMove(c *Change, o, n *compile.MountedSlot) {
	var exp *sideView
	var expOld bool
	var sm *compile.MountedSlot
	switch {
	case o.Form == compile.SlotExplicit && n.Form == compile.SlotSlim:
		exp, expOld, sm = d.old, true, n
	case o.Form == compile.SlotSlim && n.Form == compile.SlotExplicit:
		exp, expOld, sm = d.new, false, o
	default:
		return
	}
	fv := exp.flows[n.Definition]
	if sm.Refused || fv == nil {
		return
	}
	marks := []string{compile.AuthorPlacedPurpose + n.Slot, compile.LoaderInjectedPurpose + n.Slot}
	nodes := map[string]bool{}
	var extra []covered
	for _, x := range fv.g.Nodes {
		if x.Pointer == "" || x.Injected {
			continue
		}
		p, _ := exp.comp(x).Get("metadata").Get("cinatra").Get("purpose").Str()
		if !slices.Contains(marks, p) {
			continue
		}
		nodes[x.ID] = true
		extra = append(extra, covered{expOld, exp.flow.Path, x.Pointer})
		var scratch Change
		d.groupSubflow(&scratch, exp, x, expOld)
		extra = append(extra, scratch.extra...)
	}
	if len(nodes) == 0 {
		return
	}
	if d.formNodes == nil {
		d.formNodes, d.formPorts = map[string]bool{}, map[string]bool{}
	}
	for id := range nodes {
		d.formNodes[id] = true
	}
	for _, h := range sm.HiddenInputs {
		d.formPorts[fv.g.Start+"/"+h] = true // the start node's input (and output) h
		d.formPorts[h] = true                // the flow's own input h
	}
	mentions := func(ch *Change) bool {
		for id := range nodes {
			if ch.Node == id || ch.Before == id || ch.After == id || slices.Contains(ch.Group, id) ||
				strings.HasSuffix(ch.Subject, "/"+id) || ch.Subject == id {
				return true
			}
		}
		return false
	}
	graphChecks := map[string]bool{}
	for _, k := range []*Check{CheckNodeAdded, CheckNodeRemoved, CheckNodeRenamed, CheckNodeTypeChanged, CheckNodeMoved,
		CheckControlEdgeAdded, CheckControlEdgeRemoved, CheckControlEdgeRewired, CheckBranchAdded, CheckBranchRemoved,
		CheckDataEdgeAdded, CheckDataEdgeRemoved, CheckDataEdgeResourced, CheckNodeIOChanged} {
		graphChecks[k.ID] = true
	}
	formAt := -1
	kept := d.out[:0]
	var dropped []Change
	for i := range d.out {
		ch := d.out[i]
		if graphChecks[ch.Check] && mentions(&ch) {
			dropped = append(dropped, ch)
			continue
		}
		if &d.out[i] == c {
			formAt = len(kept)
		}
		kept = append(kept, ch)
	}
	d.out = kept
	c = &d.out[formAt]
	c.extra = append(c.extra, extra...)
	for i := range dropped {
		c.extra = append(c.extra, coverage(&dropped[i])...)
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

// addMountInputs adds to the contract's inputs those the WayFlow loader
// adds to the top-level flow at mount for its slim slots
// (MountedSlot.HiddenInputs: cinatra_run_id, projectId,
// <slot>ParentPackageName, <slot>SlotId when the file lacks them), as the
// compiled inputSchema would hold them had the file declared them: a
// string, hidden, not required, with the loader's default (the owner
// package, the slot id, else "": its _ensure_input adds
// {"title", "type": "string", "default"} and lists the title in the start
// node's metadata.cinatra.hidden; cinatra-ai/cinatra
// docker/wayflow/context_subflow_injection.py @3ce367a2, the same loader
// as @b76ddc22 compile.MountSlots follows). A slot moving between the slim
// and the explicit form then changes no input: the mounted contract is the
// same, and the move is diff_slot_form_changed's alone. A refused mount
// adds nothing.
func (v *sideView) addMountInputs() {
	if v.mount == nil {
		return
	}
	for _, ms := range v.mount.Slots {
		if ms.Definition != "" || ms.Form != compile.SlotSlim || ms.Refused {
			continue
		}
		for _, h := range ms.HiddenInputs {
			if _, ok := v.inputs[h]; ok {
				continue
			}
			def := ""
			switch h {
			case ms.Slot + "ParentPackageName":
				def = ms.Owner
			case ms.Slot + "SlotId":
				def = ms.Slot
			}
			p := schemaPorts(map[string]any{"type": "object", "properties": map[string]any{
				h: map[string]any{"type": "string", "title": h, "x-hidden": true, "default": def}}})[h]
			p.ptr = ms.Pointer // where the slot that adds it is declared
			v.inputs[h] = p
			if v.mountInputs == nil {
				v.mountInputs = map[string]bool{}
			}
			v.mountInputs[h] = true
		}
	}
}
