package compile

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// StructuralIssue is one problem found by ValidateFlowStructural: the path
// of keys and indexes where it is, and the reference's (zod) message.
type StructuralIssue struct {
	Path    []string
	Message string
}

// String is the reference's form: `<path joined by ".">: <message>`.
func (i StructuralIssue) String() string { return strings.Join(i.Path, ".") + ": " + i.Message }

// Pointer is the issue's place as an RFC 6901 JSON Pointer.
func (i StructuralIssue) Pointer() string { return Pointer(i.Path...) }

// ValidateFlowStructural checks the root of a flow file against the
// reference's structural schema (validateOasFlowStructural, reference
// cinatra.md §9.2): agentspec_version "26.1.0", component_type "Flow",
// id/name strings, metadata.cinatra.type, the required arrays and their
// element shapes, then the strict ParallelFlowNode check of every top-level
// $referenced_components entry. Unknown keys are allowed. Messages are
// those of zod v4, in the order zod reports them.
func ValidateFlowStructural(root *Node) []StructuralIssue {
	var out []StructuralIssue
	path := &zpath{segs: make([]zseg, 0, 8)}
	if !accepts(flowSchema, root) {
		flowSchema.check(root, path, &out)
	}
	refs := root.Get("$referenced_components")
	if refs.Is(Object) {
		for _, e := range entries(refs) {
			id, c := e.Key, e.Value
			if c.Is(Object) && c.Get("component_type").StringOr("") == "ParallelFlowNode" {
				if accepts(parallelFlowNodeSchema, c) {
					continue
				}
				var sub []StructuralIssue
				parallelFlowNodeSchema.check(c, path, &sub)
				for _, s := range sub {
					out = append(out, StructuralIssue{Path: append([]string{"$referenced_components", id}, s.Path...), Message: s.Message})
				}
			}
		}
	}
	return out
}

// accepts says that s.check(n) reports no issue, without a path and
// without an interface call per value: a valid flow of 33,000 nodes was
// checked value by value, each field's place pushed and popped, to report
// nothing. False says only that n must be checked: a schema accepts
// answers for nothing (none today) is always checked.
func accepts(s zschema, n *Node) bool {
	switch s := s.(type) {
	case zString:
		return s.skip(n) || (n != nil && n.Kind == String && (s.min <= 0 || length(n) >= s.min))
	case zLiteral:
		return s.skip(n) || (n != nil && n.Kind == String && n.Text == s.val)
	case zBool:
		return s.skip(n) || (n != nil && n.Kind == Bool)
	case zRecord:
		return s.skip(n) || (n != nil && n.Kind == Object)
	case zRefOrRecord:
		return n != nil && n.Kind == Object
	case zUnknown:
		return true
	case zEnum:
		if s.skip(n) {
			return true
		}
		if n != nil && n.Kind == String {
			for _, v := range s.vals {
				if n.Text == v {
					return true
				}
			}
		}
		return false
	case zArray:
		if s.skip(n) {
			return true
		}
		if n == nil || n.Kind != Array || (s.min > 0 && len(n.Items) < s.min) {
			return false
		}
		for _, it := range n.Items {
			if !accepts(s.elem, it) {
				return false
			}
		}
		return true
	case zObject:
		if s.skip(n) {
			return true
		}
		if n == nil || n.Kind != Object || s.strict {
			return false
		}
		for _, f := range s.fields {
			if !accepts(f.schema, n.Get(f.key)) {
				return false
			}
		}
		return true
	}
	return false
}

// uniqueKeys lists an object's keys in JavaScript order: the first
// occurrence's place, duplicates once, integer-like keys first ascending.
func uniqueKeys(n *Node) []string {
	seen := map[string]bool{}
	var ints []uint64
	intKey := map[uint64]string{}
	var keys []string
	for _, m := range n.Members {
		if seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		if u, ok := arrayIndexKey(m.Key); ok {
			ints = append(ints, u)
			intKey[u] = m.Key
			continue
		}
		keys = append(keys, m.Key)
	}
	if len(ints) == 0 {
		return keys
	}
	sort.Slice(ints, func(i, j int) bool { return ints[i] < ints[j] })
	out := make([]string, 0, len(ints)+len(keys))
	for _, u := range ints {
		out = append(out, intKey[u])
	}
	return append(out, keys...)
}

// arrayIndexKey: a canonical array index ("0", "17"; not "01", not ≥ 2³²−1).
func arrayIndexKey(k string) (uint64, bool) {
	if k == "" || (len(k) > 1 && k[0] == '0') {
		return 0, false
	}
	u, err := strconv.ParseUint(k, 10, 64)
	if err != nil || u >= 1<<32-1 {
		return 0, false
	}
	return u, true
}

// entries lists an object's members as JSON.parse leaves them, in
// JavaScript order: one per key, the last duplicate's value.
func entries(n *Node) []Member {
	if sourceOrderIsJSOrder(n) {
		return n.Members // read only: every caller ranges over it
	}
	last := make(map[string]*Node, len(n.Members))
	for _, m := range n.Members {
		last[m.Key] = m.Value
	}
	keys := uniqueKeys(n)
	out := make([]Member, len(keys))
	for i, k := range keys {
		out[i] = Member{Key: k, Value: last[k]}
	}
	return out
}

// sourceOrderIsJSOrder: n's members are already what entries returns
// (no key repeated, none an array index, which JavaScript lists first):
// the common case, answered without allocating.
func sourceOrderIsJSOrder(n *Node) bool {
	ms := n.Members
	indexed := n.keys != nil && n.keys.n == len(ms)
	// An index holding one entry per member says no key repeats, without
	// a look-up per member (a Flow's $referenced_components: one per node).
	distinct := indexed && len(n.keys.last) == len(ms)
	for i, m := range ms {
		if k := m.Key; k != "" && k[0] >= '0' && k[0] <= '9' {
			if _, ok := arrayIndexKey(k); ok {
				return false
			}
		}
		if distinct {
			continue
		}
		if indexed {
			if n.keys.last[m.Key] != i {
				return false
			}
			continue
		}
		for j := 0; j < i; j++ {
			if ms[j].Key == m.Key {
				return false
			}
		}
	}
	return true
}

// A tiny subset of zod, enough for the reference's schemas.
type zschema interface {
	check(n *Node, path *zpath, out *[]StructuralIssue)
}

// zpath is the place being checked, kept as keys and indexes and made
// strings only when an issue is reported: a valid flow of 33,000 nodes
// allocated a path and an index string per value checked (0.43 million
// allocations, 21 MB) to report nothing.
type zpath struct{ segs []zseg }

// zseg is a key, or (key "" and idx ≥ 0) an array index.
type zseg struct {
	key string
	idx int
}

func (p *zpath) key(k string) *zpath { p.segs = append(p.segs, zseg{key: k, idx: -1}); return p }
func (p *zpath) index(i int) *zpath  { p.segs = append(p.segs, zseg{idx: i}); return p }
func (p *zpath) pop()                { p.segs = p.segs[:len(p.segs)-1] }

// strings is the path as the issue reports it.
func (p *zpath) strings() []string {
	if p == nil {
		return nil
	}
	out := make([]string, len(p.segs))
	for i, s := range p.segs {
		if s.idx >= 0 {
			out[i] = strconv.Itoa(s.idx)
		} else {
			out[i] = s.key
		}
	}
	return out
}

type zopt struct {
	optional bool // undefined accepted
	nullable bool // null accepted
}

func (o zopt) skip(n *Node) bool {
	return (n == nil && o.optional) || (n != nil && n.Kind == Null && o.nullable)
}

func received(n *Node) string {
	if n == nil {
		return "undefined"
	}
	switch n.Kind {
	case Null:
		return "null"
	case Bool:
		return "boolean"
	case Number:
		return "number"
	case String:
		return "string"
	case Array:
		return "array"
	}
	return "object"
}

// addIssue reports msg at path (the caller's slice, not kept).
func addIssue(out *[]StructuralIssue, path []string, msg string) {
	*out = append(*out, StructuralIssue{Path: append([]string(nil), path...), Message: msg})
}

// issueAt reports msg at the place a schema is checking.
func issueAt(out *[]StructuralIssue, path *zpath, msg string) {
	*out = append(*out, StructuralIssue{Path: path.strings(), Message: msg})
}

func expected(out *[]StructuralIssue, path *zpath, what string, n *Node) {
	issueAt(out, path, fmt.Sprintf("Invalid input: expected %s, received %s", what, received(n)))
}

type zString struct {
	zopt
	min int
}

func (s zString) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if s.skip(n) {
		return
	}
	if n == nil || n.Kind != String {
		expected(out, path, "string", n)
		return
	}
	if s.min > 0 && length(n) < s.min {
		issueAt(out, path, fmt.Sprintf("Too small: expected string to have >=%d characters", s.min))
	}
}

type zBool struct{ zopt }

func (s zBool) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if s.skip(n) {
		return
	}
	if n == nil || n.Kind != Bool {
		expected(out, path, "boolean", n)
	}
}

type zLiteral struct {
	zopt
	val string
}

func (s zLiteral) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if s.skip(n) {
		return
	}
	if n == nil || n.Kind != String || n.Text != s.val {
		issueAt(out, path, fmt.Sprintf("Invalid input: expected %q", s.val))
	}
}

type zEnum struct {
	zopt
	vals []string
}

func (s zEnum) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if s.skip(n) {
		return
	}
	if n != nil && n.Kind == String {
		for _, v := range s.vals {
			if n.Text == v {
				return
			}
		}
	}
	q := make([]string, len(s.vals))
	for i, v := range s.vals {
		q[i] = strconv.Quote(v)
	}
	issueAt(out, path, "Invalid option: expected one of "+strings.Join(q, "|"))
}

type zUnknown struct{}

func (zUnknown) check(*Node, *zpath, *[]StructuralIssue) {}

type zRecord struct{ zopt }

func (s zRecord) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if s.skip(n) {
		return
	}
	if n == nil || n.Kind != Object {
		expected(out, path, "record", n)
	}
}

type zArray struct {
	zopt
	elem zschema
	min  int
}

func (s zArray) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if s.skip(n) {
		return
	}
	if n == nil || n.Kind != Array {
		expected(out, path, "array", n)
		return
	}
	for i, it := range n.Items {
		s.elem.check(it, path.index(i), out)
		path.pop()
	}
	if s.min > 0 && len(n.Items) < s.min {
		issueAt(out, path, fmt.Sprintf("Too small: expected array to have >=%d items", s.min))
	}
}

type zField struct {
	key    string
	schema zschema
}

type zObject struct {
	zopt
	fields []zField
	strict bool
}

func (s zObject) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if s.skip(n) {
		return
	}
	if n == nil || n.Kind != Object {
		expected(out, path, "object", n)
		return
	}
	for _, f := range s.fields {
		f.schema.check(n.Get(f.key), path.key(f.key), out)
		path.pop()
	}
	if s.strict {
		var unknown []string
		for _, k := range uniqueKeys(n) {
			known := false
			for _, f := range s.fields {
				if f.key == k {
					known = true
					break
				}
			}
			if !known {
				unknown = append(unknown, strconv.Quote(k))
			}
		}
		switch len(unknown) {
		case 0:
		case 1:
			issueAt(out, path, "Unrecognized key: "+unknown[0])
		default:
			issueAt(out, path, "Unrecognized keys: "+strings.Join(unknown, ", "))
		}
	}
}

// zUnion of a component ref and a record: any object passes.
type zRefOrRecord struct{}

func (zRefOrRecord) check(n *Node, path *zpath, out *[]StructuralIssue) {
	if n == nil || n.Kind != Object {
		issueAt(out, path, "Invalid input")
	}
}

var (
	componentRefSchema = zObject{fields: []zField{{"$component_ref", zString{}}}}
	propertySchema     = zObject{fields: []zField{
		{"title", zString{}},
		{"type", zString{}},
		{"format", zString{zopt: zopt{optional: true}}},
		{"description", zString{zopt: zopt{optional: true}}},
		{"items", zUnknown{}},
		{"cinatra", zObject{zopt: zopt{optional: true}, fields: []zField{{"artifact", zRecord{zopt{optional: true}}}}}},
	}}
	controlFlowEdgeSchema = zObject{fields: []zField{
		{"component_type", zLiteral{val: "ControlFlowEdge"}},
		{"name", zString{}},
		{"id", zString{zopt: zopt{optional: true}}},
		{"description", zString{zopt: zopt{optional: true}}},
		{"metadata", zRecord{zopt{optional: true}}},
		{"from_node", componentRefSchema},
		{"to_node", componentRefSchema},
		{"from_branch", zString{zopt: zopt{optional: true, nullable: true}}},
	}}
	dataFlowEdgeSchema = zObject{fields: []zField{
		{"component_type", zLiteral{val: "DataFlowEdge"}},
		{"name", zString{}},
		{"id", zString{zopt: zopt{optional: true}}},
		{"description", zString{zopt: zopt{optional: true}}},
		{"metadata", zRecord{zopt{optional: true}}},
		{"source_node", componentRefSchema},
		{"source_output", zString{}},
		{"destination_node", componentRefSchema},
		{"destination_input", zString{}},
	}}
	flowSchema = zObject{fields: []zField{
		{"agentspec_version", zLiteral{val: "26.1.0"}},
		{"component_type", zLiteral{val: "Flow"}},
		{"id", zString{}},
		{"name", zString{}},
		{"metadata", zObject{fields: []zField{{"cinatra", zObject{fields: []zField{
			{"type", zEnum{vals: []string{"orchestrator", "leaf", "node", "flow"}}},
			{"hitlScreens", zArray{zopt: zopt{optional: true}, elem: zString{}}},
		}}}}}},
		{"inputs", zArray{elem: propertySchema}},
		{"outputs", zArray{elem: propertySchema}},
		{"start_node", componentRefSchema},
		{"nodes", zArray{elem: componentRefSchema}},
		{"control_flow_connections", zArray{elem: controlFlowEdgeSchema}},
		{"data_flow_connections", zArray{zopt: zopt{optional: true}, elem: dataFlowEdgeSchema}},
		{"$referenced_components", zRecord{}},
	}}
	nullableOptional       = zopt{optional: true, nullable: true}
	parallelFlowNodeSchema = zObject{fields: []zField{
		{"component_type", zLiteral{val: "ParallelFlowNode"}},
		{"id", zString{zopt: zopt{optional: true}}},
		{"name", zString{}},
		{"description", zString{zopt: nullableOptional}},
		{"metadata", zRecord{nullableOptional}},
		{"inputs", zArray{zopt: nullableOptional, elem: propertySchema}},
		{"outputs", zArray{zopt: nullableOptional, elem: propertySchema}},
		{"subflows", zArray{elem: zRefOrRecord{}, min: 1}},
	}}
)
