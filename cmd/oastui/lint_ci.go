package main

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
)

// The CI side of `oastui lint` (issue 12): the repository root paths are
// relative to, baselines, and the notices a config calls for.

func addCIFlags(cmd *cobra.Command, fl *lintFlags) {
	f := cmd.Flags()
	f.StringVar(&fl.root, "root", "", "repository root that SARIF and github paths (and fingerprints) are relative to (default: the nearest directory above the first PATH holding .git, else the current directory)")
	f.StringVar(&fl.baseline, "baseline", "", "baseline file written by `oastui baseline`: report only the findings it does not hold")
	f.StringVar(&fl.newFromRev, "new-from-rev", "", "report only the findings introduced since the git revision REV (matched by fingerprint); a revision git cannot read is an error")
}

// ciState is what prepareCI resolved for one run.
type ciState struct {
	root         string          // absolute repository root
	baseline     map[string]bool // fingerprints of the baseline; nil without --baseline
	baselinePath string
}

// prepareCI resolves the root (--root, else the git top level found from
// the first PATH, else the working directory) and reads --baseline.
func prepareCI(fl lintFlags, args []string) (*ciState, error) {
	ci := &ciState{}
	switch {
	case fl.root != "":
		st, err := os.Stat(fl.root)
		if err != nil || !st.IsDir() {
			return nil, usageErrorf("--root %s: not a directory", fl.root)
		}
		ci.root = absOrSelf(fl.root)
	default:
		start := "."
		if len(args) > 0 {
			start = args[0]
		}
		if ci.root = report.FindRoot(start); ci.root == "" {
			if ci.root = report.FindRoot("."); ci.root == "" {
				ci.root = absOrSelf(".")
			}
		}
	}
	if fl.baseline != "" {
		b, err := readBaseline(fl.baseline)
		if err != nil {
			return nil, usageErrorf("--baseline: %v", err)
		}
		ci.baselinePath = fl.baseline
		ci.baseline = map[string]bool{}
		for _, e := range b.Findings {
			ci.baseline[e.Fingerprint] = true
		}
	}
	return ci, nil
}

func absOrSelf(p string) string {
	abs, err := filepath.Abs(p)
	if err != nil {
		return p
	}
	return abs
}

// filterBaseline leaves out the findings whose fingerprint the baseline
// holds and returns how many it left out.
func (ci *ciState) filterBaseline(fs []lint.Finding) ([]lint.Finding, int) {
	if ci.baseline == nil {
		return fs, 0
	}
	out := fs[:0:0]
	n := 0
	for _, f := range fs {
		if ci.baseline[report.Fingerprint(f, ci.root)] || ci.baseline[report.FingerprintV2(f, ci.root)] { // v2: a baseline written before v3
			n++
			continue
		}
		out = append(out, f)
	}
	return out, n
}

// noteBaselined says how many findings the baseline held: the text
// format's summary line says it (inSummary), else stderr does (the other
// formats' output is machine-read).
func (ci *ciState) noteBaselined(stderr io.Writer, inSummary bool, n int) {
	if n == 0 || inSummary {
		return
	}
	fmt.Fprintln(stderr, "oastui:", cleanMessage(fmt.Sprintf("%d %s in the baseline %s not reported", n, plural(n, "finding", "findings"), ci.baselinePath)))
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// printConfigNotices prints, on every run, what the config turns off that
// a reviewer must know about (a security rule set to off, with its reason).
func printConfigNotices(stderr io.Writer, cfg *analysis.ConfigResult) {
	if cfg == nil || cfg.Config == nil {
		return
	}
	for _, n := range cfg.Config.Notices() {
		fmt.Fprintln(stderr, "oastui:", cleanMessage(n))
	}
}

// Baseline is the file `oastui baseline` writes: one entry per finding,
// keyed by its fingerprint (report.Fingerprint: rule, file relative to the
// root, pointer, value hash). No message and no value: a baseline may be
// committed.
type Baseline struct {
	SchemaVersion int             `json:"schemaVersion"`
	Tool          string          `json:"tool"`
	ToolVersion   string          `json:"toolVersion"`
	Findings      []BaselineEntry `json:"findings"`
}

// BaselineEntry is one baselined finding.
type BaselineEntry struct {
	Rule        string `json:"rule"`
	File        string `json:"file"`
	Pointer     string `json:"pointer,omitempty"`
	Fingerprint string `json:"fingerprint"`
}

const baselineSchemaVersion = 1

func readBaseline(path string) (*Baseline, error) {
	src, err := compile.ReadFileLimited(path, compile.MaxFileBytes)
	if err != nil {
		if u := errors.Unwrap(err); u != nil {
			err = u
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var b Baseline
	if err := json.Unmarshal(src, &b); err != nil {
		return nil, fmt.Errorf("%s: not a baseline (JSON from `oastui baseline`): %v", path, err)
	}
	if b.SchemaVersion != baselineSchemaVersion || b.Tool != "oastui" {
		return nil, fmt.Errorf("%s: not an oastui baseline of schema version %d (write it with `oastui baseline PATH… > FILE`)", path, baselineSchemaVersion)
	}
	return &b, nil
}
