package dryrun

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"go.yaml.in/yaml/v3"

	"github.com/oastui/oastui/compile"
)

// Stubs are canned outputs per node: node id → output title → value
// (JSON-shaped: string, float64, bool, nil, []any, map[string]any). A node
// id may be written "flow-id/node-id" to pin one flow of the document;
// a bare id applies in every flow. A StartNode's entry sets the flow's
// inputs. A canned value is concrete: a BranchingNode fed by it takes only
// the branch its value maps to.
type Stubs map[string]map[string]any

// ParseStubs reads a stubs file (YAML or JSON):
//
//	version: 1            # optional
//	nodes:
//	  classify:           # node id, or flow-id/node-id
//	    label: urgent     # output title: value
//
// Unknown top-level keys, a node that is not a mapping and more than one
// document are refused with the reason.
func ParseStubs(src []byte) (Stubs, error) {
	dec := yaml.NewDecoder(bytes.NewReader(src))
	var doc any
	if err := dec.Decode(&doc); err != nil {
		if errors.Is(err, io.EOF) {
			return Stubs{}, nil
		}
		return nil, fmt.Errorf("stubs: %v", err)
	}
	var extra any
	if dec.Decode(&extra) == nil {
		return nil, errors.New("stubs: more than one document")
	}
	top, ok := doc.(map[string]any)
	if doc == nil {
		return Stubs{}, nil
	}
	if !ok {
		return nil, errors.New("stubs: the file must be a mapping with a `nodes:` key")
	}
	out := Stubs{}
	for _, k := range sortedKeys(top) {
		switch k {
		case "version":
			if v, ok := normalize(top[k]).(float64); !ok || v != 1 {
				return nil, fmt.Errorf("stubs: version %v is not supported (1 is)", top[k])
			}
		case "nodes":
			nodes, ok := top[k].(map[string]any)
			if !ok && top[k] != nil {
				return nil, errors.New("stubs: `nodes` must map node ids to their outputs")
			}
			for _, id := range sortedKeys(nodes) {
				outs, ok := nodes[id].(map[string]any)
				if !ok {
					return nil, fmt.Errorf("stubs: node %q must map output titles to values, not %s", id, jsonType(normalize(nodes[id])))
				}
				m := map[string]any{}
				for t, v := range outs {
					m[t] = normalize(v)
				}
				out[id] = m
			}
		default:
			return nil, fmt.Errorf("stubs: unknown key %q (want version, nodes)", k)
		}
	}
	return out, nil
}

// Check validates stubs against an agent: every node id names a node of
// some Flow of the document (or of the flow given as flow-id/), and every
// output title is an output the node declares or infers.
func (s Stubs) Check(a *compile.Agent) error {
	if len(s) == 0 {
		return nil
	}
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return errors.New("stubs: the agent did not load")
	}
	e := newExplorer(a, Options{})
	type hit struct{ n *node }
	found := map[string][]hit{}
	for _, f := range compile.Flows(a.Flow.Root) {
		m := e.modelOf(a, f, f.Parent == nil)
		for _, n := range m.nodes {
			found[n.id] = append(found[n.id], hit{n})
			found[m.id+"/"+n.id] = append(found[m.id+"/"+n.id], hit{n})
		}
	}
	var problems []string
	for _, id := range sortedKeys(s) {
		hs := found[id]
		if len(hs) == 0 {
			problems = append(problems, fmt.Sprintf("node %q is not a node of any flow of %s", id, a.FlowPath))
			continue
		}
		for _, t := range sortedKeys(s[id]) {
			known := false
			var titles []string
			for _, h := range hs {
				outs := h.n.outputs
				if nests(h.n.ctype) {
					known = true // outputs come from the subflow; checked when walked
				}
				for _, p := range outs {
					titles = append(titles, p.title)
					if p.title == t {
						known = true
					}
				}
			}
			if !known {
				problems = append(problems, fmt.Sprintf("node %q has no output %q (outputs: %s)", id, t, strings.Join(uniq(titles), ", ")))
			}
		}
	}
	if len(problems) > 0 {
		return errors.New("stubs: " + strings.Join(problems, "; "))
	}
	return nil
}

func (s Stubs) lookup(flowID, nodeID, output string) (any, bool) {
	if m, ok := s[flowID+"/"+nodeID]; ok {
		if v, ok := m[output]; ok {
			return v, true
		}
	}
	if m, ok := s[nodeID]; ok {
		if v, ok := m[output]; ok {
			return v, true
		}
	}
	return nil, false
}

// normalize turns YAML-decoded values into JSON-shaped ones.
func normalize(v any) any {
	switch x := v.(type) {
	case int:
		return float64(x)
	case int64:
		return float64(x)
	case uint64:
		return float64(x)
	case float32:
		return float64(x)
	case map[string]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[k] = normalize(v)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(x))
		for k, v := range x {
			m[fmt.Sprint(k)] = normalize(v)
		}
		return m
	case []any:
		a := make([]any, len(x))
		for i, v := range x {
			a[i] = normalize(v)
		}
		return a
	}
	return v
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
