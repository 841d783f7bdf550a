package analysis

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/slots"
)

// SlotReport is one context slot of the agent and what the review says of
// its wiring: Problems lists the codes of the context-slot findings that
// point at it (or at no slot in particular); none means it is wired.
type SlotReport struct {
	Slot     slots.Slot
	Problems []string
	// Form is how the WayFlow loader mounts the slot (compile.MountSlots):
	// compile.SlotSlim (it injects the context step), SlotExplicit (the
	// author placed it) or SlotParentSatisfied; "" when the declaration is
	// too malformed to mount.
	Form string
}

// Wired says no context-slot finding concerns the slot.
func (r SlotReport) Wired() bool { return len(r.Problems) == 0 }

// readSlots lists the context slots and matches the review's context-slot
// findings (rule group slots) to them: a finding belongs to a slot when it
// points inside the slot or its check says it is about it (Finding.Slot);
// one about no slot concerns them all.
func (s *Snapshot) readSlots() {
	list, problem := slots.Slots(s.Agent.Flow.Root)
	s.SlotProblem = problem
	var general []string
	perSlot := map[string][]string{}
	for _, f := range s.Review.Findings {
		if f.Group != lint.GroupSlots {
			continue
		}
		matched := false
		for _, sl := range list {
			if f.Location == sl.Pointer || strings.HasPrefix(f.Location, sl.Pointer+"/") || f.Slot == sl.SlotID {
				perSlot[sl.SlotID] = append(perSlot[sl.SlotID], f.Code)
				matched = true
			}
		}
		if !matched {
			general = append(general, f.Code)
		}
	}
	mount := s.Agent.Model().Mount
	for _, sl := range list {
		r := SlotReport{Slot: sl, Problems: dedup(append(perSlot[sl.SlotID], general...))}
		if ms := mount.Slot("", sl.SlotID); ms != nil {
			r.Form = ms.Form
		}
		s.Slots = append(s.Slots, r)
	}
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

// SlotQuery is one resolution of a context slot against the dev catalog
// (`oastui resolve`, `oastui pick`, the MCP context_resolve tool).
type SlotQuery struct {
	Slot    string // slotId (required)
	Project string // resolve inside this project ("" for none)
	Catalog string // catalog file ("" for .oastui/catalog.json at the workspace root)
	// CheckCatalog, when set, is asked about the catalog file before it is
	// read (a face confining reads to some directories refuses there).
	CheckCatalog func(path string) error
}

// ErrFlowUnparsed is returned (wrapped) by PrepareSlot for a flow file that
// does not parse.
var ErrFlowUnparsed = errors.New("the flow file does not parse")

// PrepareSlot analyses the agent at path (StageSlots is added to
// opts.Stages) and resolves the slot's candidates (slots.Prepare). The
// error is the load error, ErrFlowUnparsed (wrapped, with the parse
// error), a *slots.SlotError with the reference's exact message
// (slot_missing, slot_ambiguous: SlotIDsHint names the slots there are),
// or the catalog's. The snapshot is returned whenever the analysis ran.
func PrepareSlot(path string, opts Options, q SlotQuery) (*Snapshot, *slots.Prepared, error) {
	opts.Stages |= StageSlots
	snap := Run(path, opts)
	if snap.LoadErr != nil {
		return snap, nil, snap.LoadErr
	}
	a := snap.Agent
	if !snap.Parsed() {
		msg := ErrFlowUnparsed.Error()
		if a.Flow != nil && a.Flow.Err != nil {
			msg += ": " + a.Flow.Err.Error()
		}
		return snap, nil, fmt.Errorf("%s: %w", a.FlowPath, unparsedError{msg})
	}
	if q.CheckCatalog != nil {
		cat := q.Catalog
		if cat == "" {
			cat = filepath.Join(slots.WorkspaceRoot(a), slots.CatalogFile)
		}
		if err := q.CheckCatalog(cat); err != nil {
			return snap, nil, err
		}
	}
	p, err := slots.Prepare(a, q.Slot, q.Project, q.Catalog)
	if err != nil {
		return snap, nil, err
	}
	return snap, p, nil
}

// unparsedError is ErrFlowUnparsed with the parse error in its message.
type unparsedError struct{ msg string }

func (e unparsedError) Error() string { return e.msg }
func (e unparsedError) Unwrap() error { return ErrFlowUnparsed }

// SlotIDsHint names the agent's context slots, for an unknown slotId.
func (s *Snapshot) SlotIDsHint() string {
	if len(s.Slots) == 0 {
		if s.SlotProblem != "" {
			return "the agent's context slots cannot be read: " + s.SlotProblem
		}
		return "the agent declares no context slots (metadata.cinatra.contextSlots)"
	}
	ids := make([]string, len(s.Slots))
	for i, r := range s.Slots {
		ids[i] = r.Slot.SlotID
	}
	return "the agent's context slots: " + strings.Join(ids, ", ")
}

// Resolution is what context_resolve returns for a slot: `oastui resolve`
// prints it, the MCP tool returns it.
type Resolution struct {
	SlotID         string      `json:"slotId"`
	ResolutionMode string      `json:"resolutionMode"`
	Refs           []slots.Ref `json:"refs"`
}

// ResolutionOf is the context_resolve result of a prepared slot: the
// candidates cut to maxItems.
func ResolutionOf(p *slots.Prepared) Resolution {
	return Resolution{SlotID: p.Slot.SlotID, ResolutionMode: p.Slot.ResolutionMode, Refs: p.Candidates}
}
