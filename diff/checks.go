package diff

import (
	"fmt"
	"sort"
	"strings"
)

// Level is how much a change matters to whoever depends on the agent.
type Level string

const (
	Breaking Level = "breaking" // breaks a caller, a user or the approval safety of the people the agent acts for
	Warn     Level = "warn"     // may break: the files alone cannot decide
	Info     Level = "info"     // changes nothing a caller or a user relies on
)

// rank orders levels, most severe first (for sorting and --fail-on).
func (l Level) rank() int {
	switch l {
	case Breaking:
		return 0
	case Warn:
		return 1
	case Info:
		return 2
	}
	return 3
}

// AtLeast says l is as severe as m or more.
func (l Level) AtLeast(m Level) bool { return l.rank() <= m.rank() }

// ParseLevel reads breaking|warn|info.
func ParseLevel(s string) (Level, bool) {
	switch l := Level(s); l {
	case Breaking, Warn, Info:
		return l, true
	}
	return "", false
}

// Check is one kind of change: a stable id, its level and what it means.
type Check struct {
	ID    string `json:"id"`
	Level Level  `json:"level"`
	Area  string `json:"area"` // agents, graph, prompts, contract, approval, slots, package, review
	Doc   string `json:"doc"`
	// Inverse is the check the same change raises with the two sides
	// swapped (itself for a change of value); "" for a check derived from
	// other changes (diff_version_not_bumped).
	Inverse string `json:"-"`
	// Safety: an approval-safety change, never demoted for lack of callers.
	Safety bool `json:"-"`
	// Contract: a change of the agent's data contract (inputs, outputs,
	// artifacts); a breaking one no caller of the tree uses is demoted.
	Contract bool `json:"-"`
}

// The checks, in the order of their areas. The ids are stable: renaming
// one is a breaking change of oastui's own output.
var checks = []Check{
	// agents of a tree
	{ID: "diff_agent_added", Level: Info, Area: "agents", Inverse: "diff_agent_removed", Doc: "An agent exists only in the new revision (a package added to the tree, or the first commit of an agent); nothing else of it is compared."},
	{ID: "diff_agent_removed", Level: Breaking, Area: "agents", Inverse: "diff_agent_added", Doc: "An agent exists only in the old revision. Breaking when another agent of the tree still calls or declares it (the callers are listed); warn otherwise, since callers outside the tree cannot be known from the files."},
	// graph
	{ID: "diff_node_added", Level: Info, Area: "graph", Inverse: "diff_node_removed", Doc: "A node was added to a flow."},
	{ID: "diff_node_removed", Level: Warn, Area: "graph", Inverse: "diff_node_added", Doc: "A node was removed from a flow: whatever it did no longer happens."},
	{ID: "diff_node_renamed", Level: Info, Area: "graph", Inverse: "diff_node_renamed", Doc: "A node kept its id and got a new name."},
	{ID: "diff_node_type_changed", Level: Warn, Area: "graph", Inverse: "diff_node_type_changed", Doc: "A node kept its id and changed its component type."},
	{ID: "diff_node_moved", Level: Info, Area: "graph", Inverse: "diff_node_moved", Doc: "A node runs at another place in the compiled step order relative to the nodes both revisions have."},
	{ID: "diff_control_edge_added", Level: Info, Area: "graph", Inverse: "diff_control_edge_removed", Doc: "A node that had no default successor got one."},
	{ID: "diff_control_edge_removed", Level: Warn, Area: "graph", Inverse: "diff_control_edge_added", Doc: "A node lost its default successor: the flow ends there now."},
	{ID: "diff_control_edge_rewired", Level: Warn, Area: "graph", Inverse: "diff_control_edge_rewired", Doc: "A control edge leaving a node (or one branch of it) now leads elsewhere."},
	{ID: "diff_branch_added", Level: Info, Area: "graph", Inverse: "diff_branch_removed", Doc: "A branch was added to a node."},
	{ID: "diff_branch_removed", Level: Warn, Area: "graph", Inverse: "diff_branch_added", Doc: "A branch of a node was removed: runs that took it go elsewhere or stop."},
	{ID: "diff_data_edge_added", Level: Info, Area: "graph", Inverse: "diff_data_edge_removed", Doc: "A data edge was added (an output now feeds an input)."},
	{ID: "diff_data_edge_removed", Level: Warn, Area: "graph", Inverse: "diff_data_edge_added", Doc: "A data edge was removed: the input it fed gets its value elsewhere or none."},
	// prompts
	{ID: "diff_prompt_changed", Level: Info, Area: "prompts", Inverse: "diff_prompt_changed", Doc: "A system or user prompt template was reworded (shown as a word diff)."},
	{ID: "diff_prompt_placeholder_added", Level: Warn, Area: "prompts", Inverse: "diff_prompt_placeholder_removed", Doc: "A prompt template uses a new {{placeholder}}: something must feed it."},
	{ID: "diff_prompt_placeholder_removed", Level: Info, Area: "prompts", Inverse: "diff_prompt_placeholder_added", Doc: "A prompt template no longer uses a {{placeholder}}."},
	{ID: "diff_description_changed", Level: Info, Area: "prompts", Inverse: "diff_description_changed", Doc: "A node's description (its own, or metadata.cinatra.description that a gate shows the person approving) was reworded (shown as a word diff)."},
	{ID: "diff_model_changed", Level: Warn, Area: "prompts", Inverse: "diff_model_changed", Doc: "A node's model or provider changed."},
	// contract
	{ID: "diff_input_added_required", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_removed", Doc: "A required input without a default was added to the compiled inputSchema: every caller must now supply it."},
	{ID: "diff_input_added", Level: Info, Area: "contract", Contract: true, Inverse: "diff_input_removed", Doc: "An optional input (or one with a default) was added."},
	{ID: "diff_input_removed", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_added", Doc: "An input was removed from the compiled inputSchema: a caller binding it breaks."},
	{ID: "diff_input_retyped", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_retyped", Doc: "An input's type changed."},
	{ID: "diff_input_made_required", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_made_optional", Doc: "An input became required (and has no default)."},
	{ID: "diff_input_made_optional", Level: Info, Area: "contract", Contract: true, Inverse: "diff_input_made_required", Doc: "A required input became optional."},
	{ID: "diff_input_default_changed", Level: Warn, Area: "contract", Contract: true, Inverse: "diff_input_default_changed", Doc: "An input's default value changed: callers that omit it get another value."},
	{ID: "diff_input_constraint_changed", Level: Warn, Area: "contract", Contract: true, Inverse: "diff_input_constraint_changed", Doc: "An input's constraints changed (enum, const, pattern, bounds, lengths, the shape of an object or array): values a caller passed may be refused now."},
	{ID: "diff_input_presentation_changed", Level: Info, Area: "contract", Contract: true, Inverse: "diff_input_presentation_changed", Doc: "How an input is shown or described changed (format, title, description, x-* keys)."},
	{ID: "diff_output_added", Level: Info, Area: "contract", Contract: true, Inverse: "diff_output_removed", Doc: "An output was added to the compiled outputSchema."},
	{ID: "diff_output_removed", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_output_added", Doc: "An output was removed from the compiled outputSchema: a caller reading it breaks."},
	{ID: "diff_output_retyped", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_output_retyped", Doc: "An output's type changed."},
	{ID: "diff_artifact_added", Level: Info, Area: "contract", Contract: true, Inverse: "diff_artifact_removed", Doc: "The agent materialises a new artifact (an EndNode output binding or an artifact_materialize node)."},
	{ID: "diff_artifact_removed", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_artifact_added", Doc: "The agent no longer materialises an artifact: whoever consumes it gets nothing."},
	{ID: "diff_artifact_retyped", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_artifact_retyped", Doc: "An artifact the agent materialises changed its extension or object type."},
	// approval
	{ID: "diff_approval_removed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_approval_added", Doc: "A step no longer requires approval (requiresApproval true → false), or an approval gate was removed: the agent acts without a person's consent where it asked before."},
	{ID: "diff_approval_added", Level: Info, Area: "approval", Safety: true, Inverse: "diff_approval_removed", Doc: "A step now requires approval, or an approval gate was added."},
	{ID: "diff_risk_lowered", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_risk_raised", Doc: "A step's riskClass is lower (read_only < write_safe < draft_create/draft_update < write < approval < *_send/_publish/_post/_delete); a lower class may skip the platform's safeguards."},
	{ID: "diff_risk_raised", Level: Info, Area: "approval", Safety: true, Inverse: "diff_risk_lowered", Doc: "A step's riskClass is higher."},
	{ID: "diff_risk_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_risk_changed", Doc: "A step's riskClass changed between classes oastui cannot order."},
	{ID: "diff_hitl_owner_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_hitl_owner_changed", Doc: "The owner of a step's human-in-the-loop gate (hitlOwnedBy) changed."},
	{ID: "diff_renderer_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_renderer_changed", Doc: "The renderer of a gate (xRenderer) changed."},
	{ID: "diff_surface_removed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_surface_added", Doc: "A review gate lost its a2uiSurfaceId: the reviewer is shown no surface to decide on."},
	{ID: "diff_surface_added", Level: Info, Area: "approval", Safety: true, Inverse: "diff_surface_removed", Doc: "A review gate got an a2uiSurfaceId."},
	{ID: "diff_surface_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_surface_changed", Doc: "A review gate's a2uiSurfaceId changed."},
	{ID: "diff_hitl_screens_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_hitl_screens_changed", Doc: "metadata.cinatra.hitlScreens (the screens gates show) changed."},
	{ID: "diff_gated_step_removed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_gated_step_added", Doc: "A step with an irreversible side effect is no longer listed in gatedSteps."},
	{ID: "diff_gated_step_added", Level: Info, Area: "approval", Safety: true, Inverse: "diff_gated_step_removed", Doc: "A step with an irreversible side effect is now listed in gatedSteps."},
	{ID: "diff_gate_relaxed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_gate_relaxed", Doc: "The change lowers (or turns off) a check's level in the diff: section of .oastui.yaml, the config the gate reviewing it reads: the change relaxes its own gate. No diff: setting lowers this check; lowering an approval-safety check needs a reason and prints a notice on every run."},
	// slots
	{ID: "diff_slot_added", Level: Info, Area: "slots", Inverse: "diff_slot_removed", Doc: "A context slot was added."},
	{ID: "diff_slot_removed", Level: Warn, Area: "slots", Inverse: "diff_slot_added", Doc: "A context slot was removed: selections made for it are no longer read."},
	{ID: "diff_slot_extension_removed", Level: Breaking, Area: "slots", Inverse: "diff_slot_extension_added", Doc: "A context slot accepts fewer artifact extensions: selections of that kind are refused."},
	{ID: "diff_slot_extension_added", Level: Info, Area: "slots", Inverse: "diff_slot_extension_removed", Doc: "A context slot accepts another artifact extension."},
	{ID: "diff_slot_mode_changed", Level: Warn, Area: "slots", Inverse: "diff_slot_mode_changed", Doc: "A context slot's selectionMode or resolutionMode changed."},
	{ID: "diff_slot_items_changed", Level: Warn, Area: "slots", Inverse: "diff_slot_items_changed", Doc: "A context slot's minItems or maxItems changed."},
	// package
	{ID: "diff_version_changed", Level: Info, Area: "package", Inverse: "diff_version_changed", Doc: "package.json version changed."},
	{ID: "diff_version_not_bumped", Level: Breaking, Area: "package", Doc: "The revision has breaking changes and package.json's version does not say so (semver: a major bump, or a minor bump below 1.0)."},
	{ID: "diff_package_renamed", Level: Breaking, Area: "package", Inverse: "diff_package_renamed", Doc: "package.json name changed: callers and the platform find the agent by that name."},
	{ID: "diff_manifest_changed", Level: Info, Area: "package", Inverse: "diff_manifest_changed", Doc: "Another package.json field changed, was added or removed (a top-level key such as files, or a cinatra.* key such as fieldRenderers or displayName)."},
	{ID: "diff_dependency_added", Level: Info, Area: "package", Inverse: "diff_dependency_removed", Doc: "A dependency (npm dependencies, cinatra agentDependencies or cinatra.dependencies) was added."},
	{ID: "diff_dependency_removed", Level: Info, Area: "package", Inverse: "diff_dependency_added", Doc: "A dependency was removed."},
	{ID: "diff_dependency_range_changed", Level: Warn, Area: "package", Inverse: "diff_dependency_range_changed", Doc: "A dependency's version range changed."},
	{ID: "diff_produces_added", Level: Info, Area: "package", Inverse: "diff_produces_removed", Doc: "package.json cinatra.produces declares another artifact extension."},
	{ID: "diff_produces_removed", Level: Breaking, Area: "package", Contract: true, Inverse: "diff_produces_added", Doc: "package.json cinatra.produces no longer declares an artifact extension: consumers of it find no producer."},
	{ID: "diff_consumes_added", Level: Warn, Area: "package", Inverse: "diff_consumes_removed", Doc: "package.json cinatra.consumes declares another artifact extension the agent needs."},
	{ID: "diff_consumes_removed", Level: Info, Area: "package", Inverse: "diff_consumes_added", Doc: "package.json cinatra.consumes no longer declares an artifact extension."},
	// review
	{ID: "diff_finding_introduced", Level: Warn, Area: "review", Inverse: "diff_finding_fixed", Doc: "The review has a finding the old revision did not have (matched by fingerprint: rule, file, pointer, value). A new blocker is breaking."},
	{ID: "diff_finding_fixed", Level: Info, Area: "review", Inverse: "diff_finding_introduced", Doc: "A finding of the old revision is gone."},
}

var byID = func() map[string]*Check {
	m := map[string]*Check{}
	for i := range checks {
		m[checks[i].ID] = &checks[i]
	}
	return m
}()

// Checks lists every check, in a stable order.
func Checks() []Check { return append([]Check(nil), checks...) }

// Lookup returns the check with id.
func Lookup(id string) (Check, bool) {
	c, ok := byID[id]
	if !ok {
		return Check{}, false
	}
	return *c, true
}

// CheckIDs are the ids, sorted.
func CheckIDs() []string {
	out := make([]string, 0, len(checks))
	for _, c := range checks {
		out = append(out, c.ID)
	}
	sort.Strings(out)
	return out
}

// ChecksMarkdown is docs/diff-checks.md: every check with its level and
// doc, by area.
func ChecksMarkdown() string {
	var b strings.Builder
	b.WriteString("# oastui diff checks\n\n")
	b.WriteString("Generated by `oastui diff --checks --format markdown`; do not edit by hand.\n\n")
	b.WriteString("Each change `oastui diff` names has one of these check ids and its level: **breaking** breaks a caller, a user or the\n")
	b.WriteString("approval safety of the people the agent acts for; **warn** may break (the files alone cannot decide); **info** changes\n")
	b.WriteString("nothing anyone relies on. `.oastui.yaml` may set a check's level (`diff:` then `check_id: breaking|warn|info|off`).\n")
	b.WriteString("A breaking change of the data contract that no caller in the tree uses is shown as warn, with the reason; an approval\n")
	b.WriteString("safety change is never demoted.\n")
	area := ""
	for _, c := range checks {
		if c.Area != area {
			area = c.Area
			fmt.Fprintf(&b, "\n## %s\n\n| check | level | meaning |\n|---|---|---|\n", area)
		}
		fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.ID, c.Level, strings.ReplaceAll(c.Doc, "|", `\|`))
	}
	return b.String()
}
