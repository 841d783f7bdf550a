package dryrun

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Stubs are canned outputs per node: node id → output title → value
// (JSON-shaped: string, float64, bool, nil, []any, map[string]any). A node
// id may be written "flow-id/node-id" to pin one flow of the document;
// a bare id applies in every flow of the document. A node of a child agent
// (another package the walk descends into) is written
// "<packageName>#<node-id>" or "<packageName>#<flow-id>/<node-id>", e.g.
// "@acme/gate-agent#save_brief": bare ids never reach into child agents.
// A StartNode's entry sets the flow's inputs. A canned value is concrete: a
// BranchingNode fed by it takes only the branch its value maps to.
type Stubs map[string]map[string]any

// ParseStubs reads a stubs file (YAML or JSON):
//
//	version: 1            # optional
//	nodes:
//	  classify:           # node id, or flow-id/node-id
//	    label: urgent     # output title: value
//	  "@acme/gate-agent#save_brief":   # a child agent's node
//	    briefId: b-1
//
// Unknown top-level keys, a node that is not a mapping and more than one
// document are refused with the reason.
//
// The file is decoded as loading decodes YAML (compile.ParseYAMLDoc: JSON
// is YAML too), which is linear in the keys: go-yaml's decoding into Go
// maps compares every key with every other one of its mapping (200,000
// keys took minutes). A key given twice is refused, as go-yaml did.
func ParseStubs(src []byte) (Stubs, error) {
	doc := compile.ParseYAMLDoc("stubs", src)
	if doc.Err != nil {
		if doc.Err.Msg == "empty YAML document" {
			return Stubs{}, nil
		}
		line, col := doc.Position(doc.Err.Offset)
		return nil, fmt.Errorf("stubs: line %d:%d: %s", line, col, doc.Err.Msg)
	}
	if len(doc.Duplicates) > 0 {
		dup := doc.Duplicates[0]
		line, col := doc.Position(dup.Offset)
		return nil, fmt.Errorf("stubs: line %d:%d: key %q given twice", line, col, dup.Key)
	}
	top := doc.Root
	if top == nil || top.Kind == compile.Null {
		return Stubs{}, nil
	}
	if top.Kind != compile.Object {
		return nil, errors.New("stubs: the file must be a mapping with a `nodes:` key")
	}
	out := Stubs{}
	for _, m := range sortedMembers(top) {
		switch m.Key {
		case "version":
			if v, ok := m.Value.Interface().(float64); !ok || v != 1 {
				return nil, fmt.Errorf("stubs: version %v is not supported (1 is)", m.Value.Interface())
			}
		case "nodes":
			nodes := m.Value
			if nodes.Kind != compile.Object && nodes.Kind != compile.Null {
				return nil, errors.New("stubs: `nodes` must map node ids to their outputs")
			}
			for _, n := range sortedMembers(nodes) {
				if n.Value.Kind != compile.Object {
					return nil, fmt.Errorf("stubs: node %q must map output titles to values, not %s", n.Key, jsonType(n.Value.Interface()))
				}
				out[n.Key] = n.Value.Interface().(map[string]any)
			}
		default:
			return nil, fmt.Errorf("stubs: unknown key %q (want version, nodes)", m.Key)
		}
	}
	return out, nil
}

// sortedMembers are the members of an object sorted by key (none for any
// other node).
func sortedMembers(n *compile.Node) []compile.Member {
	if n == nil || n.Kind != compile.Object {
		return nil
	}
	ms := slices.Clone(n.Members)
	sort.SliceStable(ms, func(i, j int) bool { return ms[i].Key < ms[j].Key })
	return ms
}

// maxStubProblems bounds the problems Check names (a file of 40,000 unknown
// nodes made a 6 MB message).
const maxStubProblems = 20

// childHint ends the error for a node id the document does not have.
const childHint = ` (a child agent's node is written "<packageName>#<node-id>")`

// Check validates stubs against an agent: every node id names a node of
// some Flow of the document (or of the flow given as flow-id/), a
// "<packageName>#…" id a node of that child agent's flows, found with
// children (the loader's look-up, (*compile.Agent).FindAgent, as
// Options.Children), and every output title is an output the node
// declares or infers. Without children, child-agent ids are refused.
func (s Stubs) Check(a *compile.Agent, children func(packageName string) (*compile.Agent, error)) error {
	if len(s) == 0 {
		return nil
	}
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return errors.New("stubs: the agent did not load")
	}
	own := a.PackageName()
	docNodes := nodeIndex(a)
	kids := map[string]map[string][]*node{}
	var problems []string
	for _, key := range sortedKeys(s) {
		id, where, hs := key, a.FlowPath, docNodes[key]
		if pkg, rest, ok := strings.Cut(key, "#"); ok {
			id = rest
			switch {
			case pkg == "" || rest == "":
				problems = append(problems, fmt.Sprintf("node %q: write a child agent's node as \"<packageName>#<node-id>\"", key))
				continue
			case pkg == own:
				hs = docNodes[rest]
			case children == nil:
				problems = append(problems, fmt.Sprintf("node %q: child agent %s cannot be looked up here", key, pkg))
				continue
			default:
				if _, seen := kids[pkg]; !seen {
					kids[pkg] = nil
					if c, err := children(pkg); err == nil && c != nil && c.Flow != nil && c.Flow.Root != nil {
						kids[pkg] = nodeIndex(c)
					}
				}
				if kids[pkg] == nil {
					problems = append(problems, fmt.Sprintf("node %q: child agent %s is not found in the agents/ tree", key, pkg))
					continue
				}
				hs = kids[pkg][rest]
				where = "child agent " + pkg
			}
		}
		if len(hs) == 0 {
			msg := fmt.Sprintf("node %q is not a node of any flow of %s", id, where)
			if !strings.Contains(key, "#") {
				msg += childHint
			}
			problems = append(problems, msg)
			continue
		}
		for _, t := range sortedKeys(s[key]) {
			known := false
			var titles []string
			for _, n := range hs {
				if nests(n.ctype) {
					known = true // outputs come from the subflow; checked when walked
				}
				for _, p := range n.outputs {
					titles = append(titles, p.title)
					if p.title == t {
						known = true
					}
				}
			}
			if !known {
				problems = append(problems, fmt.Sprintf("node %q has no output %q (outputs: %s)", key, t, strings.Join(uniq(titles), ", ")))
			}
		}
	}
	if n := len(problems); n > maxStubProblems {
		problems = append(problems[:maxStubProblems], fmt.Sprintf("… and %d more problems", n-maxStubProblems))
	}
	if len(problems) > 0 {
		return errors.New("stubs: " + strings.Join(problems, "; "))
	}
	return nil
}

// nodeIndex lists the nodes of every Flow of an agent's document by id and
// by flow-id/node-id.
func nodeIndex(a *compile.Agent) map[string][]*node {
	e := newExplorer(a, Options{})
	found := map[string][]*node{}
	for _, f := range a.Flows() {
		m := e.modelOf(a, f, f.Parent == nil)
		for _, n := range m.nodes {
			found[n.id()] = append(found[n.id()], n)
			found[m.id+"/"+n.id()] = append(found[m.id+"/"+n.id()], n)
		}
	}
	return found
}

// stub is the canned value of a node's output, if any: a node of the
// reviewed document by flow-id/node-id or node id, a node of a child
// agent by "<packageName>#" and the same.
func (e *explorer) stub(m *flowModel, nodeID, output string) (any, bool) {
	if len(e.opts.Stubs) == 0 {
		return nil, false
	}
	prefix := ""
	if m.agent != nil && m.agent != e.root {
		prefix = e.pkgs[m.agent]
		if prefix == "" {
			return nil, false // a child agent without a package name: nothing can name it
		}
		prefix += "#"
	}
	for _, k := range []string{prefix + m.id + "/" + nodeID, prefix + nodeID} {
		if v, ok := e.opts.Stubs[k][output]; ok {
			return v, true
		}
	}
	return nil, false
}

// Stub is the value a property's schema stands for: its default, else
// the first enum value, else the first example, else a typed stub
// ("<title>" for a string, 0, false, [stub of items], {stub of each
// property}, null). enum lists the values the schema allows (nil when any).
func Stub(schema *compile.Node) (value any, enum []any) {
	return stubOf(schema, schema.Get("title").StringOr("value"), 0)
}

func stubOf(s *compile.Node, title string, depth int) (any, []any) {
	if en := s.Get("enum"); en.Is(compile.Array) && len(en.Items) > 0 {
		vals := make([]any, len(en.Items))
		for i, it := range en.Items {
			vals[i] = it.Interface()
		}
		if d := s.Get("default"); d != nil {
			return d.Interface(), vals
		}
		return vals[0], vals
	}
	if c := s.Get("const"); c != nil {
		return c.Interface(), []any{c.Interface()}
	}
	if d := s.Get("default"); d != nil {
		return d.Interface(), nil
	}
	if ex := s.Get("examples"); ex.Is(compile.Array) && len(ex.Items) > 0 {
		return ex.Items[0].Interface(), nil
	}
	if ex := s.Get("example"); ex != nil {
		return ex.Interface(), nil
	}
	if depth > 8 {
		return nil, nil
	}
	members := types(s)
	if len(members) == 0 {
		if any := s.Get("anyOf"); any.Is(compile.Array) && len(any.Items) > 0 {
			return stubOf(any.Items[0], title, depth+1)
		}
		if js := s.Get("json_schema"); js.Is(compile.Object) {
			return stubOf(js, title, depth+1)
		}
		return "<" + title + ">", nil
	}
	switch members[0] {
	case "string":
		return "<" + title + ">", nil
	case "integer", "number":
		return float64(0), nil
	case "boolean":
		return false, nil
	case "null":
		return nil, nil
	case "array":
		itemsS := s.Get("items")
		if itemsS == nil {
			itemsS = s.Path("json_schema", "items")
		}
		if itemsS.Is(compile.Object) {
			v, _ := stubOf(itemsS, title+"[0]", depth+1)
			return []any{v}, nil
		}
		return []any{}, nil
	case "object":
		m := map[string]any{}
		ps := s.Get("properties")
		if ps == nil {
			ps = s.Path("json_schema", "properties")
		}
		if ps.Is(compile.Object) {
			for _, mem := range ps.Members {
				m[mem.Key], _ = stubOf(mem.Value, mem.Key, depth+1)
			}
		}
		return m, nil
	}
	return "<" + title + ">", nil
}

// types lists a schema's declared types (type, a type list; anyOf
// members' types), empty when it declares none.
func types(s *compile.Node) []string {
	t := s.Get("type")
	if ts, ok := t.Str(); ok {
		return []string{ts}
	}
	var out []string
	if t.Is(compile.Array) {
		for _, it := range t.Items {
			if ts, ok := it.Str(); ok {
				out = append(out, ts)
			}
		}
		return out
	}
	if any := s.Get("anyOf"); any.Is(compile.Array) {
		for _, it := range any.Items {
			sub := types(it)
			if len(sub) == 0 {
				return nil // an untyped member: anything goes
			}
			out = append(out, sub...)
		}
	}
	return out
}

// jsonType names a JSON-shaped value's type.
func jsonType(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64:
		if x == math.Trunc(x) && !math.IsInf(x, 0) {
			return "integer"
		}
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "unknown"
}

// fits says whether a value can be given to an input of this schema, by
// Agent Spec's castability (reference/agentspec.md §4.3): anything goes to
// an untyped or string input; number, integer and boolean cast into each
// other; arrays by items; objects need the properties the input requires.
// It answers false only when sure.
func fits(v any, s *compile.Node, depth int) bool {
	if depth > 8 {
		return true
	}
	ts := types(s)
	if len(ts) == 0 {
		return true
	}
	vt := jsonType(v)
	for _, t := range ts {
		switch {
		case t == "string":
			return true
		case t == vt, t == "number" && vt == "integer":
			if vt == "array" {
				it := s.Get("items")
				if !it.Is(compile.Object) {
					return true
				}
				ok := true
				for _, x := range v.([]any) {
					if !fits(x, it, depth+1) {
						ok = false
						break
					}
				}
				if ok {
					return true
				}
				continue
			}
			if vt == "object" {
				req := s.Get("required")
				ok := true
				for _, r := range items(req) {
					if k, isStr := r.Str(); isStr {
						if _, has := v.(map[string]any)[k]; !has {
							ok = false
						}
					}
				}
				if ok {
					return true
				}
				continue
			}
			return true
		case (t == "number" || t == "integer" || t == "boolean") && (vt == "number" || vt == "integer" || vt == "boolean"):
			return true
		}
	}
	return false
}

// typeText describes a schema's type for messages and traces.
func typeText(s *compile.Node) string {
	ts := types(s)
	if len(ts) == 0 {
		return "any"
	}
	return strings.Join(ts, "|")
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func uniq(s []string) []string {
	sort.Strings(s)
	var out []string
	for i, x := range s {
		if i == 0 || x != s[i-1] {
			out = append(out, x)
		}
	}
	return out
}

func itoa(i int) string { return fmt.Sprint(i) }
