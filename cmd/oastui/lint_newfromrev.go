package main

import (
	"os"
	"path/filepath"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
	"github.com/oastui/oastui/workspace"
)

// `oastui lint --new-from-rev REV` (issue 29): only the findings
// introduced since REV. The same agents are reviewed as REV has them,
// through the same loading (compile.LoadOptions.Rev), and every finding
// whose fingerprint (rule, file, pointer, value) is among REV's is left
// out, as a baseline's are. A REV git cannot read is a usage error
// (exit 2), never "no new findings".

// addRevBaseline adds the fingerprints of REV's findings for targets (and,
// for a tree, REV's workspace findings) to the run's baseline.
func (ci *ciState) addRevBaseline(rev string, args, targets []string, opts analysis.Options) error {
	dir := "."
	if len(targets) > 0 {
		dir = targets[0]
		if st, err := os.Stat(dir); err != nil || !st.IsDir() {
			dir = filepath.Dir(dir)
		}
	}
	g, err := compile.OpenGitRev(dir, rev)
	if err != nil {
		return usageErrorf("--new-from-rev: %v", err)
	}
	defer g.Close()
	opts.Load.Rev = g
	var old []string // the targets REV has (an agent added since has no old findings)
	for _, t := range targets {
		if compile.IsAgentDirRev(t, g) || g.Has(t) {
			old = append(old, t)
		}
	}
	results := lintAll(old, opts, false, func() {})
	if ci.baseline == nil {
		ci.baseline = map[string]bool{}
	}
	add := func(f lint.Finding) { ci.baseline[report.Fingerprint(f, ci.root)] = true }
	for _, r := range results {
		if r.err != nil {
			return internalErrorf("--new-from-rev %s: %v", rev, r.err)
		}
		for _, f := range r.findings {
			add(f)
		}
	}
	if tree := treeArg(args); tree != "" {
		agents := make([]workspace.Agent, len(results))
		for i := range results {
			agents[i] = results[i].agent
		}
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
