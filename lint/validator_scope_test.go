package lint

import (
	"strings"
	"testing"
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
