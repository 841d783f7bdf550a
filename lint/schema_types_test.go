package lint

import (
	"encoding/json"
	"strings"
)

// schemaComponentTypes: every concrete core type of every embedded schema,
// plus the types a schema names only in a definition.
func schemaComponentTypes() map[string]bool {
	known := map[string]bool{"DbmsVectorChainLlmConfig": true, "OciClientConfigWithGenAiApiKey": true, "LlmConfig": true,
		"SSETransport": true, "StreamableHTTPTransport": true, "OpenAiCompatibleConfig": true}
	ents, _ := schemaFS.ReadDir("schemas")
	for _, e := range ents {
		if !strings.HasSuffix(e.Name(), ".json") {
			continue
		}
		src, err := schemaFS.ReadFile("schemas/" + e.Name())
		if err != nil {
			continue
		}
		var doc any
		if json.Unmarshal(src, &doc) == nil {
			collectComponentTypes(doc, known)
		}
	}
	for a := range abstractTypes {
		delete(known, a)
	}
	return known
}
