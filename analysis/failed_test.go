package analysis

import (
	"strings"
	"testing"
)

// TestPanicIsABlockerThatNothingPasses: a panic recovered while the
// snapshot's work runs is its one finding, an internal_error blocker,
// and the gate refuses it — in Load (the language server's first answer)
// as in Run.
func TestPanicIsABlockerThatNothingPasses(t *testing.T) {
	for _, doing := range []string{"loading", "analysing"} {
		s := &Snapshot{Path: "agents/x"}
		func() {
			defer func() {
				if r := recover(); r != nil {
					s.failed(doing, r)
				}
			}()
			panic("boom")
		}()
		if s.LoadErr == nil || !strings.Contains(s.LoadErr.Error(), "internal error while "+doing+": boom") {
			t.Errorf("%s: LoadErr = %v", doing, s.LoadErr)
		}
		if len(s.Review.Findings) != 1 || s.Review.Findings[0].Code != "internal_error" {
			t.Fatalf("%s: findings %+v, want one internal_error", doing, s.Review.Findings)
		}
		if len(s.Review.Gate.Blockers) == 0 {
			t.Errorf("%s: the gate has no blocker: a failed review would pass", doing)
		}
	}
}
