package dryrun

import (
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// The flow model the walk runs over: one per Flow object, built once per
// exploration from the document (never from the sanitised graph, whose ids
// are display labels).

type prop struct {
	title      string
	schema     *compile.Node
	ptr        string // where the property is declared ("" when inferred)
	hasDefault bool
}

type edge struct {
	branch string // from_branch ("" when null: the default branch "next")
	to     *node
	ptr    string
}

type dedge struct {
	src    *node
	output string
	input  string
	ptr    string
}

type node struct {
	// v is the node in the flow model's view (compile.FlowView): its id,
	// component, place, BFS rank and injected mark are read there.
	v       *compile.ViewNode
	name    string
	ctype   string
	steps   []int // compiled approval step numbers (top-level flow only)
	inputs  []prop
	outputs []prop
	out     []edge
	in      map[string][]dedge // explicit data edges into this node, by input title
	reads   map[string]bool    // outputs of this node that some data edge reads

	endReach bool // an EndNode is reachable from here over control edges

	subDone  bool
	sub      *flowModel // FlowNode subflow / child agent's root flow
	subNote  string     // why there is no subflow to walk ("" when there is)
	subChild string     // package name when sub is a child agent's flow

	subsDone bool
	subs     []*flowModel // a ParallelFlowNode's subflows

	producers map[producerKey]string // how a consumer names this node as the producer of an output (producer)
}

// id is the node's id as the document writes it.
func (n *node) id() string { return n.v.ID }

// comp is the node's component (nil when it does not resolve).
func (n *node) comp() *compile.Node { return n.v.Resolved.Node }

// ptr is the pointer of the node's component in the flow's document, else
// its entry in the Flow's nodes ("" for an injected node).
func (n *node) ptr() string {
	if p := n.v.Resolved.Pointer; p != "" {
		return p
	}
	return n.v.Entry
}

type producerKey struct {
	output string
	canned bool
}

// producer is how a consumer of output k of n names where its value came
// from: "node.output", with " (stubs)" for a canned value; made once per
// node and output, not at every visit of every path.
func (n *node) producer(k string, canned bool) string {
	key := producerKey{k, canned}
	if s, ok := n.producers[key]; ok {
		return s
	}
	s := n.id() + "." + k
	if canned {
		s += " (stubs)"
	}
	if n.producers == nil {
		n.producers = map[producerKey]string{}
	}
	n.producers[key] = s
	return s
}

type flowModel struct {
	flow     *compile.Flow
	agent    *compile.Agent // the agent whose document holds the flow
	file     string
	id       string
	start    *node
	nodes    []*node
	byID     map[string]*node
	explicit bool // data_flow_connections lists edges (else name-based)
	top      bool // the agent's top-level flow (step numbers apply)
	outputs  []prop
}

func (e *explorer) modelOf(a *compile.Agent, f *compile.Flow, top bool) *flowModel {
	if m, ok := e.models[f.Node]; ok {
		return m
	}
	m := &flowModel{flow: f, agent: a, id: f.ID(), byID: map[string]*node{}, top: top}
	if a != nil && a.Flow != nil {
		m.file = a.Flow.Path
	}
	e.models[f.Node] = m
	// The nodes and edges are the view of the flow's one model
	// (compile.FlowModel.View, built once per flow model and shared with
	// the drawn graph), read in the document's own terms.
	g := a.Model().FlowOf(f).View()
	for i := range g.Nodes {
		vn := &g.Nodes[i]
		comp := vn.Resolved.Node
		n := &node{v: vn, name: vn.ID} // in and reads: made by the first data edge
		if comp.Is(compile.Object) {
			n.ctype = compile.ComponentType(comp)
			if s := strings.TrimSpace(comp.Get("name").StringOr("")); s != "" {
				n.name = s
			}
		}
		if m.byID[vn.ID] != nil { // two ids with one label in the graph: the first, as ever
			continue
		}
		m.byID[vn.ID] = n
		m.nodes = append(m.nodes, n)
	}
	at := func(i int) *node { return m.byID[g.Nodes[i].ID] }
	if g.Start >= 0 {
		m.start = at(g.Start)
	}
	for _, re := range g.Edges {
		from, to := at(re.From), at(re.To)
		from.out = append(from.out, edge{branch: re.Branch, to: to, ptr: re.Pointer})
	}
	dfc := f.Node.Get("data_flow_connections")
	m.explicit = dfc.Is(compile.Array) && len(dfc.Items) > 0
	for _, rd := range g.Data {
		if rd.Output == "" || rd.Input == "" {
			continue
		}
		src, dst := at(rd.From), at(rd.To)
		if dst.in == nil {
			dst.in = map[string][]dedge{}
		}
		dst.in[rd.Input] = append(dst.in[rd.Input], dedge{src: src, output: rd.Output, input: rd.Input, ptr: rd.Pointer})
		if src.reads == nil {
			src.reads = map[string]bool{}
		}
		src.reads[rd.Output] = true
	}
	if top {
		for _, s := range compile.FlowStepOrder(f.Node) {
			if n := m.byID[s.ID]; n != nil {
				n.steps = s.Steps
			}
		}
	}
	// Inputs and outputs; a FlowNode's come from its subflow, resolved lazily.
	for _, n := range m.nodes {
		n.inputs = declared(n.comp(), "inputs", n.ptr())
		n.outputs = declared(n.comp(), "outputs", n.ptr())
		if n.outputs == nil && n.comp().Get("outputs") == nil {
			switch n.ctype {
			case "LlmNode":
				n.outputs = []prop{synth("generated_text", "string")}
			case "InputMessageNode", "PluginInputMessageNode":
				n.outputs = []prop{synth("user_input", "string")}
			case "ApiNode":
				n.outputs = []prop{synth("response", "")}
			case "StartNode":
				n.outputs = n.inputs
			}
		}
		if n.inputs == nil && n.comp().Get("inputs") == nil {
			switch n.ctype {
			case "BranchingNode":
				n.inputs = []prop{synth("branching_mapping_key", "string")}
			case "EndNode":
				n.inputs = n.outputs
			case "StartNode":
				n.inputs = n.outputs
			case "LlmNode", "InputMessageNode", "OutputMessageNode", "PluginInputMessageNode":
				n.inputs = placeholders(n.comp())
			}
		}
	}
	m.outputs = declared(f.Node, "outputs", f.Pointer)
	// endReach: reverse reachability from every EndNode.
	rev := map[*node][]*node{}
	for _, n := range m.nodes {
		for _, ed := range n.out {
			rev[ed.to] = append(rev[ed.to], n)
		}
	}
	var queue []*node
	for _, n := range m.nodes {
		if n.ctype == "EndNode" {
			n.endReach = true
			queue = append(queue, n)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, p := range rev[n] {
			if !p.endReach {
				p.endReach = true
				queue = append(queue, p)
			}
		}
	}
	return m
}

// subflow resolves what a FlowNode (or an AgentNode delegating to a child
// agent) runs: the subflow in the document, else the child agent named by
// metadata.cinatra.packageName through Options.Children, as the compiler
// names it in childAgent.packageName.
func (e *explorer) subflow(m *flowModel, n *node, depth int) *flowModel {
	if n.subDone {
		return n.sub
	}
	n.subDone = true
	if depth >= maxDepth {
		n.subNote = "nesting deeper than " + itoa(maxDepth) + " flows: not walked"
		return nil
	}
	var registry *compile.Node
	if m.agent != nil {
		registry = m.agent.RegistryComponents()
	}
	pkg := compile.CalledPackage(n.comp(), nil).StringOr("")
	switch n.ctype {
	case "FlowNode", "MapNode", "ParallelMapNode", "CatchExceptionNode":
		sf := n.comp().Get("subflow")
		r := m.flow.Resolve(sf, compile.Append(n.ptr(), "subflow"), registry)
		if r.Node.Is(compile.Object) && compile.ComponentType(r.Node) == "Flow" {
			f := e.flowAt(m.agent, r)
			n.sub = e.modelOf(m.agent, f, false)
			return n.sub
		}
	case "AgentNode":
		ag := n.comp().Get("agent")
		r := m.flow.Resolve(ag, compile.Append(n.ptr(), "agent"), registry)
		if !r.Node.Is(compile.Object) {
			n.subNote = "its agent does not resolve: stubbed from its outputs"
			return nil
		}
		switch compile.ComponentType(r.Node) {
		case "Flow":
			n.sub = e.modelOf(m.agent, e.flowAt(m.agent, r), false)
			return n.sub
		case "A2AAgent":
			pkg = compile.CalledPackage(n.comp(), r.Node).StringOr("")
		default:
			n.subNote = "an LLM agent: stubbed from its outputs"
			return nil
		}
	default:
		return nil
	}
	if pkg == "" && n.v.Injected {
		n.subNote = "added by the WayFlow loader at mount (not in the file): the context-selection subflow, stubbed from its outputs"
		return nil
	}
	if pkg == "" {
		n.subNote = "its subflow does not resolve and it names no child package: stubbed from its outputs"
		return nil
	}
	if e.opts.Children == nil {
		n.subNote = "child agent " + pkg + " not loaded: stubbed from its outputs"
		return nil
	}
	child, err := e.opts.Children(pkg)
	if err != nil || child == nil || child.Flow == nil || child.Flow.Root == nil || compile.ComponentType(child.Flow.Root) != "Flow" {
		n.subNote = "child agent " + pkg + " not found: stubbed from its outputs"
		return nil
	}
	flows := child.Flows()
	e.pkgs[child] = pkg
	n.sub = e.modelOf(child, flows[0], false)
	n.subChild = pkg
	return n.sub
}

// docFlows maps the pointer of each Flow of a's document to it.
func (e *explorer) docFlows(a *compile.Agent) map[string]*compile.Flow {
	if e.flows[a] == nil {
		e.flows[a] = map[string]*compile.Flow{}
		for _, f := range a.Flows() {
			e.flows[a][f.Pointer] = f
		}
	}
	return e.flows[a]
}

// flowAt returns the compile.Flow (with its enclosing scopes) of a
// resolved Flow component.
func (e *explorer) flowAt(a *compile.Agent, r compile.Resolved) *compile.Flow {
	if r.Pointer != "" && a != nil && a.Flow != nil && a.Flow.Root != nil {
		if f := e.docFlows(a)[r.Pointer]; f != nil {
			return f
		}
	}
	return &compile.Flow{Node: r.Node, Pointer: r.Pointer, Parent: r.Owner}
}

// subInputs are the inputs a nested flow takes: its StartNode's.
func (m *flowModel) startInputs() []prop {
	if m.start == nil {
		return nil
	}
	return m.start.inputs
}

// flowOutputs are what a nested flow gives back: its declared outputs,
// else the outputs its EndNodes declare.
func (m *flowModel) flowOutputs() []prop {
	if m.outputs != nil {
		return m.outputs
	}
	var out []prop
	seen := map[string]bool{}
	for _, n := range m.nodes {
		if n.ctype != "EndNode" {
			continue
		}
		for _, p := range n.outputs {
			if !seen[p.title] {
				seen[p.title] = true
				out = append(out, p)
			}
		}
	}
	return out
}

func declared(comp *compile.Node, key, ptr string) []prop {
	l := comp.Get(key)
	if !l.Is(compile.Array) {
		return nil
	}
	out := []prop{}
	for i, p := range l.Items {
		t, ok := p.Get("title").Str()
		if !ok || t == "" {
			continue
		}
		out = append(out, prop{title: t, schema: p, ptr: compile.AppendIndex(compile.Append(ptr, key), i), hasDefault: p.Get("default") != nil})
	}
	return out
}

func synth(title, typ string) prop {
	n := &compile.Node{Kind: compile.Object, Offset: -1}
	n.Members = append(n.Members, compile.Member{Key: "title", Value: &compile.Node{Kind: compile.String, Text: title}})
	if typ != "" {
		n.Members = append(n.Members, compile.Member{Key: "type", Value: &compile.Node{Kind: compile.String, Text: typ}})
	}
	return prop{title: title, schema: n}
}

// placeholders infers string inputs from {{ name }} in a node's templates
// (Agent Spec templating: message, prompt_template). An ApiNode's are not
// inferred: its url and data also hold platform placeholders
// ({{CINATRA_BASE_URL}}) that no node produces.
func placeholders(comp *compile.Node) []prop {
	seen := map[string]bool{}
	var names []string
	var walk func(n *compile.Node, depth int)
	walk = func(n *compile.Node, depth int) {
		if n == nil || depth > 16 {
			return
		}
		switch n.Kind {
		case compile.String:
			compile.EachPlaceholder(n.Text, compile.TemplateSpace, func(name string, _, _ int) {
				if !seen[name] {
					seen[name] = true
					names = append(names, name)
				}
			})
		case compile.Object:
			for _, mem := range n.Members {
				walk(mem.Value, depth+1)
			}
		case compile.Array:
			for _, it := range n.Items {
				walk(it, depth+1)
			}
		}
	}
	for _, k := range []string{"message", "prompt_template"} {
		walk(comp.Get(k), 0)
	}
	sort.Strings(names)
	var out []prop
	for _, nm := range names {
		out = append(out, synth(nm, "string"))
	}
	return out
}

func items(n *compile.Node) []*compile.Node {
	if !n.Is(compile.Array) {
		return nil
	}
	return n.Items
}

// parallel resolves a ParallelFlowNode's subflows (those that resolve to
// a Flow of the document).
func (e *explorer) parallel(m *flowModel, n *node, depth int) []*flowModel {
	if n.subsDone {
		return n.subs
	}
	n.subsDone = true
	if depth >= maxDepth {
		n.subNote = "nesting deeper than " + itoa(maxDepth) + " flows: not walked"
		return nil
	}
	var registry *compile.Node
	if m.agent != nil {
		registry = m.agent.RegistryComponents()
	}
	for i, it := range items(n.comp().Get("subflows")) {
		r := m.flow.Resolve(it, compile.AppendIndex(compile.Append(n.ptr(), "subflows"), i), registry)
		if r.Node.Is(compile.Object) && compile.ComponentType(r.Node) == "Flow" {
			n.subs = append(n.subs, e.modelOf(m.agent, e.flowAt(m.agent, r), false))
		}
	}
	if len(n.subs) == 0 {
		n.subNote = "no subflow resolves: stubbed from its outputs"
	}
	return n.subs
}

// nests: node types whose run walks a nested flow.
func nests(ctype string) bool {
	switch ctype {
	case "FlowNode", "AgentNode", "MapNode", "ParallelMapNode", "CatchExceptionNode", "ParallelFlowNode":
		return true
	}
	return false
}

// maps: a MapNode runs its subflow once per item; the walk runs it once,
// on the first item, as a representative iteration.
func maps(ctype string) bool { return ctype == "MapNode" || ctype == "ParallelMapNode" }

// mapInputs are a MapNode's inferred inputs: iterated_<x> for each input
// of its subflow (an item or a list of items: untyped here).
func mapInputs(sub *flowModel) []prop {
	var out []prop
	for _, p := range sub.startInputs() {
		out = append(out, synth("iterated_"+p.title, ""))
	}
	return out
}
