package main

import (
	"errors"
	"fmt"
	"io"
	"slices"
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
	// unsafe is --unsafe-fixes: the batch applies unsafe fixes too.
	unsafe bool
	// dangerous is --fix-dangerous ID...: only these findings (FixID, as
	// the held-back note prints them), each's first fix of any tier.
	dangerous []string
}

func (f fixFlags) on() bool { return f.fix || f.diff || len(f.dangerous) > 0 }

// tier is the most a batch of these flags may apply (edit.Tier).
func (f fixFlags) tier() edit.Tier {
	switch {
	case len(f.dangerous) > 0:
		return edit.Dangerous
	case f.unsafe:
		return edit.Unsafe
	}
	return edit.Safe
}
func (f fixFlags) dry() bool { return f.diff || (f.fix && f.dryRun) }

func addFixFlags(cmd *cobra.Command, f *fixFlags) {
	fl := cmd.Flags()
	fl.BoolVar(&f.fix, "fix", false, "apply the first safe automatic fix of each finding (oastui rules lists the fixable rules and each fix's tier), then lint again and report what remains and how many fixes were held back")
	fl.BoolVar(&f.unsafe, "unsafe-fixes", false, "with --fix or --diff: apply unsafe fixes too (they change what the platform compiles or shows: a version, a required input, a step's name; docs/fixes.md)")
	fl.StringArrayVar(&f.dangerous, "fix-dangerous", nil, "apply the fix of this one finding only, whatever its tier (\"FILE:LINE:COL CODE\", as --fix names the fixes it held back); repeatable; never a batch: no other finding is fixed")
	fl.BoolVar(&f.dryRun, "dry-run", false, "with --fix: print the unified diff of the fixes on stdout and write nothing")
	fl.BoolVar(&f.diff, "diff", false, "same as --fix --dry-run")
}

// checkFixFlags rejects the combinations that make no sense.
func checkFixFlags(f fixFlags, stdin bool) error {
	if f.dryRun && !f.on() {
		return usageErrorf("--dry-run goes with --fix")
	}
	if f.unsafe && !f.fix && !f.diff {
		return usageErrorf("--unsafe-fixes goes with --fix or --diff")
	}
	if len(f.dangerous) > 0 && (f.fix || f.unsafe) {
		return usageErrorf("--fix-dangerous applies the named findings' fixes only: it does not go with --fix or --unsafe-fixes (a dangerous fix is never part of a batch)")
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
func runLintFixes(std cmdIO, targets []string, opts analysis.Options, ci *ciState, ff fixFlags) (worst int, err error) {
	dry := ff.dry()
	fixed := 0
	files := map[string]bool{}
	var last *edit.Batch
	var held analysis.Held
	for pass := 0; pass < maxFixPasses; pass++ {
		b, sources, w, h, err := planLintFixes(targets, opts, ci, ff)
		if err != nil {
			return 0, err
		}
		worst, last, held = w, b, h
		if dry {
			d, err := b.Preview(sources, func(p string) string { return p })
			if err != nil {
				return 0, internalErrorf("--diff: %v", err)
			}
			if _, err := io.WriteString(std.stdout, d); err != nil {
				return 0, err
			}
			writeFixSummary(std.stderr, len(b.Chosen), len(b.Files()), b.Skipped, true)
			writeHeldBack(std.stderr, held)
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
	writeHeldBack(std.stderr, held)
	return worst, nil
}

// planLintFixes analyses the targets and plans the batch of fixes: the
// bytes each file was read with, and the worst severity rank found.
func planLintFixes(targets []string, opts analysis.Options, ci *ciState, ff fixFlags) (*edit.Batch, map[string][]byte, int, analysis.Held, error) {
	results := lintAll(targets, opts, true, nil, func() {})
	rel := relPather()
	sources := map[string][]byte{}
	var all []lint.Finding
	for i, r := range results {
		if r.err != nil {
			return nil, nil, 0, analysis.Held{}, internalErrorf("%s: %v", targets[i], r.err)
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
	if len(ff.dangerous) > 0 {
		var named []lint.Finding
		for _, f := range all {
			if slices.Contains(ff.dangerous, analysis.FixID(f)) && len(f.Fixes) > 0 {
				named = append(named, f)
			}
		}
		if len(named) == 0 {
			return nil, nil, 0, analysis.Held{}, usageErrorf("--fix-dangerous %q: no finding with a fix has that id (FILE:LINE:COL CODE, as --fix prints the fixes it held back)", strings.Join(ff.dangerous, `", "`))
		}
		all = named
	}
	return analysis.PlanFixes(all, ff.tier()), sources, worst, analysis.HeldBack(all, ff.tier()), nil
}

// writeHeldBack says how many fixes the batch's tier held back and the
// flag that applies them (ruff's "N hidden fixes can be enabled with the
// --unsafe-fixes option").
func writeHeldBack(w io.Writer, h analysis.Held) {
	if n := len(h.Unsafe); n > 0 {
		fmt.Fprintf(w, "oastui: held back %d unsafe %s (they change what the platform compiles or shows); --unsafe-fixes applies %s: %s\n",
			n, plural(n, "fix", "fixes"), plural(n, "it", "them"), cleanMessage(strings.Join(h.Unsafe, "; ")))
	}
	if n := len(h.Dangerous); n > 0 {
		fmt.Fprintf(w, "oastui: held back %d dangerous %s (approval, gates, riskClass; never applied in a batch); --fix-dangerous \"ID\" applies one: %s\n",
			n, plural(n, "fix", "fixes"), cleanMessage(strings.Join(h.Dangerous, "; ")))
	}
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
