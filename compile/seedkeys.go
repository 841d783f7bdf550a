package compile

// seedKeys are interned by every parse before anything it reads: the
// keys the rules, the model and the validator ask Node.Get for most (every
// key given as a literal to Get or Path twice or more in the code). A key
// of the file equal to one of them is then this very string, whose bytes
// are those of the literals the callers pass (the linker keeps one copy
// of a string literal), and Get finds it by its pointer without comparing
// bytes. A key missing from the list is only compared, as any other.
var seedKeys = [...]string{"$component_ref", "$defs", "$referenced_components", "acceptedArtifactExtensions", "agent", "agentDependencies", "agent_id", "agentspec_version", "anyOf", "api_type", "artifact", "branch_name", "branches", "capabilityRequired", "cinatra", "cinatra_llm", "component_plugin_name", "component_type", "components", "const", "consumes", "contentFrom", "contextSlots", "control_flow_connections", "data", "data_flow_connections", "declaredMime", "default", "dependencies", "description", "destination_input", "destination_node", "edgeType", "enum", "examples", "extension", "fanOut", "from_branch", "from_node", "gateSteps", "hidden", "hitlOwnedBy", "hitlScreens", "id", "input", "inputMessageSchema", "inputs", "items", "json_schema", "kind", "license", "llm", "llm_config", "mapping", "maxItems", "metadata", "minItems", "model_id", "name", "nodes", "objectTypeId", "outputs", "packageName", "packageVersion", "parentSlotId", "preferredModel", "preferredProvider", "produces", "properties", "purpose", "readableOnly", "reducers", "required", "requirement", "requiresApproval", "requires_confirmation", "retry_policy", "riskClass", "selectionMode", "sensitive_headers", "serverId", "skill_source_path", "slotId", "source_node", "source_output", "start_node", "subflow", "subflows", "system_prompt", "title", "titleFrom", "titleFromFirstLine", "to_node", "tool", "toolboxes", "type", "url", "user", "version", "versionConstraint"}
