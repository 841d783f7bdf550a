# Generates the slim context-slot fixtures of lint/testdata/rules/{ok,err}/context_slot_mount_refused
# from one slim agent, mutated as the platform's own tests mutate theirs
# (cinatra-ai/cinatra docker/wayflow/tests/test_context_subflow_injection.py @b76ddc22).
import json, copy, os, sys
R = 'lint/testdata/rules'  # run from the module root: python3 lint/testdata/gen_slim_slots.py
def ref(i): return {"$component_ref": i}
def slot(i, **o):
    s = {"slotId": i, "acceptedArtifactExtensions": ["@cinatra-ai/brand-voice-artifact"], "selectionMode": "interactive",
         "resolutionMode": "accumulate", "minItems": 0, "maxItems": 5}
    s.update(o); return s
def base(slots, consumer=("contextSlotBindings",)):
    write_inputs = [{"title": "idea", "type": "string"}, {"title": "agent_run_id", "type": "string"}]
    data = {"agent_id": "@acme/slim-agent", "user": "Write a draft of the idea with the picked context.",
            "agent_run_id": "{{agent_run_id}}", "idea": "{{idea}}"}
    for c in consumer:
        write_inputs.append({"title": c, "type": "string"})
        data[c] = "{{%s}}" % c
    return {
        "agentspec_version": "26.1.0", "component_type": "Flow", "id": "slim-agent-flow", "name": "Slim agent",
        "description": "Writes a draft with context the loader resolves at mount.",
        "metadata": {"cinatra": {"type": "leaf", "packageName": "@acme/slim-agent", "packageVersion": "0.1.0",
                                 "hitlScreens": ["@cinatra-ai/context-selection-agent:context-selector"],
                                 "contextSlots": slots}},
        "inputs": [{"title": "idea", "type": "string"}, {"title": "cinatra_run_id", "type": "string", "default": ""}],
        "outputs": [{"title": "draft", "type": "string"}],
        "start_node": ref("start"),
        "nodes": [ref("start"), ref("write"), ref("end")],
        "control_flow_connections": [
            {"component_type": "ControlFlowEdge", "name": "start_to_write", "from_node": ref("start"), "to_node": ref("write")},
            {"component_type": "ControlFlowEdge", "name": "write_to_end", "from_node": ref("write"), "to_node": ref("end")}],
        "data_flow_connections": [
            {"component_type": "DataFlowEdge", "name": "idea", "source_node": ref("start"), "source_output": "idea", "destination_node": ref("write"), "destination_input": "idea"},
            {"component_type": "DataFlowEdge", "name": "agent_run", "source_node": ref("start"), "source_output": "cinatra_run_id", "destination_node": ref("write"), "destination_input": "agent_run_id"},
            {"component_type": "DataFlowEdge", "name": "draft", "source_node": ref("write"), "source_output": "draft", "destination_node": ref("end"), "destination_input": "draft"}],
        "$referenced_components": {
            "start": {"component_type": "StartNode", "id": "start", "name": "start",
                      "inputs": [{"title": "idea", "type": "string"}, {"title": "cinatra_run_id", "type": "string", "default": ""}],
                      "outputs": [{"title": "idea", "type": "string"}, {"title": "cinatra_run_id", "type": "string"}],
                      "metadata": {"cinatra": {"required": ["idea"], "hidden": ["cinatra_run_id"]}}},
            "write": {"component_type": "ApiNode", "id": "write", "name": "write", "url": "{{CINATRA_BASE_URL}}/api/llm-bridge",
                      "http_method": "POST", "data": data, "inputs": write_inputs, "outputs": [{"title": "draft", "type": "string"}]},
            "end": {"component_type": "EndNode", "id": "end", "name": "end", "inputs": [{"title": "draft", "type": "string"}],
                    "outputs": [{"title": "draft", "type": "string"}]}}}
PKG = {"name": "@acme/slim-agent", "version": "0.1.0", "license": "Apache-2.0",
       "cinatra": {"type": "agent", "dependencies": [{"packageName": "@cinatra-ai/context-selection-agent", "edgeType": "runtime",
                                                      "requirement": "required", "versionConstraint": {"kind": "semver-range", "range": "^0.1.1"}, "kind": "agent"}]}}
def write(kind, code, name, doc, pkg=PKG):
    d = os.path.join(R, kind, code, name)
    os.makedirs(os.path.join(d, "cinatra"), exist_ok=True)
    open(os.path.join(d, "cinatra", "oas.json"), "w").write(json.dumps(doc, indent=2) + "\n")
    open(os.path.join(d, "package.json"), "w").write(json.dumps(pkg, indent=2) + "\n")
C = "context_slot_mount_refused"
# ok: test_slim_leaf_injection_structure
write("ok", C, "slim-one-slot", base([slot("draftContext")]))
# ok: test_two_slots_chain_in_declaration_order
write("ok", C, "slim-two-slots-qualified", base([slot("draftContext"), slot("voiceContext")], ("draftContextContextSlotBindings", "voiceContextContextSlotBindings")))
# ok: test_compatible_existing_input_is_reused (cinatra_run_id is already declared by base); with projectId too
d = base([slot("draftContext")]); d["inputs"].append({"title": "projectId", "type": "string", "default": ""})
d["$referenced_components"]["start"]["inputs"].append({"title": "projectId", "type": "string", "default": ""})
d["$referenced_components"]["start"]["outputs"].append({"title": "projectId", "type": "string"})
d["$referenced_components"]["start"]["metadata"]["cinatra"]["hidden"].append("projectId")
write("ok", C, "slim-reuses-compatible-inputs", d)
# err: test_id_collision_fails
d = base([slot("draftContext")]); d["$referenced_components"]["ctx-draftContext-resolve_context"] = {
    "component_type": "ApiNode", "id": "ctx-draftContext-resolve_context", "name": "unrelated", "url": "{{CINATRA_BASE_URL}}/api/unrelated", "http_method": "GET"}
d["nodes"].insert(2, ref("ctx-draftContext-resolve_context"))
d["control_flow_connections"][1]["to_node"] = ref("ctx-draftContext-resolve_context")
d["control_flow_connections"].append({"component_type": "ControlFlowEdge", "name": "unrelated_to_end", "from_node": ref("ctx-draftContext-resolve_context"), "to_node": ref("end")})
write("err", C, "id-collision", d)
# err: test_missing_owner_package_fails
d = base([slot("draftContext")]); del d["metadata"]["cinatra"]["packageName"]
write("err", C, "no-owner-package", d)
# err: test_disagreeing_owner_packages_fail
d = base([slot("draftContext")]); d["$referenced_components"]["weird_ref"] = {"component_type": "FlowNode", "id": "weird_ref", "name": "weird_ref",
    "subflow": ref("slim-agent-flow"), "metadata": {"cinatra": {"packageName": "@evil/other"}}}
write("err", C, "ambiguous-owner-package", d)
# err: test_zero_consumers_fails
write("err", C, "no-consumer", base([slot("draftContext")], ()))
# err: test_bare_consumer_with_multiple_slots_fails
write("err", C, "bare-consumer-two-slots", base([slot("draftContext"), slot("voiceContext")]))
# err: test_bare_plus_qualified_on_same_component_fails
write("err", C, "bare-and-qualified-consumer", base([slot("draftContext")], ("contextSlotBindings", "draftContextContextSlotBindings")))
# err: test_existing_edge_into_consumer_input_fails
d = base([slot("draftContext")]); d["data_flow_connections"].append({"component_type": "DataFlowEdge", "name": "pre_wired",
    "source_node": ref("start"), "source_output": "idea", "destination_node": ref("write"), "destination_input": "contextSlotBindings"})
write("err", C, "input-already-wired", d)
# err: test_incompatible_existing_hidden_input_fails
d = base([slot("draftContext")]); d["inputs"].append({"title": "draftContextSlotId", "type": "string", "default": "otherSlot"})
d["$referenced_components"]["start"]["inputs"].append({"title": "draftContextSlotId", "type": "string", "default": "otherSlot"})
d["$referenced_components"]["start"]["outputs"].append({"title": "draftContextSlotId", "type": "string"})
write("err", C, "incompatible-hidden-input", d)
# err: test_no_start_successors_fails
d = base([slot("draftContext")]); d["control_flow_connections"] = d["control_flow_connections"][1:]
write("err", C, "start-without-successor", d)
# err: _satisfied_child_slots — a parent-satisfied line naming a parent slot the agent does not declare
d = base([slot("draftContext")]); d["metadata"]["cinatra"]["parentSatisfiedContextSlots"] = [
    {"parentSlotId": "briefContext", "childPackage": "@acme/child-agent", "childSlotId": "draftContext"}]
write("err", C, "parent-satisfied-undeclared-slot", d)
# err: a malformed nested declaration (test_malformed_declaration_fails_the_mount, on a composed child)
d = base([slot("draftContext")])
child = json.loads(json.dumps(base([slot("childContext", selectionMode="both")])).replace('"start"', '"child__start"').replace('"write"', '"child__write"').replace('"end"', '"child__end"'))
child["id"] = "child-agent-flow"; del child["metadata"]["cinatra"]["hitlScreens"]
child["metadata"]["cinatra"]["packageName"] = "@acme/child-agent"
for k in ("agentspec_version",): child.pop(k)
d["$referenced_components"]["child-agent-flow"] = child
write("err", C, "nested-malformed-declaration", d)
# err (context_slot_invalid): test_template_rejects_reserved_token_and_empty_slot
write("err", "context_slot_invalid", "slim-reserved-token", base([slot("draft__SLOT__Context")]))
