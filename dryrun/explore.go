// Package dryrun executes an agent's Flow symbolically, on stub data: from
// the StartNode, with values stubbed from the input schemas, it follows
// the control edges in the compiled BFS order, descends into subflows and
// child agents, explores every branch (bounded), and records at each node
// which inputs have a value, from which producer and of which type. Tools,
// LLMs and API calls are stubs whose outputs are shaped by their declared
// schemas, or canned per node (Stubs). The findings (dryrun_* codes) are
// what a careful reviewer walking the flow with a pen would note, each
// with the path that leads to it.
//
// It is pure: plain functions over loaded data; child agents are reached
// only through Options.Children (the loader's look-up, supplied by the
// caller).
package dryrun

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Defaults of Options.
const (
	DefaultMaxVisits = 2
	DefaultMaxStates = 20000
	maxDepth         = 8 // nested flows and child agents
)

// Options of an exploration.
type Options struct {
	// MaxVisits bounds how often one node runs on one path (a loop is
	// walked at most that many times); default 2.
	MaxVisits int
	// MaxStates bounds the node runs of the whole exploration; default
	// 20,000. When it is reached, Result.Note says how much was explored.
	MaxStates int
	// Stubs are canned outputs per node (ParseStubs).
	Stubs Stubs
	// Children finds a child agent by package name (compile's
	// (*Agent).FindAgent); nil leaves child agents as stubs.
	Children func(packageName string) (*compile.Agent, error)

	// The walk as it was before two cuts, the equivalence tests' oracles
	// (shapes_test.go sets them): every outcome of a nested flow given a
	// copy of the path, the last one too; a node's edges scanned for each
	// branch rather than grouped by branch once.
	copyEverySubOutcome, scanEdgesPerBranch bool
}

// IO is one input or output of a step.
type IO struct {
	Name     string `json:"name"`
	Type     string `json:"type"`           // the declared type ("any" when none)
	Value    any    `json:"value"`          // the (stub) value; null when missing
	From     string `json:"from,omitempty"` // the producer: "node.output", "default", "stubs", "schema", "parent"
	Missing  bool   `json:"missing,omitempty"`
	Required bool   `json:"required,omitempty"` // no default: it must be produced
	Mismatch string `json:"mismatch,omitempty"` // the value's type when it does not fit Type
	ptr      string // where the property is declared
}

// Step is one node run on a path.
type Step struct {
	N       int    `json:"n"`     // 1-based position on the path
	Depth   int    `json:"depth"` // 0 top-level flow, 1 its subflows and child agents, …
	Flow    string `json:"flow"`  // the id of the Flow the node belongs to
	File    string `json:"file"`  // the file of that Flow
	Node    string `json:"node"`
	Name    string `json:"name"`
	Type    string `json:"type"`
	Pointer string `json:"pointer"` // the node's component in File
	// Anchor is the node of the reviewed agent's top-level document that
	// stands for this step: the node itself, or the FlowNode/AgentNode
	// that leads into a child agent's flow.
	Anchor string `json:"anchor"`
	// FlowPointer locates the Flow in File ("" for a file's root flow).
	FlowPointer string `json:"flowPointer"`
	Steps       []int  `json:"steps,omitempty"` // compiled approval step numbers (top-level flow)
	Inputs      []IO   `json:"inputs"`
	Outputs     []IO   `json:"outputs"`
	Branch      string `json:"branch,omitempty"` // the branch taken out of the node
	Note        string `json:"note,omitempty"`
}

// Path statuses.
const (
	StatusEnd   = "end"   // reached an EndNode
	StatusLoop  = "loop"  // a node ran MaxVisits times; an EndNode is still reachable from it
	StatusStuck = "stuck" // cannot reach an EndNode: a dead end, a branch without an edge, or a loop with no way out
	StatusCut   = "cut"   // the state cap stopped it
)

// Path is one explored path through the flow, top-level steps and the
// steps of the flows it descends into, in the order they run.
type Path struct {
	ID     int    `json:"id"` // 1-based
	Status string `json:"status"`
	End    string `json:"end,omitempty"` // the EndNode reached (top-level flow)
	Note   string `json:"note,omitempty"`
	Steps  []Step `json:"steps"`
}

// Finding is a dryrun_* finding: Pointer locates it in File (the reviewed
// agent's flow file); Path is the 1-based id of a path that shows it.
type Finding struct {
	Code     string           `json:"code"`
	Severity compile.Severity `json:"severity"`
	File     string           `json:"file"`
	Pointer  string           `json:"pointer"`
	Message  string           `json:"message"`
	Path     int              `json:"path"`
}

// Result of an exploration.
type Result struct {
	File     string    `json:"file"`
	Paths    []Path    `json:"paths"`
	Findings []Finding `json:"findings"`
	Explored int       `json:"explored"` // paths walked to their end (any status but cut)
	Total    int       `json:"total"`    // paths known: explored + cut + branches never started (a lower bound when capped)
	States   int       `json:"states"`   // node runs
	Capped   bool      `json:"capped"`
	Note     string    `json:"note,omitempty"`
}

type val struct {
	v        any
	from     string
	concrete bool  // canned (stubs): a branch on it is decided
	enum     []any // the values the producer's schema allows (nil: any)
	enumFrom string
	seq      int
}

type frame struct {
	prod   map[*node]map[string]val
	names  map[string]val
	visits map[*node]int
	seq    int
}

func (f *frame) clone() *frame {
	c := &frame{prod: make(map[*node]map[string]val, len(f.prod)), names: make(map[string]val, len(f.names)), visits: make(map[*node]int, len(f.visits)), seq: f.seq}
	for k, v := range f.prod {
		c.prod[k] = v // inner maps are never mutated after a node runs
	}
	for k, v := range f.names {
		c.names[k] = v
	}
	for k, v := range f.visits {
		c.visits[k] = v
	}
	return c
}

type outcome struct {
	steps   []Step
	status  string
	end     *node
	branch  string
	outputs map[string]val
	note    string
}

type explorer struct {
	root   *compile.Agent
	file   string
	opts   Options
	models map[*compile.Node]*flowModel
	flows  map[*compile.Agent]map[string]*compile.Flow

	states    int
	abandoned int
	visited   map[*node]bool
	taken     map[*node]map[string]bool
	why       map[*node]string // why a branching node's choice was narrowed (schema enum)
	stubbed   map[*node]bool   // a branching node's choice was decided by a canned value
	nodeFlow  map[*node]*flowModel
	pkgs      map[*compile.Agent]string // child agents by the package name they were looked up as
}

func newExplorer(a *compile.Agent, opts Options) *explorer {
	if opts.MaxVisits <= 0 {
		opts.MaxVisits = DefaultMaxVisits
	}
	if opts.MaxStates <= 0 {
		opts.MaxStates = DefaultMaxStates
	}
	e := &explorer{root: a, opts: opts, models: map[*compile.Node]*flowModel{}, flows: map[*compile.Agent]map[string]*compile.Flow{},
		visited: map[*node]bool{}, taken: map[*node]map[string]bool{}, why: map[*node]string{}, stubbed: map[*node]bool{}, nodeFlow: map[*node]*flowModel{},
		pkgs: map[*compile.Agent]string{}}
	if a != nil && a.Flow != nil {
		e.file = a.Flow.Path
	}
	return e
}

// Explore walks the agent's top-level Flow. An agent that did not parse,
// or whose top level is no Flow with a StartNode, gives an empty Result
// with a Note (the review reports those problems).
func Explore(a *compile.Agent, opts Options) *Result {
	e := newExplorer(a, opts)
	res := &Result{File: e.file, Paths: []Path{}, Findings: []Finding{}}
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		res.Note = "the flow did not parse: nothing to walk"
		return res
	}
	flows := a.Flows()
	if len(flows) == 0 || flows[0].Pointer != "" {
		res.Note = "the document's top level is not a Flow: nothing to walk"
		return res
	}
	m := e.modelOf(a, flows[0], true)
	if m.start == nil {
		res.Note = "the flow's start_node names no node: nothing to walk"
		return res
	}
	outs := e.run(m, nil, 0, "")
	for i, o := range outs {
		p := Path{ID: i + 1, Status: o.status, Note: o.note, Steps: o.steps}
		if o.end != nil {
			p.End = o.end.id()
		}
		for j := range p.Steps {
			p.Steps[j].N = j + 1
		}
		res.Paths = append(res.Paths, p)
		if o.status != StatusCut {
			res.Explored++
		}
	}
	res.States = e.states
	res.Total = len(res.Paths) + e.abandoned
	res.Capped = e.states >= e.opts.MaxStates
	if res.Capped {
		res.Note = fmt.Sprintf("explored %d of at least %d paths: the state cap (%d node runs) stopped the rest", res.Explored, res.Total, e.opts.MaxStates)
	} else {
		res.Note = fmt.Sprintf("explored %d of %d paths", res.Explored, res.Total)
	}
	res.Findings = e.findings(res)
	return res
}

// run walks flow m from its StartNode; inputs are the values the parent
// passes (nil at the top level).
func (e *explorer) run(m *flowModel, inputs map[string]val, depth int, anchor string) []outcome {
	if m.start == nil {
		return []outcome{{status: StatusStuck, note: fmt.Sprintf("flow %q has no start node", m.id)}}
	}
	fr := &frame{prod: map[*node]map[string]val{}, names: map[string]val{}, visits: map[*node]int{}}
	return e.walk(m, m.start, fr, nil, depth, anchor, inputs)
}

func (e *explorer) walk(m *flowModel, cur *node, fr *frame, steps []Step, depth int, anchor string, startIn map[string]val) []outcome {
	for {
		if e.states >= e.opts.MaxStates {
			e.abandoned++
			return []outcome{{steps: steps, status: StatusCut, note: "the state cap stopped this path"}}
		}
		if fr.visits[cur] >= e.opts.MaxVisits {
			if cur.endReach {
				return []outcome{{steps: steps, status: StatusLoop, note: fmt.Sprintf("%q would run a %s time: the loop is walked %d times (--max-visits)", cur.id(), ordinal(fr.visits[cur]+1), e.opts.MaxVisits)}}
			}
			return []outcome{{steps: steps, status: StatusStuck, note: fmt.Sprintf("%q runs again and again: no EndNode is reachable from the loop through it", cur.id())}}
		}
		e.states++
		fr.visits[cur]++
		e.visited[cur] = true
		e.nodeFlow[cur] = m
		st := Step{Depth: depth, Flow: m.id, File: m.file, Node: cur.id(), Name: cur.name, Type: cur.ctype, Pointer: cur.ptr(),
			FlowPointer: m.flow.Pointer, Steps: cur.steps}
		st.Anchor = anchor
		if anchor == "" {
			st.Anchor = cur.ptr()
		}

		var in map[string]val
		if cur.ctype == "StartNode" && cur == m.start {
			st.Inputs, in = e.startValues(m, cur, startIn)
		} else {
			if cur.ctype == "ParallelFlowNode" && cur.inputs == nil {
				seen := map[string]bool{}
				for _, sub := range e.parallel(m, cur, depth) {
					for _, p := range sub.startInputs() {
						if !seen[p.title] {
							seen[p.title] = true
							cur.inputs = append(cur.inputs, p)
						}
					}
				}
			}
			if nests(cur.ctype) && cur.inputs == nil {
				if sub := e.subflow(m, cur, depth); sub != nil {
					cur.inputs = sub.startInputs()
					if maps(cur.ctype) {
						cur.inputs = mapInputs(sub)
					}
				}
			}
			st.Inputs, in = e.gather(m, cur, fr)
		}

		var branches []string
		switch cur.ctype {
		case "StartNode":
			e.produce(m, cur, fr, in)
		case "EndNode":
			outs := map[string]val{}
			for k, v := range in {
				outs[k] = v
			}
			st.Outputs = nil
			br := cur.comp().Get("branch_name").StringOr("next")
			return []outcome{{steps: append(steps, st), status: StatusEnd, end: cur, branch: br, outputs: outs}}
		case "FlowNode", "AgentNode", "MapNode", "ParallelMapNode", "CatchExceptionNode", "ParallelFlowNode":
			if subOuts, ok := e.nested(m, cur, &st, in, depth, anchor); ok {
				var all []outcome
				for i, so := range subOuts {
					f2 := fr
					if len(subOuts) > 1 {
						f2 = fr.clone()
					}
					st2 := st
					st2.Outputs = e.subOutputs(m, cur, f2, so)
					// the last outcome takes the path's own steps (the others
					// got copies), as follow's last fork does: a chain of n
					// FlowNodes copied its path at each (5,000: 19 s, 9 GB)
					prefix := steps
					if i < len(subOuts)-1 || e.opts.copyEverySubOutcome {
						prefix = copySteps(steps, len(so.steps)+1)
					}
					prefix = append(prefix, st2)
					prefix = append(prefix, so.steps...)
					if so.status != StatusEnd {
						all = append(all, outcome{steps: prefix, status: so.status, note: so.note})
						continue
					}
					all = append(all, e.follow(m, cur, f2, prefix, len(steps), depth, anchor, []string{so.branch})...)
				}
				return all
			}
			st.Note = cur.subNote
			st.Outputs = e.stubOutputs(m, cur, fr)
		case "BranchingNode":
			branches = e.branchChoices(cur, in)
		default:
			st.Outputs = e.stubOutputs(m, cur, fr)
		}
		if branches == nil {
			branches = labels(cur)
		}
		steps = append(steps, st)
		if len(branches) == 1 && len(edgesFor(cur, branches[0])) == 1 {
			ed := edgesFor(cur, branches[0])[0]
			if len(cur.out) > 1 || ed.branch != "" {
				steps[len(steps)-1].Branch = branches[0]
			}
			e.take(cur, branches[0])
			cur = ed.to
			continue
		}
		return e.follow(m, cur, fr, steps, len(steps)-1, depth, anchor, branches)
	}
}

// follow forks the walk out of cur over the given branches; steps[at] is
// cur's step (its Branch is set per fork).
func (e *explorer) follow(m *flowModel, cur *node, fr *frame, steps []Step, at, depth int, anchor string, branches []string) []outcome {
	type choice struct {
		branch string
		ed     edge
	}
	var cs []choice
	var missing []string
	// many branches: cur's edges grouped by branch once, not scanned per
	// branch (a BranchingNode of 20,000 branches: 1.5 s of a 2.1 s run)
	var byBranch map[string][]edge
	if len(branches) > 8 && !e.opts.scanEdgesPerBranch {
		byBranch = make(map[string][]edge, len(cur.out))
		for _, ed := range cur.out {
			l := branchLabel(ed.branch)
			byBranch[l] = append(byBranch[l], ed)
		}
	}
	for _, b := range branches {
		var eds []edge
		if byBranch != nil {
			eds = byBranch[b]
		} else {
			eds = edgesFor(cur, b)
		}
		if len(eds) == 0 {
			missing = append(missing, b)
		}
		for _, ed := range eds {
			cs = append(cs, choice{b, ed})
		}
	}
	sort.SliceStable(cs, func(i, j int) bool { return cs[i].ed.to.v.BFS < cs[j].ed.to.v.BFS })
	var out []outcome
	for _, b := range missing {
		s := copySteps(steps, 0)
		s[at].Branch = b
		note := fmt.Sprintf("%q ends the path: no control edge leaves it", cur.id())
		if b != "next" || len(cur.out) > 0 {
			note = fmt.Sprintf("branch %q of %q has no control edge: the run stops there, short of an EndNode", b, cur.id())
		}
		if cur.ctype == "EndNode" {
			continue
		}
		out = append(out, outcome{steps: s, status: StatusStuck, note: note})
	}
	for i, c := range cs {
		if e.states >= e.opts.MaxStates {
			e.abandoned += len(cs) - i
			if len(out) == 0 { // keep the path walked so far, marked cut
				s := copySteps(steps, 0)
				s[at].Branch = c.branch
				out = append(out, outcome{steps: s, status: StatusCut, note: "the state cap stopped this path"})
				e.abandoned--
			}
			break
		}
		f2 := fr
		if len(cs) > 1 {
			f2 = fr.clone()
		}
		// the last fork takes the path's own steps (the others got
		// copies): a path without forks is not copied at every node
		s := steps
		if i < len(cs)-1 {
			s = copySteps(steps, 8)
		}
		s[at].Branch = c.branch
		if len(cur.out) == 1 && c.ed.branch == "" {
			s[at].Branch = ""
		}
		e.take(cur, c.branch)
		out = append(out, e.walk(m, c.ed.to, f2, s, depth, anchor, nil)...)
	}
	return out
}

func (e *explorer) take(n *node, b string) {
	if e.taken[n] == nil {
		e.taken[n] = map[string]bool{}
	}
	e.taken[n][b] = true
}

// labels are the distinct branch labels of a node's control edges ("next"
// for an edge without from_branch), in edge order; ["next"] when none.
func labels(n *node) []string {
	var out []string
	seen := map[string]bool{}
	for _, ed := range n.out {
		b := branchLabel(ed.branch)
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	if len(out) == 0 {
		return []string{"next"}
	}
	return out
}

func branchLabel(b string) string {
	if b == "" {
		return "next"
	}
	return b
}

func edgesFor(n *node, b string) []edge {
	var out []edge
	for _, ed := range n.out {
		if branchLabel(ed.branch) == b {
			out = append(out, ed)
		}
	}
	return out
}

// branchChoices: the branches a BranchingNode can take given its input:
// one when the value is canned, those its schema's enum maps to, else every
// mapping value and "default".
func (e *explorer) branchChoices(n *node, in map[string]val) []string {
	mapping := n.comp().Get("mapping")
	var key val
	have := false
	if len(n.inputs) > 0 {
		key, have = in[n.inputs[0].title]
	}
	pick := func(v any) string {
		s := keyText(v)
		if mapping.Is(compile.Object) {
			if b, ok := mapping.Get(s).Str(); ok && mapping.Get(s) != nil {
				return b
			}
		}
		return "default"
	}
	var out []string
	seen := map[string]bool{}
	add := func(b string) {
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	switch {
	case have && key.concrete:
		e.stubbed[n] = true
		add(pick(key.v))
	case have && key.enum != nil:
		for _, v := range key.enum {
			add(pick(v))
		}
		var vs []string
		for _, v := range key.enum {
			vs = append(vs, fmt.Sprintf("%q", keyText(v)))
		}
		e.why[n] = fmt.Sprintf("its input %q comes from %s, whose schema allows only %s", n.inputs[0].title, key.enumFrom, strings.Join(vs, ", "))
	default:
		if mapping.Is(compile.Object) {
			for _, mem := range mapping.Members {
				if b, ok := mem.Value.Str(); ok {
					add(b)
				}
			}
		}
		add("default")
	}
	return out
}

func keyText(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	b, _ := json.Marshal(v)
	return string(b)
}

// startValues: the flow's inputs: canned (stubs), else given by the
// parent, else stubbed from the schema.
func (e *explorer) startValues(m *flowModel, n *node, given map[string]val) ([]IO, map[string]val) {
	var ios []IO
	vals := map[string]val{}
	for _, p := range n.inputs {
		var v val
		if c, ok := e.stub(m, n.id(), p.title); ok {
			v = val{v: c, from: "stubs", concrete: true}
		} else if g, ok := given[p.title]; ok {
			v = g
			v.from = "parent: " + g.from
		} else {
			x, en := Stub(p.schema)
			from := "schema"
			if p.hasDefault {
				from = "default"
			}
			if given != nil && !p.hasDefault {
				from = "parent" // the parent gave none: its own step reports it
			}
			v = val{v: x, from: from, enum: en}
			if en != nil {
				v.enumFrom = fmt.Sprintf("input %q of the flow", p.title)
			}
		}
		vals[p.title] = v
		ios = append(ios, e.io(p, v, true))
	}
	return ios, vals
}

func (e *explorer) io(p prop, v val, have bool) IO {
	o := IO{Name: p.title, Type: typeText(p.schema), Required: !p.hasDefault, ptr: p.ptr}
	if !have {
		o.Missing = true
		return o
	}
	o.Value, o.From = v.v, v.from
	if !fits(v.v, p.schema, 0) {
		o.Mismatch = jsonType(v.v)
	}
	return o
}

// gather finds each input's value: the latest producer on this path among
// the data edges into it (explicit data flow) or the latest output of the
// same name (name-based), else its default; otherwise it is missing.
func (e *explorer) gather(m *flowModel, n *node, fr *frame) ([]IO, map[string]val) {
	var ios []IO // nil when the node has no inputs: the JSON says null
	if len(n.inputs) > 0 {
		ios = make([]IO, 0, len(n.inputs))
	}
	vals := make(map[string]val, len(n.inputs))
	for _, p := range n.inputs {
		var best val
		found := false
		if m.explicit {
			for _, de := range n.in[p.title] {
				if v, ok := fr.prod[de.src][de.output]; ok && (!found || v.seq > best.seq) {
					best, found = v, true
				}
			}
		} else if v, ok := fr.names[p.title]; ok {
			best, found = v, true
		}
		if !found && p.hasDefault {
			best, found = val{v: p.schema.Get("default").Interface(), from: "default"}, true
		}
		if found {
			vals[p.title] = best
		}
		ios = append(ios, e.io(p, best, found))
	}
	return ios, vals
}

// produce records a node's outputs on the path.
func (e *explorer) produce(m *flowModel, n *node, fr *frame, outs map[string]val) {
	fr.seq++
	cp := make(map[string]val, len(outs))
	for k, v := range outs {
		v.seq = fr.seq
		v.from = n.producer(k, v.concrete) // a consumer sees the producer
		cp[k] = v
		fr.names[k] = v
	}
	fr.prod[n] = cp
}

// stubOutputs: a tool, LLM or API call returns its canned outputs, else
// values shaped by its declared (or inferred) outputs.
func (e *explorer) stubOutputs(m *flowModel, n *node, fr *frame) []IO {
	var ios []IO
	outs := map[string]val{}
	for _, p := range n.outputs {
		var v val
		if c, ok := e.stub(m, n.id(), p.title); ok {
			v = val{v: c, from: "stubs", concrete: true}
		} else {
			x, en := Stub(p.schema)
			v = val{v: x, from: "schema", enum: en}
			if en != nil { // named only where a branch on it is explained
				v.enumFrom = fmt.Sprintf("output %q of %q", p.title, n.id())
			}
		}
		outs[p.title] = v
		io := e.io(p, v, true)
		io.From = v.from
		ios = append(ios, io)
	}
	e.produce(m, n, fr, outs)
	return ios
}

// subOutputs: what a FlowNode gives its parent on one outcome of its
// subflow: every output it declares (else its subflow's) and every output
// a data edge of the parent reads. One the subflow did not produce on
// that path is missing (canned values still win).
func (e *explorer) subOutputs(m *flowModel, n *node, fr *frame, so outcome) []IO {
	props := n.outputs
	if props == nil && len(n.subs) > 0 {
		seen := map[string]bool{}
		for _, sub := range n.subs {
			for _, p := range sub.flowOutputs() {
				if !seen[p.title] {
					seen[p.title] = true
					props = append(props, p)
				}
			}
		}
	}
	if props == nil && n.sub != nil {
		props = n.sub.flowOutputs()
		if maps(n.ctype) {
			var renamed []prop
			for _, p := range props {
				renamed = append(renamed, synth("collected_"+p.title, "array"))
			}
			props = renamed
		}
	}
	titles := map[string]bool{}
	for _, p := range props {
		titles[p.title] = true
	}
	for _, t := range sortedKeys(n.reads) {
		if !titles[t] {
			props = append(props, synth(t, ""))
		}
	}
	var ios []IO
	outs := map[string]val{}
	for _, p := range props {
		v, ok := so.outputs[p.title]
		if c, canned := e.stub(m, n.id(), p.title); canned {
			v, ok = val{v: c, from: "stubs", concrete: true}, true
		}
		if !ok && p.hasDefault {
			v, ok = val{v: p.schema.Get("default").Interface(), from: "default"}, true
		}
		io := e.io(p, v, ok)
		io.Required = n.reads[p.title] || len(n.outputs) > 0 && !p.hasDefault
		if ok {
			outs[p.title] = v
			io.From = "subflow"
			if fm := e.nodeFlow[so.end]; so.end != nil && fm != nil {
				io.From = so.end.id() + " of " + fm.id
			}
		}
		ios = append(ios, io)
	}
	e.produce(m, n, fr, outs)
	return ios
}

// dedupe: the parent forks once per subflow path, so that each of them
// can be stepped through; past 8 paths it keeps one per distinct result
// (status, branch, outputs and problems met), which bounds the product of
// nested branchings.
func dedupe(outs []outcome) []outcome {
	if len(outs) <= 8 {
		return outs
	}
	seen := map[string]bool{}
	var keep []outcome
	for _, o := range outs {
		var b strings.Builder
		b.WriteString(o.status + "|" + o.branch + "|")
		for _, k := range sortedKeys(o.outputs) {
			b.WriteString(k + ",")
		}
		b.WriteString("|")
		for _, s := range o.steps {
			for _, io := range s.Inputs {
				if io.Missing || io.Mismatch != "" {
					b.WriteString(s.Pointer + "/" + io.Name + ";")
				}
			}
			for _, io := range s.Outputs {
				if io.Missing {
					b.WriteString(s.Pointer + ">" + io.Name + ";")
				}
			}
		}
		b.WriteString("|" + o.note)
		if k := b.String(); !seen[k] {
			seen[k] = true
			keep = append(keep, o)
		}
	}
	return keep
}

// copySteps copies a path's steps for a fork (with room for more), so
// that no two forks share a backing array: within one walk a path owns
// its slice and appends in place (the last fork of a node takes the
// original).
func copySteps(s []Step, room int) []Step {
	out := make([]Step, len(s), len(s)+room)
	copy(out, s)
	return out
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "1st"
	case 2:
		return "2nd"
	case 3:
		return "3rd"
	}
	return fmt.Sprintf("%dth", n)
}

// firstItems: the subflow's inputs for one iteration of a MapNode: the
// first item of each iterated_<x> list (a value that is no list is the
// item itself; an empty list gives the item stubbed from the subflow's
// schema); an input without iterated_ prefix passes as it is.
func firstItems(sub *flowModel, in map[string]val) map[string]val {
	out := map[string]val{}
	for _, p := range sub.startInputs() {
		v, ok := in["iterated_"+p.title]
		if !ok {
			if v, ok = in[p.title]; ok {
				out[p.title] = v
			}
			continue
		}
		if l, isList := v.v.([]any); isList {
			if len(l) > 0 {
				v.v = l[0]
			} else {
				v.v, _ = Stub(p.schema)
			}
			v.from += "[0]"
			v.enum = nil
		}
		out[p.title] = v
	}
	return out
}

// collected: a MapNode's outputs from one iteration's: collected_<y>,
// reduced as its reducers say (append, the default, makes a list).
func collected(n *node, outs map[string]val) map[string]val {
	red := n.comp().Get("reducers")
	res := map[string]val{}
	for k, v := range outs {
		switch red.Get(k).StringOr("append") {
		case "append":
			v.v = []any{v.v}
		}
		res["collected_"+k] = v
	}
	return res
}

// nested walks what a nesting node runs and returns the distinct
// outcomes its parent continues from; false when there is nothing to walk
// (the node is then a stub).
func (e *explorer) nested(m *flowModel, cur *node, st *Step, in map[string]val, depth int, anchor string) ([]outcome, bool) {
	childAnchor := anchor
	if childAnchor == "" {
		childAnchor = cur.ptr()
	}
	if cur.ctype == "ParallelFlowNode" {
		subs := e.parallel(m, cur, depth)
		if len(subs) == 0 {
			return nil, false
		}
		st.Note = fmt.Sprintf("%d subflows, walked one after the other", len(subs))
		combos := []outcome{{status: StatusEnd, branch: "next", outputs: map[string]val{}}}
		for _, sub := range subs {
			outs := dedupe(e.run(sub, in, depth+1, childAnchor))
			var next []outcome
			for _, c := range combos {
				if c.status != StatusEnd {
					next = append(next, c)
					continue
				}
				for _, o := range outs {
					if len(next) >= 16 {
						break // bounds the product of the branches' paths
					}
					merged := map[string]val{}
					for k, v := range c.outputs {
						merged[k] = v
					}
					for k, v := range o.outputs {
						merged[k] = v
					}
					steps := append(copySteps(c.steps, len(o.steps)), o.steps...)
					next = append(next, outcome{steps: steps, status: o.status, note: o.note, branch: "next", outputs: merged})
				}
			}
			combos = next
		}
		return combos, true
	}
	sub := e.subflow(m, cur, depth)
	if sub == nil {
		return nil, false
	}
	if cur.subChild != "" {
		st.Note = "child agent " + cur.subChild
	}
	subIn := in
	if maps(cur.ctype) {
		subIn = firstItems(sub, in)
		st.Note = "one iteration walked, on the first item"
	}
	subOuts := dedupe(e.run(sub, subIn, depth+1, childAnchor))
	if maps(cur.ctype) {
		for i := range subOuts {
			subOuts[i].outputs = collected(cur, subOuts[i].outputs)
		}
	}
	if cur.ctype == "CatchExceptionNode" && len(edgesFor(cur, "caught_exception_branch")) > 0 {
		subOuts = append(subOuts, outcome{status: StatusEnd, branch: "caught_exception_branch",
			outputs: map[string]val{"caught_exception_info": {v: "<exception>", from: "a caught exception"}}})
	}
	return subOuts, true
}
