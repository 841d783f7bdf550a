package workspace

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/clipperhouse/displaywidth"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/present"
)

// RootID is the id of the call graph's synthetic first node (the tree
// itself), from which the layout starts: it points at every agent that no
// other agent calls.
const RootID = "workspace:root"

// CallGraph is the workspace's call graph as a flowgraph graph, so that the
// flow graph's layered layout, drawing, DOT and Mermaid export apply: one
// node per agent that calls or is called by another (agents standing alone
// are counted in Alone), one node per child package the tree does not have
// (kind "missing"), an edge per dependent → child (several references to
// one child are one edge), a root node pointing at the agents nobody calls.
// Node counts are the rows' (review + workspace findings); an edge of a
// version the dependent does not accept is labelled with the range.
type CallGraph struct {
	Graph *flowgraph.Graph
	Agent []int // per graph node: the agent index, -1 for the root and missing packages
	Alone int   // agents with no child and no dependent, not drawn
}

// CallGraph builds the call graph of the index.
func (ix *Index) CallGraph() *CallGraph {
	rows := ix.Rows()
	cg := &CallGraph{}
	var nodes []*flowgraph.Node
	var edges []flowgraph.Edge
	root := &flowgraph.Node{ID: RootID, Name: clean(rootName(ix.Root)), Kind: flowgraph.KindStart}
	nodes = append(nodes, root)
	cg.Agent = append(cg.Agent, -1)

	linked := make([]bool, len(ix.Agents))
	for i := range ix.Agents {
		if len(ix.edges[i]) > 0 || len(ix.Dependents(i)) > 0 && ix.resolved(i) {
			linked[i] = true
		}
	}
	short := ix.shortNames()
	nodeOf := map[int]string{}
	for i := range ix.Agents {
		if !linked[i] {
			cg.Alone++
			continue
		}
		a := &ix.Agents[i]
		r := &rows[i]
		id, name := a.ID(), short(a.ID())
		if !ix.resolved(i) { // a duplicate name no look-up resolves to: its own node
			id, name = id+" ("+a.Rel+")", name+" ("+a.Rel+")"
		}
		n := &flowgraph.Node{ID: id, Name: clean(name), Kind: flowgraph.KindOther, ComponentType: a.Kind(),
			Blockers: r.Blockers, Warnings: r.Warnings, Suggestions: r.Suggestions, Reachable: true}
		if a.Problem != Readable {
			n.ComponentType = a.Problem.String()
			n.Blockers = max(n.Blockers, 1)
		}
		nodes = append(nodes, n)
		cg.Agent = append(cg.Agent, i)
		nodeOf[i] = n.ID
	}
	// Missing packages, in name order; a missing node is marked with the
	// worst of the findings the config left about the references to it
	// (none when every one is ignored or off), an edge is labelled with
	// the range its reference needs when a version mismatch is left.
	missing := map[string]*flowgraph.Node{}
	var missingNames []string
	mismatch := map[[2]int]string{}
	for i, es := range ix.edges {
		for _, e := range es {
			if e.to < 0 {
				if _, ok := missing[e.child.Package]; !ok {
					missing[e.child.Package] = &flowgraph.Node{ID: "missing:" + e.child.Package,
						Name: clean(short(strings.TrimPrefix(e.child.Package, "@"))), Kind: flowgraph.KindOther, ComponentType: "missing"}
					missingNames = append(missingNames, e.child.Package)
				}
				if f := e.missing; f != nil {
					// one mark of the worst severity left: the node is one missing package
					n := missing[e.child.Package]
					switch {
					case f.Severity == compile.Blocker || n.Blockers > 0:
						n.Blockers, n.Warnings, n.Suggestions = 1, 0, 0
					case f.Severity == compile.Warning || n.Warnings > 0:
						n.Warnings, n.Suggestions = 1, 0
					default:
						n.Suggestions = 1
					}
				}
				continue
			}
			if e.mismatch != nil && e.child.Range != "" {
				mismatch[[2]int{i, e.to}] = e.child.Range
			}
		}
	}
	sort.Strings(missingNames)
	for _, name := range missingNames {
		nodes = append(nodes, missing[name])
		cg.Agent = append(cg.Agent, -1)
	}
	called := map[string]bool{}
	for i := range ix.Agents {
		if !linked[i] {
			continue
		}
		seen := map[string]bool{}
		for _, e := range ix.edges[i] {
			to := ""
			if e.to >= 0 {
				to = nodeOf[e.to]
			} else {
				to = missing[e.child.Package].ID
			}
			if seen[to] {
				continue
			}
			seen[to] = true
			called[to] = true
			ed := flowgraph.Edge{From: nodeOf[i], To: to}
			if e.to >= 0 {
				if rg, ok := mismatch[[2]int{i, e.to}]; ok {
					ed.Branch = clean("needs " + rg)
				}
			}
			edges = append(edges, ed)
		}
	}
	// The root points at every drawn agent nobody calls; an agent on a
	// cycle nobody outside calls is reached through the first of its cycle.
	var rootEdges []flowgraph.Edge
	for _, n := range nodes[1:] {
		if !called[n.ID] && !strings.HasPrefix(n.ID, "missing:") {
			rootEdges = append(rootEdges, flowgraph.Edge{From: RootID, To: n.ID})
		}
	}
	reach := reachFrom(nodes, append(rootEdges, edges...))
	for _, n := range nodes[1:] {
		if !reach[n.ID] {
			rootEdges = append(rootEdges, flowgraph.Edge{From: RootID, To: n.ID})
			reach = reachFrom(nodes, append(rootEdges, edges...))
		}
	}
	cg.Graph = flowgraph.New(RootID, root.Name, RootID, nodes, append(rootEdges, edges...))
	return cg
}

// resolved says a look-up of agent i's package name resolves to it (false
// for the other packages of a duplicate name).
func (ix *Index) resolved(i int) bool {
	j, ok := ix.byName[ix.Agents[i].Package]
	return !ok || j == i
}

func reachFrom(nodes []*flowgraph.Node, edges []flowgraph.Edge) map[string]bool {
	out := map[string][]string{}
	for _, e := range edges {
		out[e.From] = append(out[e.From], e.To)
	}
	seen := map[string]bool{RootID: true}
	queue := []string{RootID}
	for h := 0; h < len(queue); h++ {
		for _, t := range out[queue[h]] {
			if !seen[t] {
				seen[t] = true
				queue = append(queue, t)
			}
		}
	}
	return seen
}

func rootName(root string) string {
	if root == "" {
		return "workspace"
	}
	return displayRoot(root)
}

// clean is the one presentation function for text from agent files.
func clean(s string) string { return present.Text(s) }

// Text is the call graph drawn for a terminal (`oastui graph DIR
// --workspace`): a title line, the drawing, the agents standing alone and
// the workspace findings.
func (ix *Index) Text(opts flowgraph.Options) string {
	text, _ := ix.TextFit(opts, 0)
	return text
}

// TextFit is Text for a terminal width columns wide (0: any width): when
// the boxes and arrows would be wider, the calls are printed as an
// indented tree instead (each agent under the agents that call it; an
// agent already shown is named again without its calls), every line
// within width. drawn is the width of the boxes-and-arrows drawing (what
// the note under a tree reports).
func (ix *Index) TextFit(opts flowgraph.Options, width int) (text string, drawn int) {
	cg := ix.CallGraph()
	var b strings.Builder
	calls := 0
	for _, e := range cg.Graph.Edges {
		if e.From != RootID {
			calls++
		}
	}
	fmt.Fprintf(&b, "workspace %s  (%d agents, %d drawn, %d calls)\n\n", clean(rootName(ix.Root)), len(ix.Agents), len(cg.Graph.Nodes)-1-countMissing(cg), calls)
	c, _ := flowgraph.Render(cg.Graph, opts)
	drawn = c.W
	if width > 0 && c.W > width {
		b.WriteString(callTree(cg.Graph, opts.ASCII, width))
	} else {
		b.WriteString(c.String())
	}
	if cg.Alone > 0 {
		if cg.Alone == 1 {
			b.WriteString("\n1 agent calls no other agent and no agent calls it (not drawn)\n")
		} else {
			fmt.Fprintf(&b, "\n%d agents call no other agent and no agent calls them (not drawn)\n", cg.Alone)
		}
	}
	if len(ix.Findings) > 0 {
		b.WriteString("\n")
		for _, f := range ix.Findings {
			fmt.Fprintf(&b, "%s:%d:%d: %s: %s [%s]\n", clean(f.File), f.Line, f.Column, f.Severity, clean(f.Message), f.Code)
		}
	}
	return b.String(), drawn
}

// callTree prints the call graph g as an indented tree from the agents
// its root points at, each line at most width columns: the agent's name
// (cut first when a line is too long), its kind, its blocker and warning
// counts and, on a call whose version the caller does not accept, the
// edge's label. An agent met again (called by two agents, or a cycle) is
// named with "(see above)" instead of its calls again.
// CallTree is the call graph as an indented tree (each orchestrator, the
// agents it calls below it), every line cut to width: what TextFit prints,
// and the TUI's Graph tab shows, when the drawing is wider than width.
func (ix *Index) CallTree(ascii bool, width int) string {
	return callTree(ix.CallGraph().Graph, ascii, width)
}

func callTree(g *flowgraph.Graph, ascii bool, width int) string {
	idx := map[string]int{}
	for i, n := range g.Nodes {
		idx[n.ID] = i
	}
	out := map[string][]flowgraph.Edge{}
	for _, e := range g.Edges {
		out[e.From] = append(out[e.From], e)
	}
	tee, last, bar, arrow, blk, wrn, ell := "├─", "└─", "│ ", "→ ", " ✖", " ⚠", "…"
	if ascii {
		tee, last, bar, arrow, blk, wrn, ell = "+-", "`-", "| ", "> ", " x", " !", "..."
	}
	var b strings.Builder
	shown := map[string]bool{}
	var walk func(id, prefix, branch, edgeLabel string)
	walk = func(id, prefix, branch, edgeLabel string) {
		i, ok := idx[id]
		if !ok {
			return
		}
		n := g.Nodes[i]
		tail := "  " + n.ComponentType
		if n.Blockers > 0 {
			tail += blk + strconv.Itoa(n.Blockers)
		}
		if n.Warnings > 0 {
			tail += wrn + strconv.Itoa(n.Warnings)
		}
		if edgeLabel != "" {
			tail += "  (" + edgeLabel + ")"
		}
		again := shown[id] && len(out[id]) > 0
		head := prefix + branch
		name := n.Name
		if again {
			head += name + " (see above)" // before the name is cut: it says why the calls are missing
			name = ""
		}
		if room := width - displaywidth.String(head) - displaywidth.String(tail); displaywidth.String(name) > room {
			name = cutWidth(name, max(4, room), ell)
		}
		b.WriteString(cutWidth(head+name+tail, width, ell) + "\n")
		if again || shown[id] {
			return
		}
		shown[id] = true
		kids := out[id]
		for k, e := range kids {
			next, br := prefix, tee+arrow
			if branch != "" {
				next = prefix + bar + "  "
				if strings.HasPrefix(branch, last) {
					next = prefix + "    "
				}
			}
			if k == len(kids)-1 {
				br = last + arrow
			}
			walk(e.To, next, br, e.Branch)
		}
	}
	for k, e := range out[RootID] {
		if k > 0 {
			b.WriteString("\n")
		}
		walk(e.To, "", "", "")
	}
	return b.String()
}

// cutWidth cuts s to at most w display columns, ending in ell when cut.
func cutWidth(s string, w int, ell string) string {
	if displaywidth.String(s) <= w {
		return s
	}
	keep := w - displaywidth.String(ell)
	var b strings.Builder
	used := 0
	for _, r := range s {
		rw := displaywidth.Rune(r)
		if used+rw > keep {
			break
		}
		b.WriteRune(r)
		used += rw
	}
	return b.String() + ell
}

func countMissing(cg *CallGraph) int {
	n := 0
	for _, x := range cg.Graph.Nodes {
		if strings.HasPrefix(x.ID, "missing:") {
			n++
		}
	}
	return n
}

// shortNames drops the vendor from node names when every agent of the
// tree and every missing child share one vendor (the title line names it).
func (ix *Index) shortNames() func(string) string {
	vendor := ""
	same := true
	check := func(id string) {
		v, _, ok := strings.Cut(id, "/")
		if !ok {
			same = false
			return
		}
		if vendor == "" {
			vendor = v
		} else if v != vendor {
			same = false
		}
	}
	for i := range ix.Agents {
		check(ix.Agents[i].ID())
		for _, c := range ix.Agents[i].Children {
			check(strings.TrimPrefix(c.Package, "@"))
		}
	}
	if !same || vendor == "" {
		return func(s string) string { return s }
	}
	return func(s string) string { _, slug, _ := strings.Cut(s, "/"); return slug }
}
