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
	if !flowPlan.accepts(root) {
		flowSchema.check(root, path, &out)
	}
	refs := root.Get("$referenced_components")
	if refs.Is(Object) {
		for _, e := range entries(refs) {
			id, c := e.Key, e.Value
			if c.Is(Object) && c.Get("component_type").StringOr("") == "ParallelFlowNode" {
				if parallelFlowNodePlan.accepts(c) {
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

// accepts says that the check of the schema p was planned from
// (planOf) reports no issue on n, without a path and without an
// interface call per value: a valid flow of 33,000 nodes was checked value
// by value, each field's place pushed and popped, to report nothing.
// False says only that n must be checked: a strict object is always
// checked.
func (p *zplan) accepts(n *Node) bool {
	switch p.kind {
	case kString:
		return p.skip(n) || (n != nil && n.Kind == String && (p.min <= 0 || length(n) >= p.min))
	case kObject:
		return p.acceptsObject(n)
	case kLiteral:
		return p.skip(n) || (n != nil && n.Kind == String && n.Text == p.val)
	case kArray:
		if p.skip(n) {
			return true
		}
		if n == nil || n.Kind != Array || (p.min > 0 && len(n.Items) < p.min) {
			return false
		}
		for _, it := range n.Items {
			if !p.elem.accepts(it) {
				return false
			}
		}
		return true
	case kRecord:
		return p.skip(n) || (n != nil && n.Kind == Object)
	case kBool:
		return p.skip(n) || (n != nil && n.Kind == Bool)
	case kRefOrRecord:
		return n != nil && n.Kind == Object
	case kUnknown:
		return true
	case kEnum:
		if p.skip(n) {
			return true
		}
		if n != nil && n.Kind == String {
			for _, v := range p.vals {
				if n.Text == v {
					return true
				}
			}
		}
		return false
	}
	return false
}

// acceptsObject is accepts of an object schema. An object none of whose
// keys repeats (the parser says so: uniq, or a key index with one entry
// per member) is read member by member, each member matched to its field,
// and a field no member names is what its absence says (required); any
// other object, field by field through Get (the last of a repeated key).
func (p *zplan) acceptsObject(n *Node) bool {
	if p.skip(n) {
		return true
	}
	if n == nil || n.Kind != Object {
		return false
	}
	ms := n.Members
	distinct := int(n.uniq) == len(ms) || n.keys != nil && n.keys.n == len(ms) && len(n.keys.last) == len(ms)
	if !distinct || p.byGet {
		for i := range p.fields {
			if f := &p.fields[i]; !f.plan.accepts(n.Get(f.key)) {
				return false
			}
		}
		return true
	}
	if len(ms) == 1 && len(p.fields) == 1 && ms[0].Key == p.fields[0].key {
		// a reference ({"$component_ref": id}), most objects of a flow
		return p.fields[0].plan.accepts(ms[0].Value)
	}
	var found uint64
	for i := range ms {
		k := ms[i].Key
		j := -1 // the field named k: by its length, one comparison
		if len(k) < len(p.byLen) {
			j = int(p.byLen[len(k)])
		}
		switch {
		case j >= 0:
			if p.fields[j].key != k {
				continue
			}
		case j == -1:
			continue // no field is named so
		default: // fields of that length: the first named k
			j = -1
			for jj := range p.fields {
				if p.fields[jj].key == k {
					j = jj
					break
				}
			}
			if j < 0 {
				continue
			}
		}
		if !p.fields[j].plan.accepts(ms[i].Value) {
			return false
		}
		found |= 1 << j
	}
	return found&p.required == p.required
}

// zplan is a schema as accepts reads it: its kind and values at hand, an
// object's fields with the ones whose absence is an issue.
type zplan struct {
	kind zkind
	zopt
	min      int      // kString, kArray
	val      string   // kLiteral
	vals     []string // kEnum
	elem     *zplan   // kArray
	fields   []zpfield
	required uint64 // kObject: bit j set when fields[j] may not be absent
	// kObject: by a key's length, the one field of that length (its
	// index), none (-1) or several (-2)
	byLen []int8
	byGet bool // kObject: read field by field (a key named twice, or over 64 fields)
}

type zpfield struct {
	key  string
	plan *zplan
}

type zkind uint8

const (
	kChecked zkind = iota // accepts nothing: always checked (a strict object)
	kString
	kObject
	kLiteral
	kArray
	kRecord
	kBool
	kRefOrRecord
	kUnknown
	kEnum
)

// planOf plans schema s for accepts.
func planOf(s zschema) *zplan {
	switch s := s.(type) {
	case zString:
		return &zplan{kind: kString, zopt: s.zopt, min: s.min}
	case zLiteral:
		return &zplan{kind: kLiteral, zopt: s.zopt, val: s.val}
	case zBool:
		return &zplan{kind: kBool, zopt: s.zopt}
	case zRecord:
		return &zplan{kind: kRecord, zopt: s.zopt}
	case zRefOrRecord:
		return &zplan{kind: kRefOrRecord}
	case zUnknown:
		return &zplan{kind: kUnknown}
	case zEnum:
		return &zplan{kind: kEnum, zopt: s.zopt, vals: s.vals}
	case zArray:
		return &zplan{kind: kArray, zopt: s.zopt, min: s.min, elem: planOf(s.elem)}
	case zObject:
		if s.strict {
			return &zplan{kind: kChecked}
		}
		p := &zplan{kind: kObject, zopt: s.zopt, byGet: len(s.fields) > 64}
		for j, f := range s.fields {
			fp := planOf(f.schema)
			p.fields = append(p.fields, zpfield{f.key, fp})
			if !fp.accepts(nil) && j < 64 {
				p.required |= 1 << j
			}
			for _, g := range s.fields[:j] {
				p.byGet = p.byGet || g.key == f.key
			}
			for len(p.byLen) <= len(f.key) {
				p.byLen = append(p.byLen, -1)
			}
			if p.byLen[len(f.key)] == -1 {
				p.byLen[len(f.key)] = int8(j)
			} else {
				p.byLen[len(f.key)] = -2
			}
		}
		return p
	}
	return &zplan{kind: kChecked}
}

var (
	flowPlan             = planOf(flowSchema)
	parallelFlowNodePlan = planOf(parallelFlowNodeSchema)
)

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
