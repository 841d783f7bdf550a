package diff

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
)

// Behaviour, not shape: what a step calls (url, tool, method, the data it
// sends), what inner nodes and gates take and give (their inputs, outputs
// and the resume payload a gate hands back), and whether every path from
// the start to a write still passes a gate.

// writeRisk says a riskClass marks a step that acts on the world: write
// and the irreversible *_send, *_publish, *_post, *_delete classes.
func writeRisk(risk string) bool {
	r := riskRank(risk)
	return r == 4 || r == 6
}

// promptKeys are the data keys the prompt checks compare (templates).
var promptKeys = map[string]bool{"system": true, "user": true, "prompt": true, "prompt_template": true, "system_prompt": true, "messages": true}

// calls: a node's url, http_method, data.tool and the other data it sends
// (warn; breaking on a step whose riskClass writes, sends or publishes).
func (d *differ) calls() {
	if !d.old.ok || !d.new.ok {
		return
	}
	d.bothNodes(func(p *nodePair) {
		fk, id, o, n := p.fk, p.id, p.o, p.n
		if o.ComponentType != n.ComponentType {
			return
		}
		oc, nc := p.oc, p.nc
		if equalNode(p.of.data, p.nf.data) && equalNode(p.of.url, p.nf.url) && equalNode(p.of.httpMethod, p.nf.httpMethod) && equalNode(p.of.method, p.nf.method) {
			return // nothing it calls or sends changed (most nodes of a large flow): nothing to list
		}
		type field struct {
			label, ptr string
			a, b       *compile.Node
		}
		var fs []field
		for _, k := range []string{"url", "http_method", "method"} {
			fs = append(fs, field{k, "/" + k, oc.Get(k), nc.Get(k)})
		}
		od, nd := oc.Get("data"), nc.Get("data")
		keys := map[string]bool{}
		for _, x := range []*compile.Node{od, nd} {
			if x.Is(compile.Object) {
				for _, m := range x.Members {
					keys[m.Key] = true
				}
			}
		}
		for _, k := range sortedKeys(keys) {
			if promptKeys[k] {
				continue
			}
			fs = append(fs, field{"data." + k, compile.Append("/data", k), od.Get(k), nd.Get(k)})
		}
		risk := n.Risk
		if g, ok := d.new.gates.get(nodeSubject(fk, id)); ok && g.risk != "" {
			risk = g.risk
		}
		for _, f := range fs {
			if equalNode(f.a, f.b) {
				continue
			}
			a, b := compact(f.a), compact(f.b)
			c := d.add(CheckStepCallChanged, nodeSubject(fk, id)+" "+f.label, id, shortValue(a), shortValue(b),
				fmt.Sprintf("%s %s of %s (%s) is %s now (was %s)", kindWord(n), f.label, quote(n.Name), id, clipValue(b), clipValue(a)),
				pos(d.old.flow, o.Pointer+f.ptr), pos(d.new.flow, n.Pointer+f.ptr))
			if writeRisk(risk) {
				c.Level, c.Reason = Breaking, "the step's riskClass is "+risk+": it acts on the world"
			}
		}
	})
}

// nodeIO: the inputs and outputs of inner nodes (the StartNode's and
// EndNode's are the contract's) by title, and a gate's resume payload
// (metadata.cinatra.inputMessageSchema: what the person's answer hands the
// flow).
func (d *differ) nodeIO() {
	if !d.old.ok || !d.new.ok {
		return
	}
	d.bothNodes(func(p *nodePair) {
		fk, id, o, n := p.fk, p.id, p.o, p.n
		if n.Kind == flowgraph.KindStart || n.Kind == flowgraph.KindEnd {
			return
		}
		oc, nc := p.oc, p.nc
		if equalNode(p.of.inputs, p.nf.inputs) && equalNode(p.of.outputs, p.nf.outputs) && equalNode(p.of.metadata, p.nf.metadata) {
			return // what it compares is the same (the rest of a renamed node need not be read)
		}
		for _, list := range []string{"inputs", "outputs"} {
			if equalNode(oc.Get(list), nc.Get(list)) {
				continue
			}
			op, np := ports(oc.Get(list), compile.Append(o.Pointer, list)), ports(nc.Get(list), compile.Append(n.Pointer, list))
			// one change per node and list, naming each port added,
			// removed or changed (one edit of a node is one row)
			var added, removed, changed, before, after []string
			var opos, npos *Pos
			for _, t := range unionKeys(op, np) {
				a, inA := op[t]
				b, inB := np[t]
				switch {
				case !inA:
					added = append(added, t)
				case !inB:
					removed = append(removed, t)
				case a.value != b.value:
					changed = append(changed, fmt.Sprintf("%s (%s → %s)", t, clipValue(portType(a.value)), clipValue(portType(b.value))))
				default:
					continue
				}
				if inA {
					before = append(before, a.value)
					if opos == nil {
						opos = pos(d.old.flow, a.ptr)
					}
				}
				if inB {
					after = append(after, b.value)
					if npos == nil {
						npos = pos(d.new.flow, b.ptr)
					}
				}
			}
			if len(added)+len(removed)+len(changed) == 0 {
				continue
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
			if opos == nil {
				opos = pos(d.old.flow, compile.Append(o.Pointer, list))
			}
			if npos == nil {
				npos = pos(d.new.flow, compile.Append(n.Pointer, list))
			}
			c := d.add(CheckNodeIOChanged, nodeSubject(fk, id)+" "+list, id, shortValue(strings.Join(before, ",")), shortValue(strings.Join(after, ",")),
				fmt.Sprintf("%s of %s (%s): %s", list, quote(n.Name), id, strings.Join(parts, "; ")), opos, npos)
			// it explains the whole list on both sides
			c.extra = append(c.extra, covered{true, d.old.flow.Path, compile.Append(o.Pointer, list)}, covered{false, d.new.flow.Path, compile.Append(n.Pointer, list)})
		}
		sp := "/metadata/cinatra/inputMessageSchema"
		a, b := compact(oc.Path("metadata", "cinatra", "inputMessageSchema")), compact(nc.Path("metadata", "cinatra", "inputMessageSchema"))
		if a != b {
			msg := fmt.Sprintf("the answer gate %s (%s) hands back is shaped %s now (was %s)", quote(n.Name), id, payloadSummary(b), payloadSummary(a))
			if payloadSummary(a) == payloadSummary(b) {
				msg = fmt.Sprintf("the answer gate %s (%s) hands back changed inside %s", quote(n.Name), id, payloadSummary(b))
			}
			d.add(CheckResumePayloadChanged, nodeSubject(fk, id)+" resume payload", id, shortValue(a), shortValue(b), msg,
				pos(d.old.flow, o.Pointer+sp), pos(d.new.flow, n.Pointer+sp))
		}
	})
}

type portDecl struct{ value, ptr string }

// portType is a port's schema without its title, for a message.
func portType(js string) string {
	var m map[string]json.RawMessage
	if json.Unmarshal([]byte(js), &m) != nil {
		return js
	}
	delete(m, "title")
	out, _ := json.Marshal(m)
	return string(out)
}

// ports keys a node's inputs or outputs by title.
func ports(list *compile.Node, ptr string) map[string]portDecl {
	out := map[string]portDecl{}
	for i, it := range items(list) {
		t := it.Get("title").StringOr("")
		if t == "" {
			continue
		}
		out[t] = portDecl{compact(it), compile.AppendIndex(ptr, i)}
	}
	return out
}

// payloadSummary names a resume payload schema by its properties.
func payloadSummary(js string) string {
	if js == "" {
		return "(none)"
	}
	var m struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal([]byte(js), &m) != nil {
		return clipValue(js)
	}
	names := sortedKeys(m.Properties)
	if len(names) == 0 {
		return clipValue(js)
	}
	return "{" + strings.Join(names, ", ") + "}"
}

// writeNode says a node acts on the world (its riskClass writes, sends or
// publishes).
func (v *sideView) writeNode(fk string, n *flowgraph.Node) bool {
	_, write := v.gateWrite(fk, n)
	return write
}

// anyWrite says some node of the side may act on the world: a gate's
// riskClass or, for a node without one, the node's own writes (gateWrite's
// write). Without one, ungated lists nothing for any flow.
func (v *sideView) anyWrite() bool {
	for i := range v.gates.list {
		g := &v.gates.list[i].g
		if g.risk != "" && writeRisk(g.risk) {
			return true
		}
	}
	for _, f := range v.flows {
		for _, n := range f.g.Nodes {
			if writeRisk(n.Risk) {
				return true
			}
		}
	}
	return false
}

// ungated lists the write nodes of flow fk that a run can reach from the
// start without passing a gate (the write node itself asking counts as a
// gate).
func (v *sideView) ungated(fk string) map[string]bool {
	f := v.flows[fk]
	out := map[string]bool{}
	if f == nil || f.g.Start == "" {
		return out
	}
	// One map entry per node for its out-edges and whether the walk has
	// seen it: the edges from a node are a list through link (edge index
	// + 1; 0 ends it), made backwards so that it runs in edge order.
	type visit struct {
		head int32
		seen bool
	}
	edges := f.g.Edges
	at := make(map[string]visit, len(f.g.Nodes))
	link := make([]int32, len(edges))
	for i := len(edges) - 1; i >= 0; i-- {
		u := at[edges[i].From]
		link[i], u.head = u.head, int32(i+1)
		at[edges[i].From] = u
	}
	u := at[f.g.Start]
	u.seen = true
	at[f.g.Start] = u
	queue := []string{f.g.Start}
	for len(queue) > 0 {
		id := queue[0]
		queue = queue[1:]
		if n := f.node(id); n != nil {
			gate, write := v.gateWrite(fk, n)
			if gate && id != f.g.Start {
				continue // a person decides here: what follows is gated
			}
			if write {
				out[id] = true
			}
		}
		for e := at[id].head; e != 0; e = link[e-1] {
			t := edges[e-1].To
			if u := at[t]; !u.seen {
				u.seen = true
				at[t] = u
				queue = append(queue, t)
			}
		}
	}
	return out
}

// gateWrite says whether n asks a person before the flow goes on (an
// InputMessageNode, on which the compiler forces requiresApproval, or a
// node whose step or metadata requires approval) and whether it acts on
// the world (writeNode), with one look-up of its gate.
func (v *sideView) gateWrite(fk string, n *flowgraph.Node) (gate, write bool) {
	g, ok := v.gates.get(nodeSubject(fk, n.ID))
	gate = n.Kind == flowgraph.KindInput || n.Approval || ok && g.approval
	if ok && g.risk != "" {
		return gate, writeRisk(g.risk)
	}
	return gate, writeRisk(n.Risk)
}

// approvalPaths: a write that every path from the start reached through a
// gate can now be reached without one (approval safety: breaking).
func (d *differ) approvalPaths() {
	if !d.old.ok || !d.new.ok || !d.new.anyWrite() {
		return // no write node on the new side: none can be reached ungated (no walk of either side)
	}
	for _, fk := range sortedKeys(d.new.flows) {
		if d.old.flows[fk] == nil {
			continue
		}
		after := d.new.ungated(fk)
		if len(after) == 0 {
			continue // the old side's walk would name nothing
		}
		before := d.old.ungated(fk)
		of, nf := d.old.flows[fk], d.new.flows[fk]
		for _, id := range sortedKeys(after) {
			o := of.node(id)
			if before[id] || o == nil || !d.old.writeNode(fk, o) {
				continue // it was ungated already, or new, or no write before (the node's own change says it)
			}
			n := nf.node(id)
			d.add(CheckApprovalBypassed, nodeSubject(fk, id)+" gated", id, "every path gated", "a path without a gate",
				fmt.Sprintf("%s (%s) can now run without a person's approval: a path from the start reaches it without passing a gate", quote(n.Name), id),
				pos(d.old.flow, o.Pointer), pos(d.new.flow, n.Pointer))
		}
	}
}

// resourced pairs a data edge removed with one added into the same input:
// the input is fed from elsewhere now, one change instead of two.
type resourced struct {
	to, input    string
	from, was    []string
	oldPtr, nPtr string
}

// resourcedEdges finds the inputs whose feeding edges changed on both sides
// (old edges keyed "a.x → b.y" in od, new in nd) and returns them with the
// edge keys they explain.
func resourcedEdges(od, nd map[string]string) ([]resourced, map[string]bool) {
	type src struct {
		from []string
		ptr  string
	}
	group := func(m map[string]string) map[string]*src {
		out := map[string]*src{}
		for k, ptr := range m {
			from, to, _ := strings.Cut(k, " → ")
			s := out[to]
			if s == nil {
				s = &src{ptr: ptr}
				out[to] = s
			}
			s.from = append(s.from, from)
		}
		for _, s := range out {
			sort.Strings(s.from)
		}
		return out
	}
	og, ng := group(od), group(nd)
	var out []resourced
	used := map[string]bool{}
	for _, to := range sortedKeys(ng) {
		o, n := og[to], ng[to]
		if o == nil || strings.Join(o.from, ",") == strings.Join(n.from, ",") {
			continue
		}
		node, input, _ := strings.Cut(to, ".")
		out = append(out, resourced{to: node, input: input, from: n.from, was: o.from, oldPtr: o.ptr, nPtr: n.ptr})
		for _, f := range o.from {
			used[f+" → "+to] = true
		}
		for _, f := range n.from {
			used[f+" → "+to] = true
		}
	}
	return out, used
}
