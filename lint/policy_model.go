package lint

import (
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// policyModel builds the policies' vocabulary of agent a from its flow
// model (Agent.Model): the top-level Flow with the subflow of every node
// that runs one inlined (a control edge into the node continues at the
// subflow's start, the subflow's EndNodes continue where the node's own
// edges lead), nested subflows too. A node id seen twice (a component
// reused by two subflows) is kept once.
func policyModel(a *compile.Agent) policyVars {
	m := a.Model()
	if len(m.Flows) == 0 || a.Flow == nil {
		return policyVars{}
	}
	root := m.Flows[0]
	v := policyVars{agent: policyAgentOf(a), flow: &PolicyFlow{ID: root.Flow.ID(), succ: map[string][]string{}}}
	v.flow.Name = root.Flow.Node.Get("name").StringOr("")
	if s := root.StartNode(); s != nil {
		v.flow.Start = s.ID
	}
	// The Flow's outputs, then its EndNodes': the corpus binds artifacts
	// (cinatra.artifact) on either.
	addOutputs := func(n *compile.Node) {
		for _, o := range itemsOf(n.Get("outputs")) {
			out := &PolicyOutput{Name: o.Get("title").StringOr(o.Get("name").StringOr(""))}
			out.Artifact = o.Path("cinatra", "artifact", "extension").StringOr("")
			v.flow.Outputs = append(v.flow.Outputs, out)
		}
	}
	addOutputs(root.Flow.Node)
	for i := range root.Nodes {
		if root.Nodes[i].Type == "EndNode" {
			addOutputs(root.Nodes[i].Comp)
		}
	}
	seen := map[string]bool{}
	// unique is the id a node of an inlined Flow gets: its own, unless a
	// node of another Flow has it already ("start" and "end" of a subflow):
	// then "<subflow id>/<id>".
	unique := func(fm *compile.FlowModel, sub, id string) string {
		if sub != "" && seen[id] {
			return sub + "/" + id
		}
		return id
	}
	var inline func(fm *compile.FlowModel, sub string, depth int) (start string, ends []string)
	inline = func(fm *compile.FlowModel, sub string, depth int) (string, []string) {
		var ends []string
		ids := map[string]string{}     // node identity in fm → its id in the policy flow
		exits := map[string][]string{} // node id → the nodes control leaving it comes from (its subflow's ends)
		var subs []*compile.FlowNode
		for i := range fm.Nodes {
			n := &fm.Nodes[i]
			id := unique(fm, sub, n.ID)
			ids[n.ID] = id
			if n.Type == "EndNode" {
				ends = append(ends, id)
			}
			if seen[id] {
				continue
			}
			seen[id] = true
			pn := policyNodeOf(a, n, sub)
			pn.ID = id
			v.flow.Nodes = append(v.flow.Nodes, pn)
			subs = append(subs, n)
		}
		if depth < 8 {
			for _, n := range subs {
				if sf := subflowOf(m, fm, n); sf != nil {
					s, e := inline(sf, sf.Flow.ID(), depth+1)
					if s != "" {
						v.flow.addEdge(ids[n.ID], s, "")
						exits[ids[n.ID]] = e
					}
				}
			}
		}
		for _, e := range fm.Control {
			if e.From.Node == nil || e.To.Node == nil {
				continue
			}
			f0, to := ids[e.From.Node.ID], ids[e.To.Node.ID]
			from := []string{f0}
			if x, ok := exits[f0]; ok && len(x) > 0 {
				from = append(from, x...) // after the subflow has run
			}
			for _, f := range from {
				v.flow.addEdge(f, to, e.Branch)
			}
		}
		start := ""
		if s := fm.StartNode(); s != nil {
			start = ids[s.ID]
		}
		return start, ends
	}
	_, ends := inline(root, "", 0)
	v.flow.Ends = ends
	return v
}

func (f *PolicyFlow) addEdge(from, to, branch string) {
	f.Edges = append(f.Edges, &PolicyEdge{From: from, To: to, Branch: branch})
	f.succ[from] = append(f.succ[from], to)
}

// subflowOf is the Flow a node runs (a FlowNode's, a MapNode's subflow,
// a ParallelFlowNode's first), resolved in the node's Flow, or nil.
func subflowOf(m *compile.Model, fm *compile.FlowModel, n *compile.FlowNode) *compile.FlowModel {
	s := n.Comp.Get("subflow")
	if s == nil {
		return nil
	}
	r := m.Resolve(fm.Flow, s, n.Pointer+"/subflow")
	if r.Node == nil {
		return nil
	}
	return m.FlowByNode(r.Node)
}

func policyAgentOf(a *compile.Agent) *PolicyAgent {
	pa := &PolicyAgent{Produces: []string{}, Consumes: []string{}, Dependencies: []string{}}
	if a.Package == nil || a.Package.Root == nil {
		return pa
	}
	pkg := a.Package.Root
	pa.Package = pkg.Get("name").StringOr("")
	pa.Version = pkg.Get("version").StringOr("")
	c := pkg.Get("cinatra")
	for _, it := range itemsOf(c.Get("produces")) {
		if s := it.Get("extension").StringOr(""); s != "" {
			pa.Produces = append(pa.Produces, s)
		}
	}
	for _, it := range itemsOf(c.Get("consumes")) {
		if s := it.Get("extension").StringOr(""); s != "" {
			pa.Consumes = append(pa.Consumes, s)
		}
	}
	if d := c.Get("agentDependencies"); d != nil && d.Kind == compile.Object {
		for _, mem := range d.Members {
			pa.Dependencies = append(pa.Dependencies, mem.Key)
		}
	}
	for _, it := range itemsOf(c.Get("dependencies")) {
		if s := it.Get("packageName").StringOr(""); s != "" {
			pa.Dependencies = append(pa.Dependencies, s)
		}
	}
	sort.Strings(pa.Dependencies)
	return pa
}

// policyNodeOf is one node's facts. requiresApproval is the compiler's
// for a step (reference §11.6–11.7): true for an InputMessageNode; an
// AgentNode's own metadata.cinatra.requiresApproval, else its Agent's; a
// FlowNode's, or any of its gateSteps'; riskClass likewise. For any other
// node it is its metadata.cinatra.requiresApproval as written.
func policyNodeOf(a *compile.Agent, n *compile.FlowNode, sub string) *PolicyNode {
	c := n.Comp
	meta := c.Path("metadata", "cinatra")
	pn := &PolicyNode{ID: n.ID, Name: n.Name, Kind: n.Type, Pointer: n.Pointer, Subflow: sub, doc: a.Flow,
		Inputs: titles(c.Get("inputs")), Outputs: titles(c.Get("outputs"))}
	approval := boolOf(meta.Get("requiresApproval"))
	pn.RiskClass = meta.Get("riskClass").StringOr("")
	switch n.Type {
	case "InputMessageNode":
		approval, pn.RiskClass = true, "read_only"
	case "AgentNode":
		if leaf := c.Path("agent", "metadata", "cinatra"); leaf != nil {
			if meta.Get("requiresApproval") == nil {
				approval = boolOf(leaf.Get("requiresApproval"))
			}
			if pn.RiskClass == "" {
				pn.RiskClass = leaf.Get("riskClass").StringOr("")
			}
		}
		pn.Model = c.Path("agent", "llm_config", "model_id").StringOr("")
	case "FlowNode":
		for _, gs := range itemsOf(meta.Get("gateSteps")) {
			if boolOf(gs.Get("requiresApproval")) {
				approval = true
			}
			if pn.RiskClass == "" {
				pn.RiskClass = gs.Get("riskClass").StringOr("")
			}
		}
	case "ApiNode":
		pn.URL = c.Get("url").StringOr("")
		pn.Method = c.Get("http_method").StringOr("")
		d := c.Get("data")
		pn.Tool = d.Get("tool").StringOr("")
		llm := d.Get("cinatra_llm")
		if llm == nil && strings.HasSuffix(pn.URL, "/api/llm-bridge") {
			// The compiler gives every bridge call without its own
			// cinatra_llm the flow's metadata.cinatra.llm, subflows' too
			// (cinatra-ai/cinatra packages/agents/src/oas-compiler.ts
			// @1b0975c9, injectCinatraLlmIntoApiNodes).
			llm = a.Flow.Root.Path("metadata", "cinatra", "llm")
		}
		pn.Model = llm.Get("preferredModel").StringOr("")
		pn.Provider = llm.Get("preferredProvider").StringOr("")
	}
	pn.RequiresApproval = approval
	// Only a step stops the run for a human (reference §11.4: AgentNode,
	// InputMessageNode and FlowNode are steppable); an ApiNode's
	// requiresApproval compiles into no step.
	pn.Gate = approval && (n.Type == "InputMessageNode" || n.Type == "AgentNode" || n.Type == "FlowNode")
	return pn
}

func titles(n *compile.Node) []string {
	out := []string{}
	for _, it := range itemsOf(n) {
		if s := it.Get("title").StringOr(""); s != "" {
			out = append(out, s)
		}
	}
	return out
}

// boolOf is a JSON true.
func boolOf(n *compile.Node) bool { return n != nil && n.Kind == compile.Bool && n.Bool }

// itemsOf is an array's items (nil for anything else).
func itemsOf(n *compile.Node) []*compile.Node {
	if n == nil || n.Kind != compile.Array {
		return nil
	}
	return n.Items
}
