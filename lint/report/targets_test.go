package report

import (
	"bytes"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// TestUsesTargets: a format that does not say it reads Report.Targets
// (UsesTargets) writes the same bytes with and without them, so that the
// CLI may leave them uncounted; the ones that say so do read them.
func TestUsesTargets(t *testing.T) {
	fs := []lint.Finding{{Code: "x", Severity: compile.Warning, Message: "m", File: "a/oas.json", Line: 1, Column: 1}}
	targets := []Target{{Path: "a", Warnings: 1}, {Path: "b", Problem: "does not parse", Blockers: 1}, {Path: "c"}, {Path: ".oastui.yaml", NotAgent: true, Warnings: 1}}
	for name, f := range Formats {
		var with, without bytes.Buffer
		if err := Write(&with, f, Report{Findings: fs, Files: 3, Targets: targets, ToolVersion: "v"}); err != nil {
			t.Fatal(err)
		}
		if err := Write(&without, f, Report{Findings: fs, Files: 3, ToolVersion: "v"}); err != nil {
			t.Fatal(err)
		}
		if same := bytes.Equal(with.Bytes(), without.Bytes()); same == UsesTargets(f) {
			t.Errorf("%s: UsesTargets %v, but the targets change its output: %v\nwith:\n%s\nwithout:\n%s", name, UsesTargets(f), !same, with.String(), without.String())
		}
	}
}
