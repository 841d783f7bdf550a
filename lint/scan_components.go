package lint

import (
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
)

// scanComponent is one component object found anywhere in a document:
// in a $referenced_components map at any depth, inline in nodes, in a
// subflow, in a client_transport, ...
type scanComponent struct {
	Node *compile.Node // the component object
	Type string        // its component_type
}

// Ptr is the JSON Pointer of the component object. It is built on demand:
// most components never get a finding, and building a pointer for each
// dominated the cost of the scans.
func (c scanComponent) Ptr() string { return compile.PointerOf(c.Node) }

// Label names a component the way the reference does: by its key when it
// is an entry of a $referenced_components map, else by its id, its name,
// or as a last resort its pointer.
func (c scanComponent) Label() string {
	n := c.Node
	if n.Parent().Key() == "$referenced_components" {
		return n.Key()
	}
	if id := n.Get("id").StringOr(""); id != "" {
		return id
	}
	if name := n.Get("name").StringOr(""); name != "" {
		return name
	}
	if ptr := c.Ptr(); ptr != "" {
		return ptr
	}
	return "(root)"
}

// scanComponents lists every object of the tree that carries a string
// component_type, in source order.
func scanComponents(root *compile.Node) []scanComponent {
	var out []scanComponent
	compile.WalkNodes(root, func(n *compile.Node) bool {
		if n.Kind == compile.Object {
			if t := compile.ComponentType(n); t != "" {
				out = append(out, scanComponent{Node: n, Type: t})
			}
		}
		return true
	})
	return out
}

// flowComponents are the components of the agent's flow file, shared by
// every scan of the pass (each walked the whole document for its own
// list), and read off the flow model's walk (Model.Typed), which the
// pass builds anyway, rather than found in a walk of their own.
func (p *Pass) flowComponents() []scanComponent {
	if !p.compsOK {
		typed := p.model().Typed()
		out := make([]scanComponent, 0, len(typed)) // at most one each: no growth
		for _, n := range typed {
			if t := n.Get("component_type").Text; t != "" {
				out = append(out, scanComponent{Node: n, Type: t})
			}
		}
		p.comps, p.compsOK = out, true
	}
	return p.comps
}

// scanQuoteList renders strings as JavaScript's JSON.stringify of an array
// joined by ", " renders them: ["a", "b"].
func scanQuoteList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// scanStrings returns the string items of an array node.
func scanStrings(n *compile.Node) []string {
	if n == nil || n.Kind != compile.Array {
		return nil
	}
	var out []string
	for _, it := range n.Items {
		if s, ok := it.Str(); ok {
			out = append(out, s)
		}
	}
	return out
}
