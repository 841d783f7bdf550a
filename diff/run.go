package diff

import (
	"errors"
	"fmt"
	"os"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Request is one diff as a face asks for it: the agent on each side, the
// revisions they are read from, and the config in force. Run is the one
// orchestration every face calls (oastui diff, MCP agent_diff, the History
// tab's Step): open nothing, analyse both sides the same way, read the
// levels, find the callers, diff. Two faces given the same pair therefore
// give the same changes.
type Request struct {
	// OldPath and NewPath are the agent (a package directory or a flow
	// file) on each side; NewPath "" is OldPath.
	OldPath, NewPath string
	// Old and New are the git revisions the sides are read from (nil: the
	// files on disk, or an editor's buffers through the analysis).
	Old, New *compile.GitRev
	// OldNone says the old side is empty (a root commit: the agent is new).
	OldNone bool
	// OldLabel and NewLabel name the sides in the result.
	OldLabel, NewLabel string
	// Config is the config already resolved (nil: the one found upward from
	// the new side's agent). Its diff: section sets the levels.
	Config *analysis.ConfigResult
	// Indexes caches the caller index of each agents/ tree (keyed by the
	// tree root) across the Requests of one run; nil: a fresh one.
	Indexes map[string]*CallerIndex
	// Load is the load options of a confined face (an MCP call's registry
	// and Allow); Rev is set per side. Zero: an unconfined load.
	Load compile.LoadOptions
	// TreeOK says the callers may be searched in the tree rooted at root
	// (an MCP call whose roots do not hold the tree lists none rather than
	// read above them); nil: every tree.
	TreeOK func(root string) bool
	// MaxChanges caps the changes listed (Options.MaxChanges; 0: all).
	// The faces pass DefaultMaxChanges unless told otherwise.
	MaxChanges int
}

// ErrNoAgent is returned by Run when neither side holds the agent.
var ErrNoAgent = errors.New("no agent on either side")

// Run analyses both sides of req and diffs them. The callers are the
// agents of the agent's tree as the new side's revision has it. An agent
// on one side only is diff_agent_added or diff_agent_removed; an error is
// returned when neither side has it (wrapping ErrNoAgent and the new
// side's load error) or the config's diff: section is invalid.
func Run(req Request) (*Result, error) {
	newPath := req.NewPath
	if newPath == "" {
		newPath = req.OldPath
	}
	side := sideOptions(req.Config)
	side.Load = req.Load // a confined face's load options; Rev is set per side
	// The two sides are loaded (read and parsed) at once, and analysed at
	// once but for the new side's prompt report: two prompt reports alive
	// together (a prompt of 100,000 placeholders) were 1.7× the diff's peak.
	// The new side's review and compile run beside the old side's analysis
	// (a 33,000-node flow: a fifth less wall time, for a fifth more peak);
	// its prompt report is made once the old side's is released.
	oldSide, newSide := side, side
	oldSide.Agent, newSide.Agent = loadSides(req.OldPath, req.Old, !req.OldNone, newPath, req.New, side.Load)
	var n *analysis.Snapshot
	var newHas bool
	waitNew := func() {} // a side not analysed at once is analysed in turn, below
	if promptTextLater(&newSide) {
		waitNew = atOnce(func() {
			n, newHas = AnalyzeSide(newPath, req.New, newSide)
			n.FlowModels() // what its prompt report reads, off the old side's way
		})
	}
	o, oldHas := &analysis.Snapshot{}, false
	if !req.OldNone {
		o, oldHas = AnalyzeSide(req.OldPath, req.Old, oldSide)
	}
	// Each side's view is made as soon as the side is analysed, and its
	// prompt report (which the view copies what it compares of) released:
	// the two reports of a prompt with 100,000 placeholders were most of the
	// diff's memory. Run owns these snapshots; nothing else reads them.
	ov, o := viewOf(o)
	waitNew()
	if n == nil {
		n, newHas = AnalyzeSide(newPath, req.New, newSide)
	} else {
		n.AddPromptText()
	}
	nv, n := viewOf(n)
	if o.Agent == nil && n.Agent == nil {
		if n.LoadErr != nil {
			return nil, fmt.Errorf("%s: %w (%v)", newPath, ErrNoAgent, n.LoadErr)
		}
		return nil, fmt.Errorf("%s: %w", newPath, ErrNoAgent)
	}
	cfg := req.Config
	if cfg == nil {
		cfg = &n.Config
		if n.Agent == nil {
			cfg = &o.Config
		}
	}
	var levels, reasons map[string]string
	if cfg.Config != nil {
		levels, reasons = cfg.Config.Diff, cfg.Config.DiffReasons
	}
	for _, err := range []error{ValidateLevels(levels), ValidateReasons(levels, reasons)} {
		if err == nil {
			continue
		}
		if cfg.Path != "" {
			return nil, fmt.Errorf("%s: %w", cfg.Path, err)
		}
		return nil, err
	}
	opts := Options{OldRev: req.OldLabel, NewRev: req.NewLabel, Levels: levels, MaxChanges: req.MaxChanges}
	// The gate's levels as the old revision had them: a change that lowers
	// one is itself breaking (diff_gate_relaxed, gate.go).
	opts.BaseLevels, _ = BaseLevels(req.Old, cfg.Path)
	named := n
	if n.Agent == nil {
		named = o
	}
	if root := named.Agent.TreeRoot; root != "" && (req.TreeOK == nil || req.TreeOK(root)) {
		ix := req.Indexes[root]
		if ix == nil {
			ix = NewCallerIndex(root, req.New)
			if req.Indexes != nil {
				req.Indexes[root] = ix
			}
		}
		opts.Tree = true
		opts.Callers = ix.Of(named.Agent.PackageName())
	}
	if !hasAgent(o) {
		if oldHas {
			opts.OldErr = o.LoadErr
		}
		o, ov = nil, view(nil)
	}
	if !hasAgent(n) {
		if newHas {
			opts.NewErr = n.LoadErr
		}
		n, nv = nil, view(nil)
	}
	r := diffViews(o, n, ov, nv, opts)
	// Computed once here, shown by every face (docs/security.md).
	r.Notices = SafetyNotices(levels, reasons, cfg.Path)
	return r, nil
}

// atOnce runs f in a goroutine of its own and returns the wait for it,
// which raises f's panic again on the waiting goroutine: a face recovers
// the panics of its own goroutine (a server answers with an error and
// serves on), not another's, which would end the process.
func atOnce(f func()) (wait func()) {
	done := make(chan struct{})
	var p any
	go func() {
		defer close(done)
		defer func() { p = recover() }()
		f()
	}()
	return func() {
		<-done
		if p != nil {
			panic(p)
		}
	}
}

// promptTextLater takes the prompt report out of the new side's stages
// (Run adds it after the old side's view: Snapshot.AddPromptText) and says
// so, unless the side's review reads the report: a config that sets a
// prompt budget has prompt_budget_exceeded read the report Run makes with
// the side, and a report made afterwards would change what it counts. The
// side's config is resolved here, then handed in: once, as Run would.
func promptTextLater(side *analysis.Options) bool {
	if side.Agent == nil {
		return false // not loaded: analysed in turn, which reports why
	}
	if side.Config == nil {
		c := analysis.ConfigFor(*side, side.Agent)
		side.Config = &c
	}
	if c := side.Config.Config; c != nil && c.Budget.Limited() {
		return false
	}
	side.Stages &^= analysis.StagePromptText
	return true
}

// loadSides loads the old side's agent (when withOld) and the new side's at
// once, the old in a goroutine of its own, for the analyses to take
// (analysis.Options.Agent). A side that fails to load, or whose load
// panics, is nil: its analysis loads it again and reports the failure as it
// always has. Loads lent memory (LoadOptions.Blocks) are not made at once.
func loadSides(oldPath string, oldRev *compile.GitRev, withOld bool, newPath string, newRev *compile.GitRev, lo compile.LoadOptions) (o, n *compile.Agent) {
	if lo.Blocks != nil || !withOld {
		return nil, nil
	}
	load := func(path string, rev *compile.GitRev) (a *compile.Agent) {
		defer func() {
			if recover() != nil {
				a = nil
			}
		}()
		opts := lo
		opts.Rev = rev
		a, err := compile.Load(path, opts)
		if err != nil {
			return nil
		}
		return a
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		o = load(oldPath, oldRev)
	}()
	n = load(newPath, newRev)
	<-done
	return o, n
}

// viewOf is the view of a side Run analysed, and what Run keeps of the
// snapshot beyond it (kept, Snapshot.Slim): what the checks still read,
// without the prompt report (the view holds what it compares of it) nor
// the flow models (but the Flows' graphs the view holds), which the old
// side would otherwise hold through the new side's analysis, and both
// sides through the checks.
func viewOf(s *analysis.Snapshot) (v *sideView, kept *analysis.Snapshot) {
	v = view(s)
	kept = s.Slim()
	if kept != nil {
		v.s = kept
	}
	return v, kept
}

// sideHas says the agent's files exist at path on that side (a package
// directory with a flow file, or the file itself).
func sideHas(path string, rev *compile.GitRev) bool {
	if compile.IsAgentDirRev(path, rev) {
		return true
	}
	if rev != nil {
		return rev.Has(path)
	}
	st, err := os.Stat(path)
	return err == nil && !st.IsDir()
}
