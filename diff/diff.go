// Package diff names what changed between two revisions of an agent, in
// the words a reviewer uses: nodes, edges, prompts, the data contract,
// approval gates, context slots, package.json and the review's findings.
// It reads two analysis snapshots (the compiled output, the flow model,
// the review), never the JSON text, so that reformatting changes nothing
// and a reworded sentence is one change with a word diff.
//
// Every change has a stable check id (Checks), a level (breaking, warn,
// info) that the config's diff: section may override, and a fingerprint
// (check id, subject and values) that stays the same across commits, so a
// reviewed change stays reviewed after a rebase. Callers (callers.go)
// says whom a breaking change breaks in the agent's tree.
package diff

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/present"
)

// SchemaVersion is the version of the JSON form of Result
// (docs/diff.schema.json).
const SchemaVersion = 1

// Pos is where a change is on one side.
type Pos struct {
	File    string `json:"file"`
	Line    int    `json:"line,omitempty"`
	Column  int    `json:"column,omitempty"`
	Pointer string `json:"pointer,omitempty"`

	doc *compile.Doc // Line and Column are still to find in it (pos)
}

// Word is one piece of a word diff: Op "=" kept, "-" removed, "+" added.
type Word struct {
	Op   string `json:"op"`
	Text string `json:"text"`
}

// Caller is an agent of the tree that calls the changed agent.
type Caller struct {
	Package string `json:"package"`
	Dir     string `json:"dir"`
	Via     string `json:"via,omitempty"` // the node or declaration that calls it
	// Binds: the caller's input mapping or data edges use the changed port.
	Binds bool `json:"binds"`
	// Range is the caller's dependency range ("" when it declares none),
	// Accepts whether that range accepts the new version.
	Range   string `json:"range,omitempty"`
	Accepts bool   `json:"accepts"`
}

// Change is one named change.
type Change struct {
	Check       string `json:"check"`
	Level       Level  `json:"level"`
	Fingerprint string `json:"fingerprint"`
	Message     string `json:"message"`
	Node        string `json:"node,omitempty"` // the node id, when the change is about a node
	// Subject is what the change is about (flow/node, input name, slot id…),
	// Before and After its values on each side ("" where absent).
	Subject string `json:"subject"`
	Before  string `json:"before,omitempty"`
	After   string `json:"after,omitempty"`
	Old     *Pos   `json:"old,omitempty"`
	New     *Pos   `json:"new,omitempty"`
	// Anchor is, for something removed, the nearest place of the new file
	// that still exists (where an annotation of the new file can point).
	Anchor  *Pos     `json:"anchor,omitempty"`
	Words   []Word   `json:"words,omitempty"` // word diff of a prompt
	Callers []Caller `json:"callers"`
	// Reason says why the level is not the check's (a demotion for lack of
	// callers, the config's override).
	Reason string `json:"reason,omitempty"`
	// Port is the input or output a contract change is about ("" for others).
	Port string `json:"port,omitempty"`
	// Group lists what one change stands for beside its subject (the nodes
	// of a subflow removed or added with its FlowNode).
	Group []string `json:"group,omitempty"`

	extra []covered // more of the files the change explains (the fallback's)
	// wordsOf is the two texts of a reworded prompt or description, whose
	// word diff (Words) is made only when the change is listed (differ.words).
	wordsOf *[2]string
}

// Summary counts changes by level.
type Summary struct {
	Breaking int `json:"breaking"`
	Warn     int `json:"warn"`
	Info     int `json:"info"`
}

// Result is the diff of two revisions of one agent.
type Result struct {
	SchemaVersion int    `json:"schemaVersion"`
	Agent         string `json:"agent"`
	Package       string `json:"package,omitempty"`
	Old           Side   `json:"old"`
	New           Side   `json:"new"`
	// Headline is the one line a reviewer reads first.
	Headline string `json:"headline,omitempty"`
	// Notices say which approval-safety checks the config in force lowers
	// or turns off, with its reason (SafetyNotices): every face shows them.
	Notices []string `json:"notices,omitempty"`
	// Tree says an agents/ tree was searched for callers; Callers are the
	// agents of it that call or declare this one.
	Tree    bool          `json:"tree"`
	Callers []AgentCaller `json:"callers,omitempty"`
	Changes []Change      `json:"changes"`
	// Truncated is how many changes the cap (Options.MaxChanges, oastui
	// diff --max-changes) left out of Changes, the least severe; Summary
	// counts them.
	Truncated int     `json:"truncated,omitempty"`
	Summary   Summary `json:"summary"`
}

// AgentCaller is one agent of the tree that calls or declares the agent.
type AgentCaller struct {
	Package      string   `json:"package"`
	Via          string   `json:"via,omitempty"`
	Range        string   `json:"range,omitempty"`
	BindsInputs  []string `json:"bindsInputs,omitempty"`
	ReadsOutputs []string `json:"readsOutputs,omitempty"`
}

// Side names one revision.
type Side struct {
	Rev     string `json:"rev"` // the revision as given, "working tree", or a path
	Version string `json:"version,omitempty"`
	File    string `json:"file,omitempty"`
}

// Options of one diff.
type Options struct {
	OldRev, NewRev string // labels of the two sides
	// Levels overrides check levels (the config's diff: section): check id
	// → breaking|warn|info|off.
	Levels map[string]string
	// Callers are the agents of the tree that call the agent (FindCallers);
	// Tree says the tree was searched (so that no caller means none uses it).
	Callers []CallerAgent
	Tree    bool
	// OldErr and NewErr are why a side whose files exist did not load (a
	// side without the agent at all has none): diff_side_broken or
	// diff_side_fixed instead of diff_agent_added or diff_agent_removed.
	OldErr, NewErr error
	// BaseLevels is the diff: section as the old revision's config had it
	// (BaseLevels()); nil: unknown. A level the change lowers is itself a
	// breaking change, diff_gate_relaxed (gate.go).
	BaseLevels map[string]string
	// MaxChanges caps the changes listed (the most severe first; the rest
	// are counted in Result.Truncated and the summary, and cost no word
	// diff); 0 lists them all. The faces pass DefaultMaxChanges unless told.
	MaxChanges int
}

// Diff compares two snapshots of one agent. When only one side holds the
// agent (nil, or a snapshot that did not load), the diff is one change,
// diff_agent_added or diff_agent_removed. The snapshots should hold the compiled output (StageCompile) and
// the slots (StageSlots); what a snapshot lacks is not compared.
func Diff(old, new *analysis.Snapshot, opts Options) *Result {
	return diffViews(old, new, view(old), view(new), opts)
}

// diffViews is Diff of the two snapshots with their views already made
// (Run makes each as soon as its side is analysed).
func diffViews(old, new *analysis.Snapshot, ov, nv *sideView, opts Options) *Result {
	r := &Result{SchemaVersion: SchemaVersion, Changes: []Change{}}
	r.Old = side(old, opts.OldRev)
	r.New = side(new, opts.NewRev)
	if named := new; named != nil {
		if !hasAgent(named) && hasAgent(old) {
			named = old // the agent was removed: name it as it was
		}
		r.Agent = present.Text(named.AgentName())
		if named.Agent != nil {
			r.Package = present.Text(named.Agent.PackageName())
		}
	}
	d := &differ{old: ov, new: nv, opts: opts, budget: newBudget()}
	d.formMove = d.slotFormMoves()
	d.cur = &checkers[0]
	if !d.presence(old, new, opts) { // an agent on one side only is one change (agents.go)
		for i := range checkers {
			if ck := &checkers[i]; ck.run != nil {
				d.cur = ck
				ck.run(d)
			}
		}
		d.callers(opts)
		d.levels(opts.Levels)
		d.cur = checkerOf(CheckVersionNotBumped)
		d.versionBump()
	}
	d.levels(opts.Levels)
	d.gate(opts) // after the overrides: no diff: level lowers it
	sort.SliceStable(d.out, func(i, j int) bool {
		a, b := &d.out[i], &d.out[j]
		if a.Level != b.Level {
			return a.Level.rank() < b.Level.rank()
		}
		if ai, bi := areaRank(a.Check), areaRank(b.Check); ai != bi {
			return ai < bi
		}
		if ai, bi := areaIndex(a.Check), areaIndex(b.Check); ai != bi {
			return ai < bi
		}
		return false
	})
	for _, c := range d.out { // every change counts, listed or not
		switch c.Level {
		case Breaking:
			r.Summary.Breaking++
		case Warn:
			r.Summary.Warn++
		default:
			r.Summary.Info++
		}
	}
	d.flushSpill()
	for k, n := range d.spilled { // and those only counted (spill)
		switch k.level {
		case Breaking:
			r.Summary.Breaking += n
		case Warn:
			r.Summary.Warn += n
		default:
			r.Summary.Info += n
		}
	}
	// The cap (budget.go): the most severe MaxChanges are listed; what is
	// dropped gets no word diff, position anchor, fingerprint or masking.
	r.Truncated = d.spilledAt("")
	if m := opts.MaxChanges; m > 0 && len(d.out) > m {
		r.Truncated += len(d.out) - m
		d.out = slices.Clip(d.out[:m])
	}
	d.words()
	d.anchor()
	for i := range d.out {
		c := &d.out[i]
		for _, p := range []*Pos{c.Old, c.New, c.Anchor} {
			p.resolve()
		}
		c.Fingerprint = fingerprint(c) // of the values as they are, before masking
		cleanChange(c)
		if c.Callers == nil {
			c.Callers = []Caller{}
		}
	}
	if d.out != nil {
		r.Changes = d.out
	}
	r.Tree = opts.Tree
	for _, ca := range opts.Callers {
		ca = cleanCaller(ca)
		r.Callers = append(r.Callers, AgentCaller{Package: ca.Package, Via: ca.Via, Range: ca.Range,
			BindsInputs: cleanAll(ca.Inputs), ReadsOutputs: cleanAll(ca.Outputs)})
	}
	r.Headline = headline(r)
	return r
}

func cleanAll(l []string) []string {
	var out []string
	for _, s := range l {
		out = append(out, present.Text(s))
	}
	return out
}

// headline: the counts, and the first change (the most severe, approval
// and contract first) in its own words.
func headline(r *Result) string {
	if len(r.Changes) == 0 {
		return "no changes"
	}
	var parts []string
	for _, x := range []struct {
		n    int
		word string
	}{{r.Summary.Breaking, "breaking"}, {r.Summary.Warn, "warn"}, {r.Summary.Info, "info"}} {
		if x.n > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", x.n, x.word))
		}
	}
	return strings.Join(parts, ", ") + ": " + firstLine(r.Changes[0].Message)
}

// anchor sets, on each change that has only an old position, the nearest
// place of the new file that still exists.
func (d *differ) anchor() {
	for i := range d.out {
		c := &d.out[i]
		if c.New != nil || c.Old == nil || c.Old.Pointer == "" {
			continue
		}
		var nd *compile.Doc
		switch {
		case d.old.flow != nil && c.Old.File == d.old.flow.Path:
			nd = d.new.flow
		case d.old.pkgDoc != nil && c.Old.File == d.old.pkgDoc.Path:
			nd = d.new.pkgDoc
		}
		if nd == nil || nd.Root == nil {
			continue
		}
		p := c.Old.Pointer
		for p != "" && nd.Lookup(p) == nil {
			p = p[:strings.LastIndex(p, "/")]
		}
		c.Anchor = pos(nd, p)
	}
}

func side(s *analysis.Snapshot, rev string) Side {
	// The revision as given (a branch name, a :/search) and the agent's
	// path come from the repository: presented like the agent's strings.
	out := Side{Rev: present.Text(rev)}
	if s == nil || s.Agent == nil {
		return out
	}
	out.File = present.Text(s.Agent.FlowPath)
	if s.Agent.Package != nil && s.Agent.Package.Root != nil {
		out.Version = present.Text(s.Agent.Package.Root.Get("version").StringOr(""))
	}
	return out
}

// areaOrder is the order a reviewer reads the areas in: whether the agent
// still runs, approval safety and the contract first, packaging last.
var areaOrder = []string{"agents", "approval", "contract", "callers", "behaviour", "graph", "prompts", "slots", "review", "fallback", "package"}

func areaRank(id string) int {
	if c := byID[id]; c != nil {
		for i, a := range areaOrder {
			if a == c.Area {
				return i
			}
		}
	}
	return len(areaOrder)
}

// areaIndex orders checks by their place in the table.
func areaIndex(id string) int {
	if i, ok := checkIndex[id]; ok {
		return i
	}
	return len(checks)
}

var checkIndex = func() map[string]int {
	m := map[string]int{}
	for i, c := range checks {
		m[c.ID] = i
	}
	return m
}()

// fingerprint: check id, subject and the two values, hashed. Positions,
// levels and messages are not part of it.
func fingerprint(c *Change) string {
	h := sha256.New()
	for _, s := range []string{c.Check, c.Subject, c.Before, c.After} {
		h.Write([]byte(s))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// levels applies the config's overrides ("off" drops the change).
func (d *differ) levels(over map[string]string) {
	if len(over) == 0 {
		return
	}
	d.spilledLevels(over)
	kept := d.out[:0]
	for _, c := range d.out {
		if c.Check == CheckGateRelaxed.ID { // the gate's own safety: never lowered (gate.go)
			kept = append(kept, c)
			continue
		}
		switch s := over[c.Check]; s {
		case "":
		case "off":
			continue
		default:
			if l, ok := ParseLevel(s); ok && l != c.Level {
				c.Level = l
				c.Reason = joinReason(c.Reason, "level set by the config's diff: section")
			}
		}
		kept = append(kept, c)
	}
	d.out = kept
}

func joinReason(a, b string) string {
	if a == "" {
		return b
	}
	return a + "; " + b
}

// ValidateLevels checks a diff: section: known check ids, known levels.
func ValidateLevels(m map[string]string) error {
	for id, l := range m {
		if _, ok := byID[id]; !ok {
			return fmt.Errorf("diff: unknown check %q (oastui diff --checks lists them)", id)
		}
		if _, ok := ParseLevel(l); !ok && l != "off" {
			return fmt.Errorf("diff: %s: level %q is not breaking, warn, info or off", id, l)
		}
	}
	return nil
}

// differ holds the two sides and the changes found.
type differ struct {
	old, new *sideView
	out      []Change
	cur      *checker // the function running: the only one that may raise its checks
	opts     Options
	budget   *budget // what word diffs may still spend (budget.go)
	// formNodes and formPorts are the explicit context FlowNodes and the
	// hidden start inputs a slot's move between the slim and the explicit
	// form explains (slotForms): the fallback names none of their traces.
	formNodes, formPorts map[string]bool
	// The changes the cap can never list, counted only (spill, budget.go):
	// raised and spilled count them by check and level, spillCov is what
	// they explain for the fallback; formMove says a slot moves between
	// forms (slotForms may then drop graph changes: nothing spills).
	raised, spilled map[spillKey]int
	// the last key spilled and how many times in a row since spilled last
	// had it added (flushSpill): a run of one check's spills (33,000
	// renames) costs no map look-up a change
	pendKey  spillKey
	pendN    int
	spillCov []covered
	// names holds the places of the renames in place, one after the other
	// (renameCovers)
	names    strings.Builder
	formMove bool
	// pairs are the nodes both sides have, in bothNodes' order, found on
	// its first call (paired).
	pairs  []nodePair
	paired bool
	// approving are the gates that require approval (isGate), found on
	// its first call.
	approving *approving
}

// add records a change of check with the check's level.
func (d *differ) add(c *Check, subject, node, before, after, msg string, oldPos, newPos *Pos) *Change {
	if d.cur == nil || !slices.Contains(d.cur.checks, c) {
		panic("diff: check " + c.ID + " raised outside the function that names it")
	}
	d.out = append(d.out, Change{Check: c.ID, Level: c.Level, Subject: subject, Node: node, Before: before, After: after,
		Message: msg, Old: oldPos, New: newPos})
	return &d.out[len(d.out)-1]
}

// quote is a value as a message shows it.
func quote(s string) string {
	if s == "" {
		return "(none)"
	}
	return fmt.Sprintf("%q", s)
}

// sortedKeys of a string-keyed map.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// pos is where pointer ptr of doc is. Its line and column are found when
// the change is listed (resolve): a change the cap leaves out costs none.
func pos(doc *compile.Doc, ptr string) *Pos {
	if doc == nil {
		return nil
	}
	p := &Pos{File: doc.Path, Pointer: ptr}
	if doc.Root != nil {
		p.doc = doc
	}
	return p
}

// resolve sets p's line and column from the document pos named.
func (p *Pos) resolve() {
	if p != nil && p.doc != nil {
		p.Line, p.Column = p.doc.PointerPosition(p.Pointer)
		p.doc = nil
	}
}

func trimFlow(subject string) string { return strings.TrimPrefix(subject, "/") }

// cleanChange passes every string of c taken from the agent's files
// through Clean (sanitised, secrets masked).
func cleanChange(c *Change) {
	maskNamed(c) // a secret-named key's values (safe.go)
	for _, s := range []*string{&c.Message, &c.Node, &c.Subject, &c.Before, &c.After, &c.Reason, &c.Port} {
		*s = present.Text(*s)
	}
	for _, p := range []*Pos{c.Old, c.New, c.Anchor} {
		if p != nil {
			p.File, p.Pointer = present.Text(p.File), present.Text(p.Pointer)
		}
	}
	for i := range c.Words {
		c.Words[i].Text = present.Text(c.Words[i].Text)
	}
	for i := range c.Callers {
		k := &c.Callers[i]
		for _, s := range []*string{&k.Package, &k.Dir, &k.Via, &k.Range} {
			*s = present.Text(*s)
		}
	}
}

// checkerOf is the checker that names c.
func checkerOf(c *Check) *checker {
	for i := range checkers {
		if slices.Contains(checkers[i].checks, c) {
			return &checkers[i]
		}
	}
	return nil
}
