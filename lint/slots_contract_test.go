package lint

import (
	"strings"
	"testing"
)

// TestCorpusContextSlots: every corpus agent passes the context-slot
// contract with zero findings; the three slotted ones (blog-draft-writer,
// blog-image-prompt, email-outreach — which declares the dependency only in
// the newer cinatra.dependencies[] list) are among them.
func TestCorpusContextSlots(t *testing.T) {
	slotted := 0
	for _, ca := range rvCorpusAgents(t) {
		a := rvLoad(t, ca.Dir)
		if len(ca.Expected.ContextSlots) > 0 {
			slotted++
		}
		if got := rvRunChecks(a, nil, checkContextSlots); len(got) != 0 {
			t.Errorf("%s: %d slot findings:\n%s", ca.Slug, len(got), strings.Join(rvFindingKeys(got), "\n"))
		}
	}
	if slotted != 3 {
		t.Errorf("%d slotted corpus agents, want 3", slotted)
	}
}
