package compile

import "strings"

// Flow is one Flow component of a document — the root or a nested subflow —
// with the pointer where it is defined and its lexical scope.
type Flow struct {
	Node    *Node
	Pointer string // where the Flow object is in the document ("" for the root)
	Parent  *Flow  // the Flow whose subtree contains this one; nil for the outermost
	Depth   int    // 0 for the outermost Flow

	refsPtr string // RefsPointer, built once
	// refs is Refs, read once (refsRead) for a Flow of a document's model,
	// whose nodes nobody modifies: Lookup asks for it at every reference.
	refs     *Node
	refsRead bool
}

// ID is the Flow's id (or name when it has no id).
func (f *Flow) ID() string {
	if id := f.Node.Get("id").StringOr(""); id != "" {
		return id
	}
	return f.Node.Get("name").StringOr("")
}

// Refs is the Flow's own $referenced_components object, or nil.
func (f *Flow) Refs() *Node {
	if f.refsRead {
		return f.refs
	}
	return f.Node.Get("$referenced_components") // a Flow built by hand
}

// RefsPointer is the pointer of the Flow's $referenced_components.
func (f *Flow) RefsPointer() string {
	if f.refsPtr != "" {
		return f.refsPtr
	}
	return Append(f.Pointer, "$referenced_components") // a Flow built by hand
}

// RefScope says where a $component_ref was found.
type RefScope int

const (
	RefUnresolved RefScope = iota
	RefInline              // not a reference: the component is written in place
	RefLocal               // the Flow's own $referenced_components
	RefOuter               // an enclosing Flow's $referenced_components
	RefRegistry            // the global component registry
	// Found by the flow model (Model.Resolve) only, as the Agent Spec SDKs
	// find what no enclosing Flow defines (Flow.Resolve never gives these):
	RefLexical  // an enclosing component's $referenced_components (not a Flow's)
	RefDocument // a $referenced_components anywhere else in the document
)

// OutsideFlowScopes: the component was found by the flow model's
// document-wide fallbacks (RefLexical, RefDocument), not in the Flow's
// own or enclosing scopes nor the registry.
func (s RefScope) OutsideFlowScopes() bool { return s == RefLexical || s == RefDocument }

// FlowScoped is r as Flow.Resolve gives it: a component found outside the
// Flow's scopes (OutsideFlowScopes) is unresolved there.
func (r Resolved) FlowScoped() Resolved {
	if r.Scope.OutsideFlowScopes() {
		return Resolved{Scope: RefUnresolved}
	}
	return r
}

// RefID returns the id of a {"$component_ref": id} object, and whether n is one.
func RefID(n *Node) (string, bool) {
	if n == nil || n.Kind != Object {
		return "", false
	}
	return n.Get("$component_ref").Str()
}

// Resolved is a component after following a reference.
type Resolved struct {
	Node    *Node    // the component object; nil when unresolved
	Pointer string   // where it is defined ("" for the registry or unresolved)
	Scope   RefScope // where it was found
	Owner   *Flow    // the Flow whose $referenced_components holds it (Local/Outer)
}

// Resolve returns the component n stands for inside Flow f: n itself when it
// is written inline; for a reference, the Flow's own $referenced_components,
// then each enclosing Flow's, then registry (the `components` object of the
// global registry; may be nil).
func (f *Flow) Resolve(n *Node, ptr string, registry *Node) Resolved {
	id, isRef := RefID(n)
	return f.resolveRef(n, ptr, registry, id, isRef)
}

// resolveRef is Resolve with RefID(n) already read (id, isRef).
func (f *Flow) resolveRef(n *Node, ptr string, registry *Node, id string, isRef bool) Resolved {
	if !isRef {
		return Resolved{Node: n, Pointer: ptr, Scope: RefInline, Owner: f}
	}
	if c, s := f.Lookup(id); c != nil {
		scope := RefLocal
		if s != f {
			scope = RefOuter
		}
		return Resolved{Node: c, Pointer: Append(s.RefsPointer(), id), Scope: scope, Owner: s}
	}
	if c := registry.Get(id); c != nil {
		return Resolved{Node: c, Scope: RefRegistry}
	}
	return Resolved{Scope: RefUnresolved}
}

// Lookup is Resolve's search of the Flow's scopes for the definition id,
// without the pointer Resolve builds: the component the Flow's own
// $referenced_components, else the nearest enclosing Flow's, hold under
// id, and that Flow (the Owner Resolve gives, RefLocal when it is f); nil
// and nil when none does (the registry is not asked). A walk that resolves
// every reference builds a pointer only for the few it reports.
func (f *Flow) Lookup(id string) (*Node, *Flow) {
	for s := f; s != nil; s = s.Parent {
		if c := s.Refs().Get(id); c != nil {
			return c, s
		}
	}
	return nil, nil
}

// Flows lists every Flow component of the document in source order: the root
// (when it is a Flow) and every object below it with component_type "Flow".
// Parent is the nearest enclosing Flow by position in the document.
//
// An agent's flow file has its Flows listed once, in its model: callers
// that hold the agent read Agent.Flows.
func Flows(root *Node) []*Flow {
	var nest flowNesting
	WalkNodes(root, func(n *Node) bool {
		if n.Kind == Object && n.Get("component_type").StringOr("") == "Flow" {
			nest.add(n)
		}
		return true
	})
	return nest.flows
}

// flowNesting lists the Flow objects of a document met in source order,
// each with the nearest enclosing Flow (by position) as its Parent.
type flowNesting struct {
	flows []*Flow
	stack []*Flow
}

// add lists the Flow object n.
func (s *flowNesting) add(n *Node) *Flow {
	ptr := PointerOf(n)
	for len(s.stack) > 0 && !isUnder(ptr, s.stack[len(s.stack)-1].Pointer) {
		s.stack = s.stack[:len(s.stack)-1]
	}
	f := &Flow{Node: n, Pointer: ptr, Depth: len(s.stack), refsPtr: Append(ptr, "$referenced_components"),
		refs: n.Get("$referenced_components"), refsRead: true}
	if len(s.stack) > 0 {
		f.Parent = s.stack[len(s.stack)-1]
	}
	s.stack = append(s.stack, f)
	s.flows = append(s.flows, f)
	return f
}

func isUnder(ptr, parent string) bool {
	return parent == "" || strings.HasPrefix(ptr, parent+"/")
}

// ComponentType of an object, or "".
func ComponentType(n *Node) string { return n.Get("component_type").StringOr("") }

// RegistryComponents returns the `components` object of a registry document.
func (a *Agent) RegistryComponents() *Node {
	if a.Registry != nil && a.Registry.Root != nil {
		return a.Registry.Root.Get("components")
	}
	return BuiltinRegistry().Get("components")
}
