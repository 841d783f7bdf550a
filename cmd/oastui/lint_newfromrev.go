package main

import (
	"errors"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/diff"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
	"github.com/oastui/oastui/workspace"
)

// `oastui lint --new-from-rev REV` (issue 29, issue 36 §4): only the
// findings introduced since REV. REV is opened and its agents analysed
// through the diff engine's own path (diff.OpenRev, diff.AnalyzeSides: the
// function diff.Run reads both sides of every diff with), here with lint's
// options, and every finding whose fingerprint (rule, file, stable
// pointer, value) is among REV's is left out, as a baseline's are. A REV
// git cannot read is a usage error (exit 2), never "no new findings".

// addRevBaseline adds the fingerprints of REV's findings for targets (and,
// for a tree, REV's workspace findings) to the run's baseline.
func (ci *ciState) addRevBaseline(rev string, args, targets []string, opts analysis.Options) error {
	dir := "."
	if len(targets) > 0 {
		dir = targets[0]
	}
	g, err := diff.OpenRev(dir, rev)
	if err != nil {
		return usageErrorf("--new-from-rev: %v", err)
	}
	defer g.Close()
	if ci.baseline == nil {
		ci.baseline = map[string]bool{}
	}
	add := func(f lint.Finding) { ci.baseline[report.Fingerprint(f, ci.root)] = true }
	var agents []workspace.Agent
	var internal error
	diff.AnalyzeSides(targets, g, opts, func(_ int, s *analysis.Snapshot) {
		agents = append(agents, lintSummary(s, opts))
		for _, f := range s.Review.Findings {
			if f.Code == lint.RuleInternalError.Code && internal == nil {
				internal = errors.New(f.Message)
			}
			add(f)
		}
	})
	if internal != nil {
		return internalErrorf("--new-from-rev %s: %v", rev, internal)
	}
	if tree := treeArg(args); tree != "" {
		var c *lint.Config
		if opts.Config != nil {
			c = opts.Config.Config
		}
		for _, f := range workspace.Build(tree, agents, c).Findings {
			add(f)
		}
	}
	if ci.baselinePath == "" {
		ci.baselinePath = "of revision " + rev
	} else {
		ci.baselinePath += " and revision " + rev
	}
	return nil
}
