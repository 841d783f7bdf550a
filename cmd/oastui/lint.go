package main

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/spf13/cobra"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/lint/report"
	"github.com/oastui/oastui/workspace"
)

func init() { subcommands = append(subcommands, newLintCmd) }

type lintFlags struct {
	ioFlags  // --format, --output, --stdin-filename, --color (lint_io.go)
	registry string
	profile  string
	failOn   string
	mode     string
	config   string
	root     string // --root: the repository root SARIF/github paths are relative to
	baseline string // --baseline FILE: leave out the findings it holds
	// --new-from-rev REV: leave out the findings REV has (lint_newfromrev.go)
	newFromRev string
	// --gate NAME: only what one of the platform's views reports
	// (lint.Gates: scan-all, compile, creation-review)
	gate string

	formatter report.Formatter // set by `oastui baseline` instead of --format
	fixes     fixFlags         // --fix, --dry-run, --diff (lint_fix.go)
}

func newLintCmd() *cobra.Command {
	var fl lintFlags
	cmd := &cobra.Command{
		Use:   "lint [PATH]... | -",
		Short: "Review agents headless and print the findings",
		Long: `Lint every agent named on the command line. A PATH is an agent package
directory (agents/<vendor>/<slug> or extensions/<vendor>/<slug>), a flow file,
or a directory tree holding agent packages (every package below it is linted;
_shared and packages with no flow file, such as connectors, artifact packs and
skills, are skipped).
With no PATH the current directory is linted.

Output: text (file:line:col: severity: message [code], the source line and a
caret), json ({"schemaVersion":1,"findings":[...],"summary":{...}}), sarif
(SARIF 2.1.0 for code scanning) or github (workflow-command annotations).
The config is --config FILE, else the .oastui.yaml found upward from the
first PATH (allowed_hosts, per-rule severity or off, ignores with a reason).
A file that does not parse is an invalid_json finding, not an error.

PATH - reads one flow from stdin. With --stdin-filename PATH it is
reviewed as that file on disk would be (its package.json, registry and
config found around PATH; the file need not exist); without, as a bare
flow file named <stdin> (config found upward from the working directory).

Several outputs in one run, as golangci-lint: --format FORMAT[:PATH]
repeated or as a comma list (--format text,sarif:out.sarif; --out-format
is the same flag), or one --output per --format in the same order
(--format text --format sarif --output - --output out.sarif). PATH - or
stdout is stdout, stderr is stderr; files are replaced atomically.
--color auto colours text on a terminal unless TERM=dumb or NO_COLOR is
set to a non-empty value. A run longer than a second shows a progress
line on stderr when it is a terminal.

Exit codes: 0 no finding at or above --fail-on, 1 findings at or above
--fail-on, 2 usage error or a PATH that is missing or holds no agent,
3 internal error.

--fix applies the first automatic fix of each finding (oastui rules marks
the fixable rules), writes the files atomically, lints again and reports
what remains (exit code from it); stderr says "fixed N findings in M
files; K skipped: reasons" (a fix touching bytes another fix touches is
skipped, never merged; a file changed on disk since it was read is not
written: exit 2). --fix --dry-run, or --diff, prints the unified diff and
writes nothing.

--gate NAME reports only what one of the platform's own views of the agent
reports, at the platform's severities (docs/gates.md): scan-all (the
/api/oas-lint/scan-all endpoint the lint-policy agent and the fleet
dashboard call), compile (what agent_source_compile and publish refuse:
blockers only) or creation-review (the lint lane of agent_creation_review).
Without it, lint reports its wider set.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				args = []string{"."} // the current directory, as golangci-lint and ruff do
			}
			return runLint(cmdIO{cmd.InOrStdin(), cmd.OutOrStdout(), cmd.ErrOrStderr()}, args, fl)
		},
	}
	addCIFlags(cmd, &fl)
	f := cmd.Flags()
	f.StringVar(&fl.gate, "gate", "", "only what one of the platform's views reports: "+strings.Join(lint.GateNames(), "|"))
	mustRegister(cmd, "gate", completeValues(lint.GateNames()...))
	addIOFlags(f, &fl.ioFlags)
	addFixFlags(cmd, &fl.fixes)
	f.StringVar(&fl.registry, "registry", "", "global component registry file (default: the _shared/cinatra/components.json of each agent's tree, agents/ or extensions/, else the built-in one)")
	f.StringVar(&fl.profile, "profile", "", "rule profile: cinatra|agentspec (default: detected per file)")
	f.StringVar(&fl.failOn, "fail-on", "blocker", "exit 1 when a finding is at or above: blocker|warning|suggestion|none")
	f.StringVar(&fl.mode, "mode", string(lint.ModeDeterministic), "review mode: deterministic|advisory|full (full adds the dry run)")
	f.StringVar(&fl.config, "config", "", "config file (default: .oastui.yaml found upward from the first PATH)")
	registerLintCompletions(cmd)
	return cmd
}

// lintResult is what linting one agent produced.
type lintResult struct {
	findings   []lint.Finding
	suppressed []lint.SuppressedFinding // silenced by an ignore (SARIF shows them)
	docs       []*compile.Doc           // files of the agent, kept only when it has findings
	docPaths   []string                 // each doc's Path as the report shows it (relPaths), when the worker had a rel
	agent      workspace.Agent          // the agent's summary, for the workspace findings of a tree
	err        error                    // internal error (a panic in a rule)
}

// cmdIO are the standard streams of a command.
type cmdIO struct {
	stdin          io.Reader
	stdout, stderr io.Writer
}

func runLint(std cmdIO, args []string, fl lintFlags) error {
	stdout, stderr := std.stdout, std.stderr
	failRank := 0
	switch fl.failOn {
	case "blocker":
		failRank = compile.Blocker.Rank()
	case "warning":
		failRank = compile.Warning.Rank()
	case "suggestion":
		failRank = compile.Suggestion.Rank()
	case "none":
		failRank = 99
	default:
		return usageErrorf("--fail-on must be blocker, warning, suggestion or none (got %q)", fl.failOn)
	}
	var profile compile.Profile
	switch fl.profile {
	case "", "cinatra", "agentspec":
		profile = compile.Profile(fl.profile)
	default:
		return usageErrorf("--profile must be cinatra or agentspec (got %q)", fl.profile)
	}
	var gate *lint.GateView
	if fl.gate != "" {
		if gate = lint.LookupGate(fl.gate); gate == nil {
			return usageErrorf("--gate must be one of %s (got %q)", strings.Join(lint.GateNames(), ", "), fl.gate)
		}
	}
	if _, ok := lint.ParseMode(fl.mode); !ok {
		return usageErrorf("--mode must be deterministic, advisory or full (got %q)", fl.mode)
	}
	// Output formats: report.Formats (a new format is added there).
	outs, err := lintOutputs(fl.ioFlags)
	if err != nil {
		return err
	}
	if fl.formatter != nil { // oastui baseline: one output, its own format
		outs = []lintOutput{{name: "baseline", format: fl.formatter}}
	}
	if err := checkColorFlag(fl.color); err != nil {
		return err
	}
	ci, err := prepareCI(fl, args)
	if err != nil {
		return err
	}
	if fl.registry != "" {
		if _, err := os.Stat(fl.registry); err != nil {
			return usageErrorf("--registry: %v", err)
		}
	}

	stdin, err := readStdinInput(args, fl.ioFlags, std.stdin)
	if err != nil {
		return err
	}
	if err := checkFixFlags(fl.fixes, stdin != nil); err != nil {
		return err
	}
	var targets []string
	cfgArgs := args
	listing := compile.NewListing() // what finding the agents listed: loading them takes it from there
	if stdin != nil {
		cfgArgs = []string{stdin.configStart()}
	}
	// The plain run (a tree or packages, no fixes, no --new-from-rev, no
	// progress line) lints each agent as the walk finds it (lintStream):
	// nothing before the linting needs every target. The config is
	// resolved first; when it fails, the targets are found first as in
	// any other run, so that their usage error still comes first.
	progress := writerIsTerminal(std.stderr)
	cfg, cfgErr := loadLintConfig(fl.config, cfgArgs)
	stream := stdin == nil && cfgErr == nil && !fl.fixes.on() && fl.newFromRev == "" && !progress
	if stdin != nil {
		targets = []string{stdin.path}
	} else if !stream {
		if targets, err = lintTargets(args, listing, nil); err != nil {
			return err
		}
	}
	if cfgErr != nil {
		return cfgErr
	}
	if !stream { // streaming, once the PATHs are known good
		printConfigNotices(stderr, cfg)
	}
	opts := analysis.Options{Mode: lint.Mode(fl.mode), Config: cfg, Stages: analysis.ReviewOnly,
		Load: compile.LoadOptions{RegistryPath: fl.registry, Profile: profile}}
	if stdin != nil {
		stdin.apply(&opts.Load)
	}
	if fl.newFromRev != "" {
		if err := ci.addRevBaseline(fl.newFromRev, args, targets, opts); err != nil {
			return err
		}
	}
	if fl.fixes.on() { // lint_fix.go: fix (or print the diff), then report what remains
		worst, err := runLintFixes(std, targets, opts, ci, fl.fixes)
		if err != nil {
			return err
		}
		if fl.fixes.dry() {
			if worst >= failRank {
				return &exitError{code: exitFindings}
			}
			return nil
		}
	}
	opts.Load.Registries = compile.NewRegistryCache() // one read of the tree's registry for every agent of this run
	if !fl.fixes.on() {
		opts.Load.Listing = listing // the fixes changed the files since they were listed
	}
	opts.Load.WorkDir, _ = os.Getwd() // once: every agent's tree root is made absolute against it
	rel := relPather()
	var results []lintResult
	if stream {
		if targets, results, err = lintStream(args, listing, opts, usesSource(outs), rel); err != nil {
			return err
		}
		printConfigNotices(stderr, cfg)
	} else {
		inc, stop := startProgress(std.stderr, progress, len(targets))
		results = lintAll(targets, opts, usesSource(outs), rel, inc)
		stop()
	}

	n := 0
	for i, r := range results {
		if r.err != nil {
			return internalErrorf("%s: %v", targets[i], r.err)
		}
		n += len(r.findings)
	}
	// Linting a tree: the findings only the whole tree shows (a missing
	// child, a version the dependent does not accept, a cycle) join in.
	// The index is built first, so that all is made once at its size (a
	// second, larger copy of every finding for them: issue 39).
	var ix *workspace.Index
	if stdin == nil {
		if tree := treeArg(args); tree != "" {
			agents := make([]workspace.Agent, len(results))
			for i := range results {
				// moved, not copied: a tree of 10,000 agents holds their
				// summaries once (lintTargetsSummary needs only these two)
				agents[i] = results[i].agent
				results[i].agent = workspace.Agent{Dir: agents[i].Dir, Problem: agents[i].Problem}
			}
			var c *lint.Config
			if cfg != nil {
				c = cfg.Config
			}
			ix = workspace.BuildOwned(tree, agents, c) // agents are the index's: not copied again
		}
	}
	if ix != nil {
		n += len(ix.Findings)
	}
	all := make([]lint.Finding, 0, n)
	var suppressed []lint.SuppressedFinding
	docs := report.Docs{}
	for i, r := range results {
		// The workers made the paths relative (relPaths).
		all = append(all, r.findings...)
		results[i].findings = nil // copied into all: not kept twice (a tree of 10,000 agents)
		suppressed = append(suppressed, r.suppressed...)
		for j, d := range r.docs {
			docs[r.docPaths[j]] = d
		}
	}
	if ix != nil {
		for _, f := range ix.Findings {
			// The agent's documents are kept only when its review found
			// something: read the file a workspace finding points into,
			// so that it has its excerpt as every other finding does.
			shown := rel(f.File)
			if _, ok := docs[shown]; !ok && f.Line > 0 && usesSource(outs) {
				if src, err := os.ReadFile(f.File); err == nil {
					docs[shown] = compile.ParseDocFile(f.File, src)
				}
			}
			f.File = shown
			all = append(all, f)
		}
		for _, sf := range ix.Suppressed {
			sf.File = rel(sf.File)
			suppressed = append(suppressed, sf)
		}
	}
	if gate != nil { // one of the platform's views: its rules at its severities, nothing else
		all = gate.Apply(all)
	}
	all = compile.SortFindings(all)
	all, baselined := ci.filterBaseline(all)
	ci.noteBaselined(stderr, textOnStdoutOnly(outs), baselined)

	owned := report.MaskOwned(all) // in place: Write would copy every finding of a tree to present one
	var counted []report.Target
	if usesTargets(outs) { // json, sarif and github never read them
		counted = lintTargetsSummary(targets, results, all, rel)
	}
	err = writeOutputs(outs, report.Report{Findings: all, Files: len(targets), Docs: docs, ToolVersion: versionString(), Policies: policyRules(cfg),
		BaseDir: ci.root, Suppressed: suppressed, Baselined: baselined, Targets: counted, Owned: owned}, stdout, stderr, fl.color)
	if err != nil {
		return err
	}
	for _, f := range all {
		if f.Severity.Rank() >= failRank {
			return &exitError{code: exitFindings}
		}
	}
	return nil
}

// loadLintConfig resolves the config of a lint run once for all PATHs:
// --config, else the .oastui.yaml found upward from the first PATH (nil
// when there is none). A bad config is a usage error (exit 2).
func loadLintConfig(path string, args []string) (*analysis.ConfigResult, error) {
	start := ""
	if len(args) > 0 {
		start = args[0]
	}
	if path == "" && start == "" {
		return &analysis.ConfigResult{}, nil
	}
	res := analysis.ResolveConfig(path, start)
	if res.Err != nil {
		return nil, usageErrorf("config: %v", res.Err)
	}
	return &res, nil
}

// lintTargets turns the PATH arguments into agent paths (package
// directories or flow files), sorted, without repeats; the directories
// listed to find them are kept in listing. each, when not nil, is called
// with every target as it is found (once, before the next is looked for).
func lintTargets(args []string, listing *compile.Listing, each func(string)) ([]string, error) {
	seen := map[string]bool{}
	var out []string
	add := func(p string) {
		p = filepath.Clean(p)
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
			if each != nil {
				each(p)
			}
		}
	}
	for _, arg := range args {
		info, err := os.Stat(arg)
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil, usageErrorf("%s: no such file or directory", arg)
			}
			return nil, usageErrorf("%v", err)
		}
		if !info.IsDir() {
			switch strings.ToLower(filepath.Ext(arg)) {
			case ".json", ".yaml", ".yml":
				add(arg)
				continue
			}
			return nil, usageErrorf("%s: not an agent: a flow file is .json, .yaml or .yml", arg)
		}
		found, err := listing.FindAgents(arg, 0, add)
		if err != nil {
			return nil, usageErrorf("%v", err)
		}
		if len(found) == 0 {
			return nil, usageErrorf("%s: not an agent package, and no agent package below it (looked for %s)", arg, strings.Join(compile.FlowCandidates, ", "))
		}
	}
	sort.Strings(out)
	return out, nil
}

// lintAll lints the targets in parallel with a bounded worker pool; the
// results come back in target order. Each worker takes the next target
// from a shared counter: no goroutine hands work to another, so a tree of
// small agents does not pay a wake-up (a futex) per agent.
func lintAll(targets []string, opts analysis.Options, keepDocs bool, rel func(string) string, done func()) []lintResult {
	results := make([]lintResult, len(targets))
	var next atomic.Int64
	var wg sync.WaitGroup
	workers := min(runtime.GOMAXPROCS(0), len(targets))
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newLintWorker(opts, keepDocs, rel)
			for i := int(next.Add(1) - 1); i < len(targets); i = int(next.Add(1) - 1) {
				results[i] = w.lint(targets[i])
				done()
			}
		}()
	}
	wg.Wait()
	return results
}

// lintStream finds the targets of args (lintTargets) and lints each as
// the walk finds it, GOMAXPROCS workers taking them in the order found
// while the walk goes on; it returns the targets sorted and their
// results in that order, as lintTargets and lintAll would. A usage error
// of the PATHs is returned once the workers have stopped: they lint
// nothing after it (the agents still queued are dropped) and what they
// linted before is dropped too (nothing is written before the run's end).
func lintStream(args []string, listing *compile.Listing, opts analysis.Options, keepDocs bool, rel func(string) string) ([]string, []lintResult, error) {
	return lintStreamChunked(args, listing, opts, keepDocs, rel, lintChunk)
}

// lintStreamChunked is lintStream with its results in chunks of chunk
// (lintChunk; its test crosses the chunks' edges with smaller ones).
func lintStreamChunked(args []string, listing *compile.Listing, opts analysis.Options, keepDocs bool, rel func(string) string, chunk int) ([]string, []lintResult, error) {
	type job struct {
		path string
		out  *lintResult // where the worker puts the result: its place in the walk's chunks
	}
	// The walk is far ahead of the workers (tens of microseconds a
	// package against a millisecond of linting): the buffer lets it go
	// on without waiting for them, and they seldom wait for it.
	jobs := make(chan job, 1024)
	workers := max(1, runtime.GOMAXPROCS(0))
	var failed atomic.Bool // a PATH was bad: the queue is drained, not linted
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			w := newLintWorker(opts, keepDocs, rel)
			for j := range jobs {
				if !failed.Load() {
					*j.out = w.lint(j.path)
				}
			}
		}()
	}
	// The results in the order found, in chunks the walk makes before it
	// hands out their places: each written by one worker, read once the
	// workers have stopped. Appended to per-worker lists, they were copied
	// at each doubling (issue 39: 1 MB of a 1,000-agent lint's 58 MB).
	var found []string
	var chunks [][]lintResult
	targets, err := lintTargets(args, listing, func(p string) {
		n := len(found)
		if n%chunk == 0 {
			chunks = append(chunks, make([]lintResult, chunk))
		}
		jobs <- job{p, &chunks[n/chunk][n%chunk]}
		found = append(found, p)
	})
	if err != nil {
		failed.Store(true)
	}
	close(jobs)
	wg.Wait()
	if err != nil {
		return nil, nil, err
	}
	results := make([]lintResult, len(targets))
	if slices.Equal(found, targets) { // found in sorted order: no look-up
		for i := range results {
			results[i] = chunks[i/chunk][i%chunk]
		}
		return targets, results, nil
	}
	place := make(map[string]int, len(targets)) // a target → its place in the sorted order
	for i, t := range targets {
		place[t] = i
	}
	for i, p := range found {
		results[place[p]] = chunks[i/chunk][i%chunk]
	}
	return targets, results, nil
}

// lintChunk is the number of results of a chunk of lintStream.
const lintChunk = 256

// lintWorker is one worker of a run: its agents are parsed into the same
// memory in turn, and their flow models built there (compile.Blocks):
// what lintOne keeps of an agent is strings and offsets, unless it keeps
// its documents for excerpts.
type lintWorker struct {
	opts     analysis.Options
	keepDocs bool
	rel      relMemo // the report's paths (relPather), made here rather than after the run; rel.fn nil: none
}

// newLintWorker makes a worker; rel, when not nil, is the report's path
// function (relPather), applied to each result's paths (relPaths).
func newLintWorker(opts analysis.Options, keepDocs bool, rel func(string) string) *lintWorker {
	w := &lintWorker{opts: opts, keepDocs: keepDocs, rel: relMemo{fn: rel}}
	w.opts.Load.Blocks = &compile.Blocks{}
	return w
}

// relMemo is a path function with its last answer kept: an agent's
// findings name its few files over and over, and filepath.Rel rebuilds
// both paths on every call.
type relMemo struct {
	fn      func(string) string
	in, out string
	valid   bool
}

func (m *relMemo) rel(p string) string {
	if !m.valid || p != m.in {
		m.in, m.out, m.valid = p, m.fn(p), true
	}
	return m.out
}

// relPaths makes the paths of r as the report shows them: every
// finding's and suppressed finding's File, and each doc's Path
// (docPaths). The run's tail did this for every finding of the tree on
// one goroutine once the workers had finished.
func (r *lintResult) relPaths(m *relMemo) {
	for i := range r.findings {
		r.findings[i].File = m.rel(r.findings[i].File)
	}
	for i := range r.suppressed {
		r.suppressed[i].File = m.rel(r.suppressed[i].File)
	}
	if len(r.docs) > 0 {
		r.docPaths = make([]string, len(r.docs))
		for i, d := range r.docs {
			r.docPaths[i] = m.rel(d.Path)
		}
	}
}

// lint lints one target and readies the worker's memory for the next.
func (w *lintWorker) lint(target string) lintResult {
	r := lintOne(target, w.opts, w.keepDocs)
	if w.rel.fn != nil {
		r.relPaths(&w.rel)
	}
	if l := w.opts.Load.Listing; l != nil {
		l.Forget(target) // loaded: its listings are not asked again
	}
	if r.docs != nil {
		w.opts.Load.Blocks.Keep()
	} else {
		w.opts.Load.Blocks.Reuse()
	}
	return r
}

// lintOne reviews one agent through the engine's pipeline (review only).
// lintTargets only hands over existing agents; one that vanished since is
// an agent_read_failed finding.
func lintOne(path string, opts analysis.Options, keepDocs bool) (r lintResult) {
	s := analysis.Run(path, opts)
	r.agent = lintSummary(s, opts)
	r.findings = s.Review.Findings
	r.suppressed = s.Review.Suppressed
	for _, f := range r.findings {
		if f.Code == lint.RuleInternalError.Code {
			return lintResult{err: errors.New(f.Message)}
		}
	}
	if keepDocs && len(r.findings) > 0 && s.Agent != nil {
		r.docs = s.Agent.Docs()
	}
	return r
}

// lintSummary is what lint keeps of an agent for workspace.Build.
func lintSummary(s *analysis.Snapshot, opts analysis.Options) workspace.Agent {
	// Top, the rows' finding preview: lint keeps every finding in r.findings
	// already. Files: read by workspace.Build only for the config's ignores
	// (and by the TUI's save tracking).
	c := opts.Config
	noIgnores := c == nil || c.Config == nil || len(c.Config.Ignores) == 0
	return workspace.SummarizeWith(opts.Load.WorkDir, "", s, workspace.SummaryOptions{NoTop: true, NoFiles: noIgnores})
}

// relPather returns a function that shows a path relative to the current
// directory when it lies below it, else unchanged.
func relPather() func(string) string {
	cwd, err := os.Getwd()
	if err != nil {
		return func(p string) string { return p }
	}
	return relPatherFrom(cwd)
}

// relPatherFrom is relPather's function for the working directory cwd. A
// clean path below a clean cwd is the part after cwd and a separator (what
// filepath.Rel returns for it, without its rebuild of both paths).
func relPatherFrom(cwd string) func(string) string {
	prefix := ""
	if filepath.Separator == '/' && filepath.IsAbs(cwd) && cwd != "/" && compile.CleanPath(cwd) == cwd {
		prefix = cwd + "/"
	}
	return func(p string) string {
		if prefix != "" && len(p) > len(prefix) && p[:len(prefix)] == prefix && compile.CleanPath(p) == p {
			return p[len(prefix):]
		}
		if !filepath.IsAbs(p) {
			return p
		}
		r, err := filepath.Rel(cwd, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return p
		}
		return r
	}
}

// treeArg is the first PATH that is a directory holding agent packages
// rather than an agent package itself, "" when there is none.
func treeArg(args []string) string {
	for _, a := range args {
		if st, err := os.Stat(a); err == nil && st.IsDir() && !compile.IsAgentDir(a) {
			return a
		}
	}
	return ""
}

// lintTargetsSummary counts the findings of each target (a finding belongs
// to the target whose package holds its file), worst first: the agents of
// --format summary; then a line for each file of no target (a
// .oastui.yaml's unused ignore), so that every finding is counted.
func lintTargetsSummary(targets []string, results []lintResult, all []lint.Finding, rel func(string) string) []report.Target {
	out := make([]report.Target, len(targets))
	byPath := map[string]int{}
	wd, _ := os.Getwd() // once: filepath.Abs reads it on every call
	abs := func(p string) string {
		if filepath.IsAbs(p) || wd == "" {
			return filepath.Clean(p)
		}
		return filepath.Join(wd, p)
	}
	for i, t := range targets {
		out[i] = report.Target{Path: rel(t), Problem: results[i].agent.Problem.String()}
		byPath[abs(t)] = i
		if d := results[i].agent.Dir; d != "" {
			if _, ok := byPath[abs(d)]; !ok {
				byPath[abs(d)] = i
			}
		}
	}
	count := func(t *report.Target, sev compile.Severity) {
		switch sev {
		case compile.Blocker:
			t.Blockers++
		case compile.Warning:
			t.Warnings++
		default:
			t.Suggestions++
		}
	}
	others := map[string]int{} // a file of no target → its line in out
	for _, f := range all {
		file := abs(f.File)
		i, found := -1, false
		for p := file; ; {
			if i, found = byPath[p]; found {
				break
			}
			up := filepath.Dir(p)
			if up == p {
				break
			}
			p = up
		}
		if !found {
			j, ok := others[file]
			if !ok {
				j = len(out)
				others[file] = j
				out = append(out, report.Target{Path: rel(f.File), NotAgent: true})
			}
			i = j
		}
		count(&out[i], f.Severity)
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.NotAgent != b.NotAgent {
			return b.NotAgent
		}
		if (a.Problem != "") != (b.Problem != "") {
			return a.Problem != ""
		}
		if a.Blockers != b.Blockers {
			return a.Blockers > b.Blockers
		}
		if a.Warnings != b.Warnings {
			return a.Warnings > b.Warnings
		}
		if a.Suggestions != b.Suggestions {
			return a.Suggestions > b.Suggestions
		}
		return a.Path < b.Path
	})
	return out
}

// policyRules are the team's policies of the run's config as rules (SARIF
// describes them).
func policyRules(cfg *analysis.ConfigResult) []lint.Rule {
	if cfg == nil || cfg.Config == nil {
		return nil
	}
	var out []lint.Rule
	for _, p := range cfg.Config.Policies {
		out = append(out, p.Rule())
	}
	return out
}
