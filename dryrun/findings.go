package dryrun

import (
	"fmt"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// The dryrun_* codes. Their rules (severity, doc) are lint.Rule values in
// lint/dryrun.go; the severities below are the ones the walk decides per
// finding and must match them where a code has one severity.
const (
	CodeInputUnavailable     = "dryrun_input_unavailable"
	CodeTypeMismatch         = "dryrun_type_mismatch"
	CodeBranchUnreached      = "dryrun_branch_unreached"
	CodeSubflowOutputMissing = "dryrun_subflow_output_missing"
	CodeGateWithoutData      = "dryrun_gate_without_data"
	CodeNontermination       = "dryrun_nontermination"
)

// tally counts, for one place, the paths that run it and the paths on
// which the problem shows.
type tally struct {
	code   string
	ptr    string
	visits map[int]bool
	bad    map[int]bool
	first  int // first path showing it
	step   Step
	detail string
	names  map[string]bool
	order  int
}

// findings: a problem on every path that runs its node is a blocker, on
// some paths a warning (the message says on how many and shows one).
func (e *explorer) findings(res *Result) []Finding {
	tallies := map[string]*tally{}
	get := func(code, key, ptr string, st Step) *tally {
		k := code + "\x00" + key
		t := tallies[k]
		if t == nil {
			t = &tally{code: code, ptr: ptr, visits: map[int]bool{}, bad: map[int]bool{}, step: st, names: map[string]bool{}, order: len(tallies)}
			tallies[k] = t
		}
		return t
	}
	// visits per anchor+node: every path that runs the node
	type place struct{ file, ptr string }
	runs := map[place]map[int]bool{}
	for _, p := range res.Paths {
		for _, st := range p.Steps {
			key := place{st.File, st.Pointer}
			if runs[key] == nil {
				runs[key] = map[int]bool{}
			}
			runs[key][p.ID] = true
		}
	}
	mark := func(t *tally, p Path) {
		if len(t.bad) == 0 {
			t.first = p.ID
		}
		t.bad[p.ID] = true
	}
	for _, p := range res.Paths {
		for i, st := range p.Steps {
			nodeKey := func() string { return st.File + "#" + st.Pointer } // made only for a finding
			gate := st.Type == "InputMessageNode" || st.Type == "PluginInputMessageNode"
			for _, io := range st.Inputs {
				if io.Missing && io.Required {
					code := CodeInputUnavailable
					key := nodeKey() + "/" + io.Name
					ptr := e.place(st, io.ptr)
					if gate {
						code, key = CodeGateWithoutData, nodeKey()
						ptr = e.place(st, "")
					}
					t := get(code, key, ptr, st)
					t.names[io.Name] = true
					if len(t.bad) == 0 || !t.bad[p.ID] {
						if len(t.bad) == 0 {
							t.detail = pathText(p.Steps[:i+1])
						}
						mark(t, p)
					}
				}
				if !io.Missing && io.Mismatch != "" {
					t := get(CodeTypeMismatch, nodeKey()+"/"+io.Name, e.place(st, io.ptr), st)
					if len(t.bad) == 0 {
						t.detail = fmt.Sprintf("input %q of %q is declared %s but gets %s from %s", io.Name, st.Node, io.Type, describe(io.Value, io.Mismatch), io.From)
						t.names[pathText(p.Steps[:i+1])] = true
					}
					mark(t, p)
				}
			}
			if nests(st.Type) {
				for _, io := range st.Outputs {
					if io.Missing && io.Required {
						t := get(CodeSubflowOutputMissing, nodeKey()+">"+io.Name, e.place(st, ""), st)
						t.names[io.Name] = true
						if len(t.bad) == 0 {
							t.detail = pathText(p.Steps)
							if j := subEnd(p.Steps, i); j > 0 {
								t.detail = pathText(p.Steps[:j+1])
							}
						}
						mark(t, p)
					}
				}
			}
		}
		if p.Status == StatusStuck && len(p.Steps) > 0 {
			last := p.Steps[len(p.Steps)-1]
			t := get(CodeNontermination, last.File+"#"+last.Pointer, e.place(last, ""), last)
			if len(t.bad) == 0 {
				t.detail = p.Note + "; path: " + pathText(p.Steps)
			}
			mark(t, p)
		}
	}
	var out []Finding
	total := len(res.Paths)
	for _, t := range tallies {
		visits := runs[place{t.step.File, t.step.Pointer}]
		n, of := len(t.bad), len(visits)
		sev := compile.Warning
		if n == of && t.code != CodeTypeMismatch {
			sev = compile.Blocker
		}
		some := fmt.Sprintf("on %d of the %d paths that run it", n, of)
		if n == of {
			some = fmt.Sprintf("on every path that runs it (%d)", of)
		}
		var msg string
		names := strings.Join(sortedKeys(t.names), ", ")
		switch t.code {
		case CodeInputUnavailable:
			msg = fmt.Sprintf("input %s of %q has no value %s: no producer on the path ran before it and it has no default; path %d: %s",
				quoteAll(t.names), t.step.Node, some, t.first, t.detail)
		case CodeGateWithoutData:
			msg = fmt.Sprintf("approval gate %q shows its screen without data for %s %s; path %d: %s",
				t.step.Node, quoteAll(t.names), some, t.first, t.detail)
		case CodeTypeMismatch:
			msg = fmt.Sprintf("%s %s; path %d: %s", t.detail, some, t.first, names)
		case CodeSubflowOutputMissing:
			msg = fmt.Sprintf("%q gives its parent no %s %s: the parent reads it, but the subflow's EndNode on that path does not produce it; path %d: %s",
				t.step.Node, quoteAll(t.names), some, t.first, t.detail)
		case CodeNontermination:
			sev = compile.Warning
			if n == total {
				sev = compile.Blocker
			}
			msg = fmt.Sprintf("no EndNode within the bound on %d of %d paths: path %d: %s", n, total, t.first, t.detail)
		}
		out = append(out, Finding{Code: t.code, Severity: sev, File: e.file, Pointer: t.ptr, Message: msg, Path: t.first})
	}
	if !res.Capped {
		out = append(out, e.unreached(res)...)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Pointer != out[j].Pointer {
			return out[i].Pointer < out[j].Pointer
		}
		if out[i].Code != out[j].Code {
			return out[i].Code < out[j].Code
		}
		return out[i].Message < out[j].Message
	})
	return out
}

// unreached: a control edge out of a node the walk ran, on a branch no
// explored path took (a canned value deciding the branch is the author's
// choice and not reported).
func (e *explorer) unreached(res *Result) []Finding {
	var out []Finding
	var nodes []*node
	for n := range e.visited {
		nodes = append(nodes, n)
	}
	sort.Slice(nodes, func(i, j int) bool {
		if nodes[i].ptr() != nodes[j].ptr() {
			return nodes[i].ptr() < nodes[j].ptr()
		}
		return nodes[i].id() < nodes[j].id()
	})
	for _, n := range nodes {
		if e.stubbed[n] || len(e.taken[n]) == 0 {
			continue // decided by a canned value, or no path ever left it (a stuck path is nontermination's)
		}
		m := e.nodeFlow[n]
		if m == nil || m.agent != e.root {
			continue // a child agent's own review reports its branches
		}
		for _, ed := range n.out {
			b := branchLabel(ed.branch)
			if e.taken[n][b] {
				continue
			}
			why := ""
			switch {
			case e.why[n] != "":
				why = ": " + e.why[n]
			case n.ctype == "BranchingNode":
				why = fmt.Sprintf(": %q is not among the branches its mapping gives (%s)", b, strings.Join(sortedKeys(e.taken[n]), ", "))
			default:
				why = fmt.Sprintf(": %q (%s) leaves only by %s", n.id(), n.ctype, strings.Join(sortedKeys(e.taken[n]), ", "))
			}
			path := 0
			for _, p := range res.Paths {
				for _, st := range p.Steps {
					if st.Pointer == n.ptr() && st.File == m.file && path == 0 {
						path = p.ID
					}
				}
			}
			out = append(out, Finding{Code: CodeBranchUnreached, Severity: compile.Warning, File: e.file, Pointer: ed.ptr, Path: path,
				Message: fmt.Sprintf("branch %q of %q (to %q) is never taken on any explored path%s", b, n.id(), ed.to.id(), why)})
		}
	}
	return out
}

// place is where a finding of a step goes in the reviewed file: the
// property (or node) itself when the step is of that file, else the
// top-level node that leads into the child agent.
func (e *explorer) place(st Step, propPtr string) string {
	if st.File == e.file {
		if propPtr != "" {
			return propPtr
		}
		return st.Pointer
	}
	return st.Anchor
}

// subEnd is the index of the last step of the subflow that starts after
// steps[i] (a FlowNode's step), or -1.
func subEnd(steps []Step, i int) int {
	end := -1
	for j := i + 1; j < len(steps) && steps[j].Depth > steps[i].Depth; j++ {
		end = j
	}
	return end
}

// pathText writes a path for a message: node ids joined by →, the branch
// taken in brackets, a nested flow's steps as parent/child; long paths
// keep their last 12 steps.
func pathText(steps []Step) string {
	var parts []string
	var stack []string
	for _, st := range steps {
		for len(stack) > st.Depth {
			stack = stack[:len(stack)-1]
		}
		id := st.Node
		if len(stack) > 0 {
			id = strings.Join(stack, "/") + "/" + id
		}
		if st.Branch != "" && st.Branch != "next" {
			id += " [" + st.Branch + "]"
		}
		parts = append(parts, id)
		if nests(st.Type) {
			for len(stack) < st.Depth {
				stack = append(stack, "?")
			}
			stack = append(stack[:st.Depth], st.Node)
		}
	}
	if len(parts) > 12 {
		parts = append([]string{"…"}, parts[len(parts)-12:]...)
	}
	return strings.Join(parts, " → ")
}

func quoteAll(m map[string]bool) string {
	var out []string
	for _, k := range sortedKeys(m) {
		out = append(out, fmt.Sprintf("%q", k))
	}
	return strings.Join(out, ", ")
}

func describe(v any, typ string) string {
	s := keyText(v)
	if len(s) > 40 {
		s = s[:40] + "…"
	}
	return typ + " " + s
}
