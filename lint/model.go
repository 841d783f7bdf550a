package lint

import "github.com/oastui/oastui/compile"

// model is the flow model of the agent's flow file (compile.Agent.Model):
// the one the flow-graph, data-flow and I/O rules, the reference-scope
// and duplicate-definition checks read, shared with every other reader of
// the agent (the graphs, the dry run, the workspace).
func (p *Pass) model() *compile.Model {
	if p.flowModel == nil {
		p.flowModel = p.Agent.Model()
	}
	return p.flowModel
}

// resolveAt resolves a reference found at ptr in any scope (the reference
// rules report scoping problems): compile.Model.Resolve outside a Flow.
func resolveAt(dm *compile.Model, n *compile.Node, ptr string) *compile.Node {
	return dm.Resolve(nil, n, ptr).Node
}
