package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/diff"
	"github.com/oastui/oastui/lint/report"
)

func init() { subcommands = append(subcommands, newDiffCmd) }

type diffFlags struct {
	format, failOn, color, config string
	checks, noIndex               bool
	maxChanges                    int
}

func newDiffCmd() *cobra.Command {
	var fl diffFlags
	cmd := &cobra.Command{
		Use:   "diff [OLD [NEW]] [PATH...]",
		Short: "Name what changed between two revisions of an agent, and whom it breaks",
		Long: `diff compares two revisions of the agents at PATH (default: .) and names each change in the
words a reviewer uses: nodes, edges, prompts (as word diffs), the compiled contract, approval
gates, context slots, package.json and the review's findings. Each change has a check id, a level
(breaking, warn, info) and a fingerprint; oastui diff --checks lists the checks (docs/diff-checks.md).

Revisions follow git's grammar, read through your git:
  oastui diff                      HEAD against the working tree
  oastui diff REV [PATH...]        REV against the working tree
  oastui diff A..B [PATH...]       two revisions (also: oastui diff A B)
  oastui diff A B -- PATH...       "--" ends the revisions (a CI gate should always write it:
                                   oastui diff origin/main -- agents/)
  oastui diff REV:PATH [PATH2]     one flow file or agent at REV (PATH relative to the repository's top,
                                   ./PATH to the working directory) against PATH2 (default: PATH) on disk
  oastui diff --no-index A B       two directories (or two flow files) on disk; outside a git work
                                   tree --no-index is implied

Both sides are loaded, reviewed and compiled the same way (package.json, cinatra.json, the registry
and the child agents of the tree as each revision has them), with the config found upward from the
first PATH; its diff: section overrides levels (check: breaking|warn|info|off).

Without "--", an argument is read as git reads it: a revision, or else a path in the working tree;
one that is both is refused as ambiguous (exit 2).

Exit codes: 0 nothing at or above --fail-on, 1 changes at or above --fail-on, 2 usage or input
errors (an unknown or missing revision, a shallow clone lacking it), 3 internal errors.`,
		RunE: func(cmd *cobra.Command, args []string) error {
			return runDiff(cmd, args, fl)
		},
	}
	f := cmd.Flags()
	f.StringVar(&fl.format, "format", "text", "output format: text, json, markdown or github")
	f.StringVar(&fl.failOn, "fail-on", "breaking", "exit 1 when a change is at this level or above: breaking, warn, info or none")
	f.StringVar(&fl.color, "color", "auto", "colour text output: auto, always or never")
	f.StringVar(&fl.config, "config", "", "config file (default: .oastui.yaml found upward from the first PATH)")
	f.BoolVar(&fl.checks, "checks", false, "list every check with its level and doc, and exit")
	f.IntVar(&fl.maxChanges, "max-changes", diff.DefaultMaxChanges, "list at most this many changes of each agent, the most severe first (the rest are counted: \"truncated\" in the JSON); 0 lists them all")
	f.BoolVar(&fl.noIndex, "no-index", false, "compare two paths on disk (the default for two paths outside a git work tree)")
	mustRegister(cmd, "format", completeValues("text", "json", "markdown", "github"))
	mustRegister(cmd, "fail-on", completeValues("breaking", "warn", "info", "none"))
	mustRegister(cmd, "color", completeValues("auto", "always", "never"))
	return cmd
}

// diffSide is one side of a diff: a git revision (g) or the disk (g nil).
type diffSide struct {
	label string
	g     *compile.GitRev
	path  string // REV:PATH's path, or the directory/file of the two-path form
}

// diffPair is one agent to compare.
type diffPair struct{ old, new string }

func runDiff(cmd *cobra.Command, args []string, fl diffFlags) error {
	out := cmd.OutOrStdout()
	if fl.checks {
		return writeChecks(out, fl.format)
	}
	if _, ok := diff.Formats[fl.format]; !ok {
		return usageErrorf("diff: unknown --format %q (%s)", fl.format, strings.Join(diff.FormatNames(), ", "))
	}
	var failOn diff.Level
	if fl.failOn != "none" {
		l, ok := diff.ParseLevel(fl.failOn)
		if !ok {
			return usageErrorf("diff: --fail-on must be breaking, warn, info or none (got %q)", fl.failOn)
		}
		failOn = l
	}
	if err := checkColorFlag(fl.color); err != nil {
		return err
	}
	if fl.maxChanges < 0 {
		return usageErrorf("diff: --max-changes must be 0 (all) or more (got %d)", fl.maxChanges)
	}
	dash := cmd.ArgsLenAtDash()
	oldSide, newSide, paths, err := parseDiffArgs(args, dash, fl.noIndex)
	if err != nil {
		return err
	}
	defer oldSide.g.Close()
	defer newSide.g.Close()

	cfgStart := "."
	if len(paths) > 0 {
		cfgStart = paths[0]
	} else if newSide.path != "" {
		cfgStart = newSide.path
	}
	cfg := analysis.ResolveConfig(fl.config, cfgStart)
	if cfg.Err != nil {
		return usageErrorf("%v", cfg.Err)
	}
	var levels map[string]string
	if cfg.Config != nil {
		levels = cfg.Config.Diff
	}
	if err := diff.ValidateLevels(levels); err != nil {
		return usageErrorf("%s: %v", cfg.Path, err)
	}
	var reasons map[string]string
	if cfg.Config != nil {
		reasons = cfg.Config.DiffReasons
	}
	if err := diff.ValidateReasons(levels, reasons); err != nil {
		return usageErrorf("%s: %v", cfg.Path, err)
	}
	// diff.Run reads the gate's levels as the old revision had them: a
	// change that lowers one is itself breaking (diff_gate_relaxed), and
	// says which safety checks the config lowers (Result.Notices).

	pairs, err := diffPairs(oldSide, newSide, paths)
	if err != nil {
		return err
	}
	base, _ := os.Getwd()
	var results []*diff.Result
	indexes := map[string]*diff.CallerIndex{} // one per tree
	for i, p := range pairs {
		if i > 0 {
			restartGCPolicy() // what one agent's diff held is not the next one's
		}
		r, err := diff.Run(diff.Request{OldPath: p.old, NewPath: p.new, Old: oldSide.g, New: newSide.g,
			OldLabel: oldSide.label, NewLabel: newSide.label, Config: &cfg, Indexes: indexes, MaxChanges: fl.maxChanges})
		if err != nil {
			return usageErrorf("diff: %v", err)
		}
		results = append(results, r)
	}
	doc := diff.NewDocument(results)
	for _, n := range doc.Notices() { // every format, on stderr too (the JSON, markdown and github output hold them)
		fmt.Fprintln(cmd.ErrOrStderr(), "oastui:", n)
	}
	if err := writeDiff(out, doc, fl, base); err != nil {
		return internalErrorf("diff: %v", err)
	}
	if failOn != "" {
		for _, r := range results {
			// the summary counts the changes the cap left out too
			for _, x := range []struct {
				l diff.Level
				n int
			}{{diff.Breaking, r.Summary.Breaking}, {diff.Warn, r.Summary.Warn}, {diff.Info, r.Summary.Info}} {
				if x.n > 0 && x.l.AtLeast(failOn) {
					return &exitError{code: exitFindings}
				}
			}
		}
	}
	return nil
}

// parseDiffArgs reads git's grammar: revisions first, then paths; "--"
// ends the revisions; A..B; REV:PATH; two paths on disk.
func parseDiffArgs(args []string, dash int, noIndex bool) (oldSide, newSide diffSide, paths []string, err error) {
	if noIndex {
		if len(args) != 2 {
			return oldSide, newSide, nil, usageErrorf("diff --no-index compares two paths (got %d)", len(args))
		}
		return diffSide{label: args[0], path: args[0]}, diffSide{label: args[1], path: args[1]}, nil, nil
	}
	var revs []string
	if dash >= 0 {
		revs, paths = args[:dash], args[dash:]
	} else {
		i := 0
		for ; i < len(args); i++ {
			isPath, err := revOrPath(args[i])
			if err != nil {
				return oldSide, newSide, nil, err
			}
			if isPath {
				break
			}
			revs = append(revs, args[i])
		}
		paths = args[i:]
	}
	workTree := diffSide{label: "working tree"}
	open := func(rev string) (*compile.GitRev, error) {
		dir := "."
		if len(paths) > 0 {
			dir = paths[0]
			if st, err := os.Stat(dir); err == nil && !st.IsDir() {
				dir = filepath.Dir(dir)
			}
		}
		g, err := compile.OpenGitRev(dir, rev)
		if err != nil {
			return nil, usageErrorf("diff: %v", err)
		}
		return g, nil
	}
	revPath := func(spec string) (diffSide, bool, error) {
		rev, p, ok := strings.Cut(spec, ":")
		if !ok || rev == "" || p == "" {
			return diffSide{}, false, nil
		}
		g, err := open(rev)
		if err != nil {
			return diffSide{}, true, err
		}
		if !strings.HasPrefix(p, "./") && !strings.HasPrefix(p, "../") {
			p = filepath.Join(g.Repo, filepath.FromSlash(p))
		}
		return diffSide{label: spec, g: g, path: p}, true, nil
	}
	switch len(revs) {
	case 0:
		if len(paths) == 2 && !inWorkTree(paths[0]) {
			// Two directories or two flow files on disk (git diff --no-index;
			// inside a work tree, two PATHs are two agents against HEAD).
			return diffSide{label: paths[0], path: paths[0]}, diffSide{label: paths[1], path: paths[1]}, nil, nil
		}
		g, err := open("HEAD")
		if err != nil {
			return oldSide, newSide, nil, err
		}
		return diffSide{label: "HEAD", g: g}, workTree, paths, nil
	case 1:
		if s, ok, err := revPath(revs[0]); ok || err != nil {
			if err != nil {
				return oldSide, newSide, nil, err
			}
			if len(paths) > 1 {
				return oldSide, newSide, nil, usageErrorf("diff: REV:PATH compares one agent; give at most one PATH after it")
			}
			np := s.path
			if len(paths) == 1 {
				np = paths[0]
			}
			return s, diffSide{label: np, path: np}, nil, nil
		}
		if a, b, ok := strings.Cut(revs[0], ".."); ok && !strings.HasPrefix(b, ".") {
			if a == "" {
				a = "HEAD"
			}
			if b == "" {
				b = "HEAD"
			}
			revs = []string{a, b}
			break
		}
		g, err := open(revs[0])
		if err != nil {
			return oldSide, newSide, nil, err
		}
		return diffSide{label: revs[0], g: g}, workTree, paths, nil
	case 2:
	default:
		return oldSide, newSide, nil, usageErrorf("diff: at most two revisions (got %s); put \"--\" before paths that do not exist", strings.Join(revs, " "))
	}
	s0, ok0, err := revPath(revs[0])
	if err != nil {
		return oldSide, newSide, nil, err
	}
	s1, ok1, err := revPath(revs[1])
	if err != nil {
		return oldSide, newSide, nil, err
	}
	if ok0 || ok1 {
		if !ok0 || !ok1 || len(paths) > 0 {
			return oldSide, newSide, nil, usageErrorf("diff: give REV:PATH on both sides, and no PATH after them")
		}
		return s0, s1, nil, nil
	}
	g0, err := open(revs[0])
	if err != nil {
		return oldSide, newSide, nil, err
	}
	g1, err := open(revs[1])
	if err != nil {
		g0.Close()
		return oldSide, newSide, nil, err
	}
	return diffSide{label: revs[0], g: g0}, diffSide{label: revs[1], g: g1}, paths, nil
}

// revOrPath decides, as git does without "--", whether arg is a path
// (true) or a revision: an argument that is both an existing path and a
// revision is ambiguous (a usage error naming both readings and "--"),
// one that is neither is a revision git will refuse. A pull request that
// adds a directory named like the base revision cannot turn
// "oastui diff origin/main" into a diff of that directory.
func revOrPath(arg string) (bool, error) {
	_, statErr := os.Lstat(arg)
	isPath := statErr == nil
	isRev, err := revisionSpec(arg)
	if err != nil {
		return false, usageErrorf("diff: %v", err)
	}
	if isPath && isRev {
		return false, usageErrorf("diff: %q is both a revision and a path in the working tree: write\n"+
			"  oastui diff %s -- [PATH...]   to compare the revision %s\n"+
			"  oastui diff -- %s             for the path %s",
			arg, arg, arg, arg, arg)
	}
	return isPath, nil
}

// revisionSpec says arg names revisions as diff reads them: REV, REV:PATH
// or A..B (an empty side of A..B is HEAD).
func revisionSpec(arg string) (bool, error) {
	if strings.HasPrefix(arg, "-") {
		return false, nil
	}
	if rev, p, ok := strings.Cut(arg, ":"); ok && rev != "" && p != "" {
		return compile.IsRevision(".", rev)
	}
	if a, b, ok := strings.Cut(arg, ".."); ok && !strings.HasPrefix(b, ".") {
		for _, r := range []string{a, b} {
			if r == "" {
				r = "HEAD"
			}
			if ok, err := compile.IsRevision(".", r); !ok || err != nil {
				return false, err
			}
		}
		return true, nil
	}
	return compile.IsRevision(".", arg)
}

// diffPairs lists the agents to compare: the one of REV:PATH or of two
// paths, else each PATH that is an agent (on either side) or every agent
// below it on either side.
func diffPairs(o, n diffSide, paths []string) ([]diffPair, error) {
	if o.path != "" || n.path != "" {
		return []diffPair{{old: o.path, new: n.path}}, nil
	}
	if len(paths) == 0 {
		paths = []string{"."}
	}
	var out []diffPair
	for _, p := range paths {
		if st, err := os.Stat(p); (err == nil && !st.IsDir()) || compile.IsAgentDirRev(p, o.g) || compile.IsAgentDirRev(p, n.g) {
			out = append(out, diffPair{p, p})
			continue
		}
		seen := map[string]bool{}
		for _, g := range []*compile.GitRev{o.g, n.g} {
			list, _ := compile.FindAgentsRev(p, g)
			for _, a := range list {
				seen[a] = true
			}
		}
		if len(seen) == 0 {
			return nil, usageErrorf("diff: %s: no agent on either side", p)
		}
		dirs := make([]string, 0, len(seen))
		for d := range seen {
			dirs = append(dirs, d)
		}
		sort.Strings(dirs)
		for _, d := range dirs {
			out = append(out, diffPair{d, d})
		}
	}
	return out, nil
}

func writeDiff(w io.Writer, doc *diff.Document, fl diffFlags, base string) error {
	f, ok := diff.Formats[fl.format]
	if !ok {
		return fmt.Errorf("unknown format %q", fl.format)
	}
	return f.Format(w, doc, diff.FormatOptions{Base: base, Color: fl.format == "text" && useColor(w, fl.color, os.Environ())})
}

// writeChecks prints every check (text: id, level, area, doc; json; or
// markdown: docs/diff-checks.md).
func writeChecks(w io.Writer, format string) error {
	var err error
	switch format {
	case "text":
		var b strings.Builder
		for _, c := range diff.Checks() {
			fmt.Fprintf(&b, "%s  %s  %s\n    %s\n", c.ID, c.Level, c.Area, c.Doc)
		}
		_, err = io.WriteString(w, b.String())
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		err = enc.Encode(diff.Checks())
	case "markdown":
		_, err = io.WriteString(w, diff.ChecksMarkdown())
	default:
		return usageErrorf("diff --checks: unknown --format %q (text, json or markdown)", format)
	}
	if err != nil {
		return internalErrorf("diff: %v", err)
	}
	return nil
}

// inWorkTree says p lies in a git work tree (a .git above it).
func inWorkTree(p string) bool {
	return report.FindRoot(p) != ""
}
