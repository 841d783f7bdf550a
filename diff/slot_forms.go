package diff

import (
	"fmt"

	"github.com/oastui/oastui/compile"
)

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
		d.add("diff_slot_form_changed", subj, "", o.Form, n.Form,
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
