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
	RuleWorkspaceDuplicatePackage = &Rule{Code: "workspace_duplicate_package", Severity: compile.Warning, Group: groupWorkspace,
		Doc: "two or more package directories of the tree have the same package.json name: a child look-up by that name resolves to one of them only (the first package.json in lexical path order), so the others are never called and installing the tree is ambiguous; reported at each duplicate's name, naming the other directories and the one look-ups resolve to",
		Fix: "give each package its own name (the vendor/slug of its directory), or delete the stale copy"}
)

// outsideRule says findings of the rule code are raised across a tree
// (the workspace rules), never by the review of one agent: that review
// cannot tell whether an ignore of one is used.
func outsideRule(code string) bool {
	r := LookupRule(code)
	return r != nil && r.Group == groupWorkspace
}

// Outside applies a config to the findings raised outside the review of
// one agent (the workspace rules, over a whole tree), exactly as a review
// applies it to its own: an ignore that matches a finding sets it aside as
// suppressed (the same matcher), per-rule settings change its severity or
// drop it. Apply takes each agent's findings, then Unused reports the
// ignores of workspace rules that matched none of them, which the agents'
// own reviews leave to this.
type Outside struct {
	c      *Config
	used   []bool                    // per ignore of c: it matched (or was reported unused)
	inline map[string]*inlineIgnores // per flow file: its inline ignores of workspace rules, as Apply used them
}

// InlineIgnores are the x-oastui-ignore entries of an agent's flow file
// that name a workspace rule: the agent's review cannot use them, so they
// travel with the agent's summary to Outside.Apply. Immutable.
type InlineIgnores struct {
	path    string
	entries []inlineIgnore
}

// outside are ii's entries of workspace rules.
func (ii *inlineIgnores) outside() InlineIgnores {
	out := InlineIgnores{path: ii.path}
	for _, ig := range ii.entries {
		if outsideRule(ig.rule) {
			out.entries = append(out.entries, *ig)
		}
	}
	return out
}

// Outside starts applying c (nil: defaults) to a tree's findings.
func (c *Config) Outside() *Outside {
	if c == nil {
		c = &Config{}
	}
	return &Outside{c: c, used: make([]bool, len(c.Ignores)), inline: map[string]*inlineIgnores{}}
}

// Apply applies the config and the agent's inline ignores of workspace
// rules to fs, the findings about one agent: what is left, and what an
// ignore silenced.
func (o *Outside) Apply(fs []Finding, inline InlineIgnores) ([]Finding, []SuppressedFinding) {
	var ii *inlineIgnores
	if len(inline.entries) > 0 {
		ii = o.inline[inline.path]
		if ii == nil {
			ii = &inlineIgnores{path: inline.path}
			for _, ig := range inline.entries {
				ig.used = false
				ii.entries = append(ii.entries, &ig)
			}
			o.inline[inline.path] = ii
		}
	}
	out := make([]Finding, 0, len(fs))
	var suppressed []SuppressedFinding
	for _, f := range fs {
		o.c.settle(f, ii, o.used, &out, &suppressed)
	}
	return out, suppressed
}

// Unused, after every Apply, reports as unused_ignore each ignore of a
// workspace rule that matched nothing and names one of an agent's files
// (absolute), or without a glob a file below its package directory dir;
// each ignore once, with the first agent it names; and each of the
// agent's inline ignores of a workspace rule that silenced nothing.
func (o *Outside) Unused(dir string, files []string, inline InlineIgnores) []Finding {
	out := o.c.unused(o.used, func(ig Ignore) bool {
		return !ig.missing && outsideRule(ig.Rule) && o.c.targets(ig, files, dir)
	})
	if len(inline.entries) == 0 {
		return out
	}
	ii := o.inline[inline.path]
	for i := range inline.entries {
		if ii != nil && ii.entries[i].used {
			continue
		}
		if ii != nil {
			ii.entries[i].used = true // reported once
		}
		if f, keep := o.c.override(inline.entries[i].unused); keep {
			out = append(out, f)
		}
	}
	return out
}
