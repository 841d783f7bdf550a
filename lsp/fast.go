package lsp

import (
	"github.com/oastui/oastui/lint"
)

// The fast first answer on a large buffer (issue 35, point 15). The whole
// review of a 10 MB flow takes longer than a second; its loading (the
// syntax and structure of the files) a fraction of it. A change of a flow
// buffer of FastPathBytes or more is answered in two publications of the
// same version: first the loading findings of the new text
// (analysis.Load: invalid_json, duplicate_key, …) with the previous
// review's other findings of that buffer carried through the edits since
// to their new places (those an edit touched are left out: they may not
// hold any more), then the whole review (analysis.Run going on from the
// same load). A carried finding is one the whole review reported a moment
// before; the second publication replaces them all.

// FastPathBytes is the size of a flow buffer from which a change is
// answered in two steps (the largest corpus agent is 176 KiB).
const FastPathBytes = 1 << 20

// maxCarryWork bounds findings × edits when carrying (beyond it, the first
// answer has the loading findings only).
const maxCarryWork = 20_000_000

// carrier is what carries a review's findings to a buffer's present text:
// the review, and the edits of the buffer since it read it.
type carrier struct {
	prev  *result
	edits []byteEdit
}

// carrierLocked is the carrier for a review of flow now, or nil when the
// flow's review takes one step: the buffer is small or not open, has no
// review yet, or was replaced whole since (s.mu held).
func (s *Server) carrierLocked(flow string) *carrier {
	d, prev := s.docs[flow], s.results[flow]
	if d == nil || len(d.src) < s.fastBytes || prev == nil || prev.seq < 0 {
		return nil
	}
	edits, ok := d.editsSince(prev.seq)
	if !ok {
		return nil
	}
	return &carrier{prev: prev, edits: edits}
}

// publishFast publishes the first answer of review fr (the loading
// findings) for the flow buffer, with c's carried findings when the flow
// still parses — unless a newer change made it stale (gen moved).
func (s *Server) publishFast(flow string, fr *result, c *carrier, gen uint64) {
	ds := fr.diags[flow]
	old, now := c.prev.text(flow), fr.text(flow)
	// a flow that does not parse any more has no finding of its checks
	if prevDiags := c.prev.diags[flow]; fr.snap.Parsed() && old != nil && now != nil && len(prevDiags)*max(len(c.edits), 1) <= maxCarryWork {
		for _, pd := range prevDiags {
			if pd.f.Group == lint.RuleInvalidJSON.Group {
				continue // a loading finding: the first answer has them anew
			}
			var start, end int
			if pd.f.HasSpan() {
				start, end = pd.f.Start, pd.f.End
			} else {
				start = old.runeOffset(pd.f.Line, pd.f.Column)
				end = old.lineEnd(old.lineAt(start))
			}
			ns, ne, ok := carrySpan(start, end, c.edits)
			if !ok {
				continue
			}
			pd.d.Range = now.rangeOf(ns, ne)
			ds = append(ds, pd)
		}
	}
	s.pubMu.Lock()
	defer s.pubMu.Unlock()
	if s.stale(flow, gen) {
		return
	}
	s.publish(fr, flow, ds)
}
