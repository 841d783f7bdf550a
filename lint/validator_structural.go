package lint

import (
	"strings"

	"github.com/oastui/oastui/compile"
)

// The structural check mirrors the reference's zod flowSchema (reference
// §9.2): non-strict objects (unknown keys pass), one finding per problem,
// with zod v4's message texts prefixed by the dotted path as the reference
// prints them ("inputs.0.type: Invalid input: expected string, received
// undefined"). Only the root Flow is checked, plus the ParallelFlowNodes of
// its $referenced_components, as in the reference. The output-port
// `cinatra` annotation is any object (today's platform reads only its
// artifact; see object_type_namespace and object_type_retired).

type valStruct struct {
	v    *valCtx
	path valPath
}

func (s *valStruct) report(msg string) {
	d := s.path.dotted()
	if d != "" {
		msg = d + ": " + msg
	}
	s.v.report(s.path.pointer(), RuleOASStructural, msg)
}

func (s *valStruct) push(k string) { s.path = s.path.key(k) }
func (s *valStruct) pushIndex(i int) {
	s.path = s.path.index(i)
}
func (s *valStruct) pop() { s.path = s.path[:len(s.path)-1] }

func zodType(expected string, n *compile.Node) string {
	return "Invalid input: expected " + expected + ", received " + valTypeName(n)
}

// field runs fn on member k of obj with the path extended.
func (s *valStruct) field(obj *compile.Node, k string, fn func(n *compile.Node)) {
	s.push(k)
	fn(obj.Get(k))
	s.pop()
}

func (s *valStruct) literal(want string) func(*compile.Node) {
	return func(n *compile.Node) {
		if got, ok := n.Str(); !ok || got != want {
			s.report(`Invalid input: expected "` + want + `"`)
		}
	}
}

func (s *valStruct) str(n *compile.Node) {
	if !n.Is(compile.String) {
		s.report(zodType("string", n))
	}
}

func (s *valStruct) optStr(n *compile.Node) {
	if n != nil {
		s.str(n)
	}
}

func (s *valStruct) nullableOptStr(n *compile.Node) {
	if n != nil && n.Kind != compile.Null {
		s.str(n)
	}
}

func (s *valStruct) optRecord(n *compile.Node) {
	if n != nil && n.Kind != compile.Object {
		s.report(zodType("record", n))
	}
}

func (s *valStruct) enum(values ...string) func(*compile.Node) {
	return func(n *compile.Node) {
		if got, ok := n.Str(); ok {
			for _, v := range values {
				if got == v {
					return
				}
			}
		}
		s.report(`Invalid option: expected one of "` + strings.Join(values, `"|"`) + `"`)
	}
}

// object reports a non-object and says whether to look inside.
func (s *valStruct) object(n *compile.Node) bool {
	if !n.Is(compile.Object) {
		s.report(zodType("object", n))
		return false
	}
	return true
}

// array reports a non-array, else runs item on every element.
func (s *valStruct) array(n *compile.Node, item func(*compile.Node)) {
	if !n.Is(compile.Array) {
		s.report(zodType("array", n))
		return
	}
	for i, it := range n.Items {
		s.pushIndex(i)
		item(it)
		s.pop()
	}
}

func (s *valStruct) componentRef(n *compile.Node) {
	if !s.v.slowStructural && refOK(n) {
		return // nothing to report (the fields below, at once)
	}
	if s.object(n) {
		s.field(n, "$component_ref", s.str)
	}
}

func (s *valStruct) property(n *compile.Node) {
	if !s.v.slowStructural && propertyOK(n) {
		return
	}
	if !s.object(n) {
		return
	}
	s.field(n, "title", s.str)
	s.field(n, "type", s.str)
	s.field(n, "format", s.optStr)
	s.field(n, "description", s.optStr)
	s.field(n, "cinatra", func(c *compile.Node) {
		if c != nil {
			s.object(c)
		}
	})
}

func (s *valStruct) controlEdge(n *compile.Node) {
	if !s.v.slowStructural && controlEdgeOK(n) {
		return
	}
	if !s.object(n) {
		return
	}
	s.field(n, "component_type", s.literal("ControlFlowEdge"))
	s.field(n, "name", s.str)
	s.field(n, "id", s.optStr)
	s.field(n, "description", s.optStr)
	s.field(n, "metadata", s.optRecord)
	s.field(n, "from_node", s.componentRef)
	s.field(n, "to_node", s.componentRef)
	s.field(n, "from_branch", s.nullableOptStr)
}

func (s *valStruct) dataEdge(n *compile.Node) {
	if !s.v.slowStructural && dataEdgeOK(n) {
		return
	}
	if !s.object(n) {
		return
	}
	s.field(n, "component_type", s.literal("DataFlowEdge"))
	s.field(n, "name", s.str)
	s.field(n, "id", s.optStr)
	s.field(n, "description", s.optStr)
	s.field(n, "metadata", s.optRecord)
	s.field(n, "source_node", s.componentRef)
	s.field(n, "source_output", s.str)
	s.field(n, "destination_node", s.componentRef)
	s.field(n, "destination_input", s.str)
}

func (s *valStruct) parallelFlowNode(n *compile.Node) {
	s.field(n, "id", s.optStr)
	s.field(n, "name", s.str)
	s.field(n, "description", s.nullableOptStr)
	s.field(n, "metadata", func(m *compile.Node) {
		if m != nil && m.Kind != compile.Null {
			s.optRecord(m)
		}
	})
	for _, k := range []string{"inputs", "outputs"} {
		s.field(n, k, func(a *compile.Node) {
			if a != nil && a.Kind != compile.Null {
				s.array(a, s.property)
			}
		})
	}
	s.field(n, "subflows", func(a *compile.Node) {
		if !a.Is(compile.Array) {
			s.report(zodType("array", a))
			return
		}
		if len(a.Items) == 0 {
			s.report("Too small: expected array to have >=1 items")
			return
		}
		for i, it := range a.Items {
			if !it.Is(compile.Object) {
				s.pushIndex(i)
				s.report("Invalid input")
				s.pop()
			}
		}
	})
}

// checkStructural reports every structural problem of the root Flow.
func (v *valCtx) checkStructural() {
	s := &valStruct{v: v, path: make(valPath, 0, 16)}
	root := v.root
	if !s.object(root) {
		return
	}
	s.field(root, "agentspec_version", s.literal("26.1.0"))
	s.field(root, "component_type", s.literal("Flow"))
	s.field(root, "id", s.str)
	s.field(root, "name", s.str)
	s.field(root, "metadata", func(m *compile.Node) {
		if !s.object(m) {
			return
		}
		s.field(m, "cinatra", func(c *compile.Node) {
			if !s.object(c) {
				return
			}
			s.field(c, "type", s.enum("orchestrator", "leaf", "node", "flow"))
			s.field(c, "hitlScreens", func(h *compile.Node) {
				if h != nil {
					s.array(h, s.str)
				}
			})
		})
	})
	s.field(root, "inputs", func(a *compile.Node) { s.array(a, s.property) })
	s.field(root, "outputs", func(a *compile.Node) { s.array(a, s.property) })
	s.field(root, "start_node", s.componentRef)
	s.field(root, "nodes", func(a *compile.Node) { s.array(a, s.componentRef) })
	s.field(root, "control_flow_connections", func(a *compile.Node) { s.array(a, s.controlEdge) })
	s.field(root, "data_flow_connections", func(a *compile.Node) {
		if a != nil {
			s.array(a, s.dataEdge)
		}
	})
	s.field(root, "$referenced_components", func(r *compile.Node) {
		if !r.Is(compile.Object) {
			s.report(zodType("record", r))
			return
		}
		for _, m := range valEntries(r) {
			if compile.ComponentType(m.Value) != "ParallelFlowNode" {
				continue
			}
			s.push(m.Key)
			s.parallelFlowNode(m.Value)
			s.pop()
		}
	})
}

// The shortcuts: what the field-by-field checks above accept, in one
// expression each, without extending the path or calling a check per
// field. Nearly every edge, port and reference of a file is valid, and
// the checks report nothing for it; one that is not is checked field by
// field as before. TestStructuralShortcutsSameAsFields holds them to the
// checks.

func isStrNode(n *compile.Node) bool   { return n != nil && n.Kind == compile.String }
func isOptStr(n *compile.Node) bool    { return n == nil || n.Kind == compile.String }
func isOptRecord(n *compile.Node) bool { return n == nil || n.Kind == compile.Object }
func isLiteral(n *compile.Node, want string) bool {
	return n != nil && n.Kind == compile.String && n.Text == want
}

// refOK: componentRef reports nothing.
func refOK(n *compile.Node) bool {
	return n != nil && n.Kind == compile.Object && isStrNode(n.Get("$component_ref"))
}

// propertyOK, controlEdgeOK and dataEdgeOK read the members they check
// in one pass over the object, each switch case keeping the last member
// of its key: what Get returns for it (the last wins), without a scan of
// the members per field (oldPropertyOK and the others in the tests are
// the Get expressions they replaced).

// propertyOK: property reports nothing.
func propertyOK(n *compile.Node) bool {
	if n == nil || n.Kind != compile.Object {
		return false
	}
	var title, typ, format, desc, cin *compile.Node
	for i := range n.Members {
		switch m := &n.Members[i]; m.Key {
		case "title":
			title = m.Value
		case "type":
			typ = m.Value
		case "format":
			format = m.Value
		case "description":
			desc = m.Value
		case "cinatra":
			cin = m.Value
		}
	}
	return isStrNode(title) && isStrNode(typ) && isOptStr(format) && isOptStr(desc) && isOptRecord(cin)
}

// controlEdgeOK: controlEdge reports nothing.
func controlEdgeOK(n *compile.Node) bool {
	if n == nil || n.Kind != compile.Object {
		return false
	}
	var ct, name, id, desc, meta, from, to, b *compile.Node
	for i := range n.Members {
		switch m := &n.Members[i]; m.Key {
		case "component_type":
			ct = m.Value
		case "name":
			name = m.Value
		case "id":
			id = m.Value
		case "description":
			desc = m.Value
		case "metadata":
			meta = m.Value
		case "from_node":
			from = m.Value
		case "to_node":
			to = m.Value
		case "from_branch":
			b = m.Value
		}
	}
	return isLiteral(ct, "ControlFlowEdge") && isStrNode(name) &&
		isOptStr(id) && isOptStr(desc) && isOptRecord(meta) &&
		refOK(from) && refOK(to) &&
		(b == nil || b.Kind == compile.Null || b.Kind == compile.String)
}

// dataEdgeOK: dataEdge reports nothing.
func dataEdgeOK(n *compile.Node) bool {
	if n == nil || n.Kind != compile.Object {
		return false
	}
	var ct, name, id, desc, meta, src, srcOut, dst, dstIn *compile.Node
	for i := range n.Members {
		switch m := &n.Members[i]; m.Key {
		case "component_type":
			ct = m.Value
		case "name":
			name = m.Value
		case "id":
			id = m.Value
		case "description":
			desc = m.Value
		case "metadata":
			meta = m.Value
		case "source_node":
			src = m.Value
		case "source_output":
			srcOut = m.Value
		case "destination_node":
			dst = m.Value
		case "destination_input":
			dstIn = m.Value
		}
	}
	return isLiteral(ct, "DataFlowEdge") && isStrNode(name) &&
		isOptStr(id) && isOptStr(desc) && isOptRecord(meta) &&
		refOK(src) && isStrNode(srcOut) && refOK(dst) && isStrNode(dstIn)
}
