package lint

import (
	"slices"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestSimulateLoad pins the replay of pyagentspec's deserialisation order
// (refscope.go, simulateLoad): which references it meets before a loaded
// $referenced_components block defines them, and which it meets at all.
func TestSimulateLoad(t *testing.T) {
	const llm = `{"component_type": "VllmConfig", "id": "llm", "name": "llm", "model_id": "m", "url": "http://x"}`
	flow := func(nodes string) string {
		return `{"component_type": "Flow", "id": "f", "name": "f",
		  "start_node": {"$component_ref": "s"}, "nodes": ` + nodes + `, "control_flow_connections": [],
		  "$referenced_components": {
		    "s": {"component_type": "StartNode", "id": "s", "name": "s"},
		    "a": {"component_type": "LlmNode", "id": "a", "name": "a", "prompt_template": "x",
		          "metadata": {"deep": {"x": {"$component_ref": "llm"}}},
		          "llm_config": {"$component_ref": "llm"}},
		    "b": {"component_type": "EndNode", "id": "b", "name": "b", "$referenced_components": {"llm": ` + llm + `}}
		  }}`
	}
	for _, tc := range []struct {
		name      string
		src       string
		registry  []string
		early     []string
		unreached []string // refs it never meets
	}{
		{"definition loaded after the reference", flow(`[{"$component_ref": "s"}, {"$component_ref": "a"}, {"$component_ref": "b"}]`), nil,
			[]string{"/$referenced_components/a/llm_config"}, []string{"/$referenced_components/a/metadata/deep/x"}},
		{"definition loaded before the reference", flow(`[{"$component_ref": "s"}, {"$component_ref": "b"}, {"$component_ref": "a"}]`), nil,
			nil, []string{"/$referenced_components/a/metadata/deep/x"}},
		{"the registry is looked up first", flow(`[{"$component_ref": "s"}, {"$component_ref": "a"}, {"$component_ref": "b"}]`), []string{"llm"},
			nil, []string{"/$referenced_components/a/metadata/deep/x"}},
		{"a library loads each entry with a fresh table", `{"$referenced_components": {
		    "a": {"component_type": "LlmNode", "id": "a", "name": "a", "prompt_template": "x", "llm_config": {"$component_ref": "llm"}},
		    "b": {"component_type": "EndNode", "id": "b", "name": "b", "$referenced_components": {"llm": ` + llm + `}}}}`, nil,
			[]string{"/$referenced_components/a/llm_config"}, nil},
		{"a root reference merges its block first", `{"$component_ref": "a", "$referenced_components": {
		    "a": {"component_type": "LlmNode", "id": "a", "name": "a", "prompt_template": "x", "llm_config": {"$component_ref": "llm"}},
		    "llm": ` + llm + `}}`, nil, nil, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			doc := compile.ParseDocFile("agent.json", []byte(tc.src))
			if doc.Root == nil {
				t.Fatal("fixture does not parse")
			}
			ri := (&compile.Agent{Flow: doc}).Model().Uses()
			early, met := simulateLoad(doc.Root, ri, func(id string) bool { return slices.Contains(tc.registry, id) })
			got := sortedKeys(pointerSet(early))
			if !slices.Equal(got, tc.early) {
				t.Errorf("met too early: %q, want %q", got, tc.early)
			}
			var unreached []string
			reached := pointerSet(met)
			for _, u := range ri.All {
				if !reached[u.Ptr] {
					unreached = append(unreached, u.Ptr)
				}
			}
			if !slices.Equal(unreached, tc.unreached) {
				t.Errorf("never met: %q, want %q", unreached, tc.unreached)
			}
		})
	}
}
