package diff

import (
	"fmt"
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

// The checks. The ids are stable: renaming one is a breaking change of
// oastui's own output. Each is a value that the function raising it names
// (checkers, below); a new check is a value here (or in its own file) and
// one entry in checkers.
var (
	CheckAgentAdded               = &Check{ID: "diff_agent_added", Level: Info, Area: "agents", Inverse: "diff_agent_removed", Doc: "An agent exists only in the new revision (a package added to the tree, or the first commit of an agent); nothing else of it is compared."}
	CheckAgentRemoved             = &Check{ID: "diff_agent_removed", Level: Breaking, Area: "agents", Inverse: "diff_agent_added", Doc: "An agent exists only in the old revision. Breaking when another agent of the tree still calls or declares it (the callers are listed); warn otherwise, since callers outside the tree cannot be known from the files."}
	CheckSideBroken               = &Check{ID: "diff_side_broken", Level: Breaking, Area: "agents", Inverse: "diff_side_fixed", Doc: "The new revision of the agent does not load, parse or compile where the old one did; the first error is named. The platform refuses it, and what the other checks could not read of that side is not compared."}
	CheckSideFixed                = &Check{ID: "diff_side_fixed", Level: Info, Area: "agents", Inverse: "diff_side_broken", Doc: "The new revision loads and compiles where the old one did not (the old error is named)."}
	CheckNodeAdded                = &Check{ID: "diff_node_added", Level: Info, Area: "graph", Inverse: "diff_node_removed", Doc: "A node was added to a flow."}
	CheckNodeRemoved              = &Check{ID: "diff_node_removed", Level: Warn, Area: "graph", Inverse: "diff_node_added", Doc: "A node was removed from a flow: whatever it did no longer happens."}
	CheckNodeRenamed              = &Check{ID: "diff_node_renamed", Level: Info, Area: "graph", Inverse: "diff_node_renamed", Doc: "A node kept its id and got a new name."}
	CheckNodeTypeChanged          = &Check{ID: "diff_node_type_changed", Level: Warn, Area: "graph", Inverse: "diff_node_type_changed", Doc: "A node kept its id and changed its component type."}
	CheckNodeMoved                = &Check{ID: "diff_node_moved", Level: Info, Area: "graph", Inverse: "diff_node_moved", Doc: "A step runs at another place in the compiled step order relative to the steps both revisions have (without a compile on both sides, the BFS order of the nodes other than start and end)."}
	CheckControlEdgeAdded         = &Check{ID: "diff_control_edge_added", Level: Info, Area: "graph", Inverse: "diff_control_edge_removed", Doc: "A node that had no default successor got one."}
	CheckControlEdgeRemoved       = &Check{ID: "diff_control_edge_removed", Level: Warn, Area: "graph", Inverse: "diff_control_edge_added", Doc: "A node lost its default successor: the flow ends there now."}
	CheckControlEdgeRewired       = &Check{ID: "diff_control_edge_rewired", Level: Warn, Area: "graph", Inverse: "diff_control_edge_rewired", Doc: "A control edge leaving a node (or one branch of it) now leads elsewhere."}
	CheckBranchAdded              = &Check{ID: "diff_branch_added", Level: Info, Area: "graph", Inverse: "diff_branch_removed", Doc: "A branch was added to a node."}
	CheckBranchRemoved            = &Check{ID: "diff_branch_removed", Level: Warn, Area: "graph", Inverse: "diff_branch_added", Doc: "A branch of a node was removed: runs that took it go elsewhere or stop."}
	CheckDataEdgeAdded            = &Check{ID: "diff_data_edge_added", Level: Info, Area: "graph", Inverse: "diff_data_edge_removed", Doc: "A data edge was added (an output now feeds an input)."}
	CheckDataEdgeRemoved          = &Check{ID: "diff_data_edge_removed", Level: Warn, Area: "graph", Inverse: "diff_data_edge_added", Doc: "A data edge was removed: the input it fed gets its value elsewhere or none."}
	CheckDataEdgeResourced        = &Check{ID: "diff_data_edge_resourced", Level: Warn, Area: "graph", Inverse: "diff_data_edge_resourced", Doc: "An input (an output of the agent, when the input is the EndNode's) is fed from another node's output now: one change instead of a data edge removed and one added."}
	CheckStepCallChanged          = &Check{ID: "diff_step_call_changed", Level: Warn, Area: "behaviour", Inverse: "diff_step_call_changed", Doc: "What a step calls changed: its url, http_method, data.tool or other data it sends (prompt templates are the prompt checks'). Breaking on a step whose riskClass writes, sends, publishes, posts or deletes."}
	CheckNodeIOChanged            = &Check{ID: "diff_node_io_changed", Level: Warn, Area: "behaviour", Inverse: "diff_node_io_changed", Doc: "An input or output of an inner node (not the StartNode's or EndNode's: those are the contract) was added, removed or changed its schema: what the node is given or gives the nodes after it."}
	CheckResumePayloadChanged     = &Check{ID: "diff_resume_payload_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_resume_payload_changed", Doc: "A gate's resume payload (metadata.cinatra.inputMessageSchema: the shape of the person's answer the flow resumes with) changed: a renderer or the nodes after the gate may read a field that is no longer there."}
	CheckPromptChanged            = &Check{ID: "diff_prompt_changed", Level: Info, Area: "prompts", Inverse: "diff_prompt_changed", Doc: "A system or user prompt template was reworded (shown as a word diff)."}
	CheckPromptPlaceholderAdded   = &Check{ID: "diff_prompt_placeholder_added", Level: Warn, Area: "prompts", Inverse: "diff_prompt_placeholder_removed", Doc: "A prompt template uses a new {{placeholder}}: something must feed it."}
	CheckPromptPlaceholderRemoved = &Check{ID: "diff_prompt_placeholder_removed", Level: Info, Area: "prompts", Inverse: "diff_prompt_placeholder_added", Doc: "A prompt template no longer uses a {{placeholder}}."}
	CheckPromptExpressionAdded    = &Check{ID: "diff_prompt_expression_added", Level: Warn, Area: "prompts", Inverse: "diff_prompt_expression_removed", Doc: "A prompt template has a new {{ … }} or {% … %} expression that is not a {{ name }} placeholder (attribute access, a filter, a statement): the runtime renders only placeholders (Agent Spec templating, `{{\\s*(\\w+)\\s*}}`), so the model is sent the expression as written."}
	CheckPromptExpressionRemoved  = &Check{ID: "diff_prompt_expression_removed", Level: Info, Area: "prompts", Inverse: "diff_prompt_expression_added", Doc: "A prompt template no longer has a {{ … }} expression the runtime would send as written."}
	CheckDescriptionChanged       = &Check{ID: "diff_description_changed", Level: Info, Area: "prompts", Inverse: "diff_description_changed", Doc: "A node's description (its own, or metadata.cinatra.description that a gate shows the person approving) was reworded (shown as a word diff)."}
	CheckModelChanged             = &Check{ID: "diff_model_changed", Level: Warn, Area: "prompts", Inverse: "diff_model_changed", Doc: "A node's model or provider changed."}
	CheckInputAddedRequired       = &Check{ID: "diff_input_added_required", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_removed", Doc: "A required input without a default was added to the compiled inputSchema: every caller must now supply it."}
	CheckInputAdded               = &Check{ID: "diff_input_added", Level: Info, Area: "contract", Contract: true, Inverse: "diff_input_removed", Doc: "An optional input (or one with a default) was added."}
	CheckInputRemoved             = &Check{ID: "diff_input_removed", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_added", Doc: "An input was removed from the compiled inputSchema: a caller binding it breaks."}
	CheckInputRetyped             = &Check{ID: "diff_input_retyped", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_retyped", Doc: "An input's type changed."}
	CheckInputMadeRequired        = &Check{ID: "diff_input_made_required", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_input_made_optional", Doc: "An input became required (and has no default)."}
	CheckInputMadeOptional        = &Check{ID: "diff_input_made_optional", Level: Info, Area: "contract", Contract: true, Inverse: "diff_input_made_required", Doc: "A required input became optional."}
	CheckInputDefaultChanged      = &Check{ID: "diff_input_default_changed", Level: Warn, Area: "contract", Contract: true, Inverse: "diff_input_default_changed", Doc: "An input's default value changed: callers that omit it get another value."}
	CheckInputConstraintChanged   = &Check{ID: "diff_input_constraint_changed", Level: Warn, Area: "contract", Contract: true, Inverse: "diff_input_constraint_changed", Doc: "An input's constraints changed (enum, const, pattern, bounds, lengths, the shape of an object or array): values a caller passed may be refused now."}
	CheckInputPresentationChanged = &Check{ID: "diff_input_presentation_changed", Level: Info, Area: "contract", Contract: true, Inverse: "diff_input_presentation_changed", Doc: "How an input is shown or described changed (format, title, description, x-* keys)."}
	CheckOutputAdded              = &Check{ID: "diff_output_added", Level: Info, Area: "contract", Contract: true, Inverse: "diff_output_removed", Doc: "An output was added to the compiled outputSchema."}
	CheckOutputRemoved            = &Check{ID: "diff_output_removed", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_output_added", Doc: "An output was removed from the compiled outputSchema: a caller reading it breaks."}
	CheckOutputRetyped            = &Check{ID: "diff_output_retyped", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_output_retyped", Doc: "An output's type changed."}
	CheckArtifactAdded            = &Check{ID: "diff_artifact_added", Level: Info, Area: "contract", Contract: true, Inverse: "diff_artifact_removed", Doc: "The agent materialises a new artifact (an EndNode output binding or an artifact_materialize node)."}
	CheckArtifactRemoved          = &Check{ID: "diff_artifact_removed", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_artifact_added", Doc: "The agent no longer materialises an artifact: whoever consumes it gets nothing."}
	CheckArtifactRetyped          = &Check{ID: "diff_artifact_retyped", Level: Breaking, Area: "contract", Contract: true, Inverse: "diff_artifact_retyped", Doc: "An artifact the agent materialises changed its extension or object type. Pinning an objectTypeId on the same extension is a refinement (info)."}
	CheckApprovalRemoved          = &Check{ID: "diff_approval_removed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_approval_added", Doc: "A step or node no longer requires approval, or an approval gate was removed (at any depth: a gate inside a removed or rewritten subflow counts): the agent acts without a person's consent where it asked before. requiresApproval is read where the platform reads it: an AgentNode's metadata.cinatra (over its Agent's), a FlowNode's (and each gateSteps entry's), an ApiNode's; an InputMessageNode always asks (the compiler ignores its own value)."}
	CheckApprovalAdded            = &Check{ID: "diff_approval_added", Level: Info, Area: "approval", Safety: true, Inverse: "diff_approval_removed", Doc: "A step now requires approval, or an approval gate was added."}
	CheckApprovalBypassed         = &Check{ID: "diff_approval_bypassed", Level: Breaking, Area: "approval", Safety: true, Doc: "A step that writes, sends or publishes, which every path from the start reached through a gate (a node that asks a person), can now be reached without one: a new branch or edge lets a run skip the approval."}
	CheckRiskLowered              = &Check{ID: "diff_risk_lowered", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_risk_raised", Doc: "A step's riskClass is lower (read_only < write_safe < draft_create/draft_update < write < approval < *_send/_publish/_post/_delete); a lower class may skip the platform's safeguards."}
	CheckRiskRaised               = &Check{ID: "diff_risk_raised", Level: Info, Area: "approval", Safety: true, Inverse: "diff_risk_lowered", Doc: "A step's riskClass is higher."}
	CheckRiskChanged              = &Check{ID: "diff_risk_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_risk_changed", Doc: "A step's riskClass changed between classes oastui cannot order."}
	CheckHitlOwnerChanged         = &Check{ID: "diff_hitl_owner_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_hitl_owner_changed", Doc: "The owner of a step's human-in-the-loop gate (hitlOwnedBy) changed."}
	CheckRendererChanged          = &Check{ID: "diff_renderer_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_renderer_changed", Doc: "The renderer of a gate (xRenderer) changed."}
	CheckSurfaceRemoved           = &Check{ID: "diff_surface_removed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_surface_added", Doc: "A review gate lost its a2uiSurfaceId: the reviewer is shown no surface to decide on. Warn when the gate still requires approval and keeps a renderer (the reviewer still sees that)."}
	CheckSurfaceAdded             = &Check{ID: "diff_surface_added", Level: Info, Area: "approval", Safety: true, Inverse: "diff_surface_removed", Doc: "A review gate got an a2uiSurfaceId."}
	CheckSurfaceChanged           = &Check{ID: "diff_surface_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_surface_changed", Doc: "A review gate's a2uiSurfaceId changed."}
	CheckHitlScreensChanged       = &Check{ID: "diff_hitl_screens_changed", Level: Warn, Area: "approval", Safety: true, Inverse: "diff_hitl_screens_changed", Doc: "metadata.cinatra.hitlScreens (the screens gates show) changed."}
	CheckGatedStepRemoved         = &Check{ID: "diff_gated_step_removed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_gated_step_added", Doc: "A step with an irreversible side effect is no longer listed in gatedSteps."}
	CheckGatedStepAdded           = &Check{ID: "diff_gated_step_added", Level: Info, Area: "approval", Safety: true, Inverse: "diff_gated_step_removed", Doc: "A step with an irreversible side effect is now listed in gatedSteps."}
	CheckGateRelaxed              = &Check{ID: "diff_gate_relaxed", Level: Breaking, Area: "approval", Safety: true, Inverse: "diff_gate_relaxed", Doc: "The change lowers (or turns off) a check's level in the diff: section of .oastui.yaml, the config the gate reviewing it reads: the change relaxes its own gate. No diff: setting lowers this check; lowering an approval-safety check needs a reason and prints a notice on every run."}
	CheckSlotAdded                = &Check{ID: "diff_slot_added", Level: Info, Area: "slots", Inverse: "diff_slot_removed", Doc: "A context slot was added."}
	CheckSlotRemoved              = &Check{ID: "diff_slot_removed", Level: Warn, Area: "slots", Inverse: "diff_slot_added", Doc: "A context slot was removed: selections made for it are no longer read."}
	CheckSlotExtensionRemoved     = &Check{ID: "diff_slot_extension_removed", Level: Breaking, Area: "slots", Inverse: "diff_slot_extension_added", Doc: "A context slot accepts fewer artifact extensions: selections of that kind are refused."}
	CheckSlotExtensionAdded       = &Check{ID: "diff_slot_extension_added", Level: Info, Area: "slots", Inverse: "diff_slot_extension_removed", Doc: "A context slot accepts another artifact extension."}
	CheckSlotModeChanged          = &Check{ID: "diff_slot_mode_changed", Level: Warn, Area: "slots", Inverse: "diff_slot_mode_changed", Doc: "A context slot's selectionMode or resolutionMode changed."}
	CheckSlotItemsChanged         = &Check{ID: "diff_slot_items_changed", Level: Warn, Area: "slots", Inverse: "diff_slot_items_changed", Doc: "A context slot's minItems or maxItems changed."}
	CheckVersionChanged           = &Check{ID: "diff_version_changed", Level: Info, Area: "package", Inverse: "diff_version_changed", Doc: "package.json version changed. A downgrade is warn: an installation that holds the newer version refuses an older one."}
	CheckVersionNotBumped         = &Check{ID: "diff_version_not_bumped", Level: Breaking, Area: "package", Doc: "The revision has breaking changes and package.json's version does not say so (semver: a major bump, or a minor bump below 1.0)."}
	CheckCallerRangeExcludes      = &Check{ID: "diff_caller_range_excludes", Level: Breaking, Area: "callers", Doc: "An agent of the tree declares a range that accepted the old version and does not accept the new one: it keeps resolving to the old version, or fails to install beside the new one (the caller is named)."}
	CheckCallerPicksUpBreak       = &Check{ID: "diff_caller_picks_up_break", Level: Warn, Area: "callers", Doc: "The revision has breaking changes and an agent of the tree declares a range that accepts the new version: it will pick the break up on its next install (the caller is named)."}
	CheckPackageRenamed           = &Check{ID: "diff_package_renamed", Level: Breaking, Area: "package", Inverse: "diff_package_renamed", Doc: "package.json name changed: callers and the platform find the agent by that name."}
	CheckManifestChanged          = &Check{ID: "diff_manifest_changed", Level: Info, Area: "package", Inverse: "diff_manifest_changed", Doc: "Another package.json field changed, was added or removed (a top-level key such as files, or a cinatra.* key such as fieldRenderers or displayName)."}
	CheckDependencyAdded          = &Check{ID: "diff_dependency_added", Level: Info, Area: "package", Inverse: "diff_dependency_removed", Doc: "A dependency was added: npm dependencies or peerDependencies, the legacy cinatra.agentDependencies map or the canonical cinatra.dependencies list (each vocabulary named on its own, as the platform's manifest reader keeps them)."}
	CheckDependencyRemoved        = &Check{ID: "diff_dependency_removed", Level: Info, Area: "package", Inverse: "diff_dependency_added", Doc: "A dependency was removed."}
	CheckDependencyRangeChanged   = &Check{ID: "diff_dependency_range_changed", Level: Warn, Area: "package", Inverse: "diff_dependency_range_changed", Doc: "A dependency's version range (or its kind, edgeType or requirement in cinatra.dependencies) changed."}
	CheckProducesAdded            = &Check{ID: "diff_produces_added", Level: Info, Area: "package", Inverse: "diff_produces_removed", Doc: "package.json cinatra.produces declares another artifact extension."}
	CheckProducesRemoved          = &Check{ID: "diff_produces_removed", Level: Breaking, Area: "package", Contract: true, Inverse: "diff_produces_added", Doc: "package.json cinatra.produces no longer declares an artifact extension: consumers of it find no producer."}
	CheckProducesTypeChanged      = &Check{ID: "diff_produces_type_changed", Level: Warn, Area: "package", Inverse: "diff_produces_type_changed", Doc: "A cinatra.produces entry kept its extension and changed its objectTypeId. Pinning one where there was none is a refinement (info): consumers of the extension still find the producer."}
	CheckConsumesAdded            = &Check{ID: "diff_consumes_added", Level: Warn, Area: "package", Inverse: "diff_consumes_removed", Doc: "package.json cinatra.consumes declares another platform primitive ({primitive, requirement}, the shape every real agent uses) or artifact extension the agent needs: a platform without it cannot run the agent."}
	CheckConsumesRemoved          = &Check{ID: "diff_consumes_removed", Level: Info, Area: "package", Inverse: "diff_consumes_added", Doc: "package.json cinatra.consumes no longer declares a primitive or artifact extension."}
	CheckConsumesChanged          = &Check{ID: "diff_consumes_changed", Level: Warn, Area: "package", Inverse: "diff_consumes_changed", Doc: "A cinatra.consumes entry's requirement changed (required, optional …)."}
	CheckFindingIntroduced        = &Check{ID: "diff_finding_introduced", Level: Warn, Area: "review", Inverse: "diff_finding_fixed", Doc: "The review has a finding the old revision did not have (matched by fingerprint: rule, file, pointer, value). A new blocker is breaking."}
	CheckFindingFixed             = &Check{ID: "diff_finding_fixed", Level: Info, Area: "review", Inverse: "diff_finding_introduced", Doc: "A finding of the old revision is gone."}
	CheckChanged                  = &Check{ID: "diff_changed", Level: Warn, Area: "fallback", Inverse: "diff_changed", Doc: "A difference of the flow file or package.json that no other check explains: changed at <pointer> (before → after). With it, no changes means the two sides are equal up to formatting (and array order where order carries no meaning: scalar sets, elements matched by id)."}
)

// checker is one function of the differ and the checks it raises: a check
// raised by any other function is a bug (add panics, the fixtures fail).
type checker struct {
	run    func(*differ)
	checks []*Check
}

// checkers run in this order; their checks, in this order, are the table of
// docs/diff-checks.md. presence (agents on one side) and the derived checks
// (versionBump) are run by Diff itself around them.
var checkers = []checker{
	{(*differ).health, []*Check{CheckAgentAdded, CheckAgentRemoved, CheckSideBroken, CheckSideFixed}}, // presence, then health
	{(*differ).graph, []*Check{CheckNodeAdded, CheckNodeRemoved, CheckNodeRenamed, CheckNodeTypeChanged, CheckNodeMoved,
		CheckControlEdgeAdded, CheckControlEdgeRemoved, CheckControlEdgeRewired, CheckBranchAdded, CheckBranchRemoved,
		CheckDataEdgeAdded, CheckDataEdgeRemoved, CheckDataEdgeResourced}},
	{(*differ).calls, []*Check{CheckStepCallChanged}},
	{(*differ).nodeIO, []*Check{CheckNodeIOChanged, CheckResumePayloadChanged}},
	{(*differ).prompts, []*Check{CheckPromptChanged, CheckPromptPlaceholderAdded, CheckPromptPlaceholderRemoved, CheckPromptExpressionAdded, CheckPromptExpressionRemoved}},
	{(*differ).descriptions, []*Check{CheckDescriptionChanged}},
	{(*differ).models, []*Check{CheckModelChanged}},
	{(*differ).contract, []*Check{CheckInputAddedRequired, CheckInputAdded, CheckInputRemoved, CheckInputRetyped,
		CheckInputMadeRequired, CheckInputMadeOptional, CheckInputDefaultChanged, CheckInputConstraintChanged,
		CheckInputPresentationChanged, CheckOutputAdded, CheckOutputRemoved, CheckOutputRetyped,
		CheckArtifactAdded, CheckArtifactRemoved, CheckArtifactRetyped}},
	{(*differ).approval, []*Check{CheckApprovalRemoved, CheckApprovalAdded, CheckRiskLowered, CheckRiskRaised, CheckRiskChanged,
		CheckHitlOwnerChanged, CheckRendererChanged, CheckSurfaceRemoved, CheckSurfaceAdded, CheckSurfaceChanged,
		CheckHitlScreensChanged, CheckGatedStepRemoved, CheckGatedStepAdded}},
	{(*differ).approvalPaths, []*Check{CheckApprovalBypassed}},
	{nil, []*Check{CheckGateRelaxed}}, // gate (gate.go), run by Diff after the levels: no diff: level lowers it
	{(*differ).artifactBindings, []*Check{CheckArtifactBindingsRemoved, CheckArtifactBindingsAdded}},
	{(*differ).slots, []*Check{CheckSlotAdded, CheckSlotRemoved, CheckSlotExtensionRemoved, CheckSlotExtensionAdded,
		CheckSlotModeChanged, CheckSlotItemsChanged}},
	{(*differ).slotForms, []*Check{CheckSlotFormChanged}},
	{(*differ).pkg, []*Check{CheckVersionChanged, CheckPackageRenamed, CheckManifestChanged, CheckDependencyAdded,
		CheckDependencyRemoved, CheckDependencyRangeChanged, CheckProducesAdded, CheckProducesRemoved, CheckProducesTypeChanged,
		CheckConsumesAdded, CheckConsumesRemoved, CheckConsumesChanged}},
	{(*differ).findings, []*Check{CheckFindingIntroduced, CheckFindingFixed}},
	{(*differ).fallback, []*Check{CheckChanged}},                                              // last of the files: what no check above explains
	{nil, []*Check{CheckVersionNotBumped, CheckCallerRangeExcludes, CheckCallerPicksUpBreak}}, // versionBump, after the levels
}

// checks lists every check in table order; byID finds one by its id.
var checks, byID = func() ([]*Check, map[string]*Check) {
	var l []*Check
	m := map[string]*Check{}
	for _, ck := range checkers {
		for _, c := range ck.checks {
			if m[c.ID] != nil {
				panic("diff: check " + c.ID + " listed twice")
			}
			l = append(l, c)
			m[c.ID] = c
		}
	}
	return l, m
}()

// Checks lists every check, in a stable order.
func Checks() []Check {
	out := make([]Check, len(checks))
	for i, c := range checks {
		out[i] = *c
	}
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
	var areas []string
	byArea := map[string][]*Check{}
	for _, c := range checks {
		if byArea[c.Area] == nil {
			areas = append(areas, c.Area)
		}
		byArea[c.Area] = append(byArea[c.Area], c)
	}
	for _, area := range areas {
		fmt.Fprintf(&b, "\n## %s\n\n| check | level | meaning |\n|---|---|---|\n", area)
		for _, c := range byArea[area] {
			fmt.Fprintf(&b, "| `%s` | %s | %s |\n", c.ID, c.Level, strings.ReplaceAll(c.Doc, "|", `\|`))
		}
	}
	return b.String()
}
