package dryrun

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// flowSpec builds a flow document: nodes id → component (component_type
// and fields; id and name are filled in), edges "a>b" or "a>b:branch",
// data "a.out>b.in" (none: name-based data flow).
type flowSpec struct {
	nodes map[string]map[string]any
	order []string
	edges []string
	data  []string
}

func (s flowSpec) doc() map[string]any {
	refs := map[string]any{}
	var nodes []any
	for _, id := range s.order {
		c := map[string]any{"id": id, "name": id}
		for k, v := range s.nodes[id] {
			c[k] = v
		}
		refs[id] = c
		nodes = append(nodes, map[string]any{"$component_ref": id})
	}
	var cf, df []any
	for _, e := range s.edges {
		ab, br, _ := strings.Cut(e, ":")
		a, b, _ := strings.Cut(ab, ">")
		m := map[string]any{"component_type": "ControlFlowEdge", "name": e, "from_node": map[string]any{"$component_ref": a}, "to_node": map[string]any{"$component_ref": b}}
		if br != "" {
			m["from_branch"] = br
		}
		cf = append(cf, m)
	}
	for _, d := range s.data {
		src, dst, _ := strings.Cut(d, ">")
		a, o, _ := strings.Cut(src, ".")
		b, i, _ := strings.Cut(dst, ".")
		df = append(df, map[string]any{"component_type": "DataFlowEdge", "name": d, "source_node": map[string]any{"$component_ref": a}, "source_output": o,
			"destination_node": map[string]any{"$component_ref": b}, "destination_input": i})
	}
	doc := map[string]any{"agentspec_version": "26.1.0", "component_type": "Flow", "id": "f", "name": "f", "start_node": map[string]any{"$component_ref": s.order[0]},
		"nodes": nodes, "control_flow_connections": cf, "$referenced_components": refs}
	if df != nil {
		doc["data_flow_connections"] = df
	}
	return doc
}

func agentOf(t testing.TB, doc any) *compile.Agent {
	t.Helper()
	src, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &compile.Agent{FlowPath: "f/oas.json", Flow: compile.ParseDoc("f/oas.json", src)}
}

func props(titles ...string) []any {
	var out []any
	for _, t := range titles {
		name, typ, _ := strings.Cut(t, ":")
		if typ == "" {
			typ = "string"
		}
		out = append(out, map[string]any{"title": name, "type": typ})
	}
	return out
}

func comp(typ string, kv ...any) map[string]any {
	m := map[string]any{"component_type": typ}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}

func codes(r *Result) string {
	var out []string
	for _, f := range r.Findings {
		out = append(out, string(f.Severity)+" "+f.Code+" "+f.Pointer)
	}
	return strings.Join(out, "\n")
}

func TestStubFromSchema(t *testing.T) {
	for _, c := range []struct {
		schema string
		want   any
		enum   []any
	}{
		{`{"title":"a","type":"string"}`, "<a>", nil},
		{`{"title":"a","type":"string","default":"x"}`, "x", nil},
		{`{"title":"a","type":"string","enum":["p","q"]}`, "p", []any{"p", "q"}},
		{`{"title":"a","type":"string","enum":["p","q"],"default":"q"}`, "q", []any{"p", "q"}},
		{`{"title":"a","type":"integer","examples":[7]}`, float64(7), nil},
		{`{"title":"a","type":"integer"}`, float64(0), nil},
		{`{"title":"a","type":"boolean"}`, false, nil},
		{`{"title":"a","type":"null"}`, nil, nil},
		{`{"title":"a","type":["number","null"]}`, float64(0), nil},
		{`{"title":"a","type":"array","items":{"type":"string"}}`, []any{"<a[0]>"}, nil},
		{`{"title":"a","type":"array"}`, []any{}, nil},
		{`{"title":"a","type":"object","properties":{"b":{"type":"integer"},"c":{"type":"string"}}}`, map[string]any{"b": float64(0), "c": "<c>"}, nil},
		{`{"title":"a","anyOf":[{"type":"boolean"},{"type":"string"}]}`, false, nil},
		{`{"title":"a"}`, "<a>", nil},
		{`{"title":"a","const":3}`, float64(3), []any{float64(3)}},
	} {
		n, err := compile.Parse([]byte(c.schema))
		if err != nil {
			t.Fatal(err)
		}
		v, en := Stub(n)
		if !reflect.DeepEqual(v, c.want) || !reflect.DeepEqual(en, c.enum) {
			t.Errorf("%s: got %#v %#v, want %#v %#v", c.schema, v, en, c.want, c.enum)
		}
	}
}

func TestFits(t *testing.T) {
	for _, c := range []struct {
		v      any
		schema string
		want   bool
	}{
		{map[string]any{}, `{"type":"string"}`, true},
		{"x", `{"type":"integer"}`, false},
		{true, `{"type":"number"}`, true},
		{float64(1.5), `{"type":"integer"}`, true}, // numbers cast into each other
		{float64(2), `{"type":"number"}`, true},
		{[]any{"a"}, `{"type":"array","items":{"type":"integer"}}`, false},
		{map[string]any{"a": 1.0}, `{"type":"object","required":["a"]}`, true},
		{map[string]any{}, `{"type":"object","required":["a"]}`, false},
		{nil, `{"type":["object","null"]}`, true},
		{nil, `{"type":"object"}`, false},
		{"x", `{}`, true},
	} {
		n, _ := compile.Parse([]byte(c.schema))
		if got := fits(c.v, n, 0); got != c.want {
			t.Errorf("fits(%#v, %s) = %v", c.v, c.schema, got)
		}
	}
}

func TestParseStubs(t *testing.T) {
	s, err := ParseStubs([]byte("version: 1\nnodes:\n  a:\n    x: 1\n    y: [1, {k: v}]\n  f/b:\n    z: null\n"))
	if err != nil {
		t.Fatal(err)
	}
	want := Stubs{"a": {"x": float64(1), "y": []any{float64(1), map[string]any{"k": "v"}}}, "f/b": {"z": nil}}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %#v", s)
	}
	if s, err := ParseStubs([]byte(`{"nodes":{"a":{"x":"y"}}}`)); err != nil || s["a"]["x"] != "y" {
		t.Errorf("JSON: %v %v", s, err)
	}
	if s, err := ParseStubs(nil); err != nil || len(s) != 0 {
		t.Errorf("empty: %v %v", s, err)
	}
	for src, want := range map[string]string{
		"nodes: [1]":           "must map node ids",
		"nodes:\n  a: 3":       `node "a" must map output titles`,
		"version: 2":           "version 2 is not supported",
		"stubs: {}":            `unknown key "stubs"`,
		"- 1":                  "must be a mapping",
		"nodes: {}\n---\nx: 1": "more than one YAML document",
		"nodes: {a: [":         "stubs:",
	} {
		if _, err := ParseStubs([]byte(src)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: error %v, want %q", src, err, want)
		}
	}
}

func TestStubsCheck(t *testing.T) {
	a := agentOf(t, linear())
	if err := (Stubs{"call": {"answer": "x"}, "f/start": {"q": "y"}}).Check(a, nil); err != nil {
		t.Errorf("valid stubs: %v", err)
	}
	err := (Stubs{"nosuch": {"a": 1}, "call": {"nope": 1}}).Check(a, nil)
	if err == nil || !strings.Contains(err.Error(), `node "nosuch" is not a node`) || !strings.Contains(err.Error(), `node "call" has no output "nope" (outputs: answer)`) {
		t.Errorf("got %v", err)
	}
}

func linear() map[string]any {
	return flowSpec{
		order: []string{"start", "call", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"call":  comp("ApiNode", "inputs", props("q"), "outputs", props("answer")),
			"end":   comp("EndNode", "outputs", props("answer")),
		},
		edges: []string{"start>call", "call>end"},
		data:  []string{"start.q>call.q", "call.answer>end.answer"},
	}.doc()
}

func TestLinearTrace(t *testing.T) {
	r := Explore(agentOf(t, linear()), Options{})
	if len(r.Paths) != 1 || r.Paths[0].Status != StatusEnd || r.Paths[0].End != "end" || len(r.Findings) != 0 || r.Note != "explored 1 of 1 paths" {
		t.Fatalf("got %+v", r)
	}
	st := r.Paths[0].Steps[1]
	if st.Node != "call" || st.Inputs[0].From != "start.q" || st.Inputs[0].Value != "<q>" || st.Outputs[0].From != "schema" {
		t.Errorf("call step %+v", st)
	}
	r = Explore(agentOf(t, linear()), Options{Stubs: Stubs{"call": {"answer": "42"}}})
	end := r.Paths[0].Steps[2]
	if end.Inputs[0].Value != "42" || end.Inputs[0].From != "call.answer (stubs)" {
		t.Errorf("canned: %+v", end.Inputs[0])
	}
}

// A loop with an exit is walked MaxVisits times and is no finding; a
// loop without one is dryrun_nontermination, a blocker when no path ends.
func TestLoops(t *testing.T) {
	spec := flowSpec{
		order: []string{"start", "work", "check", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode"),
			"work":  comp("ApiNode", "outputs", props("status")),
			"check": comp("BranchingNode", "inputs", props("status"), "mapping", map[string]any{"again": "again"}),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>work", "work>check", "check>work:again", "check>end:default"},
	}
	r := Explore(agentOf(t, spec.doc()), Options{MaxVisits: 3})
	var statuses []string
	for _, p := range r.Paths {
		statuses = append(statuses, p.Status)
	}
	if got := strings.Join(statuses, ","); got != "loop,end,end,end" || len(r.Findings) != 0 {
		t.Errorf("statuses %s, findings:\n%s", got, codes(r))
	}
	spec.edges = []string{"start>work", "work>check", "check>work:default"}
	r = Explore(agentOf(t, spec.doc()), Options{})
	if got := codes(r); got != "blocker dryrun_nontermination /$referenced_components/check" {
		t.Errorf("findings:\n%s", got)
	}
}

// The state cap stops a branching explosion and says how far it got.
func TestStateCap(t *testing.T) {
	spec := flowSpec{nodes: map[string]map[string]any{"start": comp("StartNode"), "end": comp("EndNode")}, order: []string{"start"}}
	prev := "start"
	for i := range 20 {
		id := fmt.Sprintf("b%d", i)
		spec.nodes[id] = comp("BranchingNode", "mapping", map[string]any{"x": "x"})
		spec.order = append(spec.order, id)
		spec.edges = append(spec.edges, prev+">"+id)
		if i > 0 {
			spec.edges = append(spec.edges, prev+">"+id+":x")
			spec.edges[len(spec.edges)-2] += ":default"
		}
		prev = id
	}
	spec.order = append(spec.order, "end")
	spec.edges = append(spec.edges, prev+">end:default", prev+">end:x")
	r := Explore(agentOf(t, spec.doc()), Options{MaxStates: 500})
	if !r.Capped || r.States != 500 || !strings.HasPrefix(r.Note, "explored ") || !strings.Contains(r.Note, "of at least") || r.Total <= r.Explored {
		t.Errorf("capped %v states %d note %q total %d explored %d", r.Capped, r.States, r.Note, r.Total, r.Explored)
	}
	for _, f := range r.Findings {
		if f.Code == CodeBranchUnreached {
			t.Errorf("a capped run reports %s", f.Message)
		}
	}
}

// Name-based data flow (data_flow_connections null): the latest output of
// the same name feeds an input.
func TestNameBased(t *testing.T) {
	spec := flowSpec{
		order: []string{"start", "a", "b", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"a":     comp("ApiNode", "inputs", props("q"), "outputs", props("x")),
			"b":     comp("ApiNode", "inputs", props("x", "y"), "outputs", props()),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>a", "a>b", "b>end"},
	}
	r := Explore(agentOf(t, spec.doc()), Options{})
	if got := codes(r); got != "blocker dryrun_input_unavailable /$referenced_components/b/inputs/1" {
		t.Errorf("findings:\n%s", got)
	}
	if in := r.Paths[0].Steps[2].Inputs[0]; in.From != "a.x" {
		t.Errorf("x from %q", in.From)
	}
}

// A canned value decides a branch; an unreached branch is then not
// reported (the author chose the path).
func TestStubsDriveBranch(t *testing.T) {
	spec := flowSpec{
		order: []string{"start", "route", "a", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("mode"), "outputs", props("mode")),
			"route": comp("BranchingNode", "inputs", props("mode"), "mapping", map[string]any{"go": "go"}),
			"a":     comp("ApiNode"),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>route", "route>a:go", "route>end:default", "a>end"},
		data:  []string{"start.mode>route.mode"},
	}
	r := Explore(agentOf(t, spec.doc()), Options{})
	if len(r.Paths) != 2 {
		t.Fatalf("%d paths", len(r.Paths))
	}
	r = Explore(agentOf(t, spec.doc()), Options{Stubs: Stubs{"start": {"mode": "go"}}})
	if len(r.Paths) != 1 || r.Paths[0].Steps[1].Branch != "go" || len(r.Findings) != 0 {
		t.Errorf("paths %d, findings:\n%s", len(r.Paths), codes(r))
	}
}

func TestDegenerate(t *testing.T) {
	for name, a := range map[string]*compile.Agent{
		"nil":      nil,
		"unparsed": {Flow: compile.ParseDoc("x.json", []byte(`{`))},
		"array":    {Flow: compile.ParseDoc("x.json", []byte(`[]`))},
		"nostart":  agentOf(t, map[string]any{"component_type": "Flow", "nodes": []any{}}),
	} {
		r := Explore(a, Options{})
		if r.Note == "" || len(r.Paths) != 0 || r.Findings == nil {
			t.Errorf("%s: %+v", name, r)
		}
	}
}

// withSub puts sub (a flow document) into doc's $referenced_components.
func withSub(doc map[string]any, id string, sub map[string]any) map[string]any {
	sub["id"] = id
	doc["$referenced_components"].(map[string]any)[id] = sub
	return doc
}

// A MapNode walks its subflow once, on the first item, and gives
// collected_<y> lists; a CatchExceptionNode also takes its
// caught_exception_branch, where outputs without default are missing.
func TestMapAndCatch(t *testing.T) {
	sub := linear()
	mapFlow := withSub(flowSpec{
		order: []string{"start", "each", "use", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("qs:array"), "outputs", props("qs:array")),
			"each":  comp("MapNode", "subflow", map[string]any{"$component_ref": "sub"}),
			"use":   comp("ApiNode", "inputs", props("collected_answer:array")),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>each", "each>use", "use>end"},
		data:  []string{"start.qs>each.iterated_q", "each.collected_answer>use.collected_answer"},
	}.doc(), "sub", sub)
	r := Explore(agentOf(t, mapFlow), Options{Stubs: Stubs{"start": {"qs": []any{"first", "second"}}}})
	if len(r.Findings) != 0 || len(r.Paths) != 1 {
		t.Fatalf("findings:\n%s", codes(r))
	}
	var inner, use Step
	for _, st := range r.Paths[0].Steps {
		if st.Node == "call" {
			inner = st
		}
		if st.Node == "use" {
			use = st
		}
	}
	if inner.Inputs[0].Value != "first" || !reflect.DeepEqual(use.Inputs[0].Value, []any{"<answer>"}) {
		t.Errorf("inner %+v\nuse %+v", inner.Inputs, use.Inputs)
	}

	catchFlow := withSub(flowSpec{
		order: []string{"start", "try", "use", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"try":   comp("CatchExceptionNode", "subflow", map[string]any{"$component_ref": "sub"}),
			"use":   comp("ApiNode", "inputs", props("answer")),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>try", "try>use", "try>end:caught_exception_branch", "use>end"},
		data:  []string{"start.q>try.q", "try.answer>use.answer"},
	}.doc(), "sub", linear())
	r = Explore(agentOf(t, catchFlow), Options{})
	if len(r.Paths) != 2 || r.Paths[1].Steps[1].Branch != "caught_exception_branch" {
		t.Fatalf("paths %+v", r.Paths)
	}
	if got := codes(r); got != "warning dryrun_subflow_output_missing /$referenced_components/try" {
		t.Errorf("findings:\n%s", got)
	}
}

// A ParallelFlowNode walks its subflows one after the other and gives the
// union of their outputs.
func TestParallelFlow(t *testing.T) {
	second := flowSpec{
		order: []string{"s2", "other", "e2"},
		nodes: map[string]map[string]any{
			"s2":    comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"other": comp("ApiNode", "inputs", props("q"), "outputs", props("extra")),
			"e2":    comp("EndNode", "outputs", props("extra")),
		},
		edges: []string{"s2>other", "other>e2"},
		data:  []string{"s2.q>other.q", "other.extra>e2.extra"},
	}.doc()
	doc := flowSpec{
		order: []string{"start", "both", "use", "end"},
		nodes: map[string]map[string]any{
			"start": comp("StartNode", "inputs", props("q"), "outputs", props("q")),
			"both":  comp("ParallelFlowNode", "subflows", []any{map[string]any{"$component_ref": "one"}, map[string]any{"$component_ref": "two"}}),
			"use":   comp("ApiNode", "inputs", props("answer", "extra")),
			"end":   comp("EndNode"),
		},
		edges: []string{"start>both", "both>use", "use>end"},
		data:  []string{"start.q>both.q", "both.answer>use.answer", "both.extra>use.extra"},
	}.doc()
	withSub(doc, "one", linear())
	withSub(doc, "two", second)
	r := Explore(agentOf(t, doc), Options{})
	if len(r.Paths) != 1 || len(r.Findings) != 0 {
		t.Fatalf("paths %d findings:\n%s", len(r.Paths), codes(r))
	}
	var use Step
	for _, st := range r.Paths[0].Steps {
		if st.Node == "use" {
			use = st
		}
	}
	if len(use.Inputs) != 2 || use.Inputs[0].From != "both.answer" || use.Inputs[1].From != "both.extra" {
		t.Errorf("use inputs %+v", use.Inputs)
	}
}

// TestParseStubsManyKeys: stubs are decoded as loading decodes YAML —
// linear in the keys (go-yaml's decoding into maps compared every key with
// every other: 40,000 keys 3.5 s, 200,000 more than a minute; see
// BenchmarkParseStubs) — with the same refusals: a key given twice, and
// Check names at most maxStubProblems problems.
func TestParseStubsManyKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("nodes:\n")
	n := 20000 / race.Stride(4) // 5,000 keys under -race (one goroutine's parse), 20,000 without
	for i := range n {
		fmt.Fprintf(&b, "  k%d: {o: %d}\n", i, i)
	}
	s, err := ParseStubs([]byte(b.String()))
	if err != nil || len(s) != n || s["k17"]["o"] != float64(17) {
		t.Fatalf("%d stubs, %v", len(s), err)
	}
	if _, err := ParseStubs([]byte("nodes:\n  a: {x: 1}\n  a: {x: 2}\n")); err == nil || !strings.Contains(err.Error(), `line 3:3: key "a" given twice`) {
		t.Errorf("duplicate node: %v", err)
	}
	if _, err := ParseStubs([]byte("nodes:\n  a: {x: 1, x: 2}\n")); err == nil || !strings.Contains(err.Error(), `key "x" given twice`) {
		t.Errorf("duplicate output: %v", err)
	}
	a, err := compile.Load(filepath.Join("..", "testdata", "agents", "oastui", "example-agent"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	err = s.Check(a, nil)
	if err == nil || !strings.HasSuffix(err.Error(), fmt.Sprintf("… and %d more problems", n-maxStubProblems)) || len(err.Error()) > 10000 {
		t.Errorf("Check of %d unknown nodes: %.300s (%d bytes)", n, err, len(err.Error()))
	}
}

func BenchmarkParseStubs(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		var sb strings.Builder
		for i := range n {
			fmt.Fprintf(&sb, "k%d: %d\n", i, i)
		}
		src := []byte(sb.String()) // top-level keys (refused as unknown, after decoding)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			for b.Loop() {
				ParseStubs(src)
			}
		})
	}
}
