package lint

import (
	"strings"

	"github.com/oastui/oastui/compile"
)

// llm_bridge_missing_agent_id (SPEC §3.3): an ApiNode that calls the LLM
// bridge must say which agent calls it. Unlike the reference, bridge
// ApiNodes inside nested subflows are checked too (email-outreach keeps its
// bridge calls there).

var (
	RuleLLMBridgeMissingAgentID = &Rule{Code: "llm_bridge_missing_agent_id", Severity: compile.Blocker, Group: "scan",
		Doc: "an ApiNode calling /api/llm-bridge has no non-empty agent_id in data, body or config, so the bridge cannot resolve the calling agent's compiled toolboxes"}
)

var passLLMBridge = &Check{Name: "scan_bridge", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkLLMBridgeWiring}

const bridgeMessage = " targets /api/llm-bridge but data/body/config lacks agent_id; the bridge cannot resolve the calling agent's compiled toolboxes"

func checkLLMBridgeWiring(p *Pass) {
	doc := p.Agent.Flow
	for _, c := range scanComponents(doc.Root) {
		if c.Type != "ApiNode" {
			continue
		}
		u, ok := c.Node.Get("url").Str()
		if !ok || !isLLMBridgeURL(u) || bridgeHasAgentID(c.Node) {
			continue
		}
		p.Report(doc, c.Ptr(), RuleLLMBridgeMissingAgentID, "ApiNode "+c.Label()+bridgeMessage)
	}
}

// isLLMBridgeURL: the path ends with /api/llm-bridge ({{CINATRA_BASE_URL}}/api/llm-bridge,
// /api/llm-bridge, https://host/api/llm-bridge). Going further than the
// reference, a query string, a fragment or a trailing slash does not hide
// the bridge.
func isLLMBridgeURL(u string) bool {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		u = u[:i]
	}
	u = strings.TrimRight(strings.TrimSpace(u), "/")
	return strings.HasSuffix(u, "/api/llm-bridge")
}

// bridgeHasAgentID: data, body or config is an object whose agent_id is a
// string with something other than spaces in it (a template counts).
func bridgeHasAgentID(n *compile.Node) bool {
	for _, k := range []string{"data", "body", "config"} {
		if s, ok := n.Get(k).Get("agent_id").Str(); ok && strings.TrimSpace(s) != "" {
			return true
		}
	}
	return false
}
