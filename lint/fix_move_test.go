package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/edit"
)

// TestLegacyFilenameMoveFix: the legacy_agent_filename fix moves the flow
// file to cinatra/oas.json byte for byte (the result is the ok fixture),
// the finding is gone and no other appears; from a package-root
// agent.json it creates cinatra/ too.
func TestLegacyFilenameMoveFix(t *testing.T) {
	errDir := filepath.Join(rulesFixtureDir, "err", "legacy_agent_filename")
	okFlow, err := os.ReadFile(filepath.Join(rulesFixtureDir, "ok", "legacy_agent_filename", "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, legacy := range []string{filepath.Join("cinatra", "agent.json"), "agent.json"} {
		t.Run(legacy, func(t *testing.T) {
			cp := copyFixture(t, errDir)
			if legacy == "agent.json" { // the oldest layout: no cinatra/ at all
				if err := os.Rename(filepath.Join(cp, "cinatra", "agent.json"), filepath.Join(cp, "agent.json")); err != nil {
					t.Fatal(err)
				}
				if err := os.Remove(filepath.Join(cp, "cinatra")); err != nil {
					t.Fatal(err)
				}
			}
			from := filepath.Join(cp, legacy)
			read, _ := os.ReadFile(from)
			a, before := reviewDir(t, cp)
			var fixes []edit.Fix
			for _, f := range before {
				if f.Code == RuleLegacyAgentFilename.Code {
					fixes = f.Fixes
				}
			}
			if len(fixes) != 1 || len(fixes[0].Edits) != 0 || len(fixes[0].Moves) != 1 {
				t.Fatalf("fixes = %+v, want one move", fixes)
			}
			to := filepath.Join(cp, "cinatra", "oas.json")
			if m := fixes[0].Moves[0]; m.From != from || m.To != to {
				t.Fatalf("move %+v, want %s -> %s", m, from, to)
			}
			if _, err := edit.Plan([]edit.Candidate{{ID: "x", Fixes: fixes}}).Write(loadedSources(a)); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(to)
			if err != nil || string(got) != string(read) || string(got) != string(okFlow) {
				t.Fatalf("moved file differs from the original (%v)", err)
			}
			if _, err := os.Lstat(from); !os.IsNotExist(err) {
				t.Fatalf("legacy file still there: %v", err)
			}
			_, after := reviewDir(t, cp)
			cb, ca := codeCounts(before), codeCounts(after)
			if ca[RuleLegacyAgentFilename.Code] != 0 {
				t.Errorf("still reported:\n%s", renderRuleFindings(after, RuleLegacyAgentFilename.Code))
			}
			for code, n := range ca {
				if n > cb[code] {
					t.Errorf("new %s finding:\n%s", code, renderRuleFindings(after, code))
				}
			}
		})
	}
}

// TestLegacyFilenameNoFixWhenTargetTaken: when something (here a
// directory) already holds cinatra/oas.json, the move is not offered.
func TestLegacyFilenameNoFixWhenTargetTaken(t *testing.T) {
	cp := copyFixture(t, filepath.Join(rulesFixtureDir, "err", "legacy_agent_filename"))
	if err := os.Mkdir(filepath.Join(cp, "cinatra", "oas.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	_, found := reviewDir(t, cp)
	seen := false
	for _, f := range found {
		if f.Code == RuleLegacyAgentFilename.Code {
			seen = true
			if len(f.Fixes) != 0 {
				t.Errorf("a move onto an existing path is offered: %+v", f.Fixes)
			}
		}
	}
	if !seen {
		t.Fatal("legacy_agent_filename not reported")
	}
}
