package lint

import (
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// llm_bridge_missing_agent_id (SPEC §3.3): an ApiNode that calls the LLM
// bridge must say which agent calls it. Unlike the reference, bridge
// ApiNodes inside nested subflows are checked too (email-outreach keeps its
// bridge calls there).

var (
	RuleLLMBridgeMissingAgentID = &Rule{Code: "llm_bridge_missing_agent_id", Severity: compile.Blocker, Group: "scan",
		Doc:       "an ApiNode calling /api/llm-bridge has no non-empty agent_id in data, body or config, so the bridge cannot resolve the calling agent's compiled toolboxes",
		AutoFixes: []string{"add agent_id (package.json's name without its scope) to the ApiNode's data"},
		FixTiers:  []edit.Tier{edit.Unsafe}}
	RuleLLMBridgeUserMissing = &Rule{Code: "llm_bridge_user_missing", Severity: compile.Warning, Group: "scan",
		Doc: "an ApiNode calling /api/llm-bridge sends no `user` string in its data: the bridge's request schema requires `user` (the user message; " +
			"src/app/api/llm-bridge/route.ts), so the call is rejected before any model runs; a `prompt` or `message` member is not read by the bridge",
		AutoFixes: []string{"rename the data's `prompt` (or `message`) member to `user`, when it is a string and there is no `user`"},
		FixTiers:  []edit.Tier{edit.Unsafe}}
)

var (
	passLLMBridge     = &Check{Name: "scan_bridge", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkLLMBridgeWiring}
	passLLMBridgeUser = &Check{Name: "scan_bridge_user", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkLLMBridgeUser}
)

const bridgeMessage = " targets /api/llm-bridge but data/body/config lacks agent_id; the bridge cannot resolve the calling agent's compiled toolboxes"

func checkLLMBridgeWiring(p *Pass) {
	doc := p.Agent.Flow
	for _, c := range p.flowComponents() {
		if c.Type != "ApiNode" {
			continue
		}
		u, ok := c.Node.Get("url").Str()
		if !ok || !isLLMBridgeURL(u) || bridgeHasAgentID(c.Node) {
			continue
		}
		p.ReportFix(doc, c.Ptr(), RuleLLMBridgeMissingAgentID, "ApiNode "+c.Label()+bridgeMessage, bridgeFix(p.Agent, c.Node))
	}
}

// checkLLMBridgeUser: every bridge ApiNode (nested subflows too) sends a
// `user` string. Not one of the reference's scans: its own check, so the
// reference's scan fixtures compare the agent_id scan alone.
func checkLLMBridgeUser(p *Pass) {
	for _, c := range p.flowComponents() {
		if c.Type != "ApiNode" {
			continue
		}
		if u, ok := c.Node.Get("url").Str(); ok && isLLMBridgeURL(u) {
			checkBridgeUser(p, c)
		}
	}
}

// checkBridgeUser: the bridge's request body must carry `user` as a string
// (route.ts validates the body with zod; `user` is its one required field).
// The body is the node's data (body or config in older files, as the
// agent_id scan accepts). A body that is not an object at all is the
// agent_id rule's business.
func checkBridgeUser(p *Pass, c scanComponent) {
	var body *compile.Node
	for _, k := range []string{"data", "body", "config"} {
		if o := c.Node.Get(k); o.Is(compile.Object) {
			if _, ok := o.Get("user").Str(); ok {
				return
			}
			if body == nil {
				body = o
			}
		}
	}
	if body == nil {
		return
	}
	doc := p.Agent.Flow
	msg := "ApiNode " + c.Label() + " posts to /api/llm-bridge without a `user` string: the bridge requires `user` (the user message) and rejects the call"
	if u := body.Get("user"); u != nil {
		p.Report(doc, ptrOf(u), RuleLLMBridgeUserMissing, msg+" (`user` is "+u.Kind.String()+", not a string)")
		return
	}
	for _, k := range []string{"prompt", "message"} {
		if v := body.Get(k); v.Is(compile.String) {
			f := newFix(edit.Unsafe, "rename `"+k+"` to `user` in the ApiNode's data")
			p.ReportFix(doc, ptrOf(v), RuleLLMBridgeUserMissing, msg+"; its `"+k+"` member is not read by the bridge", f.add(fix.RenameKey(doc, ptrOf(v), "user")).fix())
			return
		}
	}
	p.Report(doc, ptrOf(body), RuleLLMBridgeUserMissing, msg)
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

// bridgeFix adds agent_id to a bridge ApiNode: the package's slug (the
// name without its scope, as the corpus writes it: the bridge finds the
// agent's SKILL.md at <installDir>/cinatra-ai/<agent_id>/). An empty
// agent_id in data, body or config is replaced; else it is added to the
// first of data, body, config that is an object; else a data object is
// added. No fix without a package name, or when data is not an object.
func bridgeFix(a *compile.Agent, n *compile.Node) edit.Fix {
	name := ""
	if a.Package != nil && a.Package.Root != nil {
		name, _ = a.Package.Root.Get("name").Str()
	}
	if name == "" {
		name, _ = a.Flow.Root.Path("metadata", "cinatra", "packageName").Str()
	}
	id := packageSlug(name)
	if id == "" {
		return edit.Fix{}
	}
	d := a.Flow
	f := newFix(edit.Unsafe, "add \"agent_id\": \""+id+"\" to the ApiNode's data")
	for _, k := range []string{"data", "body", "config"} {
		if v := n.Get(k).Get("agent_id"); v != nil {
			return f.add(fix.Replace(d, ptrOf(v), id)).fix()
		}
	}
	for _, k := range []string{"data", "body", "config"} {
		if o := n.Get(k); o.Is(compile.Object) {
			f.title = "add \"agent_id\": \"" + id + "\" to the ApiNode's " + k
			return f.add(fix.Insert(d, ptrOf(o), "agent_id", id)).fix()
		}
	}
	if n.Get("data") != nil {
		return edit.Fix{}
	}
	return f.add(fix.Insert(d, ptrOf(n), "data", map[string]string{"agent_id": id})).fix()
}
