package compile

// componentTypes are the concrete component types of Agent Spec (every
// embedded schema version, 25.4.1 … 26.1.2, abstract types excluded), sorted:
// the one table lint's component_type_unknown checks against and editors
// complete component_type values from (lint's tests derive it from the
// schemas again and fail when they differ).
var componentTypes = []string{
	"A2AAgent", "A2AConnectionConfig", "Agent", "AgentNode", "AgentSpecializationParameters",
	"ApiNode", "BranchingNode", "BuiltinTool", "CatchExceptionNode", "ClientTool", "ControlFlowEdge",
	"ConversationSummarizationTransform", "DataFlowEdge", "DbmsVectorChainLlmConfig", "EndNode",
	"Flow", "FlowNode", "GeminiAIStudioAuthConfig", "GeminiConfig", "GeminiVertexAIAuthConfig",
	"InMemoryCollectionDatastore", "InputMessageNode", "LlmConfig", "LlmNode", "MCPTool",
	"MCPToolBox", "MCPToolSpec", "MTlsOracleDatabaseConnectionConfig", "ManagerWorkers", "MapNode",
	"MessageSummarizationTransform", "OAuthClientConfig", "OAuthConfig", "OciAgent",
	"OciClientConfigWithApiKey", "OciClientConfigWithGenAiApiKey",
	"OciClientConfigWithInstancePrincipal", "OciClientConfigWithResourcePrincipal",
	"OciClientConfigWithSecurityToken", "OciGenAiConfig", "OllamaConfig", "OpenAiCompatibleConfig",
	"OpenAiConfig", "OracleDatabaseDatastore", "OutputMessageNode", "ParallelFlowNode",
	"ParallelMapNode", "PostgresDatabaseDatastore", "RemoteTool", "SSETransport", "SSEmTLSTransport",
	"ServerTool", "SpecializedAgent", "StartNode", "StdioTransport", "StreamableHTTPTransport",
	"StreamableHTTPmTLSTransport", "Swarm", "TlsOracleDatabaseConnectionConfig",
	"TlsPostgresDatabaseConnectionConfig", "ToolNode", "VllmConfig",
}

// ComponentTypes lists, sorted, the concrete component types a
// component_type may name without component_plugin_name. A cinatra flow is
// an Agent Spec document: both profiles know the same types.
func ComponentTypes() []string { return append([]string(nil), componentTypes...) }
