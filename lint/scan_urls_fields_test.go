package lint

import (
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// urlFieldsByTypeRef is the map urlFields was read from before it became
// a switch: the oracle of TestURLFieldsAsMap.
var urlFieldsByTypeRef = map[string][]string{
	"A2AAgent":   {"agent_url"},
	"MCPToolBox": {"url", "client_transport/url"},
	"MCPTool":    {"client_transport/url"},
	"ApiNode":    {"url"},
	"RemoteTool": {"url"},
}

func urlFieldsRef(componentType string) []string {
	if f, ok := urlFieldsByTypeRef[componentType]; ok {
		return f
	}
	if strings.HasSuffix(componentType, "Transport") && componentType != "StdioTransport" {
		return []string{"url"}
	}
	return nil
}

// TestURLFieldsAsMap: the switch gives the map's fields for every type the
// map names, the transports, and their near misses; urlField reads what
// Path of the split field reads.
func TestURLFieldsAsMap(t *testing.T) {
	types := []string{"", "Flow", "ApiNode", "apinode", "ApiNode ", "RemoteTool", "A2AAgent", "MCPToolBox", "MCPTool", "MCPTools",
		"StdioTransport", "SSETransport", "StreamableHTTPTransport", "Transport", "transport", "LlmNode", "AgentNode", "RemoteToolX"}
	for _, ct := range types {
		if got, want := urlFields(ct), urlFieldsRef(ct); !slices.Equal(got, want) {
			t.Errorf("urlFields(%q) = %q, want %q", ct, got, want)
		}
	}
	d := compile.ParseDoc("t.json", []byte(`{"url": "a", "client_transport": {"url": "b", "x": {"url": "c"}}, "agent_url": 1}`))
	for _, field := range []string{"url", "client_transport/url", "agent_url", "client_transport/x/url", "missing/url", "url/url", "client_transport"} {
		if got, want := urlField(d.Root, field), d.Root.Path(strings.Split(field, "/")...); got != want {
			t.Errorf("urlField(%q) = %v, want %v", field, got, want)
		}
	}
}
