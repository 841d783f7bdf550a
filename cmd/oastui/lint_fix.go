package main

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"
)

// fixFlags are `oastui lint --fix`, `--dry-run` and `--diff`.
type fixFlags struct {
	fix    bool
	dryRun bool
	diff   bool // --diff: --fix --dry-run
}

func (f fixFlags) on() bool  { return f.fix || f.diff }
func (f fixFlags) dry() bool { return f.diff || (f.fix && f.dryRun) }

func addFixFlags(cmd *cobra.Command, f *fixFlags) {
	fl := cmd.Flags()
	fl.BoolVar(&f.fix, "fix", false, "apply the first automatic fix of each finding (oastui rules lists the fixable rules), then lint again and report what remains")
	fl.BoolVar(&f.dryRun, "dry-run", false, "with --fix: print the unified diff of the fixes on stdout and write nothing")
	fl.BoolVar(&f.diff, "diff", false, "same as --fix --dry-run")
}

// checkFixFlags rejects the combinations that make no sense.
func checkFixFlags(f fixFlags, stdin bool) error {
	if f.dryRun && !f.on() {
		return usageErrorf("--dry-run goes with --fix")
	}
	if f.on() && stdin {
		return usageErrorf("--fix and --diff need files: a flow read from stdin cannot be fixed in place")
	}
	return nil
}

// maxFixPasses bounds the analyse-fix rounds of --fix: a fix skipped for
// touching the bytes of another is retried on the re-analysed files.
const maxFixPasses = 5

// runLintFixes analyses the targets, plans the first fix of each reported
// finding (edit.Plan: a fix touching bytes another chosen fix touches is
// skipped with its reason), and writes the files (refusing, writing
// nothing, when one changed on disk since it was read), then analyses
// again for the fixes skipped, up to maxFixPasses rounds. Dry, it prints
// the unified diff of the first round on stdout and writes nothing. The
// summary goes to stderr. worst is the highest severity rank among the
// findings of the last analysis (a dry run's exit code).
func runLintFixes(std cmdIO, targets []string, opts analysis.Options, ci *ciState, dry bool) (worst int, err error) {
	fixed := 0
	files := map[string]bool{}
	var last *edit.Batch
	for pass := 0; pass < maxFixPasses; pass++ {
		b, sources, w, err := planLintFixes(targets, opts, ci)
		if err != nil {
			return 0, err
		}
		worst, last = w, b
		if dry {
			d, err := b.Preview(sources, func(p string) string { return p })
			if err != nil {
				return 0, internalErrorf("--diff: %v", err)
			}
			if _, err := io.WriteString(std.stdout, d); err != nil {
				return 0, err
			}
			writeFixSummary(std.stderr, len(b.Chosen), len(b.Files()), b.Skipped, true)
			return worst, nil
		}
		if len(b.Chosen) == 0 {
			break
		}
		applied, err := b.Write(sources)
		written := applied.Paths()
		if err != nil {
			if errors.Is(err, edit.ErrChanged) || errors.Is(err, edit.ErrNotRegular) || errors.Is(err, edit.ErrExists) {
				return 0, usageErrorf("--fix: %v", err)
			}
			return 0, internalErrorf("--fix: %v (files written before the failure: %s)", err, strings.Join(written, ", "))
		}
		fixed += len(b.Chosen)
		for _, f := range written {
			files[f] = true
		}
		if len(b.Skipped) == 0 {
			last = &edit.Batch{}
			break
		}
	}
	writeFixSummary(std.stderr, fixed, len(files), last.Skipped, false)
	return worst, nil
}

// planLintFixes analyses the targets and plans the batch of fixes: the
// bytes each file was read with, and the worst severity rank found.
func planLintFixes(targets []string, opts analysis.Options, ci *ciState) (*edit.Batch, map[string][]byte, int, error) {
	results := lintAll(targets, opts, true, func() {})
	rel := relPather()
	sources := map[string][]byte{}
	var all []lint.Finding
	for i, r := range results {
		if r.err != nil {
			return nil, nil, 0, internalErrorf("%s: %v", targets[i], r.err)
		}
		for _, d := range r.docs {
			if d.Src != nil {
				sources[d.Path] = d.Src
			}
		}
		for _, f := range r.findings {
			f.File = rel(f.File)
			all = append(all, f)
		}
	}
	all = compile.SortFindings(all)
	all, _ = ci.filterBaseline(all) // a baselined finding is not reported: not fixed either
	worst := 0
	for _, f := range all {
		worst = max(worst, f.Severity.Rank())
	}
	return analysis.PlanFixes(all), sources, worst, nil
}

// writeFixSummary prints "fixed N findings in M files; K skipped: reasons"
// ("would fix" for a dry run).
func writeFixSummary(w io.Writer, fixed, files int, skipped []edit.Skipped, dry bool) {
	verb := "fixed"
	if dry {
		verb = "would fix"
	}
	line := fmt.Sprintf("%s %d %s in %d %s", verb, fixed, plural(fixed, "finding", "findings"), files, plural(files, "file", "files"))
	if n := len(skipped); n > 0 {
		var why []string
		for _, s := range skipped {
			why = append(why, s.ID+": "+s.Reason)
		}
		line += fmt.Sprintf("; %d skipped: %s", n, strings.Join(why, "; "))
	}
	fmt.Fprintln(w, "oastui:", cleanMessage(line))
}
