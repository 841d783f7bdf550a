package lint

import (
	"strings"

	"github.com/oastui/oastui/compile"
)

// Review modes and the triviality predicate (SPEC §3.5, seed 003 §6–7).

// AdvisoryHelpers are the advisory reviewer agents, in the reference's
// order. The planner is skipped for trivial flows.
var AdvisoryHelpers = []string{"agent-security-reviewer", "agent-code-reviewer", "agent-planner"}

var (
	RuleAdvisoryDispatchDeferred = &Rule{Code: "advisory_dispatch_deferred", Severity: compile.Suggestion, Group: groupReview,
		Doc: "advisory mode: a helper reviewer would have run but synchronous helper dispatch is deferred; source is the helper's slug"}
)

// advisoryFindings appends, when fs holds no blocker, one
// advisory_dispatch_deferred suggestion per eligible helper. Their source is
// the helper slug; the config can still turn the code off.
func advisoryFindings(a *compile.Agent, cfg *Config, fs []Finding) []Finding {
	for _, f := range fs {
		if f.Severity == compile.Blocker {
			return fs // the reference short-circuits: no markers on a blocked flow
		}
	}
	trivial := IsTrivial(a)
	file := ""
	if a != nil && a.Flow != nil {
		file = a.Flow.Path
	}
	for _, slug := range AdvisoryHelpers {
		if slug == "agent-planner" && trivial {
			continue
		}
		f := Finding{Code: RuleAdvisoryDispatchDeferred.Code, Severity: RuleAdvisoryDispatchDeferred.Severity, Source: slug, File: file, Line: 1, Column: 1,
			Message: "Advisory helper \"" + slug + "\" was eligible for dispatch but is deferred in v1 (synchronous helper execution is not wired yet; run the helper agent directly for its findings)"}
		if f, keep := cfg.override(f); keep {
			fs = append(fs, f)
		}
	}
	return fs
}

// IsTrivial is the triviality predicate of seed 003 §7, evaluated over every
// component of the document — every Flow, nested subflows and inline
// components included — where the reference looks only at the top-level
// $referenced_components. A flow is trivial iff it has no HITL
// InputMessageNode, no nested sub-flow node (FlowNode, MapNode,
// ParallelFlowNode, ParallelMapNode), no A2AAgent (nor an AgentNode
// delegating to one), no third-party MCPToolBox (first-party: id or name
// starting with "cinatra-", or serverId "cinatra"), and at most one
// executable step in total (AgentNode with an agent that is not an
// A2AAgent, ApiNode, LlmNode). OutputMessageNodes do not count. A flow that
// did not parse, or has no components, is trivial.
func IsTrivial(a *compile.Agent) bool {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return true
	}
	root := a.Flow.Root
	var flows []*compile.Flow // computed only when an AgentNode needs a ref resolved
	steps := 0
	for _, c := range scanComponents(root) {
		switch c.Type {
		case "InputMessageNode", "PluginInputMessageNode",
			"FlowNode", "MapNode", "ParallelFlowNode", "ParallelMapNode",
			"A2AAgent":
			return false
		case "MCPToolBox":
			if !firstPartyToolbox(c.Node) {
				return false
			}
		case "ApiNode", "LlmNode":
			steps++
		case "AgentNode":
			agent := c.Node.Get("agent")
			if agent == nil || agent.Kind == compile.Null || (agent.Kind == compile.Bool && !agent.Bool) {
				break
			}
			if _, isRef := compile.RefID(agent); isRef {
				if flows == nil {
					flows = a.Flows()
				}
				agent = enclosingFlow(flows, c.Ptr()).Resolve(agent, compile.Append(c.Ptr(), "agent"), a.RegistryComponents()).Node
			}
			if compile.ComponentType(agent) == "A2AAgent" {
				return false
			}
			steps++
		}
	}
	return steps <= 1
}

func firstPartyToolbox(n *compile.Node) bool {
	for _, k := range []string{"id", "name"} {
		if strings.HasPrefix(n.Get(k).StringOr(""), "cinatra-") {
			return true
		}
	}
	return n.Get("serverId").StringOr("") == "cinatra" || n.Path("metadata", "cinatra", "serverId").StringOr("") == "cinatra"
}

// enclosingFlow returns the innermost Flow whose subtree holds ptr (a
// placeholder Flow over nothing when there is none, so Resolve still
// reaches the registry).
func enclosingFlow(flows []*compile.Flow, ptr string) *compile.Flow {
	var best *compile.Flow
	for _, f := range flows {
		if f.Pointer == "" || ptr == f.Pointer || strings.HasPrefix(ptr, f.Pointer+"/") {
			if best == nil || len(f.Pointer) >= len(best.Pointer) {
				best = f
			}
		}
	}
	if best == nil {
		return &compile.Flow{Node: &compile.Node{Kind: compile.Object}}
	}
	return best
}
