package analysis

import (
	"fmt"

	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"
)

// Sources are the bytes each parsed file of the snapshot was read with, by
// path: what the edits of a finding's fixes are offsets into, and what
// edit.Batch.Write checks the disk against before writing (nil when
// nothing was loaded).
func (s *Snapshot) Sources() map[string][]byte {
	if s.Agent == nil {
		return nil
	}
	out := map[string][]byte{}
	for _, d := range s.Agent.Docs() {
		if d.Src != nil {
			out[d.Path] = d.Src
		}
	}
	return out
}

// FixID names a finding in a fix batch and in its reasons:
// "file:line:col code", with the finding's File as the face shows it.
func FixID(f lint.Finding) string {
	return fmt.Sprintf("%s:%d:%d %s", f.File, f.Line, f.Column, f.Code)
}

// PlanFixes plans, for each finding in order, the first of its fixes (its
// alternatives, best first: at most one is ever applied) whose tier is
// within max (edit.Tier), with edit.Plan: a fix touching bytes another
// chosen fix touches is skipped with its reason, never merged. It is the
// planning of `oastui lint --fix/--diff` and of every other face that
// applies fixes in bulk; a batch passes edit.Safe, or edit.Unsafe for
// --unsafe-fixes, never edit.Dangerous (only one named finding is).
func PlanFixes(fs []lint.Finding, max edit.Tier) *edit.Batch {
	var cands []edit.Candidate
	for _, f := range fs {
		if i := edit.FirstWithin(f.Fixes, max); i >= 0 {
			cands = append(cands, edit.Candidate{ID: FixID(f), Fixes: f.Fixes[i : i+1]})
		}
	}
	return edit.Plan(cands)
}

// Held is what a batch up to some tier leaves out: the findings that have
// fixes, none of them within the tier, counted by the lowest tier that
// would apply one, with their ids (FixID) in order.
type Held struct {
	Unsafe, Dangerous []string
}

// HeldBack says which findings' fixes a batch up to max leaves out.
func HeldBack(fs []lint.Finding, max edit.Tier) Held {
	var h Held
	for _, f := range fs {
		if len(f.Fixes) == 0 || edit.FirstWithin(f.Fixes, max) >= 0 {
			continue
		}
		if edit.FirstWithin(f.Fixes, edit.Unsafe) >= 0 {
			h.Unsafe = append(h.Unsafe, FixID(f))
		} else {
			h.Dangerous = append(h.Dangerous, FixID(f))
		}
	}
	return h
}
