package locate

import (
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/present"
)

// Facts are what an editor shows on hover over a node. Every string is
// sanitised with its credentials masked (flowgraph labels, or clean here).
type Facts struct {
	ID            string
	Name          string
	Kind          flowgraph.NodeKind
	ComponentType string
	Flow          string // the flow's id
	Steps         []int  // compiled step numbers (root flow of a cinatra agent; empty when not a step)
	BFS           int    // 0-based position in the compiler's BFS order
	Approval      bool
	Risk          string
	Subflow       string // pointer of the child flow, if any
	Inputs        []string
	Outputs       []string
	DataIn        []string // "producer.output → input"
	DataOut       []string // "output → consumer.input"
	Registry      bool     // defined in the registry, not the flow file
}

// Hover returns the facts of the node the symbol names (a ref or key of a
// node component, or a place inside one); false for anything else.
func (x *Index) Hover(s Symbol) (Facts, bool) {
	n, g := s.Node, s.Graph
	if n == nil || g == nil {
		return Facts{}, false
	}
	f := Facts{ID: n.ID, Name: n.Name, Kind: n.Kind, ComponentType: n.ComponentType, Flow: g.FlowID,
		Steps: append([]int(nil), n.Steps...), BFS: n.BFS, Approval: n.Approval, Risk: n.Risk, Subflow: clean(n.Subflow),
		Registry: n.Pointer == ""}
	comp := s.Target.Node
	f.Inputs = cleanAll(flowgraph.Ports(comp.Get("inputs")))
	f.Outputs = cleanAll(flowgraph.Ports(comp.Get("outputs")))
	in, out := g.DataEdgesOf(n.ID)
	f.DataIn, f.DataOut = cleanAll(in), cleanAll(out)
	return f, true
}

func clean(s string) string { return present.Text(s) }

// cleanAll sanitises and masks each string.
func cleanAll(ss []string) []string {
	for i, x := range ss {
		ss[i] = clean(x)
	}
	return ss
}

// Component is what an editor shows on hover over a reference to (or the
// key of) a component that is not a flow node: a tool, an LLM config, a
// subflow, an agent.
type Component struct {
	ID            string
	Name          string
	ComponentType string
	Scope         string // "own scope", "outer scope (flow X)", "registry", "inline"
	Refs          int    // $component_refs of the flow file naming it
}

// ComponentFacts describes the symbol's target component; false for an
// unresolved reference or a symbol without a component.
func (x *Index) ComponentFacts(s Symbol) (Component, bool) {
	n := s.Target.Node
	if n == nil || n.Kind != compile.Object {
		return Component{}, false
	}
	c := Component{ID: clean(s.ID), Name: clean(n.Get("name").StringOr("")), ComponentType: clean(compile.ComponentType(n))}
	switch s.Target.Scope {
	case compile.RefLocal:
		c.Scope = "own scope"
	case compile.RefOuter:
		c.Scope = "outer scope"
		if s.Target.Owner != nil {
			c.Scope += " (flow " + clean(s.Target.Owner.ID()) + ")"
		}
	case compile.RefRegistry:
		c.Scope = "registry"
	default:
		c.Scope = "inline"
	}
	if s.Kind != KindNode {
		c.Refs = len(x.References(s, false))
	}
	return c, true
}
