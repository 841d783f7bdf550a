package locate

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// scoped is a flow whose subflow refers to its own component, to an outer
// one, to the registry and to nothing.
const scoped = `{
  "component_type": "Flow", "id": "outer", "name": "Outer",
  "start_node": {"$component_ref": "s"},
  "nodes": [{"$component_ref": "s"}, {"$component_ref": "sub_node"}, {"$component_ref": "e"}],
  "control_flow_connections": [
    {"component_type": "ControlFlowEdge", "name": "a", "from_node": {"$component_ref": "s"}, "to_node": {"$component_ref": "sub_node"}},
    {"component_type": "ControlFlowEdge", "name": "b", "from_node": {"$component_ref": "sub_node"}, "to_node": {"$component_ref": "e"}}
  ],
  "data_flow_connections": [
    {"component_type": "DataFlowEdge", "name": "d", "source_node": {"$component_ref": "s"}, "source_output": "q", "destination_node": {"$component_ref": "sub_node"}, "destination_input": "q"}
  ],
  "$referenced_components": {
    "s": {"component_type": "StartNode", "id": "s", "name": "Start", "inputs": [{"title": "q", "type": "string"}], "outputs": [{"title": "q", "type": "string"}]},
    "e": {"component_type": "EndNode", "id": "e", "name": "End"},
    "shared_tool": {"component_type": "ServerTool", "id": "shared_tool", "name": "tool"},
    "llm": {"component_type": "VllmConfig", "id": "llm-config-1", "name": "LLM"},
    "sub_node": {"component_type": "FlowNode", "id": "sub_node", "name": "Sub", "inputs": [{"title": "q", "type": "string"}],
      "subflow": {"component_type": "Flow", "id": "inner", "name": "Inner",
        "start_node": {"$component_ref": "is"},
        "nodes": [{"$component_ref": "is"}, {"$component_ref": "ie"}],
        "control_flow_connections": [{"component_type": "ControlFlowEdge", "name": "c", "from_node": {"$component_ref": "is"}, "to_node": {"$component_ref": "ie"}}],
        "data_flow_connections": [],
        "$referenced_components": {
          "is": {"component_type": "StartNode", "id": "is", "name": "is", "tools": [{"$component_ref": "shared_tool"}, {"$component_ref": "builtin_thing"}, {"$component_ref": "nowhere"}]},
          "ie": {"component_type": "EndNode", "id": "ie", "name": "ie"}
        }
      }
    }
  }
}`

const registry = `{"components": {"builtin_thing": {"component_type": "ServerTool", "id": "builtin_thing", "name": "reg"}}}`

func loadScoped(t *testing.T) *compile.Agent {
	t.Helper()
	dir := t.TempDir()
	flow := filepath.Join(dir, "flow.json")
	reg := filepath.Join(dir, "components.json")
	a, err := compile.Load(flow, compile.LoadOptions{RegistryPath: reg, Overlay: map[string][]byte{flow: []byte(scoped), reg: []byte(registry)}})
	if err != nil || a.Flow.Root == nil {
		t.Fatal(err, a.Flow.Err)
	}
	return a
}

// offsetOf is the offset of the n-th (0-based) occurrence of needle, plus delta.
func offsetOf(t *testing.T, src []byte, needle string, n, delta int) int {
	t.Helper()
	off := -1
	for i := 0; i <= n; i++ {
		j := strings.Index(string(src[off+1:]), needle)
		if j < 0 {
			t.Fatalf("%q #%d not found", needle, n)
		}
		off += 1 + j
	}
	return off + delta
}

func text(a *compile.Agent, s Span) string {
	for _, d := range a.Docs() {
		if d.Path == s.File {
			return string(d.Src[s.Start:s.End])
		}
	}
	return "?"
}

func TestDefinitionScopes(t *testing.T) {
	a := loadScoped(t)
	x := New(a)
	src := a.Flow.Src
	cases := []struct {
		name, needle string
		nth          int
		kind         Kind
		scope        compile.RefScope
		defFile      string // "flow", "registry" or "" (none)
		defText      string
	}{
		{"edge endpoint", `"$component_ref": "sub_node"`, 2, KindRef, compile.RefLocal, "flow", `"sub_node"`},
		{"start_node", `"$component_ref": "s"`, 0, KindRef, compile.RefLocal, "flow", `"s"`},
		{"inner own scope", `"$component_ref": "ie"`, 1, KindRef, compile.RefLocal, "flow", `"ie"`},
		{"outer scope", `"$component_ref": "shared_tool"`, 0, KindRef, compile.RefOuter, "flow", `"shared_tool"`},
		{"registry", `"$component_ref": "builtin_thing"`, 0, KindRef, compile.RefRegistry, "registry", `"builtin_thing"`},
		{"unresolved", `"$component_ref": "nowhere"`, 0, KindRef, compile.RefUnresolved, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			off := offsetOf(t, src, c.needle, c.nth, len(`"$component_ref": "`)+1)
			s, ok := x.At(a.Flow.Path, off)
			if !ok || s.Kind != c.kind || s.Target.Scope != c.scope {
				t.Fatalf("At = %+v %v", s, ok)
			}
			def, ok := x.Definition(s)
			switch c.defFile {
			case "":
				if ok {
					t.Fatalf("unresolved has a definition %+v", def)
				}
				return
			case "flow":
				if def.File != a.Flow.Path {
					t.Errorf("definition in %s", def.File)
				}
			case "registry":
				if def.File != a.Registry.Path {
					t.Errorf("definition in %s", def.File)
				}
			}
			if got := text(a, def); got != c.defText {
				t.Errorf("definition text %q, want %q", got, c.defText)
			}
		})
	}
}

func TestReferencesAndHover(t *testing.T) {
	a := loadScoped(t)
	x := New(a)
	src := a.Flow.Src
	key := offsetOf(t, src, `"sub_node": {`, 0, 2)
	s, ok := x.At(a.Flow.Path, key)
	if !ok || s.Kind != KindKey || s.ID != "sub_node" {
		t.Fatalf("At key = %+v %v", s, ok)
	}
	refs := x.References(s, false)
	if len(refs) != 4 { // nodes, two edges' endpoints, the data edge
		t.Errorf("refs = %d, want 4: %+v", len(refs), refs)
	}
	for _, r := range refs {
		if text(a, r) != `"sub_node"` {
			t.Errorf("ref text %q", text(a, r))
		}
	}
	if withDecl := x.References(s, true); len(withDecl) != 5 || text(a, withDecl[0]) != `"sub_node"` || withDecl[0].Start != s.Span.Start {
		t.Errorf("with declaration: %+v", withDecl)
	}
	// outer-scope component: the inner flow's ref counts
	tool, _ := x.At(a.Flow.Path, offsetOf(t, src, `"shared_tool": {`, 0, 1))
	if got := x.References(tool, false); len(got) != 1 {
		t.Errorf("shared_tool refs = %+v", got)
	}
	ref, _ := x.At(a.Flow.Path, offsetOf(t, src, `"$component_ref": "shared_tool"`, 0, 20))
	if c, ok := x.ComponentFacts(ref); !ok || c.ComponentType != "ServerTool" || c.Scope != "outer scope (flow outer)" || c.Refs != 1 || c.Name != "tool" {
		t.Errorf("component facts = %+v %v", c, ok)
	}
	if _, ok := x.Hover(ref); ok {
		t.Error("a tool hovers as a node")
	}

	f, ok := x.Hover(s)
	if !ok {
		t.Fatal("no hover on a node key")
	}
	if f.ID != "sub_node" || f.Kind != "flow" || f.Flow != "outer" || len(f.Inputs) != 1 || f.Inputs[0] != "q: string" ||
		len(f.DataIn) != 1 || f.DataIn[0] != "s.q → q" || f.Subflow == "" {
		t.Errorf("hover facts = %+v", f)
	}
	// inside the component (its name) is the node too; a ref to it as well
	in, ok := x.At(a.Flow.Path, offsetOf(t, src, `"name": "Sub"`, 0, 10))
	if !ok || in.Kind != KindNode || in.Node == nil || in.Node.ID != "sub_node" {
		t.Errorf("inside the node: %+v %v", in, ok)
	}
	if got := x.References(in, false); len(got) != 4 {
		t.Errorf("references from inside the node: %+v", got)
	}
	r, _ := x.At(a.Flow.Path, offsetOf(t, src, `"$component_ref": "s"`, 3, 20))
	if f, ok := x.Hover(r); !ok || f.ID != "s" || len(f.DataOut) != 1 || f.DataOut[0] != "q → sub_node.q" {
		t.Errorf("hover on a ref to s: %+v %v", f, ok)
	}
	// nothing at whitespace; nothing in a file the agent did not read
	if s, ok := x.At(a.Flow.Path, 1); ok {
		t.Errorf("whitespace: %+v", s)
	}
	if _, ok := x.At("/elsewhere.json", 10); ok {
		t.Error("a foreign file has symbols")
	}
}

func TestOutline(t *testing.T) {
	a := loadScoped(t)
	out := New(a).Outline()
	if len(out) != 1 || out[0].Name != "outer" || out[0].Kind != OutlineFlow {
		t.Fatalf("outline = %+v", out)
	}
	var names []string
	for _, c := range out[0].Children {
		names = append(names, c.Kind+":"+c.Name)
	}
	if got := strings.Join(names, " "); got != "node:s node:e node:sub_node flow:inner" {
		t.Errorf("children = %s", got)
	}
	inner := out[0].Children[3]
	if len(inner.Children) != 2 || text(a, inner.Select) != `"subflow"` {
		t.Errorf("inner = %+v (select %q)", inner, text(a, inner.Select))
	}
}

// Every $component_ref of the bundled example and of the largest corpus
// agent resolves to a definition whose key is the ref's id, and is among
// that definition's references; every node hovers with its step.
func TestCorpusAgents(t *testing.T) {
	t.Run("example-agent", func(t *testing.T) {
		checkAgentPositions(t, filepath.Join("..", "testdata", "agents", "oastui", "example-agent"))
	})
	t.Run("blog-pipeline-agent", func(t *testing.T) {
		checkAgentPositions(t, testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", "blog-pipeline-agent"))
	})
}

func checkAgentPositions(t *testing.T, p string) {
	{
		a, err := compile.Load(p, compile.LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		x := New(a)
		d := a.Flow
		refs, steps := 0, 0
		refsOf := map[int]map[int]bool{} // definition start → its references' starts
		compile.WalkNodes(d.Root, func(n *compile.Node) bool {
			id, ok := compile.RefID(n)
			if !ok {
				return true
			}
			str := n.Get("$component_ref")
			s, ok := x.At(d.Path, str.Offset+1)
			if !ok || s.Kind != KindRef || s.ID != id {
				t.Fatalf("%s: at %s: %+v %v", p, compile.PointerOf(n), s, ok)
			}
			def, ok := x.Definition(s)
			if !ok {
				if s.Target.Scope == compile.RefRegistry && a.Registry == nil {
					return true // the built-in registry has no file
				}
				t.Fatalf("%s: %s (%s) has no definition (scope %d)", p, id, compile.PointerOf(n), s.Target.Scope)
			}
			if got := text(a, def); got != `"`+id+`"` {
				t.Errorf("%s: definition of %s is %q", p, id, got)
			}
			if s.Target.Scope != compile.RefRegistry {
				if refsOf[def.Start] == nil {
					key, _ := x.At(d.Path, def.Start+1)
					refsOf[def.Start] = map[int]bool{}
					for _, r := range x.References(key, false) {
						refsOf[def.Start][r.Start] = true
					}
				}
				if !refsOf[def.Start][str.Offset] {
					t.Errorf("%s: %s not among its definition's references", p, compile.PointerOf(n))
				}
			}
			if f, ok := x.Hover(s); ok && len(f.Steps) > 0 {
				steps++
			}
			// completion there proposes the id it holds
			if c, ok := x.Complete(d.Path, str.Offset+1); !ok || !slices.ContainsFunc(c.Items, func(c Candidate) bool { return c.Text == id }) {
				t.Errorf("%s: completion at %s does not propose %s (%d items)", p, compile.PointerOf(n), id, len(c.Items))
			}
			refs++
			return true
		})
		if refs < 20 || steps == 0 {
			t.Errorf("%s: %d refs, %d with steps", p, refs, steps)
		}
		if len(x.Outline()) == 0 {
			t.Errorf("%s: empty outline", p)
		}
		// every data edge's ports lead to a declared property (these two
		// agents declare them all: on the node, a start node's inputs, a
		// FlowNode's subflow)
		compile.WalkNodes(d.Root, func(n *compile.Node) bool {
			if k := n.Key(); (k == "source_output" || k == "destination_input") && n.Kind == compile.String {
				s, _ := x.At(d.Path, n.Offset+1)
				if def, ok := x.Definition(s); !ok || text(a, def) != `"`+n.Text+`"` {
					t.Errorf("%s: port %s has no definition", p, compile.PointerOf(n))
				}
				if c, ok := x.Complete(d.Path, n.Offset+1); !ok || !slices.ContainsFunc(c.Items, func(c Candidate) bool { return c.Text == n.Text }) {
					t.Errorf("%s: completion of port %s does not propose %q", p, compile.PointerOf(n), n.Text)
				}
			}
			return true
		})
	}
}

// A data edge's source_output and destination_input lead to the property
// of the node at that end; hovering them shows that node.
func TestPorts(t *testing.T) {
	a := loadScoped(t)
	x := New(a)
	src := a.Flow.Src
	for _, c := range []struct {
		needle, node string
		inputs       bool
	}{
		{`"source_output": "q"`, "s", false},
		{`"destination_input": "q"`, "sub_node", true},
	} {
		off := offsetOf(t, src, c.needle, 0, len(c.needle)-2)
		s, ok := x.At(a.Flow.Path, off)
		if !ok || s.Kind != KindPort || s.ID != "q" {
			t.Fatalf("%s: %+v %v", c.needle, s, ok)
		}
		def, ok := x.Definition(s)
		comp := a.Flow.Lookup(s.Target.Pointer)
		list := comp.Get("outputs")
		if c.inputs {
			list = comp.Get("inputs")
		}
		if !ok || def.Start != list.Items[0].Get("title").Offset || text(a, def) != `"q"` {
			t.Errorf("%s: definition %+v (%q)", c.needle, def, text(a, def))
		}
		if f, ok := x.Hover(s); !ok || f.ID != c.node {
			t.Errorf("%s: hover %+v", c.needle, f)
		}
		if refs := x.References(s, true); refs != nil {
			t.Errorf("%s: references %+v", c.needle, refs)
		}
	}
}
