package lint

// StarterPolicies is the commented policy set `oastui init --policies`
// writes (docs/policies.md): each holds on the corpus's 25 agents but the
// ones docs/policies.md names, and says why.
const StarterPolicies = `# Team policies (docs/policies.md): CEL over each agent's flow, its
# subflows inlined. A policy without match is checked once per agent; with
# match, once per node it matches. A finding wherever assert is false.
policies:
  # Every path from the start to a step that sends, publishes, posts,
  # deletes or writes passes a human gate first (an InputMessageNode, or a
  # step the compiler marks requiresApproval). The riskClass names are the
  # platform's (its gatedSteps list _send, _publish, _post and _delete);
  # "write" is added here.
  - id: approval-before-side-effect
    severity: blocker
    message: this step has a side effect (send, publish, post, delete or write) that a path from the start reaches without passing a human gate
    doc: add an InputMessageNode before it on every path, or set requiresApproval on the step
    match: node.riskClass.matches('(_send|_publish|_post|_delete)$') || node.riskClass == 'write'
    assert: "!reachesAvoiding(flow.start, node.id, flow.nodes.filter(n, n.gate).map(n, n.id))"

  # LLM steps use a model the team approved (the corpus's two; edit the
  # list to yours).
  - id: approved-models
    severity: warning
    message: this LLM step uses a model outside the team's approved list
    match: node.model != ''
    assert: node.model in ['gpt-5.5', 'claude-sonnet-4-6']

  # A step declared read_only calls no tool whose name says it writes.
  - id: no-write-tool-on-read-only
    severity: blocker
    message: a read_only step calls a tool that writes
    match: node.riskClass == 'read_only' && node.tool != ''
    assert: "!node.tool.matches('(_save|_create|_update|_delete|_send|_set|_apply|_publish)$')"

  # Every artifact package.json says the agent produces is bound to an
  # output of the flow (outputs[].cinatra.artifact), so the host
  # materialises it.
  - id: produced-artifacts-materialised
    severity: warning
    message: package.json's cinatra.produces names an artifact no output of the flow binds (cinatra.artifact)
    assert: agent.produces.all(p, flow.outputs.exists(o, o.artifact == p))
`
