package prompts

import (
	"fmt"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
)

// placeholderRoles lists the placeholders of n's templates, in order of
// first use, with the templates using each.
func placeholderRoles(n *NodePrompt) ([]string, map[string][]string) {
	var names []string
	roles := map[string][]string{}
	// the role lists are few ("user", "system", "system"+"user"): one
	// shared slice for each, not one per placeholder (a template of 100,000
	// placeholders)
	shared := map[string][]string{}
	for _, t := range n.Templates {
		for _, name := range Names(t.Segments) {
			r, ok := roles[name]
			if !ok {
				names = append(names, name)
			}
			key := strings.Join(r, "\x00") + "\x00" + t.Role
			rs, ok := shared[key]
			if !ok {
				rs = append(r[:len(r):len(r)], t.Role)
				shared[key] = rs
			}
			roles[name] = rs
		}
	}
	return names, roles
}

// provenance finds where each placeholder of a node of Flow f gets its
// value: a data edge into the node's input of that name (from the
// StartNode: a run input; from a context-slot FlowNode: the slot's
// selection), else the input's own default, else — when the Flow gives no
// data_flow_connections (name-based data flow) — a StartNode input or a
// node output of that name, else nothing (unresolved).
func (b *builder) provenance(n *NodePrompt, f *compile.Flow, g *flowgraph.Graph, gn *flowgraph.Node, comp *compile.Node) {
	names, roles := placeholderRoles(n)
	inputs := comp.Get("inputs")
	dfc := f.Node.Get("data_flow_connections")
	explicit := dfc.Is(compile.Array)
	var start *compile.Node
	if i := g.NodeIndex(g.Start); i >= 0 && g.Nodes[i].Pointer != "" {
		start = b.a.Flow.Lookup(g.Nodes[i].Pointer)
	}
	n.Placeholders = make([]Placeholder, 0, len(names))
	unresolved := map[string]string{} // the detail of each rule, built once
	// What each placeholder is looked up in, indexed once for the node
	// (its data edges by input, its inputs and the StartNode's by title)
	// and once for the graph (its nodes' outputs, b.producers): a prompt
	// of n placeholders in a Flow of m nodes and e edges costs about
	// n + m + e look-ups, not n × (m + e). 100,000 placeholders in a
	// 33,000-node Flow ran for minutes (docs/performance.md).
	edgesTo := map[string][]flowgraph.DataEdge{}
	for _, e := range g.Data {
		if e.To == gn.ID {
			edgesTo[e.Input] = append(edgesTo[e.Input], e)
		}
	}
	ownByTitle := propsByTitle(inputs)
	var startByTitle map[string]*compile.Node
	if start != nil {
		startByTitle = b.startIndexOf(start).inputs
	}
	for _, name := range names {
		p := Placeholder{Name: name, Roles: roles[name]}
		own := ownByTitle[name]
		edges := edgesTo[name]
		switch {
		case len(edges) > 0:
			b.fromEdge(&p, g, edges, own, start)
		case own != nil && own.Get("default") != nil:
			p.Provenance = Provenance{Kind: FromDefault, HasDefault: true, Default: jsonText(own.Get("default")),
				Detail: "the input's own default (nothing feeds it)"}
			p.Bucket = Session
			p.Sample, p.SampleFrom = sample(own, name)
		case !explicit && startByTitle[name] != nil:
			p.Provenance = b.startProv(start, g.Start, name)
			p.Provenance.Implicit = true
			p.Provenance.Detail = "run input " + name + " by name (data_flow_connections is not given: name-based data flow)"
			p.Bucket = Session
			p.Sample, p.SampleFrom = sample(startByTitle[name], name)
		default:
			if src, out := b.implicitProducer(g, gn, name); !explicit && src != nil {
				p.Provenance = Provenance{Kind: FromEdge, From: src.ID, FromPointer: src.Pointer, Output: name, Implicit: true,
					Detail: "output " + name + " of " + src.ID + " by name (data_flow_connections is not given)"}
				p.Bucket = Evidence
				p.Sample, p.SampleFrom = sample(out, name)
				break
			}
			p.Provenance = Provenance{Kind: FromUnresolved, Rule: unresolvedRule(b.a, comp, own)}
			d, ok := unresolved[p.Provenance.Rule]
			if !ok {
				d = "nothing feeds it: no data edge, no default"
				if p.Provenance.Rule != "" {
					d += " (" + p.Provenance.Rule + ")"
				}
				unresolved[p.Provenance.Rule] = d
			}
			p.Provenance.Detail = d
			p.Bucket = Evidence
			schema := own
			if schema == nil {
				schema = emptySchema
			}
			p.Sample, p.SampleFrom = sample(schema, name)
		}
		n.Placeholders = append(n.Placeholders, p)
	}
	if n.Placeholders == nil {
		n.Placeholders = []Placeholder{}
	}
}

// fromEdge: the placeholder is fed by data edges (the last edge to run
// wins; the first listed is shown, the others counted).
func (b *builder) fromEdge(p *Placeholder, g *flowgraph.Graph, edges []flowgraph.DataEdge, own, start *compile.Node) {
	e := edges[0]
	src := g.Nodes[g.NodeIndex(e.From)]
	var srcComp *compile.Node
	if src.Pointer != "" {
		srcComp = b.a.Flow.Lookup(src.Pointer)
	}
	more := ""
	if len(edges) > 1 {
		more = fmt.Sprintf(" (%d data edges feed it; the last to run wins)", len(edges))
	}
	switch {
	case e.From == g.Start && start != nil:
		p.Provenance = b.startProv(start, src.ID, e.Output)
		p.Provenance.EdgePointer = e.Pointer
		p.Provenance.FromPointer = src.Pointer
		p.Provenance.Detail = "run input " + e.Output + more
		p.Bucket = Session
		schema := b.startIndexOf(start).inputs[e.Output]
		if schema == nil {
			schema = own
		}
		p.Sample, p.SampleFrom = sampleOr(schema, own, p.Name)
	case src.ComponentType == "FlowNode" && (e.Input == "contextSlotBindings" || strings.HasPrefix(src.ID, "context")):
		slot := b.slotOf(src.ID)
		p.Provenance = Provenance{Kind: FromSlot, From: src.ID, FromPointer: src.Pointer, Output: e.Output, EdgePointer: e.Pointer, Slot: slot.id,
			Detail: "the selection of context slot " + slot.id + more, Injected: src.Injected}
		p.Bucket = Business
		p.Sample, p.SampleFrom = fmt.Sprintf("<array:%s, up to %d artifact refs>", p.Name, slot.max), "stub"
	default:
		p.Provenance = Provenance{Kind: FromEdge, From: src.ID, FromPointer: src.Pointer, Output: e.Output, EdgePointer: e.Pointer,
			Detail: "output " + e.Output + " of " + src.ID + more}
		p.Bucket = Evidence
		out := propByTitle(srcComp.Get("outputs"), e.Output)
		if out == nil {
			out = own
		}
		p.Sample, p.SampleFrom = sampleOr(out, nil, p.Name)
		if p.SampleFrom == "default" { // an output's default is not what the edge carries at run time
			p.SampleFrom = "default (of the output)"
		}
	}
}

func sampleOr(schema, alt *compile.Node, name string) (string, string) {
	if schema == nil {
		schema = alt
	}
	if schema == nil {
		schema = &compile.Node{Kind: compile.Object}
	}
	return sample(schema, name)
}

// startProv describes StartNode input title: required, hidden, default
// (metadata.cinatra.required / hidden, the input's default).
func (b *builder) startProv(start *compile.Node, startID, title string) Provenance {
	p := Provenance{Kind: FromStart, From: startID, Output: title}
	ix := b.startIndexOf(start)
	p.Required, p.Hidden = ix.required[title], ix.hidden[title]
	if in := ix.inputs[title]; in != nil && in.Get("default") != nil {
		p.HasDefault, p.Default = true, jsonText(in.Get("default"))
	}
	return p
}

// startIndex is a StartNode's inputs by title (propsByTitle) and its
// metadata.cinatra required and hidden lists as sets (inList's answers),
// made once per StartNode: startProv runs for every placeholder a run
// input feeds.
type startIndex struct {
	inputs           map[string]*compile.Node
	required, hidden map[string]bool
}

func (b *builder) startIndexOf(start *compile.Node) *startIndex {
	if ix, ok := b.starts[start]; ok {
		return ix
	}
	meta := start.Path("metadata", "cinatra")
	ix := &startIndex{inputs: propsByTitle(start.Get("inputs")), required: stringSet(meta.Get("required")), hidden: stringSet(meta.Get("hidden"))}
	if b.starts == nil {
		b.starts = map[*compile.Node]*startIndex{}
	}
	b.starts[start] = ix
	return ix
}

// stringSet is the set of a list's items as strings, each item's string
// or "" for an item that is none (a list's item equal to s is then
// membership of s); nil when list is no array.
func stringSet(list *compile.Node) map[string]bool {
	if !list.Is(compile.Array) {
		return nil
	}
	set := make(map[string]bool, len(list.Items))
	for _, it := range list.Items {
		set[it.StringOr("")] = true
	}
	return set
}

// implicitProducer: with name-based data flow, another node of the Flow
// whose output is named like the placeholder.
// The first node of g.Nodes but gn whose outputs list one titled name,
// and that output (the first so titled), from the graph's index of
// outputs (producers).
func (b *builder) implicitProducer(g *flowgraph.Graph, gn *flowgraph.Node, name string) (*flowgraph.Node, *compile.Node) {
	for _, pr := range b.producers(g)[name] {
		if pr.node != gn {
			return pr.node, pr.out
		}
	}
	return nil, nil
}

// producer is a node of a graph and one of its outputs.
type producer struct {
	node *flowgraph.Node
	out  *compile.Node
}

// producers indexes the outputs of g's nodes by title, made once per
// graph: each title's nodes in the order of g.Nodes, each with its first
// output so titled (propByTitle's), nodes without a pointer left out.
func (b *builder) producers(g *flowgraph.Graph) map[string][]producer {
	if idx, ok := b.outputs[g]; ok {
		return idx
	}
	idx := map[string][]producer{}
	for _, o := range g.Nodes {
		if o.Pointer == "" {
			continue
		}
		outs := b.a.Flow.Lookup(o.Pointer).Get("outputs")
		if !outs.Is(compile.Array) {
			continue
		}
		for _, p := range outs.Items {
			t := p.Get("title").StringOr("")
			if list := idx[t]; len(list) == 0 || list[len(list)-1].node != o { // the node's first so titled
				idx[t] = append(list, producer{o, p})
			}
		}
	}
	if b.outputs == nil {
		b.outputs = map[*flowgraph.Graph]map[string][]producer{}
	}
	b.outputs[g] = idx
	return idx
}

// propsByTitle indexes an array of properties by title, each title's
// first (propByTitle's); nil when arr is no array.
func propsByTitle(arr *compile.Node) map[string]*compile.Node {
	if !arr.Is(compile.Array) {
		return nil
	}
	m := make(map[string]*compile.Node, len(arr.Items))
	for _, p := range arr.Items {
		if t := p.Get("title").StringOr(""); m[t] == nil {
			m[t] = p
		}
	}
	return m
}

// unresolvedRule names the existing rule that reports an unfed
// placeholder: E4 (dataflow_input_unsatisfied) for a declared input, the
// runtime invariant OAS-RUNTIME-001 for a Cinatra ApiNode whose inputs do
// not list it, I1 (io_placeholder_mismatch) for an Agent Spec component.
// emptySchema is the schema of a placeholder nothing declares (read only).
var emptySchema = &compile.Node{Kind: compile.Object}

func unresolvedRule(a *compile.Agent, comp, own *compile.Node) string {
	switch {
	case own != nil:
		return "dataflow_input_unsatisfied"
	case compile.ComponentType(comp) == "ApiNode" && comp.Get("inputs").Is(compile.Array):
		return "OAS-RUNTIME-001"
	case a.Profile == compile.ProfileAgentSpec && comp.Get("inputs").Is(compile.Array):
		return "io_placeholder_mismatch"
	}
	return ""
}

// agentProvenance: the placeholders of a root Agent's system prompt are
// its inputs, supplied by the caller (with their defaults).
func (b *builder) agentProvenance(n *NodePrompt, agent *compile.Node) {
	names, roles := placeholderRoles(n)
	n.Placeholders = make([]Placeholder, 0, len(names))
	for _, name := range names {
		p := Placeholder{Name: name, Roles: roles[name], Bucket: Session}
		if in := propByTitle(agent.Get("inputs"), name); in != nil {
			p.Provenance = Provenance{Kind: FromAgentInput, Output: name, Detail: "input " + name + " of the Agent, given by its caller"}
			if d := in.Get("default"); d != nil {
				p.Provenance.HasDefault, p.Provenance.Default = true, jsonText(d)
			}
			p.Sample, p.SampleFrom = sample(in, name)
		} else {
			p.Provenance = Provenance{Kind: FromUnresolved, Rule: unresolvedRule(b.a, agent, nil),
				Detail: "not an input of the Agent"}
			p.Bucket = Evidence
			p.Sample, p.SampleFrom = sample(emptySchema, name)
		}
		n.Placeholders = append(n.Placeholders, p)
	}
	if n.Placeholders == nil {
		n.Placeholders = []Placeholder{}
	}
}

type slotInfo struct {
	id       string
	min, max int
}

// slotOf is the context slot a context FlowNode resolves: the declared
// slot whose id the node's id names (context_<slotId>), else the only one.
func (b *builder) slotOf(nodeID string) slotInfo {
	slots := b.a.Flow.Root.Path("metadata", "cinatra", "contextSlots")
	var all []slotInfo
	if slots.Is(compile.Array) {
		for _, s := range slots.Items {
			si := slotInfo{id: s.Get("slotId").StringOr("")}
			if v, ok := s.Get("minItems").Float(); ok {
				si.min = int(v)
			}
			si.max = 1
			if v, ok := s.Get("maxItems").Float(); ok {
				si.max = int(v)
			}
			all = append(all, si)
		}
	}
	for _, s := range all {
		if s.id != "" && strings.Contains(nodeID, s.id) {
			return s
		}
	}
	if len(all) == 1 {
		return all[0]
	}
	return slotInfo{id: "?", max: 1}
}

func jsonText(v *compile.Node) string {
	if s, ok := v.Str(); ok {
		return fmt.Sprintf("%q", s)
	}
	return valueText(v)
}
