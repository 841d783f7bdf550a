package testshared

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/internal/testgit"
)

// nonAgentPacks are packages of today's extensions/ tree that are not
// agents, beside which the corpus agents are placed: a connector, an
// artifact pack (with src/ and a cinatra/ folder of its own), a skill
// (SKILL.md) and a pack with a node_modules/ holding a stray agent.json.
// None has a flow file at a package's flow places, which is how the
// platform tells an agent package apart (reference cinatra.md §17.1).
var nonAgentPacks = map[string]string{
	"cinatra-ai/gmail-connector/package.json":        `{"name":"@cinatra-ai/gmail-connector","version":"0.3.0","cinatra":{"apiVersion":"cinatra.ai/v1","kind":"connector"}}`,
	"cinatra-ai/gmail-connector/src/index.ts":        "export const connector = {};\n",
	"cinatra-ai/email-artifacts/package.json":        `{"name":"@cinatra-ai/email-artifacts","version":"1.0.0","cinatra":{"apiVersion":"cinatra.ai/v1","kind":"artifact"}}`,
	"cinatra-ai/email-artifacts/cinatra/schema.json": `{"type":"object"}`,
	"cinatra-ai/email-artifacts/src/index.ts":        "export {};\n",
	"cinatra-ai/brand-voice-skill/package.json":      `{"name":"@cinatra-ai/brand-voice-skill","version":"0.1.0","cinatra":{"apiVersion":"cinatra.ai/v1","kind":"skill"}}`,
	"cinatra-ai/brand-voice-skill/SKILL.md":          "---\nname: brand-voice\ndescription: Write in the brand's voice.\n---\n\nUse the brand voice.\n",
	"acme/crm-sync/package.json":                     `{"name":"@acme/crm-sync","version":"2.0.0","cinatra":{"kind":"connector"}}`,
	"acme/crm-sync/node_modules/x/agent.json":        `{"component_type":"Flow"}`,
	"acme/crm-sync/README.md":                        "A connector.\n",
}

// NonAgentPacks is how many non-agent packages ExtensionsTree puts beside
// the agents.
const NonAgentPacks = 4

// ExtensionsTree builds today's platform layout of the corpus in a
// temporary directory and returns its extensions/ directory: every corpus
// agent at extensions/cinatra-ai/<slug> (files copied byte for byte), the
// corpus registry at extensions/_shared/cinatra/components.json, and the
// NonAgentPacks packages that are not agents beside them. It skips t
// without the shared corpus.
func ExtensionsTree(t testing.TB) string {
	t.Helper()
	dir, _ := CorpusAgents(t)
	ext := filepath.Join(t.TempDir(), "extensions")
	testgit.CopyTree(t, filepath.Join(dir, "agents", "cinatra-ai"), filepath.Join(ext, "cinatra-ai"))
	testgit.CopyTree(t, filepath.Join(dir, "agents", "_shared"), filepath.Join(ext, "_shared"))
	for rel, body := range nonAgentPacks {
		p := filepath.Join(ext, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return ext
}
