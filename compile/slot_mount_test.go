package compile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// The cases are the platform's own (cinatra-ai/cinatra
// docker/wayflow/tests/test_context_subflow_injection.py @b76ddc22): the
// same minimal slim leaf (start → work → end) and the same mutations, each
// named after the test it follows.

type jm = map[string]any

func slotDecl(id string, over jm) jm {
	s := jm{"slotId": id, "acceptedArtifactExtensions": []any{"@cinatra-ai/brand-voice-artifact"},
		"selectionMode": "interactive", "resolutionMode": "accumulate", "minItems": 0, "maxItems": 5}
	for k, v := range over {
		if v == nil {
			delete(s, k)
			continue
		}
		s[k] = v
	}
	return s
}

func slimSpec(slots []any, consumerInputs ...string) jm {
	if consumerInputs == nil {
		consumerInputs = []string{"contextSlotBindings"}
	}
	inputs := []any{jm{"title": "brief", "type": "string"}}
	for _, t := range consumerInputs {
		inputs = append(inputs, jm{"title": t, "type": "array"})
	}
	ref := func(id string) jm { return jm{"$component_ref": id} }
	return jm{
		"agentspec_version": "26.1.0", "component_type": "Flow", "id": "slim-agent-flow", "name": "Slim agent",
		"metadata":   jm{"cinatra": jm{"type": "agent", "packageName": "@cinatra-ai/slim-agent", "contextSlots": slots}},
		"inputs":     []any{jm{"title": "brief", "type": "string"}},
		"outputs":    []any{jm{"title": "result", "type": "string"}},
		"start_node": ref("start"),
		"nodes":      []any{ref("start"), ref("work"), ref("end")},
		"control_flow_connections": []any{
			jm{"component_type": "ControlFlowEdge", "name": "start_to_work", "from_node": ref("start"), "to_node": ref("work")},
			jm{"component_type": "ControlFlowEdge", "name": "work_to_end", "from_node": ref("work"), "to_node": ref("end")},
		},
		"data_flow_connections": []any{
			jm{"component_type": "DataFlowEdge", "name": "start_brief_to_work", "source_node": ref("start"), "source_output": "brief", "destination_node": ref("work"), "destination_input": "brief"},
		},
		"$referenced_components": jm{
			"start": jm{"component_type": "StartNode", "id": "start", "name": "Inputs", "inputs": []any{jm{"title": "brief", "type": "string"}}},
			"work": jm{"component_type": "ApiNode", "id": "work", "name": "Work", "url": "{{CINATRA_BASE_URL}}/api/llm-bridge",
				"http_method": "POST", "inputs": inputs, "outputs": []any{jm{"title": "result", "type": "string"}}},
			"end": jm{"component_type": "EndNode", "id": "end", "name": "Outputs", "inputs": []any{jm{"title": "result", "type": "string"}}},
		},
	}
}

func mountOf(t *testing.T, doc jm) *SlotMount {
	t.Helper()
	b, err := json.Marshal(doc)
	if err != nil {
		t.Fatal(err)
	}
	return MountSlots(ParseDoc("cinatra/oas.json", b))
}

func refsOf(doc jm) jm { return doc["$referenced_components"].(jm) }

func marker(slot string) jm {
	return jm{"component_type": "FlowNode", "id": "context_" + slot, "subflow": jm{"$component_ref": "context-" + slot + "-subflow"},
		"metadata": jm{"cinatra": jm{"purpose": AuthorPlacedPurpose + slot}}}
}

func TestMountSlotsInjects(t *testing.T) {
	// test_slim_leaf_injection_structure
	m := mountOf(t, slimSpec([]any{slotDecl("ideaContext", nil)}))
	if len(m.Refusals) != 0 || len(m.Slots) != 1 {
		t.Fatalf("%+v", m)
	}
	s := m.Slots[0]
	if s.Form != SlotSlim || s.Node != "context_ideaContext" || s.Subflow != "context-ideaContext-subflow" || s.After != "start" ||
		strings.Join(s.Before, ",") != "work" || s.Owner != "@cinatra-ai/slim-agent" || s.Refused || !m.Injected() {
		t.Errorf("%+v", s)
	}
	if strings.Join(s.HiddenInputs, ",") != "cinatra_run_id,projectId,ideaContextParentPackageName,ideaContextSlotId" {
		t.Errorf("hidden inputs %v", s.HiddenInputs)
	}
	if len(s.Consumers) != 1 || s.Consumers[0].Node != "work" || s.Consumers[0].Input != "contextSlotBindings" || !m.FedInput("", "work", "contextSlotBindings") {
		t.Errorf("consumers %+v", s.Consumers)
	}
	if m.FedInput("", "work", "brief") || m.Slot("", "ideaContext") == nil || m.Slot("x", "ideaContext") != nil {
		t.Error("FedInput/Slot")
	}

	// test_two_slots_chain_in_declaration_order
	m = mountOf(t, slimSpec([]any{slotDecl("alpha", nil), slotDecl("beta", nil)}, "alphaContextSlotBindings", "betaContextSlotBindings"))
	if len(m.Refusals) != 0 || len(m.Slots) != 2 || m.Slots[0].After != "start" || m.Slots[1].After != "context_alpha" ||
		len(m.Slots[0].Before) != 0 || strings.Join(m.Slots[1].Before, ",") != "work" || m.Slots[1].Consumers[0].Input != "betaContextSlotBindings" {
		t.Errorf("%+v", m)
	}
	if len(m.Slots[1].HiddenInputs) != 2 { // cinatra_run_id and projectId came with alpha
		t.Errorf("beta hidden %v", m.Slots[1].HiddenInputs)
	}

	// test_compatible_existing_input_is_reused
	doc := slimSpec([]any{slotDecl("ideaContext", nil)})
	doc["inputs"] = append(doc["inputs"].([]any), jm{"title": "cinatra_run_id", "type": "string", "default": ""})
	st := refsOf(doc)["start"].(jm)
	st["inputs"] = append(st["inputs"].([]any), jm{"title": "cinatra_run_id", "type": "string", "default": ""})
	m = mountOf(t, doc)
	if len(m.Refusals) != 0 || strings.Join(m.Slots[0].HiddenInputs, ",") != "projectId,ideaContextParentPackageName,ideaContextSlotId" {
		t.Errorf("%+v", m)
	}

	// test_integral_float_bounds_are_accepted_like_the_zod_schema
	b := []byte(strings.Replace(mountJSON(t, slimSpec([]any{slotDecl("ideaContext", nil)})), `"maxItems":5`, `"maxItems":5.0`, 1))
	if m := MountSlots(ParseDoc("oas.json", b)); len(m.Refusals) != 0 {
		t.Errorf("5.0: %+v", m.Refusals)
	}
}

func mountJSON(t *testing.T, v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestMountSlotsNoOps(t *testing.T) {
	// test_author_placed_marker_skips_injection_and_returns_same_object
	doc := slimSpec([]any{slotDecl("ideaContext", nil)})
	refsOf(doc)["context_ideaContext"] = marker("ideaContext")
	m := mountOf(t, doc)
	if len(m.Refusals) != 0 || m.Injected() || m.Slots[0].Form != SlotExplicit {
		t.Errorf("%+v", m)
	}
	// test_absent_null_and_empty_declarations_are_no_ops
	for _, v := range []any{nil, []any{}} {
		doc := slimSpec(nil)
		doc["metadata"].(jm)["cinatra"].(jm)["contextSlots"] = v
		if m := mountOf(t, doc); len(m.Slots)+len(m.Refusals) != 0 {
			t.Errorf("%v: %+v", v, m)
		}
	}
	// test_contextSlots_on_a_non_flow_definition_node_is_ignored
	doc = slimSpec([]any{slotDecl("ideaContext", nil)})
	refsOf(doc)["context_ideaContext"] = marker("ideaContext")
	refsOf(doc)["stray_blob"] = jm{"component_type": "FlowNode", "id": "stray_blob", "metadata": jm{"cinatra": jm{"contextSlots": []any{slotDecl("strayContext", nil)}}}}
	if m := mountOf(t, doc); len(m.Refusals) != 0 || len(m.Slots) != 1 {
		t.Errorf("%+v", m)
	}
	// test_nested_child_marker_does_not_suppress_root_declaration
	doc = slimSpec([]any{slotDecl("shared", nil)})
	refsOf(doc)["legacy-child-subflow"] = jm{"component_type": "Flow", "id": "legacy-child-subflow", "start_node": jm{"$component_ref": "legacy-child__start"},
		"nodes": []any{}, "control_flow_connections": []any{}, "$referenced_components": jm{"legacy-child__context_shared": jm{
			"component_type": "FlowNode", "id": "legacy-child__context_shared", "metadata": jm{"cinatra": jm{"purpose": AuthorPlacedPurpose + "shared"}}}}}
	if m := mountOf(t, doc); len(m.Refusals) != 0 || !m.Injected() {
		t.Errorf("%+v", m)
	}
	// test_nested_definition_injection_with_referencer_package
	child := slimSpec([]any{slotDecl("childSlot", nil)})
	child["id"] = "child-agent-subflow"
	delete(child["metadata"].(jm)["cinatra"].(jm), "packageName")
	parent := slimSpec(nil)
	delete(parent["metadata"].(jm)["cinatra"].(jm), "contextSlots")
	refsOf(parent)["child-agent-subflow"] = child
	refsOf(parent)["child_flow"] = jm{"component_type": "FlowNode", "id": "child_flow", "subflow": jm{"$component_ref": "child-agent-subflow"},
		"metadata": jm{"cinatra": jm{"packageName": "@cinatra-ai/child-agent"}}}
	parent["nodes"] = append(parent["nodes"].([]any), jm{"$component_ref": "child_flow"})
	m = mountOf(t, parent)
	if len(m.Refusals) != 0 || len(m.Slots) != 1 || m.Slots[0].Definition != "child-agent-subflow" || m.Slots[0].Owner != "@cinatra-ai/child-agent" {
		t.Errorf("%+v", m)
	}
}

func TestMountSlotsRefusals(t *testing.T) {
	one := func(over jm) jm { return slimSpec([]any{slotDecl("ideaContext", over)}) }
	cases := []struct {
		name string
		doc  func() jm
		kind string
	}{
		{"test_malformed_declaration_fails_the_mount/empty slotId", func() jm { return one(jm{"slotId": ""}) }, MountMalformed},
		{"test_malformed_declaration_fails_the_mount/selectionMode", func() jm { return one(jm{"selectionMode": "both"}) }, MountMalformed},
		{"test_malformed_declaration_fails_the_mount/unknownKey", func() jm { return one(jm{"unknownKey": true}) }, MountMalformed},
		{"test_malformed_declaration_fails_the_mount/minItems>maxItems", func() jm { return one(jm{"minItems": 6, "maxItems": 2}) }, MountMalformed},
		{"test_non_integral_or_non_numeric_bounds_still_fail/minItems 2.5", func() jm { return one(jm{"minItems": 2.5}) }, MountMalformed},
		{"test_non_integral_or_non_numeric_bounds_still_fail/readableOnly null", func() jm {
			d := one(nil)
			d["metadata"].(jm)["cinatra"].(jm)["contextSlots"].([]any)[0].(jm)["readableOnly"] = json.RawMessage("null")
			return d
		}, MountMalformed},
		{"test_template_rejects_reserved_token_and_empty_slot", func() jm { return one(jm{"slotId": "evil__SLOT__slot"}) }, MountMalformed},
		{"test_non_array_declaration_fails_the_mount", func() jm {
			d := one(nil)
			d["metadata"].(jm)["cinatra"].(jm)["contextSlots"] = jm{"slotId": "x"}
			return d
		}, MountMalformed},
		{"test_duplicate_slot_ids_fail", func() jm { return slimSpec([]any{slotDecl("dup", nil), slotDecl("dup", nil)}) }, MountDuplicate},
		{"test_id_collision_fails", func() jm {
			d := one(nil)
			refsOf(d)["ctx-ideaContext-resolve_context"] = jm{"component_type": "ApiNode", "id": "ctx-ideaContext-resolve_context", "url": "{{CINATRA_BASE_URL}}/api/unrelated"}
			return d
		}, MountCollision},
		{"test_missing_owner_package_fails", func() jm {
			d := one(nil)
			delete(d["metadata"].(jm)["cinatra"].(jm), "packageName")
			return d
		}, MountOwnerMissing},
		{"test_disagreeing_owner_packages_fail", func() jm {
			d := one(nil)
			refsOf(d)["weird_ref"] = jm{"component_type": "FlowNode", "id": "weird_ref", "subflow": jm{"$component_ref": "slim-agent-flow"},
				"metadata": jm{"cinatra": jm{"packageName": "@evil/other"}}}
			return d
		}, MountOwnerAmbiguous},
		{"test_zero_consumers_fails", func() jm { return slimSpec([]any{slotDecl("ideaContext", nil)}, []string{}...) }, MountConsumerMissing},
		{"test_bare_consumer_with_multiple_slots_fails", func() jm {
			return slimSpec([]any{slotDecl("alpha", nil), slotDecl("beta", nil)}, "contextSlotBindings")
		}, MountConsumerAmbiguous},
		{"test_bare_plus_qualified_on_same_component_fails", func() jm {
			return slimSpec([]any{slotDecl("ideaContext", nil)}, "contextSlotBindings", "ideaContextContextSlotBindings")
		}, MountConsumerAmbiguous},
		{"test_existing_edge_into_consumer_input_fails", func() jm {
			d := one(nil)
			d["data_flow_connections"] = append(d["data_flow_connections"].([]any), jm{"component_type": "DataFlowEdge", "name": "pre_wired",
				"source_node": jm{"$component_ref": "start"}, "source_output": "brief", "destination_node": jm{"$component_ref": "work"}, "destination_input": "contextSlotBindings"})
			return d
		}, MountAlreadyWired},
		{"test_incompatible_existing_hidden_input_fails", func() jm {
			d := one(nil)
			d["inputs"] = append(d["inputs"].([]any), jm{"title": "ideaContextSlotId", "type": "string", "default": "otherSlot"})
			return d
		}, MountInputConflict},
		{"test_no_start_successors_fails", func() jm {
			d := one(nil)
			d["control_flow_connections"] = d["control_flow_connections"].([]any)[1:]
			return d
		}, MountNoSuccessor},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := c.doc()
			if c.name == "test_zero_consumers_fails" {
				w := refsOf(d)["work"].(jm)
				w["inputs"] = []any{jm{"title": "brief", "type": "string"}}
			}
			m := mountOf(t, d)
			if len(m.Refusals) == 0 {
				t.Fatalf("no refusal: %+v", m)
			}
			if m.Refusals[0].Kind != c.kind {
				t.Errorf("refusal %+v, want kind %s", m.Refusals, c.kind)
			}
			for _, r := range m.Refusals {
				if r.Message == "" || r.Pointer == "" && r.Kind != MountMalformed {
					t.Errorf("refusal without message or place: %+v", r)
				}
			}
			if m.Injected() {
				t.Error("a refused mount injects")
			}
		})
	}
}

func TestMountSlotsParentSatisfied(t *testing.T) {
	// test_parent_satisfied_context_slots.py's shape: a composite whose own
	// slot answers a slot of the child it embeds.
	child := slimSpec([]any{slotDecl("childSlot", nil)})
	child["id"] = "child-agent-subflow"
	child["metadata"].(jm)["cinatra"].(jm)["packageName"] = "@cinatra-ai/child-agent"
	child["$referenced_components"].(jm)["work"].(jm)["inputs"] = []any{jm{"title": "brief", "type": "string"}, jm{"title": "childSlotContextSlotBindings", "type": "array"}}
	parent := slimSpec([]any{slotDecl("parentSlot", nil)})
	parent["metadata"].(jm)["cinatra"].(jm)["parentSatisfiedContextSlots"] = []any{jm{"parentSlotId": "parentSlot", "childPackage": "@cinatra-ai/child-agent", "childSlotId": "childSlot"}}
	refsOf(parent)["child-agent-subflow"] = child
	refsOf(parent)["child_flow"] = jm{"component_type": "FlowNode", "id": "child_flow", "subflow": jm{"$component_ref": "child-agent-subflow"}}
	parent["nodes"] = append(parent["nodes"].([]any), jm{"$component_ref": "child_flow"})
	m := mountOf(t, parent)
	if len(m.Refusals) != 0 || len(m.Lines) != 1 {
		t.Fatalf("%+v", m)
	}
	if s := m.Slot("child-agent-subflow", "childSlot"); s == nil || s.Form != SlotParentSatisfied || len(s.Consumers) != 1 {
		t.Errorf("child slot %+v", s)
	}
	// a line naming a slot the parent does not declare
	parent["metadata"].(jm)["cinatra"].(jm)["parentSatisfiedContextSlots"] = []any{jm{"parentSlotId": "nope", "childPackage": "@cinatra-ai/child-agent", "childSlotId": "childSlot"}}
	if m := mountOf(t, parent); len(m.Refusals) == 0 || m.Refusals[0].Kind != MountParentSatisfied {
		t.Errorf("%+v", m.Refusals)
	}
	// a line naming no embedded agent
	parent["metadata"].(jm)["cinatra"].(jm)["parentSatisfiedContextSlots"] = []any{jm{"parentSlotId": "parentSlot", "childPackage": "@x/none", "childSlotId": "childSlot"}}
	if m := mountOf(t, parent); len(m.Refusals) == 0 || m.Refusals[0].Kind != MountParentSatisfied {
		t.Errorf("%+v", m.Refusals)
	}
	// unknown key
	parent["metadata"].(jm)["cinatra"].(jm)["parentSatisfiedContextSlots"] = []any{jm{"parentSlotId": "parentSlot", "childPackage": "@cinatra-ai/child-agent", "childSlotId": "childSlot", "value": "x"}}
	if m := mountOf(t, parent); len(m.Refusals) == 0 || m.Refusals[0].Kind != MountParentSatisfied {
		t.Errorf("%+v", m.Refusals)
	}
}

// Every corpus agent and every revision of the history mounts: the three
// slotted agents carry the author-placed marker for each slot (the
// explicit form), the rest declare none, so the loader changes nothing.
func TestMountSlotsCorpusQuiet(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	explicit := 0
	for _, slug := range slugs {
		b, err := os.ReadFile(filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
		if err != nil {
			t.Fatal(err)
		}
		m := MountSlots(ParseDoc("oas.json", b))
		if len(m.Refusals) != 0 || m.Injected() {
			t.Errorf("%s: %+v", slug, m)
		}
		for _, s := range m.Slots {
			if s.Form != SlotExplicit {
				t.Errorf("%s: slot %s is %s", slug, s.Slot, s.Form)
			}
			explicit++
		}
	}
	if explicit != 3 {
		t.Errorf("%d explicit slots in the corpus, want 3 (draftContext, imagePromptContext, offeringContext)", explicit)
	}
	hist := testshared.Dir(t, "corpus", "history")
	files, _ := filepath.Glob(filepath.Join(hist, "*", "*", "cinatra", "oas.json"))
	if len(files) == 0 {
		t.Fatal("no history revisions")
	}
	// Every fourth revision under -race (one goroutine's parse and mount);
	// the pass without -race reads all of them.
	for i := 0; i < len(files); i += race.Stride(4) {
		f := files[i]
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if m := MountSlots(ParseDoc("oas.json", b)); len(m.Refusals) != 0 {
			t.Errorf("%s: %+v", f, m.Refusals)
		}
	}
}

// BenchmarkMountSlotsCorpus: the loader model over the 25 corpus agents
// (three carry slots, in the explicit form), what every lint of an agent
// now adds through Agent.Model.
func BenchmarkMountSlotsCorpus(b *testing.B) {
	dir, slugs := testshared.CorpusAgents(b)
	var docs []*Doc
	for _, slug := range slugs {
		src, err := os.ReadFile(filepath.Join(dir, "agents", "cinatra-ai", slug, "cinatra", "oas.json"))
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, ParseDoc("oas.json", src))
	}
	b.ResetTimer()
	for range b.N {
		for _, d := range docs {
			MountSlots(d)
		}
	}
}
