package lint

import "github.com/oastui/oastui/compile"

// groupWorkspace: rules about how the agents of a tree depend on each
// other, raised by package workspace over every agent of a tree (the
// workspace view, `oastui lint DIR`, `oastui graph DIR --workspace`), never
// by the review of one agent.
const groupWorkspace = "workspace"

// The workspace rules (issue 18).
var (
	RuleWorkspaceChildMissing = &Rule{Code: "workspace_child_missing", Severity: compile.Warning, Group: groupWorkspace,
		Doc: "an agent calls (FlowNode/AgentNode metadata.cinatra.packageName) or declares (package.json cinatra.agentDependencies / cinatra.dependencies[] of kind agent) a child agent that no package of the tree provides; a warning because the child may be installed from elsewhere, reported only when a whole tree is reviewed",
		Fix: "add the child's package to the tree, fix the package name, or drop the call and the dependency"}
	RuleWorkspaceChildVersionMismatch = &Rule{Code: "workspace_child_version_mismatch", Severity: compile.Warning, Group: groupWorkspace,
		Doc: "the version of a child agent in the tree (its package.json version) does not satisfy the range the dependent declares in package.json (npm ranges: ^ ~ x * < <= > >= hyphen and ||; exact versions), or the range cannot be read",
		Fix: "widen the range in the dependent's package.json, or bring the child to a version it accepts"}
	RuleWorkspaceDependencyCycle = &Rule{Code: "workspace_dependency_cycle", Severity: compile.Blocker, Group: groupWorkspace,
		Doc: "agents of the tree call or depend on each other in a cycle (a → b → a): a run would never end and the platform cannot install them in order; reported at each edge of the cycle",
		Fix: "break the cycle: move the shared part into a child that neither calls"}
)

// Adjust applies the config's per-rule severity (or off) to a finding
// raised outside the review of one agent (the workspace rules): the same
// override the review applies. false means the rule is off.
func (c *Config) Adjust(f Finding) (Finding, bool) {
	if c == nil {
		c = &Config{}
	}
	return c.override(f)
}
