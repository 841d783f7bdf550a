package locate

import (
	"errors"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/internal/testshared"
)

// apply applies a fix's edits to src (edits of one file, in any order).
func apply(src []byte, fx edit.Fix) []byte {
	es := slices.Clone(fx.Edits)
	sort.Slice(es, func(i, j int) bool { return es[i].Start > es[j].Start })
	out := slices.Clone(src)
	for _, e := range es {
		out = append(out[:e.Start:e.Start], append([]byte(e.New), out[e.End:]...)...)
	}
	return out
}

func TestRename(t *testing.T) {
	a := loadScoped(t)
	x := New(a)
	src := a.Flow.Src
	cases := []struct {
		name, needle string
		nth, delta   int
		newName      string
		id           string // the component renamed ("" when refused)
		edits        int
		err          string // a RenameError containing this; "nothing" for ErrNothingToRename
	}{
		{"key", `"sub_node": {`, 0, 3, "worker", "sub_node", 6, ""}, // key, id, nodes, 2 control edges, data edge
		{"ref on an edge", `"$component_ref": "sub_node"`, 2, 20, "worker", "sub_node", 6, ""},
		{"ref's first char", `"$component_ref": "sub_node"`, 0, 19, "worker", "sub_node", 6, ""},
		{"the id equal to its key", `"id": "sub_node"`, 0, 9, "worker", "sub_node", 6, ""},
		{"inner own scope", `"$component_ref": "ie"`, 0, 20, "inner_end", "ie", 4, ""}, // key, id, nodes, edge
		{"outer scope from the inner flow", `"$component_ref": "shared_tool"`, 0, 22, "tool-2", "shared_tool", 3, ""},
		{"a component that is not a node", `"llm": {`, 0, 2, "llm_cfg", "llm", 1, ""}, // its id differs: key only
		{"same name", `"e": {`, 0, 1, "e", "e", 0, ""},
		{"uuid", `"e": {`, 0, 1, "13f2fc32-f442-49fb-b7cc-142a240bb8bc", "e", 4, ""},
		{"registry", `"$component_ref": "builtin_thing"`, 0, 20, "x", "", 0, "registry"},
		{"unresolved", `"$component_ref": "nowhere"`, 0, 20, "x", "", 0, "no component"},
		{"id differing from its key", `"id": "llm-config-1"`, 0, 9, "x", "", 0, "differs from the component's key"},
		{"whitespace", `"nodes": [`, 0, 9, "x", "", 0, "nothing"},
		{"a name", `"name": "Sub"`, 0, 10, "x", "", 0, "nothing"},
		{"a port", `"source_output": "q"`, 0, 18, "x", "", 0, "nothing"},
		{"collides in this scope", `"sub_node": {`, 0, 3, "e", "", 0, `"e" is already a component key in this scope`},
		{"collides in another scope", `"sub_node": {`, 0, 3, "is", "", 0, "in another scope"},
		{"inner collides with outer", `"$component_ref": "ie"`, 0, 20, "s", "", 0, "in another scope"},
		{"collides with the registry", `"sub_node": {`, 0, 3, "builtin_thing", "", 0, "registry"},
		{"collides with an id", `"sub_node": {`, 0, 3, "inner", "", 0, "already the id of another component"},
		{"collides with a key-less id", `"sub_node": {`, 0, 3, "llm-config-1", "", 0, "already the id"},
		{"empty", `"sub_node": {`, 0, 3, "", "", 0, "not a valid component id"},
		{"space", `"sub_node": {`, 0, 3, "a b", "", 0, "not a valid"},
		{"dot: a sensitive field ref", `"sub_node": {`, 0, 3, "a.b", "", 0, "not a valid"},
		{"leading dash", `"sub_node": {`, 0, 3, "-a", "", 0, "not a valid"},
		{"quote", `"sub_node": {`, 0, 3, `a"b`, "", 0, "not a valid"},
		{"placeholder", `"sub_node": {`, 0, 3, "{{x}}", "", 0, "not a valid"},
		{"non-ASCII", `"sub_node": {`, 0, 3, "café", "", 0, "not a valid"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			off := offsetOf(t, src, c.needle, c.nth, c.delta)
			fx, err := x.Rename(a.Flow.Path, off, c.newName)
			if c.err != "" {
				var re *RenameError
				switch {
				case c.err == "nothing" && !errors.Is(err, ErrNothingToRename):
					t.Fatalf("err = %v, want ErrNothingToRename", err)
				case c.err != "nothing" && (!errors.As(err, &re) || !strings.Contains(err.Error(), c.err)):
					t.Fatalf("err = %v, want a RenameError with %q", err, c.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			r, err := x.PrepareRename(a.Flow.Path, off)
			if err != nil || r.ID != c.id || string(src[r.Span.Start:r.Span.End]) != c.id || r.Span.Start > off || r.Span.End < off-1 {
				t.Errorf("prepare = %+v %v (%q)", r, err, src[r.Span.Start:r.Span.End])
			}
			if len(fx.Edits) != c.edits {
				t.Fatalf("%d edits, want %d: %+v", len(fx.Edits), c.edits, fx.Edits)
			}
			for _, e := range fx.Edits {
				if string(src[e.Start:e.End]) != c.id || e.New != c.newName || e.Path != a.Flow.Path {
					t.Errorf("edit %+v replaces %q", e, src[e.Start:e.End])
				}
			}
			if c.edits == 0 {
				return
			}
			// the renamed document: every ref still resolves, the new key
			// has as many references as the old one had
			out := apply(src, fx)
			b := reload(t, a, out)
			if b.Flow.Root == nil {
				t.Fatal(b.Flow.Err)
			}
			y := New(b)
			compile.WalkNodes(b.Flow.Root, func(n *compile.Node) bool {
				if id, ok := compile.RefID(n); ok && id != "nowhere" {
					s, ok := y.At(b.Flow.Path, n.Get("$component_ref").Offset+1)
					if !ok || s.Target.Scope == compile.RefUnresolved {
						t.Errorf("%s (%s) no longer resolves", id, compile.PointerOf(n))
					}
				}
				return true
			})
			if strings.Contains(string(out), `"$component_ref": "`+c.id+`"`) || strings.Contains(string(out), `"`+c.id+`": {`) {
				t.Errorf("%q is left in the document", c.id)
			}
		})
	}
}

// reload loads src as the flow file of a (same registry).
func reload(t *testing.T, a *compile.Agent, src []byte) *compile.Agent {
	t.Helper()
	b, err := compile.Load(a.Flow.Path, compile.LoadOptions{RegistryPath: a.Registry.Path,
		Overlay: map[string][]byte{a.Flow.Path: src, a.Registry.Path: a.Registry.Src}})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A ref that reaches its component only through a sibling subtree's
// block, or in a root that is no Flow (the SDKs' one table of keys), is
// renamed with it; a YAML plain scalar keeps reading as a string.
func TestRenameSiblingAndYAML(t *testing.T) {
	dir := t.TempDir()
	flow := filepath.Join(dir, "flow.json")
	sib := `{"component_type": "Flow", "id": "f", "name": "F",
  "tools": [{"component_type": "X", "$referenced_components": {"t": {"component_type": "ServerTool", "id": "t", "name": "T"}}},
            {"component_type": "Y", "tool": {"$component_ref": "t"}}],
  "$referenced_components": {}}`
	a, err := compile.Load(flow, compile.LoadOptions{Overlay: map[string][]byte{flow: []byte(sib)}})
	if err != nil {
		t.Fatal(err)
	}
	fx, err := New(a).Rename(flow, strings.Index(sib, `"t": {`)+1, "tt")
	if err != nil || len(fx.Edits) != 3 {
		t.Fatalf("sibling: %+v %v", fx, err)
	}
	if got := string(apply([]byte(sib), fx)); strings.Count(got, `"tt"`) != 3 {
		t.Errorf("sibling rename: %s", got)
	}

	// a root that is no Flow (a plugin's ExtendedFlow): its one block
	ext := strings.Replace(sib, `"component_type": "Flow"`, `"component_type": "ExtendedFlow"`, 1)
	a, err = compile.Load(flow, compile.LoadOptions{Overlay: map[string][]byte{flow: []byte(ext)}})
	if err != nil {
		t.Fatal(err)
	}
	fx, err = New(a).Rename(flow, strings.Index(ext, `"$component_ref": "t"`)+19, "tt")
	if err != nil || len(fx.Edits) != 3 {
		t.Fatalf("ExtendedFlow: %+v %v", fx, err)
	}

	yflow := filepath.Join(dir, "flow.yaml")
	y := "component_type: Flow\nid: f\nname: F\nstart_node: {$component_ref: s}\nnodes:\n  - $component_ref: s\n$referenced_components:\n  s:\n    component_type: StartNode\n    id: s\n    name: S\n"
	a, err = compile.Load(yflow, compile.LoadOptions{Overlay: map[string][]byte{yflow: []byte(y)}})
	if err != nil || a.Flow.Root == nil {
		t.Fatal(err)
	}
	x := New(a)
	at := strings.Index(y, "  s:") + 2
	if _, err := x.Rename(yflow, at, "123"); err == nil || !strings.Contains(err.Error(), "YAML") {
		t.Errorf("a YAML number: %v", err)
	}
	fx, err = x.Rename(yflow, at, "start")
	if err != nil || len(fx.Edits) != 4 {
		t.Fatalf("yaml: %+v %v", fx, err)
	}
	want := strings.NewReplacer("ref: s}", "ref: start}", "ref: s\n", "ref: start\n", "  s:", "  start:", "id: s\n", "id: start\n").Replace(y)
	if got := string(apply([]byte(y), fx)); got != want {
		t.Errorf("yaml rename:\n%s\nwant\n%s", got, want)
	}
}

func TestComplete(t *testing.T) {
	a := loadScoped(t)
	x := New(a)
	src := a.Flow.Src
	cases := []struct {
		name, needle string
		nth, delta   int
		context      string
		want         string // the candidates' texts, space-separated
	}{
		{"edge endpoint: the flow's nodes", `"from_node": {"$component_ref": "s"}`, 0, 33, CompleteRef, "s e sub_node"},
		{"edge endpoint at its closing quote", `"to_node": {"$component_ref": "sub_node"}`, 0, 38, CompleteRef, "s e sub_node"},
		{"start_node: StartNodes", `"start_node": {"$component_ref": "s"}`, 0, 34, CompleteRef, "s"},
		{"nodes entry: node components", `"nodes": [{"$component_ref": "s"}`, 0, 30, CompleteRef, "s e sub_node"},
		{"a tool: every scope", `"tools": [{"$component_ref": "shared_tool"}`, 0, 31, CompleteRef,
			"is ie s e shared_tool llm sub_node builtin_thing"},
		{"inner edge endpoint", `"from_node": {"$component_ref": "is"}`, 0, 33, CompleteRef, "is ie"},
		{"source_output", `"source_output": "q"`, 0, 18, CompletePort, "q"},
		{"destination_input", `"destination_input": "q"`, 0, 22, CompletePort, "q"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			off := offsetOf(t, src, c.needle, c.nth, c.delta)
			got, ok := x.Complete(a.Flow.Path, off)
			if !ok || got.Context != c.context {
				t.Fatalf("Complete = %+v %v", got, ok)
			}
			var texts []string
			for _, it := range got.Items {
				texts = append(texts, it.Text)
			}
			if strings.Join(texts, " ") != c.want {
				t.Errorf("candidates %q, want %q", strings.Join(texts, " "), c.want)
			}
			if got.Span.Start > off || got.Span.End < off || src[got.Span.Start-1] != '"' || src[got.Span.End] != '"' {
				t.Errorf("span %+v does not hold the string's content around %d", got.Span, off)
			}
		})
	}
	// kinds and details of a ref's candidates
	c, _ := x.Complete(a.Flow.Path, offsetOf(t, src, `"tools": [{"$component_ref": "shared_tool"`, 0, 31))
	byText := map[string]Candidate{}
	for _, it := range c.Items {
		byText[it.Text] = it
	}
	if it := byText["shared_tool"]; it.ComponentType != "ServerTool" || it.Name != "tool" || it.Scope != "outer scope (flow outer)" || it.Node {
		t.Errorf("shared_tool: %+v", it)
	}
	if it := byText["is"]; it.Scope != "own scope" || !it.Node || it.ComponentType != "StartNode" {
		t.Errorf("is: %+v", it)
	}
	if it := byText["builtin_thing"]; it.Scope != "registry" || it.Name != "reg" {
		t.Errorf("builtin_thing: %+v", it)
	}
	port, _ := x.Complete(a.Flow.Path, offsetOf(t, src, `"source_output": "q"`, 0, 18))
	if len(port.Items) != 1 || port.Items[0].ComponentType != "string" {
		t.Errorf("port: %+v", port)
	}
	ct, ok := x.Complete(a.Flow.Path, offsetOf(t, src, `"component_type": "ServerTool"`, 0, 20))
	if !ok || ct.Context != CompleteType || !slices.ContainsFunc(ct.Items, func(c Candidate) bool { return c.Text == "StartNode" }) ||
		slices.ContainsFunc(ct.Items, func(c Candidate) bool { return c.Text == "Node" }) || len(ct.Items) < 20 {
		t.Errorf("component types: %d %+v", len(ct.Items), ok)
	}
	// nowhere else
	for _, c := range []struct {
		needle string
		delta  int
	}{
		{`"$component_ref": "s"`, 1},  // the key
		{`"$component_ref": "s"`, 18}, // the opening quote
		{`"$component_ref": "s"`, 21}, // after the closing quote
		{`"name": "Sub"`, 10},         // another string
		{`"nodes": [`, 9},             // whitespace
	} {
		if got, ok := x.Complete(a.Flow.Path, offsetOf(t, src, c.needle, 0, c.delta)); ok {
			t.Errorf("%s+%d: %+v", c.needle, c.delta, got)
		}
	}
	// a string not closed yet (the document does not parse): as if closed at the cursor
	open := strings.Replace(scoped, `"to_node": {"$component_ref": "sub_node"}}`, `"to_node": {"$component_ref": "su}}`, 1)
	b := reload(t, a, []byte(open))
	if b.Flow.Root != nil {
		t.Fatal("the open string parses")
	}
	at := strings.Index(open, `"su}}`) + 3
	if c, ok := New(b).Complete(b.Flow.Path, at); !ok || len(c.Items) != 3 || c.Span.End != at || open[c.Span.Start:c.Span.End] != "su" {
		t.Errorf("open string: %+v %v", c, ok)
	}
	for _, bad := range []int{at - 3, at + 1, 0, len(open)} { // before the string, past the brace, the ends
		if c, ok := New(b).Complete(b.Flow.Path, bad); ok {
			t.Errorf("open string, at %d: %+v", bad, c)
		}
	}
	if _, ok := x.Complete(a.Registry.Path, 20); ok {
		t.Error("completion in the registry file")
	}
	if _, ok := New(nil).Complete("x", 0); ok {
		t.Error("completion without an agent")
	}
}

// BenchmarkComplete: completion at an edge endpoint of the largest corpus
// agent, in the parsed file and in the same file with that string still
// open (parsed again with a quote at the cursor); rename of that node.
//
//	go test ./locate -run '^$' -bench 'Complete|Rename' -benchmem
func BenchmarkComplete(b *testing.B) {
	dir := testshared.Dir(b, "corpus", "cinatra", "agents", "cinatra-ai", "blog-pipeline-agent")
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	src := string(a.Flow.Src)
	ref := `"$component_ref": "emit_ideas_payload"`
	at := strings.Index(src, ref) + len(ref) - 1
	x := New(a)
	b.Run("parsed", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, ok := x.Complete(a.Flow.Path, at); !ok {
				b.Fatal("no completion")
			}
		}
	})
	open := src[:at-len("emit_ideas_payload")] + src[at+1:] // the value and its closing quote removed
	o, err := compile.Load(a.Flow.Path, compile.LoadOptions{Overlay: map[string][]byte{a.Flow.Path: []byte(open)}})
	if err != nil || o.Flow.Root != nil {
		b.Fatal("the open string parses", err)
	}
	y := New(o)
	b.Run("open string", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, ok := y.Complete(o.Flow.Path, at-len("emit_ideas_payload")); !ok {
				b.Fatal("no completion")
			}
		}
	})
	b.Run("rename", func(b *testing.B) {
		for i := 0; i < b.N; i++ {
			if _, err := x.Rename(a.Flow.Path, at-1, "emit_payload"); err != nil {
				b.Fatal(err)
			}
		}
	})
}
