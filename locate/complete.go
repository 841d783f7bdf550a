package locate

import (
	"bytes"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Completion contexts: what the string under the cursor names.
const (
	CompleteRef  = "ref"            // a $component_ref value: component ids in scope
	CompletePort = "port"           // a data edge's source_output / destination_input: the node's outputs / inputs
	CompleteType = "component_type" // a component_type value: the known component types
)

// Candidate is one proposal of a completion.
type Candidate struct {
	Text          string // what replaces the string's content (the raw id, title or type)
	ComponentType string // a component's type (ref), a property's type (port)
	Name          string // a component's display name (sanitised, masked)
	Scope         string // ref: "own scope", "outer scope (flow X)", "registry"
	Node          bool   // ref: a flow node component (type *Node)
}

// Completion is what may replace the content of the string at an offset.
type Completion struct {
	Context string
	Span    Span // the string's content, without its quotes (may be empty)
	Items   []Candidate
}

// Complete proposes values for the JSON string holding offset off of the
// flow file (strictly between its quotes): component ids visible from a
// $component_ref (own scope, outer scopes, the registry; an edge endpoint
// gets the flow's nodes, a nodes entry or start_node node components); the
// outputs or inputs of the node at a data edge's end for source_output /
// destination_input; the known component types for component_type. False
// anywhere else. Proposals whose text would not survive sanitising
// (control characters, a credential) are left out.
//
// A flow file that does not parse because the string at off is not closed
// yet (an editor that does not close quotes as they are typed: Neovim's
// default) is completed as if a quote closed it at off.
func (x *Index) Complete(file string, off int) (Completion, bool) {
	d := x.doc(file)
	if d == nil || x.a == nil || d != x.a.Flow {
		return Completion{}, false
	}
	if d.Root == nil {
		return x.completeUnclosed(d, off)
	}
	n, onKey := d.NodeAt(off)
	if n == nil || onKey || n.Kind != compile.String || n.Offset < 0 || n.Offset >= len(d.Src) || d.Src[n.Offset] != '"' {
		return Completion{}, false
	}
	end := d.ValueEnd(n)
	if off <= n.Offset || off >= end || end-n.Offset < 2 {
		return Completion{}, false
	}
	c := Completion{Span: Span{File: d.Path, Start: n.Offset + 1, End: end - 1}}
	switch n.Key() {
	case "$component_ref":
		c.Context, c.Items = CompleteRef, x.refCandidates(n.Parent())
	case "source_output", "destination_input":
		s, ok := x.portAt(d, n)
		if !ok {
			return Completion{}, false
		}
		c.Context, c.Items = CompletePort, x.portCandidates(s)
	case "component_type":
		c.Context = CompleteType
		for _, t := range compile.ComponentTypes() {
			c.Items = append(c.Items, Candidate{Text: t})
		}
	default:
		return Completion{}, false
	}
	return c, true
}

// nodeType: a flow node's component type (StartNode, ApiNode, a plugin's
// PluginRegexNode, …).
func nodeType(ct string) bool { return strings.HasSuffix(ct, "Node") }

// refCandidates are the components a ref object may name, innermost scope
// first; an edge endpoint gets the flow's nodes (an edge joins nodes of
// its flow), a nodes entry or start_node the node components in scope
// (start_node: StartNodes), when there are any.
func (x *Index) refCandidates(ref *compile.Node) []Candidate {
	ptr := compile.PointerOf(ref)
	f := x.flowOf(ptr)
	var all []Candidate
	seen := map[string]bool{}
	add := func(id string, comp *compile.Node, scope string) {
		if seen[id] || clean(id) != id || id == "" {
			return
		}
		seen[id] = true
		ct := compile.ComponentType(comp)
		all = append(all, Candidate{Text: id, ComponentType: clean(ct), Name: clean(comp.Get("name").StringOr("")), Scope: scope, Node: nodeType(ct)})
	}
	for s := f; s != nil; s = s.Parent {
		scope := "own scope"
		if s != f {
			scope = "outer scope (flow " + clean(s.ID()) + ")"
		}
		if refs := s.Refs(); refs.Is(compile.Object) {
			for _, m := range refs.Members {
				add(m.Key, m.Value, scope)
			}
		}
	}
	if reg := x.a.RegistryComponents(); reg.Is(compile.Object) {
		for _, m := range reg.Members {
			add(m.Key, m.Value, "registry")
		}
	}
	field := ref.Key()
	if p := ref.Parent(); p != nil && p.Kind == compile.Array {
		field = p.Key()
	}
	var out []Candidate
	keep := func(ok func(Candidate) bool) {
		for _, c := range all {
			if ok(c) {
				out = append(out, c)
			}
		}
	}
	switch field {
	case "from_node", "to_node", "source_node", "destination_node":
		if f != nil {
			listed := map[string]bool{}
			for _, it := range itemsOf(f.Node.Get("nodes")) {
				if id, ok := compile.RefID(it); ok {
					listed[id] = true
				}
			}
			keep(func(c Candidate) bool { return listed[c.Text] })
		}
	case "start_node":
		keep(func(c Candidate) bool { return c.ComponentType == "StartNode" })
	case "nodes":
		keep(func(c Candidate) bool { return c.Node })
	}
	if len(out) == 0 {
		return all
	}
	return out
}

// portCandidates are the property titles the node at a data edge's end
// declares on that side (portList).
func (x *Index) portCandidates(s Symbol) []Candidate {
	var out []Candidate
	seen := map[string]bool{}
	props, _ := x.portList(s.Target, s.Port, 0)
	for _, p := range props {
		t, ok := p.Get("title").Str()
		if !ok || t == "" || seen[t] || clean(t) != t {
			continue
		}
		seen[t] = true
		out = append(out, Candidate{Text: t, ComponentType: clean(propType(p))})
	}
	return out
}

// propType is a property's JSON Schema type as written ("string",
// "array", "string|null"), or "".
func propType(p *compile.Node) string {
	t := p.Get("type")
	if s, ok := t.Str(); ok {
		return s
	}
	var parts []string
	for _, it := range itemsOf(t) {
		if s, ok := it.Str(); ok {
			parts = append(parts, s)
		}
	}
	return strings.Join(parts, "|")
}

// completeUnclosed completes in d (which did not parse) with a quote
// inserted at off, when off follows an odd number of unescaped quotes on
// its line: the string there is open. The proposals replace the string's
// content from its opening quote to off.
func (x *Index) completeUnclosed(d *compile.Doc, off int) (Completion, bool) {
	if off <= 0 || off > len(d.Src) {
		return Completion{}, false
	}
	start := bytes.LastIndexByte(d.Src[:off], '\n') + 1
	quotes := 0
	for i := start; i < off; i++ {
		switch d.Src[i] {
		case '\\':
			i++
		case '"':
			quotes++
		}
	}
	if quotes%2 == 0 {
		return Completion{}, false
	}
	patched := make([]byte, 0, len(d.Src)+1)
	patched = append(append(append(patched, d.Src[:off]...), '"'), d.Src[off:]...)
	nd := compile.ParseDocFile(d.Path, patched)
	if nd.Root == nil {
		return Completion{}, false
	}
	a := *x.a // the same agent, with the patched flow file
	a.Flow = nd
	c, ok := New(&a).Complete(d.Path, off)
	if !ok || c.Span.End != off {
		return Completion{}, false
	}
	return c, true
}
