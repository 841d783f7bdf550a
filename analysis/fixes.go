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

// PlanFixes plans the first fix of each finding that has one, in order
// (edit.Plan: a fix touching bytes another chosen fix touches is skipped
// with its reason, never merged). It is the planning of `oastui lint
// --fix/--diff` and of every other face that applies fixes in bulk.
func PlanFixes(fs []lint.Finding) *edit.Batch {
	var cands []edit.Candidate
	for _, f := range fs {
		if len(f.Fixes) > 0 {
			cands = append(cands, edit.Candidate{ID: FixID(f), Fixes: f.Fixes})
		}
	}
	return edit.Plan(cands)
}
