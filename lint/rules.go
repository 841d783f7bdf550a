package lint

import (
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// The rule list. A new rule is a RuleXxx value beside the check that
// reports it, one line here, and two fixture folders,
// testdata/rules/{ok,err}/<code> (TestRuleFixtures). No init functions: the order below is the
// order `oastui rules` prints and the order the Checks run in.

// Groups of rules.
const (
	groupLoading = "loading" // raised by compile.Load or by the faces, before any check runs
	groupReview  = "review"  // added by Run itself: config ignores, advisory mode
)

// All is every rule oastui reports, in a fixed order: the loading rules,
// then each Check's rules in the order the Checks run, then the review's.
var All = assemble(
	reportedElsewhere(RuleAgentReadFailed, RuleInvalidJSON, RuleDuplicateKey, RuleLegacyAgentFilename,
		RulePackageJSONInvalid, RuleInternalError, RuleInternalUnregisteredRule),

	// Agent Spec documents (SPEC §3.2).
	reportedBy(passAgentSpecDocument,
		RuleAgentSpecVersionMissing, RuleAgentSpecVersionUnknown, RuleAgentSpecVersionLegacy,
		RuleAgentSpecVersionUnreleased, RuleAgentSpecVersionMisplaced, RuleAgentSpecVersionTooLow,
		RuleComponentTypeMissing, RuleComponentTypeUnknown, RuleComponentPlugin,
		RuleAgentSpecNotAComponent, RuleAgentSpecForeignFormat,
		RulePropertyTitleInvalid, RulePropertyDefaultInvalid,
		RuleAgentSpecSchema, RuleAgentSpecUnknownField),
	reportedBy(passAgentSpecIO,
		RuleComponentRefWrongType, RuleIOPlaceholderMismatch, RuleIOWrappedMismatch,
		RuleInputMessageNodeOutput, RuleCatchExceptionNodeIO, RuleParallelFlowNodeIO,
		RuleSensitiveHeadersOverlap, RuleMapNodeIO, RuleStartEndIOMismatch,
		RuleEndNodeOutputTypes, RuleAgenticPatternInvalid, RulePropertyTitleDuplicate),
	reportedBy(passFlowGraph,
		RuleFlowStartNodeCount, RuleFlowStartNodeMismatch, RuleStartNodeOutgoingEdges,
		RuleStartNodeIncomingEdge, RuleFlowNoEndNode, RuleEndNodeNoIncomingEdge,
		RuleEndNodeOutgoingEdge, RuleEdgeUnknownNode, RuleFlowInputsMismatch,
		RuleFlowOutputMissingInEndNode, RuleBranchUnknown, RuleBranchMultipleEdges,
		RuleBranchUnconnected, RuleFlowUnreachableNode, RuleFlowDeadEnd,
		RuleFlowNoReachableEnd, RuleNodeBranchesMismatch, RuleFlowDuplicateNodeName,
		RuleFlowNodeListedTwice, RuleBranchingNodeInputs,
		RuleDataFlowUnknownOutput, RuleDataFlowUnknownInput, RuleDataFlowTypeIncompatible,
		RuleDataFlowInputUnsatisfied, RuleDataFlowEmptyList, RuleDataEdgeDuplicate),
	reportedBy(passRefScope,
		RuleComponentRefUnresolved, RuleComponentRefExternal, RuleComponentRefSiblingScope,
		RuleComponentRefLoadOrder, RuleComponentRefCircular),
	reportedBy(passDuplicateDefinitions, RuleComponentRefKeyRepeated, RuleComponentIDDuplicate),

	// Cinatra review scans.
	reportedBy(passLLMBridge, RuleLLMBridgeMissingAgentID),
	reportedBy(passLLMBridgeUser, RuleLLMBridgeUserMissing),
	reportedBy(passPackage, RulePackageVersionOASPkgDrift, RuleAgentPackageMissingLicense, RulePackageNameMismatch),
	reportedBy(passProduces, RuleProducesMirrorMismatch, RuleArtifactBindingRefused, RuleProducesWithoutRoad),
	reportedBy(passStartNodeInputs, RuleStartNodeInputsWithoutRequired),
	reportedBy(passURLs, RuleUntrustedExternalURL),

	// Added by the platform since the pin (reference cinatra.md §17.3): the
	// advisory artifact-parity family of scan-all, and the invariant tests
	// and CI gates that read a package.
	// (OAS-RUNTIME-011, 012, oas_skill_ids and retired_crm_primitive ride
	// the validator's walk: listed with it below.)
	reportedBy(passPlatform, RuleOASRuntime009, RuleOASRuntime010, RuleCreationAgentPromptTooLong, RuleAgentSkillBundle,
		RuleManifestDependenciesMalformed, RuleManifestDependenciesConflict, RuleProducesDependencyMissing,
		RuleOutputMessageUnreadInput),

	// Credentials, both profiles.
	reportedBy(passLiteralSecrets, RuleLiteralCredentialDetected, RuleCredentialInDescription),
	reportedBy(passSiblingFiles, RuleLiteralCredentialInSiblingFile, RulePackageEnvFileForbidden, RulePackageFileTooLargeToScan),

	// Context slots.
	reportedBy(passContextSlots,
		RuleContextSlotInvalid, RuleContextSlotDuplicate, RuleContextSlotDependencyMissing,
		RuleContextSlotNotWired, RuleContextSlotMountRefused, RuleContextSlotStubWiring, RuleContextDependencyLeak),

	// The Cinatra validator: one walk reports all of these.
	reportedBy(passValidator,
		RuleOASStructural, RuleLegacyField, RuleAgentNodeHITLOwnedBy, RuleAgentNodeSurfaceOverride,
		RuleAgentNodeRequiresApprovalType, RuleUnresolvedComponentRef, RuleComponentRefOuterScope,
		RuleDuplicateNode, RuleStartNodeCount, RuleEndNodeCount, RuleComponentRefCycle,
		RuleObjectTypeNamespace, RuleObjectTypeRetired, RuleInputMessageWithoutOutput,
		RuleOASLLM001, RuleOASLLM002, RuleOASLLM003, RuleOASLLM004,
		RuleOASRuntime001, RuleOASRuntime002, RuleOASRuntime003, RuleOASRuntime004, RuleOASRuntime005,
		RuleOASRuntime006, RuleOASRuntime007, RuleOASRuntime008, RuleOASRuntime013,
		// the platform's rules that look at every value, on the same walk
		// (platform_walk.go)
		RuleOASRuntime011, RuleOASRuntime012, RuleOASSkillIDs, RuleRetiredCRMPrimitive),

	// Prompts and the ContextOS budget (issue 16).
	reportedBy(passPromptBudget, RulePromptBudgetExceeded),

	reportedElsewhere(RuleUnusedIgnore, RuleInlineIgnoreInvalid, RuleAdvisoryDispatchDeferred, RulePolicyFailed),

	// Across the agents of a tree (package workspace).
	reportedElsewhere(RuleWorkspaceChildMissing, RuleWorkspaceChildVersionMismatch, RuleWorkspaceDependencyCycle,
		RuleWorkspaceDuplicatePackage),

	// Review mode full: the dry run (package dryrun, lint/dryrun.go).
	reportedElsewhere(RuleDryRunInputUnavailable, RuleDryRunTypeMismatch, RuleDryRunBranchUnreached,
		RuleDryRunSubflowOutputMissing, RuleDryRunGateWithoutData, RuleDryRunNontermination),
)

var (
	checks = checksOf(All)
	byCode = indexOf(All)
)

// Rules raised while loading an agent (compile.Load and the faces that
// call it) or by oastui's own failures. They are listed so that
// .oastui.yaml may configure them and `oastui rules` documents them.
var (
	RuleAgentReadFailed = &Rule{Code: "agent_read_failed", Severity: compile.Blocker, Group: groupLoading,
		Doc: "a file of the agent (flow file, registry, package.json, cinatra.json) cannot be read, is not a regular file, or is beyond oastui's limits"}
	RuleInvalidJSON = &Rule{Code: "invalid_json", Severity: compile.Blocker, Group: groupLoading,
		Doc: "a file of the agent does not parse (JSON, or YAML for an Agent Spec .yaml file), or was not read because it is beyond oastui's size or nesting limits"}
	RuleDuplicateKey = &Rule{Code: "duplicate_key", Severity: compile.Blocker, Group: groupLoading,
		Doc: "a JSON object has the same key twice; JSON.parse keeps the last one and silently ignores the first (a warning in the agentspec profile)"}
	RuleLegacyAgentFilename = &Rule{Code: "legacy_agent_filename", Severity: compile.Warning, Group: groupLoading,
		Doc:       "the package's flow file is at a legacy path (cinatra/agent.json or agent.json); move it to cinatra/oas.json",
		AutoFixes: []string{"move the flow file, bytes unchanged, to cinatra/oas.json (not offered when something is already there)"},
		FixTiers:  []edit.Tier{edit.Safe}}
	RulePackageJSONInvalid = &Rule{Code: "package_json_invalid", Severity: compile.Blocker, Group: groupLoading,
		Doc: "package.json is not an object, or its name/version/license is not a string, or its dependencies/peerDependencies/devDependencies is not an object"}
	RuleInternalError = &Rule{Code: "internal_error", Severity: compile.Blocker, Group: groupLoading,
		Doc: "oastui failed while analysing the agent (a bug in oastui; please report it); the UI keeps running"}
	RuleInternalUnregisteredRule = &Rule{Code: "internal_unregistered_rule", Severity: compile.Warning, Group: groupLoading,
		Doc: "a check reported a rule that is missing from oastui's rule list (a bug in oastui)"}
)
