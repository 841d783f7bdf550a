package flowgraph

import (
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// subflowsBefore is addSubflows as it was: each subflow resolved where it
// is written, its pointer built and its type read, per node (the oracle).
func subflowsBefore(kind NodeKind, r compile.Resolved, resolve resolver) []string {
	if r.Pointer == "" {
		return nil
	}
	var out []string
	sub := func(v *compile.Node, ptr string) {
		s := resolve(v, ptr)
		if s.Node != nil && s.Pointer != "" && compile.ComponentType(s.Node) == "Flow" {
			out = append(out, s.Pointer)
		}
	}
	switch kind {
	case KindFlow, KindMap:
		if v := r.Node.Get("subflow"); v != nil {
			sub(v, compile.Append(r.Pointer, "subflow"))
		}
	case KindParallel:
		for i, v := range items(r.Node.Get("subflows")) {
			sub(v, compile.AppendIndex(compile.Append(r.Pointer, "subflows"), i))
		}
	}
	return out
}

// subflowsSame checks each node of each flow of a: its Subflows (the
// references resolved once per Build) are those each node resolved on its
// own, and counts the subflows found.
func subflowsSame(t *testing.T, a *compile.Agent) int {
	t.Helper()
	found := 0
	var registry *compile.Node
	if a != nil {
		registry = a.RegistryComponents()
	}
	for _, f := range a.Flows() {
		g := BuildFlow(a, f)
		v := a.Model().FlowOf(f).View()
		resolve := func(n *compile.Node, ptr string) compile.Resolved { return f.Resolve(n, ptr, registry) }
		for i, n := range g.Nodes {
			want := subflowsBefore(n.Kind, v.Nodes[i].Resolved, resolve)
			if !reflect.DeepEqual(n.Subflows, want) {
				t.Errorf("flow %q, node %s: subflows %q, each resolved on its own %q", f.Pointer, n.ID, n.Subflows, want)
			}
			if len(want) > 0 && n.Subflow != want[0] {
				t.Errorf("flow %q, node %s: subflow %q, want %q", f.Pointer, n.ID, n.Subflow, want[0])
			}
			found += len(want)
		}
	}
	return found
}

// TestSubflowRefsResolvedOnce: the subflows a Build resolves once per
// referenced id are those each node resolved where it is written: shared
// references, inline subflows, references to what is no Flow, to nothing,
// to an enclosing Flow's component, MapNodes and ParallelFlowNodes; and the
// corpus.
func TestSubflowRefsResolvedOnce(t *testing.T) {
	src := `{"component_type": "Flow", "id": "f", "name": "F", "start_node": {"$component_ref": "s"},
  "nodes": [{"$component_ref": "s"}, {"$component_ref": "a"}, {"$component_ref": "b"}, {"$component_ref": "c"},
    {"$component_ref": "d"}, {"$component_ref": "e"}, {"$component_ref": "m"}, {"$component_ref": "p"}, {"$component_ref": "x"}],
  "$referenced_components": {
    "s": {"component_type": "StartNode", "id": "s", "name": "Start"},
    "a": {"component_type": "FlowNode", "id": "a", "name": "A", "subflow": {"$component_ref": "sub"}},
    "b": {"component_type": "FlowNode", "id": "b", "name": "B", "subflow": {"$component_ref": "sub"}},
    "c": {"component_type": "FlowNode", "id": "c", "name": "C", "subflow": {"$component_ref": "api"}},
    "d": {"component_type": "FlowNode", "id": "d", "name": "D", "subflow": {"$component_ref": "missing"}},
    "e": {"component_type": "FlowNode", "id": "e", "name": "E", "subflow": {"component_type": "Flow", "id": "inl", "name": "Inline",
      "start_node": {"$component_ref": "is"}, "nodes": [{"$component_ref": "is"}, {"$component_ref": "inner"}],
      "$referenced_components": {"is": {"component_type": "StartNode", "id": "is", "name": "S"},
        "inner": {"component_type": "FlowNode", "id": "inner", "name": "Inner", "subflow": {"$component_ref": "sub"}}}}},
    "m": {"component_type": "MapNode", "id": "m", "name": "M", "subflow": {"$component_ref": "sub"}},
    "p": {"component_type": "ParallelFlowNode", "id": "p", "name": "P", "subflows": [{"$component_ref": "sub"}, {"$component_ref": "missing"},
      {"component_type": "Flow", "id": "pin", "name": "P inline"}, {"$component_ref": "sub"}]},
    "x": {"component_type": "FlowNode", "id": "x", "name": "X", "subflow": "not an object"},
    "api": {"component_type": "ApiNode", "id": "api", "name": "Api"},
    "sub": {"component_type": "Flow", "id": "sub", "name": "Sub", "start_node": {"$component_ref": "ss"}, "nodes": [{"$component_ref": "ss"}],
      "$referenced_components": {"ss": {"component_type": "StartNode", "id": "ss", "name": "S"}}}
  }}`
	a := &compile.Agent{FlowPath: "flow.json", Flow: compile.ParseDoc("flow.json", []byte(src))}
	if n := subflowsSame(t, a); n < 7 {
		t.Fatalf("only %d subflows found", n)
	}
	if n := subflowsSame(t, testAgent(t)); n < 1 {
		t.Fatalf("the test flow: %d subflows", n)
	}
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			a, err := compile.Load(filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			subflowsSame(t, a)
		}
	})
}
