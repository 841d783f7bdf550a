package lint

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// TestValidatorScopesAreTheModels: the validator resolves a reference in
// the Flows of the flow model (compile.Flow.Resolve), its own scope being
// the innermost enclosing Flow that has a $referenced_components block: a
// nested Flow without one reads its parent's as its own (no warning); one
// with a block that lacks the id resolves outside it (the outer-scope
// warning); one that defines the id itself shadows the outer definition;
// an id no Flow defines is unresolved.
func TestValidatorScopesAreTheModels(t *testing.T) {
	doc := func(inner string) string {
		return `{"agentspec_version": "26.1.0", "component_type": "Flow", "id": "root", "name": "root",
  "metadata": {"cinatra": {"type": "flow"}}, "inputs": [], "outputs": [],
  "start_node": {"$component_ref": "start"}, "nodes": [{"$component_ref": "start"}, {"$component_ref": "end"}],
  "control_flow_connections": [],
  "$referenced_components": {
    "start": {"component_type": "StartNode", "id": "start", "name": "start", "inputs": []},
    "end": {"component_type": "EndNode", "id": "end", "name": "end", "outputs": []},
    "shared": {"component_type": "EndNode", "id": "shared", "name": "shared", "outputs": []},
    "inner": {"component_type": "Flow", "id": "inner", "name": "inner", "start_node": {"$component_ref": "shared"},
      "nodes": [{"$component_ref": "shared"}]` + inner + `}}}`
	}
	for _, c := range []struct {
		name, inner       string
		outer, unresolved int
	}{
		{"no block: the parent's is its own", ``, 0, 0},
		{"a block without the id", `, "$referenced_components": {"x": {"component_type": "EndNode", "id": "x", "name": "x", "outputs": []}}`, 2, 0},
		{"its own definition shadows", `, "$referenced_components": {"shared": {"component_type": "EndNode", "id": "shared", "name": "shared", "outputs": []}}`, 0, 0},
		{"an id no Flow defines", `, "end_node": {"$component_ref": "nowhere"}`, 0, 1},
	} {
		a := rvWriteFlow(t, doc(c.inner))
		outer, unresolved := 0, 0
		for _, f := range review(a, Options{}).Findings {
			switch f.Code {
			case RuleComponentRefOuterScope.Code:
				outer++
				if !strings.Contains(f.Message, "/$referenced_components/shared") {
					t.Errorf("%s: %s", c.name, f.Message)
				}
			case RuleUnresolvedComponentRef.Code:
				unresolved++
			}
		}
		if outer != c.outer || unresolved != c.unresolved {
			t.Errorf("%s: %d outer-scope and %d unresolved findings, want %d and %d", c.name, outer, unresolved, c.outer, c.unresolved)
		}
	}
}

// TestValidatorWalkMeetsEveryUse: the validator finds its uses in the one
// index (compile.Model.RefNodes) while its walk meets them, so the walk
// must meet every one, in the index's order: on awkward documents (uses
// in arrays, a use that is a Flow, repeated keys, a use under a repeated
// $referenced_components, non-string refs) and on every corpus agent.
func TestValidatorWalkMeetsEveryUse(t *testing.T) {
	check := func(name string, a *compile.Agent) {
		t.Helper()
		want := 0
		compile.WalkNodes(a.Flow.Root, func(n *compile.Node) bool {
			if _, ok := compile.RefID(n); ok {
				want++
			}
			return true
		})
		p := &Pass{Agent: a, Config: &Config{}}
		w := newValWalker(&valCtx{p: p, doc: a.Flow, root: a.Flow.Root, reg: a.RegistryComponents()})
		w.run()
		if len(w.uses) != want || w.next != want {
			t.Errorf("%s: the walk met %d of %d uses in the index, the document has %d", name, w.next, len(w.uses), want)
		}
	}
	for i, src := range []string{
		`{"component_type": "Flow", "id": "r", "nodes": [{"$component_ref": "a"}, [{"$component_ref": "b"}]],
		  "$referenced_components": {"a": {"component_type": "Flow", "$component_ref": "a", "nodes": [{"$component_ref": "b"}]},
		    "b": {"component_type": "EndNode", "x": {"$component_ref": 1}, "y": {"$component_ref": "c", "$component_ref": 2}}}}`,
		`{"component_type": "Flow", "id": "r", "$referenced_components": {"a": {"z": {"$component_ref": "a"}}},
		  "$referenced_components": {"b": {"z": {"$component_ref": 2, "$component_ref": "b"}}}, "w": [[[{"$component_ref": "q"}]]]}`,
	} {
		check(fmt.Sprintf("case %d", i), rvWriteFlow(t, src))
	}
	corpus, slugs := testshared.CorpusAgents(t)
	for _, slug := range slugs {
		check(slug, rvLoad(t, filepath.Join(corpus, "agents", "cinatra-ai", slug)))
	}
}
