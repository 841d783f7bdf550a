package analysis

import (
	"strings"

	"github.com/oastui/oastui/slots"
)

// SlotReport is one context slot of the agent and what the review says of
// its wiring: Problems lists the codes of the context-slot findings that
// point at it (or at no slot in particular); none means it is wired.
type SlotReport struct {
	Slot     slots.Slot
	Problems []string
}

// Wired says no context-slot finding concerns the slot.
func (r SlotReport) Wired() bool { return len(r.Problems) == 0 }

// readSlots lists the context slots and matches the review's context-slot
// findings to them: a finding belongs to a slot when it points inside the
// slot or names its id; one that names no slot concerns them all.
func (s *Snapshot) readSlots() {
	list, problem := slots.Slots(s.Agent.Flow.Root)
	s.SlotProblem = problem
	var general []string
	perSlot := map[string][]string{}
	for _, f := range s.Review.Findings {
		if !strings.HasPrefix(f.Code, "context_slot") && !strings.HasPrefix(f.Code, "context_dependency") {
			continue
		}
		matched := false
		for _, sl := range list {
			if f.Location == sl.Pointer || strings.HasPrefix(f.Location, sl.Pointer+"/") || namesSlot(f.Message, sl.SlotID) {
				perSlot[sl.SlotID] = append(perSlot[sl.SlotID], f.Code)
				matched = true
			}
		}
		if !matched {
			general = append(general, f.Code)
		}
	}
	for _, sl := range list {
		s.Slots = append(s.Slots, SlotReport{Slot: sl, Problems: dedup(append(perSlot[sl.SlotID], general...))})
	}
}

// namesSlot: the message quotes the slot id or names it as a word.
func namesSlot(msg, id string) bool {
	return strings.Contains(msg, "'"+id+"'") || strings.Contains(msg, `"`+id+`"`) || strings.Contains(msg, " "+id+" ")
}

func dedup(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}
