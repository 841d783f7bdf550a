package main

import (
	"github.com/oastui/oastui/edit"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/internal/hostile"
)

// hostileDiffFixture is the drift fixture with hostile.Secrets in a string
// beside the lines its fixes change (issue 26 item 11).
func hostileDiffFixture(t *testing.T) string {
	return copyFixtureFlow(t, driftFixture, func(s string) string {
		return strings.Replace(s, `"type": "leaf",`, `"type": "leaf",`+"\n      \"note\": \""+hostile.Secrets+"\",", 1)
	})
}

// TestLintDiffPresented: `lint --diff` shows no raw secret, C1 or bidi
// character (it printed the token, the URL password, U+009B, U+202E and
// U+2066), and prints exactly edit's one fix preview — the text the TUI
// and agent_fix show for the same fixes.
func TestLintDiffPresented(t *testing.T) {
	dir := hostileDiffFixture(t)
	_, out, errs := runLintCmd(t, "--diff", dir)
	if !strings.Contains(out, "+++ b/") || !strings.Contains(out, `"note": "see https://bob:`) {
		t.Fatalf("no diff with the note's context line:\n%s\n%s", out, errs)
	}
	for _, raw := range hostile.Raw {
		if strings.Contains(out, raw) {
			t.Errorf("lint --diff shows %q:\n%s", raw, out)
		}
	}
	snap := analysis.Run(dir, analysis.Options{})
	want, err := analysis.PlanFixes(snap.Review.Findings, edit.Safe).Preview(snap.Sources(), func(p string) string { return p })
	if err != nil || out != want {
		t.Errorf("lint --diff is not edit's preview (%v):\n%s\n--- want\n%s", err, out, want)
	}
}
