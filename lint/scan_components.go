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
	Ptr   string        // JSON Pointer of the component object
	Node  *compile.Node // the component object
	Type  string        // its component_type
	Label string        // how messages name it (see scanLabel)
}

// scanComponents lists every object of the tree that carries a string
// component_type, in source order. It keeps the path as tokens and builds a
// pointer only for the components it returns (compile.Walk builds one for
// every value, which dominated the cost of the scans).
func scanComponents(root *compile.Node) []scanComponent {
	var out []scanComponent
	var toks []string
	var walk func(n *compile.Node)
	walk = func(n *compile.Node) {
		switch n.Kind {
		case compile.Object:
			if t := compile.ComponentType(n); t != "" {
				ptr := compile.Pointer(toks...)
				out = append(out, scanComponent{Ptr: ptr, Node: n, Type: t, Label: scanLabel(ptr, n)})
			}
			for _, m := range n.Members {
				toks = append(toks, m.Key)
				walk(m.Value)
				toks = toks[:len(toks)-1]
			}
		case compile.Array:
			for i, it := range n.Items {
				toks = append(toks, strconv.Itoa(i))
				walk(it)
				toks = toks[:len(toks)-1]
			}
		}
	}
	if root != nil {
		walk(root)
	}
	return out
}

// scanLabel names a component the way the reference does: by its key when
// it is an entry of a $referenced_components map, else by its id, its
// name, or as a last resort its pointer.
func scanLabel(ptr string, n *compile.Node) string {
	toks := compile.SplitPointer(ptr)
	if len(toks) >= 2 && toks[len(toks)-2] == "$referenced_components" {
		return toks[len(toks)-1]
	}
	if id := n.Get("id").StringOr(""); id != "" {
		return id
	}
	if name := n.Get("name").StringOr(""); name != "" {
		return name
	}
	if ptr == "" {
		return "(root)"
	}
	return ptr
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
