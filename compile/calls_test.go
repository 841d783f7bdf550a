package compile

import (
	"reflect"
	"testing"
)

// ChildCalls: a FlowNode (or MapNode…) by its own packageName, an
// AgentNode by the A2AAgent it delegates to (inline or referenced), never
// by an LLM agent; the A2AAgent component itself calls nothing.
func TestChildCalls(t *testing.T) {
	flow := `{"component_type": "Flow", "id": "root", "$referenced_components": {
  "fn": {"component_type": "FlowNode", "id": "fn", "metadata": {"cinatra": {"packageName": "@acme/child-a"}}},
  "mn": {"component_type": "MapNode", "name": "mapper", "metadata": {"cinatra": {"packageName": "@acme/child-b"}}},
  "an": {"component_type": "AgentNode", "id": "an", "agent": {"$component_ref": "remote"}},
  "an2": {"component_type": "AgentNode", "id": "an2", "agent": {"component_type": "A2AAgent", "metadata": {"cinatra": {"packageName": "@acme/child-d"}}}},
  "llm": {"component_type": "AgentNode", "id": "llm", "agent": {"component_type": "Agent"}, "metadata": {"cinatra": {"packageName": "@acme/not-a-call"}}},
  "remote": {"component_type": "A2AAgent", "id": "remote", "metadata": {"cinatra": {"packageName": "@acme/child-c"}}},
  "api": {"component_type": "ApiNode", "id": "api", "metadata": {"cinatra": {"packageName": "@acme/not-a-call"}}},
  "none": {"component_type": "FlowNode", "id": "none"}
}}`
	dir := writePkg(t, map[string]string{"package.json": `{"name":"@acme/parent"}`, "cinatra/oas.json": flow})
	a, err := Load(dir, LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := []ChildCall{
		{Node: "/$referenced_components/fn", Type: "FlowNode", ID: "fn", Package: "@acme/child-a", At: "/$referenced_components/fn/metadata/cinatra/packageName"},
		{Node: "/$referenced_components/mn", Type: "MapNode", ID: "mapper", Package: "@acme/child-b", At: "/$referenced_components/mn/metadata/cinatra/packageName"},
		{Node: "/$referenced_components/an", Type: "AgentNode", ID: "an", Package: "@acme/child-c", At: "/$referenced_components/remote/metadata/cinatra/packageName"},
		{Node: "/$referenced_components/an2", Type: "AgentNode", ID: "an2", Package: "@acme/child-d", At: "/$referenced_components/an2/agent/metadata/cinatra/packageName"},
	}
	if got := a.ChildCalls(); !reflect.DeepEqual(got, want) {
		t.Errorf("ChildCalls:\n%+v\nwant\n%+v", got, want)
	}
}
