package workspace

import (
	"fmt"
	"path/filepath"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// Index is the workspace built from one summary per agent. It is
// immutable once built; a live face builds a new one after re-reviewing
// the agents a change affects.
type Index struct {
	Root   string
	Agents []Agent // sorted by ID, then Dir

	// Findings are the workspace findings of the whole tree, sorted
	// (compile.SortFindings), after the config (lint.Config.Outside:
	// its ignores and per-rule settings, as every review applies them), with
	// the unused_ignore findings of ignores aimed at workspace rules.
	Findings []compile.Finding
	// Suppressed are the workspace findings an ignore of the config set
	// aside (SARIF shows them as suppressed).
	Suppressed []lint.SuppressedFinding

	byDir      map[string]int   // absolute Dir → index
	byName     map[string]int   // package name → index (a duplicate: the first package.json in path order, as compile's look-up)
	dependents map[string][]int // package name → agents naming it as a child
	perAgent   [][]compile.Finding
	edges      [][]edge // per agent: its resolved children
}

type edge struct {
	to    int // agent index, -1 when missing
	child Child
	// What the config left of the findings about this reference (ignored
	// or turned off: none): the call graph draws them.
	missing  *compile.Finding
	mismatch *compile.Finding
}

// Build indexes the agents of the tree at root. cfg is the config applied
// to the workspace findings (nil: defaults): its ignores and per-rule
// settings, as each review applies them (lint.Config.Outside).
func Build(root string, agents []Agent, cfg *lint.Config) *Index {
	return build(root, byID(agents), cfg)
}

// BuildOwned is Build for agents the caller hands over: they are ordered
// in place (byIDInPlace) and become the Index's Agents, not copied
// first (`oastui lint` of a tree: its 1,000 summaries are made for this
// call alone).
func BuildOwned(root string, agents []Agent, cfg *lint.Config) *Index {
	byIDInPlace(agents)
	return build(root, agents, cfg)
}

func build(root string, agents []Agent, cfg *lint.Config) *Index {
	ix := &Index{Root: root, Agents: agents, byDir: map[string]int{}, byName: map[string]int{}, dependents: map[string][]int{}}
	dups := map[string][]int{} // package name → every agent so named, in path order
	wd := workDir()
	for i := range ix.Agents {
		a := &ix.Agents[i]
		ix.byDir[absFrom(wd, a.Dir)] = i
		if a.Package != "" {
			dups[a.Package] = append(dups[a.Package], i)
		}
	}
	for name, is := range dups {
		if len(is) > 1 {
			paths := make(map[int]string, len(is)) // each once: not in the comparison
			for _, i := range is {
				paths[i] = pkgPath(wd, &ix.Agents[i])
			}
			sort.SliceStable(is, func(x, y int) bool { return paths[is[x]] < paths[is[y]] })
		}
		ix.byName[name] = is[0]
		if len(is) == 1 {
			delete(dups, name)
		}
	}
	ix.edges = make([][]edge, len(ix.Agents))
	ix.perAgent = make([][]compile.Finding, len(ix.Agents))
	// every agent's edges carved from one array, each of its own length
	// and capacity (appended to one by one, they were copied at each
	// doubling: half a megabyte of a 1,000-agent lint)
	children := 0
	for i := range ix.Agents {
		children += len(ix.Agents[i].Children)
	}
	edges := make([]edge, 0, children)
	for i := range ix.Agents {
		a := &ix.Agents[i]
		if n := len(a.Children); n > 0 {
			ix.edges[i], edges = edges[:0:n], edges[n:n]
		}
		seen := map[string]bool{}
		for _, c := range a.Children {
			to, ok := ix.byName[c.Package]
			if !ok {
				to = -1
			}
			ix.edges[i] = append(ix.edges[i], edge{to: to, child: c})
			if !seen[c.Package] {
				seen[c.Package] = true
				ix.dependents[c.Package] = append(ix.dependents[c.Package], i)
			}
		}
	}
	ix.findChildProblems()
	ix.findCycles()
	ix.findDuplicates(dups)
	out := cfg.Outside()
	for i := range ix.perAgent {
		kept, supp := out.Apply(ix.perAgent[i], ix.Agents[i].Inline)
		ix.perAgent[i] = kept
		ix.Suppressed = append(ix.Suppressed, supp...)
		ix.noteLeft(i)
	}
	for i := range ix.perAgent {
		var own []string
		if cfg != nil && len(cfg.Ignores) > 0 { // what an unused ignore of the config may name
			own = ix.Agents[i].ownFiles()
		}
		ix.perAgent[i] = compile.SortFindings(append(ix.perAgent[i], out.Unused(ix.Agents[i].Dir, own, ix.Agents[i].Inline)...))
	}
	n := 0
	for _, fs := range ix.perAgent {
		n += len(fs)
	}
	if n > 0 {
		ix.Findings = make([]compile.Finding, 0, n) // at its size: a tree of copies has thousands
	}
	for _, fs := range ix.perAgent {
		ix.Findings = append(ix.Findings, fs...)
	}
	ix.Findings = compile.SortFindings(ix.Findings)
	return ix
}

func (ix *Index) add(i int, r *lint.Rule, c Child, msg string) {
	ix.addHashed(i, r, c, msg, compile.HashValue(c.Package))
}

// addHashed is add with c.Package's hash (compile.HashValue) given: the
// copies of a duplicate name share it.
func (ix *Index) addHashed(i int, r *lint.Rule, c Child, msg, hash string) {
	f := compile.Finding{Code: r.Code, Severity: r.Severity, Message: msg, Source: compile.SourceDeterministic,
		File: c.File, Line: c.Line, Column: c.Column, Location: c.Pointer, ValueHash: hash}
	if f.Line < 1 {
		f.Line, f.Column = 1, 1
	}
	ix.perAgent[i] = append(ix.perAgent[i], f)
}

// noteLeft notes on each reference of agent i what the config left of
// its findings (the call graph draws those).
func (ix *Index) noteLeft(i int) {
	if len(ix.perAgent[i]) == 0 {
		return
	}
	type key struct{ code, file, ptr string }
	left := map[key]*compile.Finding{}
	for _, f := range ix.perAgent[i] {
		left[key{f.Code, f.File, f.Location}] = &f // a copy: perAgent is sorted again
	}
	for j := range ix.edges[i] {
		e := &ix.edges[i][j]
		e.missing = left[key{lint.RuleWorkspaceChildMissing.Code, e.child.File, e.child.Pointer}]
		e.mismatch = left[key{lint.RuleWorkspaceChildVersionMismatch.Code, e.child.File, e.child.Pointer}]
	}
}

// byID is a copy of agents ordered by ID, then Dir; ties keep their
// order. The indices are sorted, not the agents: a stable sort of the
// structs moves each of them O(log n) times.
func byID(agents []Agent) []Agent {
	idx := byIDOrder(agents)
	out := make([]Agent, len(agents))
	for k, i := range idx {
		out[k] = agents[i]
	}
	return out
}

// byIDOrder is the order of byID: idx[k] is the agent that goes k-th.
func byIDOrder(agents []Agent) []int {
	idx := make([]int, len(agents))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		a, b := &agents[i], &agents[j]
		if c := strings.Compare(a.ID(), b.ID()); c != 0 {
			return c
		}
		if c := strings.Compare(a.Dir, b.Dir); c != 0 {
			return c
		}
		return i - j
	})
	return idx
}

// byIDInPlace orders agents as byID does, in place: the indices are
// sorted, then each cycle of the permutation is followed, every agent
// moved once (and one per cycle twice).
func byIDInPlace(agents []Agent) {
	idx := byIDOrder(agents)
	for k := range idx {
		if idx[k] < 0 || idx[k] == k {
			continue
		}
		tmp := agents[k] // the place k is filled from idx[k], that from idx[idx[k]], … back to k
		j := k
		for idx[j] != k {
			agents[j] = agents[idx[j]]
			next := idx[j]
			idx[j] = -1
			j = next
		}
		agents[j] = tmp
		idx[j] = -1
	}
}

// ownFiles are the files the agent's analysis read inside its package
// directory (absolute).
func (a *Agent) ownFiles() []string {
	var own []string
	dir := absPath(a.Dir)
	for _, f := range a.Files {
		if strings.HasPrefix(f, dir+string(filepath.Separator)) {
			own = append(own, f)
		}
	}
	return own
}

// pkgPath is the path compile's package look-up orders a tree's
// packages by (the first of a duplicate name wins).
func pkgPath(wd string, a *Agent) string { return compile.JoinPath(absFrom(wd, a.Dir), "package.json") }

// findDuplicates reports, at the name of each package.json whose name
// another package of the tree has too, the others and which one a child
// look-up resolves to.
func (ix *Index) findDuplicates(dups map[string][]int) {
	where := func(i int) string {
		if r := ix.Agents[i].Rel; r != "" {
			return r
		}
		return ix.Agents[i].Dir
	}
	for name, is := range dups {
		hash := compile.HashValue(name) // once for every copy of the name
		for _, i := range is {
			a := &ix.Agents[i]
			// the first few others, and how many (not a list of every
			// other copy for every copy: n² strings for n copies)
			var named [duplicatesNamed]string
			others := named[:0]
			for _, j := range is {
				if j != i && len(others) < duplicatesNamed {
					others = append(others, where(j))
				}
			}
			first := "" // the copy look-ups resolve to, when not this one
			if is[0] != i {
				first = where(is[0])
			}
			c := Child{Package: name, File: a.PackageFile, Pointer: "/name", Line: a.NameLine, Column: a.NameColumn}
			ix.addHashed(i, lint.RuleWorkspaceDuplicatePackage, c, duplicateMessage(where(i), name, others, len(is)-1, first), hash)
		}
	}
}

// duplicatesNamed is how many of the other packages of a duplicate name a
// finding names: each of n copies names the others, so naming all of them
// made n² paths (a tree of 400 copies: 250 MB of JSON report).
const duplicatesNamed = 3

// duplicateMessage is the message of a duplicate package name: the
// package in self is named name, as are n others, the first few of them
// in others (duplicatesNamed at most); first is the copy child look-ups
// resolve to, "" when it is self. Written in one buffer of its length
// (issue 39): it was made of four strings joined into a fifth,
//
//	also := "the package in " + others[0] + " is" // n > 1: "the packages in " + namedSome(others, n) + " are"
//	res := "child look-ups resolve to this one" // first != "": "child look-ups resolve to " + first + ", never to this one"
//	self + " is named " + name + ", and " + also + " named so too: " + res
func duplicateMessage(self, name string, others []string, n int, first string) string {
	var more string
	if n > duplicatesNamed {
		more = strconv.Itoa(n - duplicatesNamed)
	}
	size := len(self) + len(" is named ") + len(name) + len(", and ") + len("the packages in ") + len(" are") + len(" named so too: ") +
		len("child look-ups resolve to ") + len(first) + len(", never to this one") + len(" and  more") + len(more)
	for _, o := range others {
		size += len(o) + len(", ")
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(self)
	b.WriteString(" is named ")
	b.WriteString(name)
	b.WriteString(", and ")
	if n > 1 {
		b.WriteString("the packages in ")
		for k, o := range others {
			if k > 0 {
				b.WriteString(", ")
			}
			b.WriteString(o)
		}
		if more != "" {
			b.WriteString(" and ")
			b.WriteString(more)
			b.WriteString(" more")
		}
		b.WriteString(" are")
	} else {
		b.WriteString("the package in ")
		b.WriteString(others[0])
		b.WriteString(" is")
	}
	b.WriteString(" named so too: ")
	if first == "" {
		b.WriteString("child look-ups resolve to this one")
	} else {
		b.WriteString("child look-ups resolve to ")
		b.WriteString(first)
		b.WriteString(", never to this one")
	}
	return b.String()
}

// findChildProblems reports each child reference that names no package
// of the tree, and each declared range the child's version does not satisfy.
func (ix *Index) findChildProblems() {
	for i, es := range ix.edges {
		for _, e := range es {
			c := e.child
			if e.to < 0 {
				opt := ""
				if c.Optional {
					opt = " (an optional dependency)"
				}
				ix.add(i, lint.RuleWorkspaceChildMissing, c, fmt.Sprintf("%s names the child agent %s%s, but no package of the tree %s is named so",
					c.Via, c.Package, opt, displayRoot(ix.Root)))
				continue
			}
			if c.Range == "" {
				continue
			}
			child := &ix.Agents[e.to]
			r, ok := ParseRange(c.Range)
			if !ok {
				ix.add(i, lint.RuleWorkspaceChildVersionMismatch, c, fmt.Sprintf("%s: the version range %q of %s is not one oastui can read (npm ranges: ^ ~ x * comparators, hyphen ranges, ||, exact versions)",
					c.Via, c.Range, c.Package))
				continue
			}
			v, ok := ParseVersion(child.Version)
			switch {
			case child.Version == "":
				ix.add(i, lint.RuleWorkspaceChildVersionMismatch, c, fmt.Sprintf("%s accepts %s %s, but its package.json (%s) has no version",
					c.Via, c.Package, c.Range, child.Rel))
			case !ok:
				ix.add(i, lint.RuleWorkspaceChildVersionMismatch, c, fmt.Sprintf("%s accepts %s %s, but its version %q is not a semantic version",
					c.Via, c.Package, c.Range, child.Version))
			case !r.Allows(v):
				ix.add(i, lint.RuleWorkspaceChildVersionMismatch, c, fmt.Sprintf("%s accepts %s %s, but the tree has %s@%s (%s)",
					c.Via, c.Package, c.Range, c.Package, child.Version, child.Rel))
			}
		}
	}
}

// findCycles reports every edge that lies on a dependency cycle (Tarjan's
// strongly connected components over the resolved child edges), with the
// cycle it closes.
func (ix *Index) findCycles() {
	n := len(ix.Agents)
	index, low := make([]int, n), make([]int, n)
	on := make([]bool, n)
	comp := make([]int, n)
	for i := range index {
		index[i], comp[i] = -1, -1
	}
	var stack []int
	next, ncomp := 0, 0
	var sizes []int
	var strong func(v int)
	strong = func(v int) {
		index[v], low[v] = next, next
		next++
		stack = append(stack, v)
		on[v] = true
		for _, e := range ix.edges[v] {
			w := e.to
			if w < 0 {
				continue
			}
			if index[w] < 0 {
				strong(w)
				low[v] = min(low[v], low[w])
			} else if on[w] {
				low[v] = min(low[v], index[w])
			}
		}
		if low[v] == index[v] {
			size := 0
			for {
				w := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				on[w] = false
				comp[w] = ncomp
				size++
				if w == v {
					break
				}
			}
			sizes = append(sizes, size)
			ncomp++
		}
	}
	for v := range n {
		if index[v] < 0 {
			strong(v)
		}
	}
	for v := range n {
		reported := map[int]bool{}
		for _, e := range ix.edges[v] {
			w := e.to
			if w < 0 || comp[w] != comp[v] || reported[w] {
				continue
			}
			if w == v && sizes[comp[v]] == 1 {
				continue // an agent naming itself is its own subflow (flowCalls skips those)
			}
			reported[w] = true
			path := ix.cyclePath(w, v, comp)
			names := make([]string, 0, len(path)+1)
			names = append(names, ix.Agents[v].ID())
			for _, p := range path {
				names = append(names, ix.Agents[p].ID())
			}
			ix.add(v, lint.RuleWorkspaceDependencyCycle, e.child, fmt.Sprintf("%s names %s, which leads back: dependency cycle %s",
				e.child.Via, e.child.Package, strings.Join(names, " → ")))
		}
	}
}

// cyclePath is the shortest path from → … → to within one component
// (breadth-first, children in source order), from included.
func (ix *Index) cyclePath(from, to int, comp []int) []int {
	prev := map[int]int{from: -1}
	queue := []int{from}
	for h := 0; h < len(queue); h++ {
		v := queue[h]
		if v == to {
			break
		}
		for _, e := range ix.edges[v] {
			w := e.to
			if w < 0 || comp[w] != comp[from] {
				continue
			}
			if _, seen := prev[w]; !seen {
				prev[w] = v
				queue = append(queue, w)
			}
		}
	}
	var path []int
	for v := to; v >= 0; v = prev[v] {
		path = append(path, v)
		if v == from {
			break
		}
	}
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	return path
}

func displayRoot(root string) string {
	if root == "" {
		return ""
	}
	return filepath.ToSlash(filepath.Clean(root)) + "/"
}

// AgentFindings are the workspace findings of agent i.
func (ix *Index) AgentFindings(i int) []compile.Finding { return ix.perAgent[i] }

// Lookup returns the index of the agent at dir (any spelling of its path).
func (ix *Index) Lookup(dir string) (int, bool) {
	i, ok := ix.byDir[absPath(dir)]
	return i, ok
}

// ByName returns the index of the agent whose package.json name is name.
func (ix *Index) ByName(name string) (int, bool) {
	i, ok := ix.byName[name]
	return i, ok
}

// Dependents are the agents that name agent i's package as a child
// (directly), sorted by index.
func (ix *Index) Dependents(i int) []int {
	a := &ix.Agents[i]
	if a.Package == "" {
		return nil
	}
	return ix.dependents[a.Package]
}

// Children are the resolved children of agent i (indices), in order,
// without repeats; missing ones are left out.
func (ix *Index) Children(i int) []int {
	var out []int
	seen := map[int]bool{}
	for _, e := range ix.edges[i] {
		if e.to >= 0 && !seen[e.to] {
			seen[e.to] = true
			out = append(out, e.to)
		}
	}
	return out
}
