package diff

import (
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/present"
	"github.com/oastui/oastui/workspace"
)

// nodeSubject names a node across revisions: its flow ("" for the
// top-level one) and its id.
func nodeSubject(flow, id string) string {
	if flow == "" {
		return id
	}
	return flow + "/" + id
}

// graph: nodes added, removed, renamed, retyped, moved; control edges,
// branches and data edges, per flow (matched by flow id).
func (d *differ) graph() {
	if !d.old.ok || !d.new.ok {
		return
	}
	keys := map[string]bool{}
	for k := range d.old.flows {
		keys[k] = true
	}
	for k := range d.new.flows {
		keys[k] = true
	}
	grouped := d.subflowGroups(keys)
	for _, fk := range sortedKeys(keys) {
		if grouped[fk] {
			continue // one change of its FlowNode names its nodes
		}
		of, nf := d.old.flows[fk], d.new.flows[fk]
		var oids, nids []string
		if of != nil {
			oids = of.sortedIDs(nf)
		}
		if nf != nil {
			nids = nf.sortedIDs(of)
		}
		gone := map[string]bool{}
		// the sides share one sort: the same ids, each at the same place
		same := len(oids) > 0 && len(nids) == len(oids) && &nids[0] == &oids[0]
		for j, id := range oids {
			o := of.nodeAt(j, id)
			var n *flowgraph.Node
			if same {
				n = nf.nodeAt(j, id)
			} else {
				n = nf.node(id)
			}
			ok := n != nil
			subj := nodeSubject(fk, id)
			if !ok {
				gone[id] = true
				c := d.add(CheckNodeRemoved, subj, id, o.ComponentType, "",
					fmt.Sprintf("%s %s (%s) removed", kindWord(o), quote(o.Name), id), pos(d.old.flow, o.Pointer), nil)
				d.groupSubflow(c, d.old, o, true)
				continue
			}
			var cov [2]covered // on the stack: spill copies them
			if o.Name != n.Name && !d.spill(CheckNodeRenamed, CheckNodeRenamed.Level, d.renameCovers(cov[:0], o.Pointer, n.Pointer)...) {
				d.add(CheckNodeRenamed, subj, id, o.Name, n.Name,
					fmt.Sprintf("node %s renamed from %s to %s", id, quote(o.Name), quote(n.Name)), pos(d.old.flow, o.Pointer), pos(d.new.flow, n.Pointer))
			}
			if o.ComponentType != n.ComponentType {
				d.add(CheckNodeTypeChanged, subj, id, o.ComponentType, n.ComponentType,
					fmt.Sprintf("node %s is a %s now (was a %s)", id, n.ComponentType, o.ComponentType), pos(d.old.flow, o.Pointer), pos(d.new.flow, n.Pointer))
			}
		}
		for _, id := range nids {
			if same {
				break // every id is the old side's too
			}
			if of.node(id) == nil {
				n := nf.node(id)
				gone[id] = true
				c := d.add(CheckNodeAdded, nodeSubject(fk, id), id, "", n.ComponentType,
					fmt.Sprintf("%s %s (%s) added", kindWord(n), quote(n.Name), id), nil, pos(d.new.flow, n.Pointer))
				d.groupSubflow(c, d.new, n, false)
			}
		}
		d.edges(fk, of, nf, gone)
	}
	d.moved()
}

// renameCovers is what a rename of the node at op (old side) and np (new
// side) explains, coveredAt of each side, appended to out. A node renamed
// in place has one pointer on both sides: the places are made once, for
// the old side, and the new side takes them.
//
// In place, the rename's one field ("/name", fieldsOf) is written at once:
// no look-up of the check's fields, and the place is cut from one string
// the renames share (names) instead of a concatenation each (33,000 of a
// flow with every node renamed).
func (d *differ) renameCovers(out []covered, op, np string) []covered {
	if np != op {
		c := coveredAt(out, CheckNodeRenamed.ID, true, d.old.flow.Path, op)
		return coveredAt(c, CheckNodeRenamed.ID, false, d.new.flow.Path, np)
	}
	p := op
	if isNodePointer(op) {
		from := d.names.Len()
		d.names.WriteString(op)
		d.names.WriteString("/name")
		p = d.names.String()[from:] // the builder never writes over what it wrote
	}
	return append(out, covered{true, d.old.flow.Path, p}, covered{false, d.new.flow.Path, p})
}

func kindWord(n *flowgraph.Node) string {
	if n.ComponentType != "" {
		return n.ComponentType
	}
	return "node"
}

// edges compares control edges by (from, branch) and data edges as a set;
// edges leaving a node only one side has are that node's change.
func (d *differ) edges(fk string, of, nf *flowView, gone map[string]bool) {
	if sameEdges(of, nf) {
		return // every edge as it was, in the same order: nothing to key or sort
	}
	type ctl struct {
		to  []string
		ptr string
	}
	read := func(f *flowView) (map[string]*ctl, map[string]string) {
		if f == nil {
			return map[string]*ctl{}, map[string]string{}
		}
		c, dd := make(map[string]*ctl, len(f.g.Edges)), make(map[string]string, len(f.g.Data))
		for _, e := range f.g.Edges {
			k := e.From + "\x00" + e.Branch
			if c[k] == nil {
				c[k] = &ctl{ptr: e.Pointer}
			}
			c[k].to = append(c[k].to, e.To)
		}
		for _, x := range c {
			sort.Strings(x.to)
		}
		for _, e := range f.g.Data {
			dd[e.From+"."+e.Output+" → "+e.To+"."+e.Input] = e.Pointer
		}
		return c, dd
	}
	oc, od := read(of)
	nc, nd := read(nf)
	all := make(map[string]bool, max(len(oc), len(nc)))
	for k := range oc {
		all[k] = true
	}
	for k := range nc {
		all[k] = true
	}
	for _, k := range sortedKeys(all) {
		from, branch, _ := strings.Cut(k, "\x00")
		if gone[from] {
			continue
		}
		o, n := oc[k], nc[k]
		subj := nodeSubject(fk, from)
		if branch != "" {
			subj += " branch " + branch
		}
		switch {
		case o != nil && n != nil:
			ov, nv := strings.Join(o.to, ", "), strings.Join(n.to, ", ")
			if ov != nv {
				what := "the control edge from " + from
				if branch != "" {
					what = "branch " + quote(branch) + " of " + from
				}
				d.add(CheckControlEdgeRewired, subj, from, ov, nv, fmt.Sprintf("%s leads to %s now (was %s)", what, nv, ov),
					pos(d.old.flow, o.ptr), pos(d.new.flow, n.ptr))
			}
		case n != nil:
			nv := strings.Join(n.to, ", ")
			if branch != "" {
				d.add(CheckBranchAdded, subj, from, "", nv, fmt.Sprintf("branch %s added to %s, leading to %s", quote(branch), from, nv), nil, pos(d.new.flow, n.ptr))
			} else {
				d.add(CheckControlEdgeAdded, subj, from, "", nv, fmt.Sprintf("%s now continues to %s", from, nv), nil, pos(d.new.flow, n.ptr))
			}
		default:
			ov := strings.Join(o.to, ", ")
			if branch != "" {
				d.add(CheckBranchRemoved, subj, from, ov, "", fmt.Sprintf("branch %s of %s removed (it led to %s)", quote(branch), from, ov), pos(d.old.flow, o.ptr), nil)
			} else {
				d.add(CheckControlEdgeRemoved, subj, from, ov, "", fmt.Sprintf("%s no longer continues to %s", from, ov), pos(d.old.flow, o.ptr), nil)
			}
		}
	}
	live := func(m map[string]string) map[string]string {
		out := map[string]string{}
		for k, p := range m {
			if !edgeOfGone(k, gone) {
				out[k] = p
			}
		}
		return out
	}
	res, used := resourcedEdges(live(od), live(nd))
	for _, r := range res {
		what := fmt.Sprintf("input %s of %s", r.input, r.to)
		if n := nf.node(r.to); n != nil && n.Kind == flowgraph.KindEnd {
			what = "output " + r.input
			if fk != "" {
				what += " of flow " + fk
			}
		}
		d.add(CheckDataEdgeResourced, nodeSubject(fk, r.to+"."+r.input)+" source", r.to, strings.Join(r.was, ", "), strings.Join(r.from, ", "),
			fmt.Sprintf("%s now from %s (was from %s)", what, strings.Join(r.from, ", "), strings.Join(r.was, ", ")),
			pos(d.old.flow, r.oldPtr), pos(d.new.flow, r.nPtr))
	}
	for _, k := range sortedKeys(od) {
		if used[k] {
			continue
		}
		if _, ok := nd[k]; !ok && !edgeOfGone(k, gone) {
			d.add(CheckDataEdgeRemoved, nodeSubject(fk, k), edgeTo(k), k, "", "data edge "+k+" removed", pos(d.old.flow, od[k]), nil)
		}
	}
	for _, k := range sortedKeys(nd) {
		if used[k] {
			continue
		}
		if _, ok := od[k]; !ok && !edgeOfGone(k, gone) {
			d.add(CheckDataEdgeAdded, nodeSubject(fk, k), edgeTo(k), "", k, "data edge "+k+" added", nil, pos(d.new.flow, nd[k]))
		}
	}
}

// sameEdges: both sides have the flow, and its control edges (ends and
// branch) and data edges (ends and ports) are the same, in the same order
// (where edges differs nothing; the pointers it would only position with).
func sameEdges(of, nf *flowView) bool {
	if of == nil || nf == nil || len(of.g.Edges) != len(nf.g.Edges) || len(of.g.Data) != len(nf.g.Data) {
		return false
	}
	for i, e := range of.g.Edges {
		if f := nf.g.Edges[i]; e.From != f.From || e.To != f.To || e.Branch != f.Branch {
			return false
		}
	}
	for i, e := range of.g.Data {
		if f := nf.g.Data[i]; e.From != f.From || e.To != f.To || e.Output != f.Output || e.Input != f.Input {
			return false
		}
	}
	return true
}

// edgeOfGone: a data edge "a.x → b.y" touching a node only one side has.
func edgeOfGone(k string, gone map[string]bool) bool {
	from, rest, _ := strings.Cut(k, " → ")
	a, _, _ := strings.Cut(from, ".")
	b, _, _ := strings.Cut(rest, ".")
	return gone[a] || gone[b]
}

func edgeTo(k string) string {
	_, rest, _ := strings.Cut(k, " → ")
	b, _, _ := strings.Cut(rest, ".")
	return b
}

// moved: the nodes both sides have, in compiled step order; a node off
// the longest common subsequence of the two orders has moved.
func (d *differ) moved() {
	if sameOrderInputs(d.old, d.new) {
		return // the same orders: every node in its place
	}
	d.old.readOrder()
	d.new.readOrder()
	oldOrder, newOrder := d.old.order, d.new.order
	if len(oldOrder) == 0 || len(newOrder) == 0 {
		oldOrder, newOrder = d.old.bfs, d.new.bfs // one side did not compile: compare like with like
	}
	if slices.Equal(oldOrder, newOrder) {
		return // every node in its place
	}
	inNew := make(map[string]int, len(newOrder))
	for i, k := range newOrder {
		inNew[k] = i
	}
	var common []string
	for _, k := range oldOrder {
		if _, ok := inNew[k]; ok {
			common = append(common, k)
		}
	}
	if len(common) < 2 {
		return
	}
	keep := keptInOrder(common, inNew)
	oldIdx := make(map[string]int, len(oldOrder))
	for i, k := range oldOrder {
		oldIdx[k] = i
	}
	for i, k := range common {
		if keep[i] {
			continue
		}
		fk, id, _ := strings.Cut(k, "/")
		o, n := d.old.flows[fk], d.new.flows[fk]
		var op, np *Pos
		if on := o.node(id); on != nil {
			op = pos(d.old.flow, on.Pointer)
		}
		if nn := n.node(id); nn != nil {
			np = pos(d.new.flow, nn.Pointer)
		}
		before, after := neighbours(oldOrder, oldIdx[k], inNew), neighbours(newOrder, inNew[k], nil)
		d.add(CheckNodeMoved, nodeSubject(fk, id), id, before, after,
			fmt.Sprintf("node %s runs at another place in the step order: after %s now (was after %s)", id, after, before), op, np)
	}
}

// neighbours names the node before position i of order (among the nodes
// in keep when given).
func neighbours(order []string, i int, keep map[string]int) string {
	for j := i - 1; j >= 0; j-- {
		if keep != nil {
			if _, ok := keep[order[j]]; !ok {
				continue
			}
		}
		_, id, _ := strings.Cut(order[j], "/")
		return id
	}
	return "(start)"
}

// keptInOrder marks the nodes of common (in old order) that keep their
// relative order in the new one: a longest subsequence increasing in the
// new positions. Among the longest, the one that leaves out the smallest
// keys is chosen, so the choice depends only on which pairs of nodes
// swapped, not on the direction of the diff (diff(B, A) names the same
// nodes moved).
func keptInOrder(common []string, inNew map[string]int) []bool {
	seq := make([]int, len(common))
	for i, k := range common {
		seq[i] = inNew[k]
	}
	skip := make([]bool, len(seq))
	best := lisLen(seq, skip)
	if len(seq) > 300 { // quadratic below: keep long flows fast
		return lisKeep(seq)
	}
	order := make([]int, len(seq))
	for i := range order {
		order[i] = i
	}
	sort.Slice(order, func(a, b int) bool { return common[order[a]] < common[order[b]] })
	for _, i := range order {
		skip[i] = true
		if lisLen(seq, skip) != best {
			skip[i] = false
		}
	}
	keep := make([]bool, len(seq))
	for i := range keep {
		keep[i] = !skip[i]
	}
	return keep
}

// lisLen is the length of the longest increasing subsequence of seq
// without the skipped members.
func lisLen(seq []int, skip []bool) int {
	var tails []int
	for i, x := range seq {
		if skip[i] {
			continue
		}
		j := sort.SearchInts(tails, x)
		if j == len(tails) {
			tails = append(tails, x)
		} else {
			tails[j] = x
		}
	}
	return len(tails)
}

// lisKeep marks the members of one longest increasing subsequence of seq.
func lisKeep(seq []int) []bool {
	n := len(seq)
	tails, prev := []int{}, make([]int, n)
	for i, x := range seq {
		j := sort.Search(len(tails), func(k int) bool { return seq[tails[k]] >= x })
		if j > 0 {
			prev[i] = tails[j-1]
		} else {
			prev[i] = -1
		}
		if j == len(tails) {
			tails = append(tails, i)
		} else {
			tails[j] = i
		}
	}
	keep := make([]bool, n)
	if len(tails) > 0 {
		for i := tails[len(tails)-1]; i >= 0; i = prev[i] {
			keep[i] = true
		}
	}
	return keep
}

// contract: the compiled input and output schemas, and the artifacts.
func (d *differ) contract() {
	if !d.old.ok || !d.new.ok {
		return
	}
	d.artifacts()
	if d.old.s.Compiled == nil || d.new.s.Compiled == nil {
		return
	}
	for _, name := range unionKeys(d.old.inputs, d.new.inputs) {
		o, inOld := d.old.inputs[name]
		n, inNew := d.new.inputs[name]
		op, np := d.portPos(d.old, o, inOld), d.portPos(d.new, n, inNew)
		subj := "input " + name
		var c *Change
		switch {
		case !inOld:
			if n.required && !n.hasDef {
				c = d.add(CheckInputAddedRequired, subj, "", "", portValue(n), fmt.Sprintf("required input %s added, without a default: every caller must supply it", quote(name)), nil, np)
			} else {
				c = d.add(CheckInputAdded, subj, "", "", portValue(n), fmt.Sprintf("optional input %s added", quote(name)), nil, np)
			}
		case !inNew:
			c = d.add(CheckInputRemoved, subj, "", portValue(o), "", fmt.Sprintf("input %s removed", quote(name)), op, nil)
		default:
			if o.typ != n.typ {
				c = d.add(CheckInputRetyped, subj, "", o.typ, n.typ, fmt.Sprintf("input %s is %s now (was %s)", quote(name), n.typ, o.typ), op, np)
				c.Port = name
			}
			oreq, nreq := o.required && !o.hasDef, n.required && !n.hasDef
			if !oreq && nreq {
				c = d.add(CheckInputMadeRequired, subj, "", "optional", "required", fmt.Sprintf("input %s is required now", quote(name)), op, np)
				c.Port = name
			} else if oreq && !nreq {
				c = d.add(CheckInputMadeOptional, subj, "", "required", "optional", fmt.Sprintf("input %s is optional now", quote(name)), op, np)
				c.Port = name
			}
			if o.constraints != n.constraints {
				c = d.add(CheckInputConstraintChanged, subj, "", o.constraints, n.constraints, fmt.Sprintf("input %s accepts %s now (was %s)", quote(name), orNone(n.constraints), orNone(o.constraints)), op, np)
				c.Port = name
				if gone, added, ok := enumChange(o.constraints, n.constraints); ok {
					switch {
					case len(gone) == 0:
						c.Level, c.Reason = Info, "widened: every value accepted before still is"
						c.Message = fmt.Sprintf("input %s accepts %s too now (a widened enum)", quote(name), strings.Join(added, ", "))
					default:
						c.Message = fmt.Sprintf("input %s no longer accepts %s (a narrowed enum)", quote(name), strings.Join(gone, ", "))
						if len(added) > 0 {
							c.Message += "; it accepts " + strings.Join(added, ", ") + " now"
						}
					}
				}
			}
			if o.presentation != n.presentation {
				c = d.add(CheckInputPresentationChanged, subj, "", o.presentation, n.presentation, fmt.Sprintf("input %s is presented as %s now (was %s)", quote(name), orNone(n.presentation), orNone(o.presentation)), op, np)
				c.Port = name
			}
			if o.def != n.def {
				c = d.add(CheckInputDefaultChanged, subj, "", o.def, n.def, fmt.Sprintf("input %s defaults to %s now (was %s)", quote(name), orNone(n.def), orNone(o.def)), op, np)
			}
		}
		if c != nil {
			c.Port = name
		}
	}
	for _, name := range unionKeys(d.old.outputs, d.new.outputs) {
		o, inOld := d.old.outputs[name]
		n, inNew := d.new.outputs[name]
		op, np := d.portPos(d.old, o, inOld), d.portPos(d.new, n, inNew)
		subj := "output " + name
		var c *Change
		switch {
		case !inOld:
			c = d.add(CheckOutputAdded, subj, "", "", n.typ, fmt.Sprintf("output %s added", quote(name)), nil, np)
		case !inNew:
			c = d.add(CheckOutputRemoved, subj, "", o.typ, "", fmt.Sprintf("output %s removed", quote(name)), op, nil)
		case o.typ != n.typ:
			c = d.add(CheckOutputRetyped, subj, "", o.typ, n.typ, fmt.Sprintf("output %s is %s now (was %s)", quote(name), n.typ, o.typ), op, np)
		}
		if c != nil {
			c.Port = name
		}
	}
}

// artifacts: what the agent materialises (EndNode output bindings,
// artifact_materialize nodes), read from the flow model.
func (d *differ) artifacts() {
	for _, k := range unionKeys(d.old.arts, d.new.arts) {
		o, inOld := d.old.arts[k]
		n, inNew := d.new.arts[k]
		subj := "artifact " + k
		switch {
		case !inOld:
			d.add(CheckArtifactAdded, subj, nodeOfKey(k), "", artValue(n), fmt.Sprintf("%s materialises %s now", trimFlow(k), artValue(n)), nil, pos(d.new.flow, n.ptr))
		case !inNew:
			d.add(CheckArtifactRemoved, subj, nodeOfKey(k), artValue(o), "", fmt.Sprintf("%s no longer materialises %s", trimFlow(k), artValue(o)), pos(d.old.flow, o.ptr), nil)
		case o.ext == n.ext && o.objType == "" && n.objType != "":
			c := d.add(CheckArtifactRetyped, subj, nodeOfKey(k), artValue(o), artValue(n), fmt.Sprintf("%s materialises %s now, pinned to object type %s", trimFlow(k), n.ext, n.objType), pos(d.old.flow, o.ptr), pos(d.new.flow, n.ptr))
			c.Level, c.Reason = Info, "a refinement: the same extension, now with a pinned object type"
		case artValue(o) != artValue(n):
			d.add(CheckArtifactRetyped, subj, nodeOfKey(k), artValue(o), artValue(n), fmt.Sprintf("%s materialises %s now (was %s)", trimFlow(k), artValue(n), artValue(o)), pos(d.old.flow, o.ptr), pos(d.new.flow, n.ptr))
		}
	}
}

func nodeOfKey(k string) string {
	_, rest, _ := strings.Cut(k, "/")
	id, _, _ := strings.Cut(rest, " ")
	return id
}

func artValue(a artifact) string {
	if a.objType != "" {
		return a.ext + " (" + a.objType + ")"
	}
	return a.ext
}

func orNone(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func portValue(p port) string {
	s := p.typ
	if p.required {
		s += " required"
	}
	if p.hasDef {
		s += " default " + p.def
	}
	return s
}

func (d *differ) portPos(v *sideView, p port, ok bool) *Pos {
	if !ok {
		return nil
	}
	if p.ptr != "" {
		return pos(v.flow, p.ptr)
	}
	return &Pos{File: v.flow.Path}
}

// unionKeys are the keys of a and b, sorted.
func unionKeys[V any](a, b map[string]V) []string {
	out := make([]string, 0, max(len(a), len(b)))
	for k := range a {
		out = append(out, k)
	}
	for k := range b {
		if _, both := a[k]; !both {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// differingGates are the keys, sorted, of the gates the approval check
// names a change of: approval on one side and not the other, or a value it
// compares that differs between the two (most steps of a large flow differ
// in none, and are left out before the keys are sorted). Each gate is read
// from its own side's walk and looked up once in the other's.
func differingGates(old, new *gateSet) []string {
	var out []string
	if sameGateKeys(old, new) {
		// the same keys in the same order: each gate against its pair, and
		// no gate is on one side only
		for i := range old.list {
			o, n := &old.list[i].g, &new.list[i].g
			if o.approval != n.approval || o.risk != n.risk || o.owner != n.owner || o.renderer != n.renderer || o.surface != n.surface {
				out = append(out, old.list[i].k)
			}
		}
		sort.Strings(out)
		return out
	}
	for i := range old.list {
		k, o := old.list[i].k, &old.list[i].g
		n, inNew := new.get(k)
		if o.approval != (inNew && n.approval) || inNew && (o.risk != n.risk || o.owner != n.owner || o.renderer != n.renderer || o.surface != n.surface) {
			out = append(out, k)
		}
	}
	for i := range new.list {
		if k, n := new.list[i].k, &new.list[i].g; n.approval {
			if _, inOld := old.place(k); !inOld {
				out = append(out, k)
			}
		}
	}
	sort.Strings(out)
	return out
}

// sameGateKeys says both sets list the same keys in the same order.
func sameGateKeys(a, b *gateSet) bool {
	if len(a.list) != len(b.list) {
		return false
	}
	for i := range a.list {
		if a.list[i].k != b.list[i].k {
			return false
		}
	}
	return true
}

// riskRank orders the riskClass values oastui knows; -1 for others.
func riskRank(s string) int {
	switch s {
	case "":
		return 0
	case "read_only":
		return 1
	case "write_safe":
		return 2
	case "draft_create", "draft_update":
		return 3
	case "write":
		return 4
	case "approval":
		return 5
	}
	for _, suf := range []string{"_send", "_publish", "_post", "_delete"} {
		if strings.HasSuffix(s, suf) {
			return 6
		}
	}
	return -1
}

// approval: requiresApproval, riskClass, hitlOwnedBy, renderers,
// a2uiSurfaceId per step (or gate node); gatedSteps; hitlScreens.
func (d *differ) approval() {
	if !d.old.ok || !d.new.ok || (d.old.s.Compiled == nil) != (d.new.s.Compiled == nil) {
		return // one side did not compile: its forced values are unknown
	}
	gpos := func(v *sideView, g gate, ok bool) *Pos {
		if !ok {
			return nil
		}
		if ptr := v.gatePtr(g); ptr != "" {
			return pos(v.flow, ptr)
		}
		return &Pos{File: v.flow.Path}
	}
	for _, k := range differingGates(&d.old.gates, &d.new.gates) {
		o, inOld := d.old.gates.get(k)
		n, inNew := d.new.gates.get(k)
		subj := "step " + k
		node := n.node
		if !inNew {
			node = o.node
		}
		oa, na := inOld && o.approval, inNew && n.approval
		op, np := gpos(d.old, o, inOld), gpos(d.new, n, inNew)
		switch {
		case oa && !na:
			msg := fmt.Sprintf("step %s no longer requires approval", k)
			if !inNew {
				msg = fmt.Sprintf("approval gate %s removed", k)
			}
			d.add(CheckApprovalRemoved, subj, node, "requires approval", "", msg, op, np)
		case !oa && na:
			msg := fmt.Sprintf("step %s requires approval now", k)
			if !inOld {
				msg = fmt.Sprintf("approval gate %s added", k)
			}
			d.add(CheckApprovalAdded, subj, node, "", "requires approval", msg, op, np)
		}
		if !inOld || !inNew {
			continue
		}
		if o.risk != n.risk {
			ro, rn := riskRank(o.risk), riskRank(n.risk)
			check := CheckRiskChanged
			switch {
			case ro < 0 || rn < 0:
			case rn < ro:
				check = CheckRiskLowered
			case rn > ro:
				check = CheckRiskRaised
			}
			d.add(check, subj, node, o.risk, n.risk, fmt.Sprintf("step %s riskClass %s now (was %s)", k, quote(n.risk), quote(o.risk)), op, np)
		}
		if o.owner != n.owner {
			d.add(CheckHitlOwnerChanged, subj, node, o.owner, n.owner, fmt.Sprintf("step %s gate owned by %s now (was %s)", k, quote(n.owner), quote(o.owner)), op, np)
		}
		if o.renderer != n.renderer {
			d.add(CheckRendererChanged, subj, node, o.renderer, n.renderer, fmt.Sprintf("step %s renderer %s now (was %s)", k, quote(n.renderer), quote(o.renderer)), op, np)
		}
		switch {
		case o.surface != "" && n.surface == "":
			c := d.add(CheckSurfaceRemoved, subj, node, o.surface, "", fmt.Sprintf("step %s lost its a2uiSurfaceId %s", k, quote(o.surface)), op, np)
			if n.approval && n.renderer != "" {
				c.Level, c.Reason = Warn, "the gate still requires approval and keeps its renderer "+n.renderer
			}
		case o.surface == "" && n.surface != "":
			d.add(CheckSurfaceAdded, subj, node, "", n.surface, fmt.Sprintf("step %s has a2uiSurfaceId %s now", k, quote(n.surface)), op, np)
		case o.surface != n.surface:
			d.add(CheckSurfaceChanged, subj, node, o.surface, n.surface, fmt.Sprintf("step %s a2uiSurfaceId %s now (was %s)", k, quote(n.surface), quote(o.surface)), op, np)
		}
	}
	for _, k := range unionKeys(d.old.gated, d.new.gated) {
		o, inOld := d.old.gated[k]
		n, inNew := d.new.gated[k]
		switch {
		case inOld && !inNew:
			d.add(CheckGatedStepRemoved, "gated step "+k, strings.Trim(k, `"`), canon(o.ToolName), "", fmt.Sprintf("gated step %s (%s) is no longer gated", k, canon(o.Label)), &Pos{File: d.old.flow.Path}, nil)
		case !inOld && inNew:
			d.add(CheckGatedStepAdded, "gated step "+k, strings.Trim(k, `"`), "", canon(n.ToolName), fmt.Sprintf("gated step %s (%s) is gated now", k, canon(n.Label)), nil, &Pos{File: d.new.flow.Path})
		}
	}
	if d.old.screens != d.new.screens {
		msg := "metadata.cinatra.hitlScreens changed"
		if ids := idChanges(d.old.screens, d.new.screens); ids != "" {
			msg += ": " + ids
		}
		d.add(CheckHitlScreensChanged, "hitlScreens", "", hashShort(d.old.screens), hashShort(d.new.screens), msg,
			pos(d.old.flow, "/metadata/cinatra/hitlScreens"), pos(d.new.flow, "/metadata/cinatra/hitlScreens"))
	}
}

// slots: accepted extensions, modes, min/max items.
func (d *differ) slots() {
	if !d.old.ok || !d.new.ok {
		return
	}
	for _, id := range unionKeys(d.old.slots, d.new.slots) {
		o, inOld := d.old.slots[id]
		n, inNew := d.new.slots[id]
		subj := "slot " + id
		var op, np *Pos
		if inOld {
			op = pos(d.old.flow, o.Pointer)
		}
		if inNew {
			np = pos(d.new.flow, n.Pointer)
		}
		switch {
		case !inOld:
			d.add(CheckSlotAdded, subj, "", "", strings.Join(n.Accepted, ", "), fmt.Sprintf("context slot %s added (accepts %s)", quote(id), strings.Join(n.Accepted, ", ")), nil, np)
			continue
		case !inNew:
			d.add(CheckSlotRemoved, subj, "", strings.Join(o.Accepted, ", "), "", fmt.Sprintf("context slot %s removed", quote(id)), op, nil)
			continue
		}
		oe, ne := set(o.Accepted), set(n.Accepted)
		for _, e := range sortedKeys(oe) {
			if !ne[e] {
				d.add(CheckSlotExtensionRemoved, subj+" extension "+e, "", e, "", fmt.Sprintf("context slot %s no longer accepts %s", quote(id), e), op, np)
			}
		}
		for _, e := range sortedKeys(ne) {
			if !oe[e] {
				d.add(CheckSlotExtensionAdded, subj+" extension "+e, "", "", e, fmt.Sprintf("context slot %s accepts %s now", quote(id), e), op, np)
			}
		}
		om, nm := o.SelectionMode+"/"+o.ResolutionMode, n.SelectionMode+"/"+n.ResolutionMode
		if om != nm {
			d.add(CheckSlotModeChanged, subj, "", om, nm, fmt.Sprintf("context slot %s selection/resolution %s now (was %s)", quote(id), nm, om), op, np)
		}
		oi, ni := items2(o.MinItems, o.MaxItems), items2(n.MinItems, n.MaxItems)
		if oi != ni {
			d.add(CheckSlotItemsChanged, subj, "", oi, ni, fmt.Sprintf("context slot %s takes %s items now (was %s)", quote(id), ni, oi), op, np)
		}
	}
}

func items2(min, max int) string {
	if max == 0 {
		return fmt.Sprintf("%d..∞", min)
	}
	return fmt.Sprintf("%d..%d", min, max)
}

func set(l []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range l {
		m[s] = true
	}
	return m
}

// pkg: version, dependencies, produces, consumes.
func (d *differ) pkg() {
	o, n := d.old.pkg, d.new.pkg
	if d.old.pkgDoc == nil && d.new.pkgDoc == nil {
		return
	}
	if o.version != n.version {
		c := d.add(CheckVersionChanged, "version", "", o.version, n.version, fmt.Sprintf("version %s now (was %s)", orNone(n.version), orNone(o.version)),
			pos(d.old.pkgDoc, "/version"), pos(d.new.pkgDoc, "/version"))
		ov, ok1 := workspace.ParseVersion(o.version)
		nv, ok2 := workspace.ParseVersion(n.version)
		if ok1 && ok2 && nv.Compare(ov) < 0 {
			c.Level = Warn
			c.Message = fmt.Sprintf("version goes down to %s (was %s)", n.version, o.version)
			c.Reason = "a downgrade: an installation holding the newer version refuses an older one"
		}
	}
	if o.name != n.name && d.old.pkgDoc != nil && d.new.pkgDoc != nil {
		d.add(CheckPackageRenamed, "name", "", o.name, n.name, fmt.Sprintf("package renamed %s (was %s): callers find it by name", orNone(n.name), orNone(o.name)),
			pos(d.old.pkgDoc, "/name"), pos(d.new.pkgDoc, "/name"))
	}
	for _, k := range unionKeys(o.other, n.other) {
		ov, inOld := o.other[k]
		nv, inNew := n.other[k]
		if ov == nv {
			continue
		}
		what := "changed"
		switch {
		case !inOld:
			what = "added"
		case !inNew:
			what = "removed"
		}
		var op, np *Pos
		if inOld {
			op = pos(d.old.pkgDoc, o.otherPtr[k])
		}
		if inNew {
			np = pos(d.new.pkgDoc, n.otherPtr[k])
		}
		detail := valueChange(ov, nv)
		if ids := idChanges(ov, nv); ids != "" {
			detail = ": " + ids
		}
		d.add(CheckManifestChanged, "package.json "+k, "", shortValue(ov), shortValue(nv), fmt.Sprintf("package.json %s %s%s", k, what, detail), op, np)
	}
	for _, k := range unionKeys(o.deps, n.deps) {
		ov, inOld := o.deps[k]
		nv, inNew := n.deps[k]
		form, name, _ := strings.Cut(k, ":")
		what := depWhat(form, name)
		switch {
		case !inOld:
			d.add(CheckDependencyAdded, "dependency "+k, "", "", nv, fmt.Sprintf("%s %s added", what, orNone(nv)), nil, pos(d.new.pkgDoc, n.depPtr[k]))
		case !inNew:
			msg := what + " removed"
			if other := otherForm(n.deps, form, name); other != "" {
				msg += fmt.Sprintf(" (still declared in %s: %s)", depWhat(other, name), orNone(n.deps[other+":"+name]))
			}
			d.add(CheckDependencyRemoved, "dependency "+k, "", ov, "", msg, pos(d.old.pkgDoc, o.depPtr[k]), nil)
		case ov != nv:
			d.add(CheckDependencyRangeChanged, "dependency "+k, "", ov, nv, fmt.Sprintf("%s %s now (was %s)", what, orNone(nv), orNone(ov)), pos(d.old.pkgDoc, o.depPtr[k]), pos(d.new.pkgDoc, n.depPtr[k]))
		}
	}
	for _, k := range unionKeys(o.produces, n.produces) {
		ot, inOld := o.produces[k]
		nt, inNew := n.produces[k]
		switch {
		case !inOld:
			d.add(CheckProducesAdded, "produces "+k, "", "", k, "produces "+withType(k, nt)+" now", nil, pos(d.new.pkgDoc, "/cinatra/produces"))
		case !inNew:
			d.add(CheckProducesRemoved, "produces "+k, "", k, "", "no longer produces "+withType(k, ot), pos(d.old.pkgDoc, "/cinatra/produces"), nil)
		case ot != nt:
			c := d.add(CheckProducesTypeChanged, "produces "+k+" objectTypeId", "", ot, nt,
				fmt.Sprintf("produces %s with objectTypeId %s now (was %s)", k, orNone(nt), orNone(ot)), pos(d.old.pkgDoc, "/cinatra/produces"), pos(d.new.pkgDoc, "/cinatra/produces"))
			if ot == "" {
				c.Level, c.Reason = Info, "a refinement: the extension is still produced, now with a pinned object type"
			}
		}
	}
	for _, k := range unionKeys(o.consumes, n.consumes) {
		ov, inOld := o.consumes[k]
		nv, inNew := n.consumes[k]
		switch {
		case !inOld:
			d.add(CheckConsumesAdded, "consumes "+k, "", "", orWord(nv, "needed"), fmt.Sprintf("consumes %s now (%s)", k, orWord(nv, "requirement not said")), nil, pos(d.new.pkgDoc, "/cinatra/consumes"))
		case !inNew:
			d.add(CheckConsumesRemoved, "consumes "+k, "", orWord(ov, "needed"), "", "no longer consumes "+k, pos(d.old.pkgDoc, "/cinatra/consumes"), nil)
		case ov != nv:
			d.add(CheckConsumesChanged, "consumes "+k, "", ov, nv, fmt.Sprintf("consumes %s as %s now (was %s)", k, orNone(nv), orNone(ov)), pos(d.old.pkgDoc, "/cinatra/consumes"), pos(d.new.pkgDoc, "/cinatra/consumes"))
		}
	}
	if o.consumesDeclared != n.consumesDeclared && len(o.consumes) == 0 && len(n.consumes) == 0 && d.old.pkgDoc != nil && d.new.pkgDoc != nil {
		before, after := "(absent)", "[]"
		if o.consumesDeclared {
			before, after = after, before
		}
		d.add(CheckManifestChanged, "package.json cinatra.consumes", "", before, after,
			fmt.Sprintf("package.json cinatra.consumes %s (it consumes nothing either way)", map[bool]string{true: "declared empty", false: "no longer declared"}[n.consumesDeclared]),
			pos(d.old.pkgDoc, "/cinatra/consumes"), pos(d.new.pkgDoc, "/cinatra/consumes"))
	}
}

// depWhat names a dependency by its vocabulary.
func depWhat(form, name string) string {
	switch form {
	case "agentDependencies":
		return "legacy cinatra.agentDependencies entry " + name
	case "dependencies":
		return "cinatra.dependencies entry " + name
	case "npm":
		return "dependency " + name
	}
	return form + " " + name
}

// otherForm is the other agent-dependency vocabulary declaring name in deps
// ("" when none does).
func otherForm(deps map[string]string, form, name string) string {
	for _, f := range []string{"dependencies", "agentDependencies"} {
		if f != form && form != "npm" {
			if _, ok := deps[f+":"+name]; ok {
				return f
			}
		}
	}
	return ""
}

func orWord(s, w string) string {
	if s == "" {
		return w
	}
	return s
}

// findings: introduced and fixed, matched by fingerprint.
func (d *differ) findings() {
	for _, k := range unionKeys(d.old.finds, d.new.finds) {
		o, inOld := d.old.finds[k]
		n, inNew := d.new.finds[k]
		subj := "finding " + strings.ReplaceAll(k, "\x00", " ")
		switch {
		case !inOld:
			c := d.add(CheckFindingIntroduced, subj, "", "", string(n.Severity), fmt.Sprintf("new %s %s: %s", n.Severity, n.Code, n.Message), nil,
				&Pos{File: n.File, Line: n.Line, Column: n.Column, Pointer: n.Location})
			if n.Severity == compile.Blocker {
				c.Level = Breaking
				c.Reason = "a new blocker"
			}
		case !inNew:
			d.add(CheckFindingFixed, subj, "", string(o.Severity), "", fmt.Sprintf("fixed %s %s: %s", o.Severity, o.Code, o.Message),
				&Pos{File: o.File, Line: o.Line, Column: o.Column, Pointer: o.Location}, nil)
		}
	}
}

// versionBump: breaking changes need a major bump (a minor one below 1.0);
// and every version change is checked against the callers' ranges: a
// caller whose range no longer accepts the new version is named (breaking
// for it), and one whose range accepts a version with breaking changes is
// told it will pick them up.
func (d *differ) versionBump() {
	if d.new.pkgDoc == nil || d.old.pkgDoc == nil {
		return
	}
	var breaking []string
	for _, c := range d.out {
		if c.Level == Breaking && c.Check != CheckFindingIntroduced.ID && c.Check != CheckSideBroken.ID {
			breaking = append(breaking, c.Check)
		}
	}
	spilled := d.spilledAt(Breaking) // counted only (spill): their checks are among the above
	ov, ok1 := workspace.ParseVersion(d.old.pkg.version)
	nv, ok2 := workspace.ParseVersion(d.new.pkg.version)
	if ok1 && ok2 && d.old.pkg.version != d.new.pkg.version {
		for _, ca := range d.opts.Callers {
			r, ok := workspace.ParseRange(ca.Range)
			if !ok || ca.Range == "" || !r.Allows(ov) || r.Allows(nv) {
				continue
			}
			ca := cleanCaller(ca)
			c := d.add(CheckCallerRangeExcludes, "caller "+ca.Package, "", ca.Range, d.new.pkg.version,
				fmt.Sprintf("caller %s declares %s, which accepted %s and does not accept %s", ca.Package, ca.Range, d.old.pkg.version, d.new.pkg.version),
				pos(d.old.pkgDoc, "/version"), pos(d.new.pkgDoc, "/version"))
			c.Callers = []Caller{{Package: ca.Package, Dir: ca.Dir, Via: ca.Via, Range: ca.Range}}
		}
	}
	if len(breaking) == 0 {
		return
	}
	nBreaking := len(breaking) + spilled
	if ok2 {
		for _, ca := range d.opts.Callers {
			r, ok := workspace.ParseRange(ca.Range)
			if !ok || ca.Range == "" || !r.Allows(nv) {
				continue
			}
			ca := cleanCaller(ca)
			c := d.add(CheckCallerPicksUpBreak, "caller "+ca.Package, "", ca.Range, d.new.pkg.version,
				fmt.Sprintf("caller %s declares %s, which accepts %s: it will pick up %d breaking change(s)", ca.Package, ca.Range, d.new.pkg.version, nBreaking),
				nil, pos(d.new.pkgDoc, "/version"))
			c.Callers = []Caller{{Package: ca.Package, Dir: ca.Dir, Via: ca.Via, Range: ca.Range, Accepts: true}}
		}
	}
	if ok1 && ok2 && bumpSaysBreaking(ov, nv) {
		return
	}
	msg := fmt.Sprintf("%d breaking change(s) (%s), and the version %s: bump the major version (the minor one below 1.0)",
		nBreaking, strings.Join(dedupe(breaking), ", "), versionText(d.old.pkg.version, d.new.pkg.version))
	d.add(CheckVersionNotBumped, "version", "", d.old.pkg.version, d.new.pkg.version, msg, pos(d.old.pkgDoc, "/version"), pos(d.new.pkgDoc, "/version"))
}

// bumpSaysBreaking: a major bump, or a minor bump below 1.0.0.
func bumpSaysBreaking(o, n workspace.Version) bool {
	if n.Major > o.Major {
		return true
	}
	return o.Major == 0 && n.Major == 0 && n.Minor > o.Minor
}

func versionText(o, n string) string {
	if o == n {
		return "stays " + orNone(n)
	}
	return "goes from " + orNone(o) + " to " + orNone(n)
}

func dedupe(l []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range l {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

func hashShort(s string) string {
	if s == "" {
		return ""
	}
	return fingerprint(&Change{Subject: s})[:12]
}

// shortValue is a value as a change keeps it: itself when short, else a
// hash (a fingerprint needs only to tell values apart).
func shortValue(s string) string {
	if len(s) <= 80 {
		return s
	}
	return "#" + hashShort(s)
}

// valueChange shows a short scalar change ("": to "x" (was "y")).
func valueChange(o, n string) string {
	if len(o) > 60 || len(n) > 60 {
		return ""
	}
	return fmt.Sprintf(": %s now (was %s)", orNone(n), orNone(o))
}

// withType is an extension with its pinned object type.
func withType(ext, objType string) string {
	if objType == "" {
		return ext
	}
	return ext + " (" + objType + ")"
}

// enumChange: two constraint sets that differ only by their enum, as the
// values removed and added (ok false when anything else differs).
func enumChange(o, n string) (gone, added []string, ok bool) {
	var om, nm map[string]json.RawMessage
	if json.Unmarshal([]byte(orJSON(o)), &om) != nil || json.Unmarshal([]byte(orJSON(n)), &nm) != nil {
		return nil, nil, false
	}
	if om["enum"] == nil || nm["enum"] == nil {
		return nil, nil, false
	}
	for k := range om {
		if k != "enum" && string(om[k]) != string(nm[k]) {
			return nil, nil, false
		}
	}
	for k := range nm {
		if _, in := om[k]; !in && k != "enum" {
			return nil, nil, false
		}
	}
	var oe, ne []json.RawMessage
	if json.Unmarshal(om["enum"], &oe) != nil || json.Unmarshal(nm["enum"], &ne) != nil {
		return nil, nil, false
	}
	os, ns := map[string]bool{}, map[string]bool{}
	for _, x := range oe {
		os[string(x)] = true
	}
	for _, x := range ne {
		ns[string(x)] = true
	}
	for _, x := range sortedKeys(os) {
		if !ns[x] {
			gone = append(gone, x)
		}
	}
	for _, x := range sortedKeys(ns) {
		if !os[x] {
			added = append(added, x)
		}
	}
	return gone, added, true
}

func orJSON(s string) string {
	if s == "" {
		return "{}"
	}
	return s
}

// cleanCaller passes a caller's strings through present.Text.
func cleanCaller(c CallerAgent) CallerAgent {
	c.Package, c.Via, c.Range = present.Text(c.Package), present.Text(c.Via), present.Text(c.Range)
	return c
}

// subflowGroups are the flows only one side has whose FlowNode (or other
// calling node) is itself only on that side: their nodes are listed on the
// node's one change.
func (d *differ) subflowGroups(keys map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, side := range []struct{ v, other *sideView }{{d.old, d.new}, {d.new, d.old}} {
		// the subflows some node only this side has calls, gathered once
		// rather than per flow (5,000 flows side by side, each renamed:
		// 3 s of a 4 s diff)
		var called map[string]bool
		for fk, f := range side.v.flows {
			if fk == "" || side.other.flows[fk] != nil {
				continue
			}
			if called == nil {
				called = map[string]bool{}
				for pk, pf := range side.v.flows {
					for _, n := range pf.g.Nodes {
						if len(n.Subflows) > 0 && (side.other.flows[pk] == nil || side.other.flows[pk].node(n.ID) == nil) {
							for _, sp := range n.Subflows {
								called[sp] = true
							}
						}
					}
				}
			}
			if called[f.g.FlowPointer] {
				out[fk] = true
			}
		}
	}
	return out
}

// groupSubflow lists on c the nodes of n's subflows that only side v has,
// and makes c explain their part of the file.
func (d *differ) groupSubflow(c *Change, v *sideView, n *flowgraph.Node, old bool) {
	other := d.new
	if !old {
		other = d.old
	}
	for _, sp := range n.Subflows {
		for _, fk := range v.flowsAt(sp) {
			f := v.flows[fk]
			if fk == "" || other.flows[fk] != nil {
				continue
			}
			var ids []string
			for _, x := range f.g.Nodes {
				if x.Kind != flowgraph.KindStart && x.Kind != flowgraph.KindEnd {
					ids = append(ids, x.ID)
				}
				if x.Pointer != "" {
					c.extra = append(c.extra, covered{old, v.flow.Path, x.Pointer})
				}
			}
			c.extra = append(c.extra, covered{old, v.flow.Path, sp})
			c.Group = append(c.Group, ids...)
			if len(ids) > 0 {
				c.Message += fmt.Sprintf(", with its subflow %s: %s", quote(f.g.FlowName), strings.Join(ids, ", "))
			}
		}
	}
}

// idChanges names what changed between two JSON values by identity: the
// keys of an object, the strings (or ids) of an array, added, removed and
// changed ("" when neither is such a value).
func idChanges(o, n string) string {
	ids := func(s string) (map[string]string, bool) {
		if s == "" {
			return map[string]string{}, true
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal([]byte(s), &obj) == nil {
			out := map[string]string{}
			for k, v := range obj {
				out[k] = string(v)
			}
			return out, true
		}
		var arr []json.RawMessage
		if json.Unmarshal([]byte(s), &arr) != nil {
			return nil, false
		}
		out := map[string]string{}
		for _, x := range arr {
			var str string
			var withID struct {
				ID string `json:"id"`
			}
			switch {
			case json.Unmarshal(x, &str) == nil:
				out[str] = str
			case json.Unmarshal(x, &withID) == nil && withID.ID != "":
				out[withID.ID] = string(x)
			default:
				return nil, false
			}
		}
		return out, true
	}
	om, ok1 := ids(o)
	nm, ok2 := ids(n)
	if !ok1 || !ok2 {
		return ""
	}
	var added, removed, changed []string
	for _, k := range unionKeys(om, nm) {
		a, inA := om[k]
		b, inB := nm[k]
		switch {
		case !inA:
			added = append(added, k)
		case !inB:
			removed = append(removed, k)
		case a != b:
			changed = append(changed, k)
		}
	}
	var parts []string
	for _, x := range []struct {
		l    []string
		word string
	}{{added, "added"}, {removed, "removed"}, {changed, "changed"}} {
		if len(x.l) > 0 {
			parts = append(parts, strings.Join(x.l, ", ")+" "+x.word)
		}
	}
	return strings.Join(parts, "; ")
}
