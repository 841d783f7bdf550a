package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Component I/O and type rules of the agentspec profile
// (reference/agentspec.md §5.1 D15, §5.3 I1/I2/I6/I7/I8, §5.6 C3): what the
// SDK infers for a component's inputs and outputs must match what it
// declares, and references must name a component of the kind the field takes.

var (
	RuleComponentRefWrongType = &Rule{Code: "component_ref_wrong_type", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D15: a field holds (or references) a component of the wrong kind, e.g. a ToolBox in ToolNode.tool or an LLM config in nodes"}
	RuleIOPlaceholderMismatch = &Rule{Code: "io_placeholder_mismatch", Severity: compile.Blocker, Group: "agentspec",
		Doc: "I1: declared inputs must be exactly the {{placeholders}} of the template (LlmNode prompt_template, message nodes, Agent system_prompt)"}
	RuleIOWrappedMismatch = &Rule{Code: "io_wrapped_mismatch", Severity: compile.Blocker, Group: "agentspec",
		Doc: "I2: a FlowNode/AgentNode/ToolNode declares inputs or outputs that differ from its subflow's, agent's or tool's (by title, or by a type that cannot be cast)"}
	RuleInputMessageNodeOutput = &Rule{Code: "input_message_node_output", Severity: compile.Blocker, Group: "agentspec",
		Doc: "I6: an InputMessageNode has exactly one output, of type string"}
	RuleCatchExceptionNodeIO = &Rule{Code: "catch_exception_node_io", Severity: compile.Blocker, Group: "agentspec",
		Doc: "I7: CatchExceptionNode outputs all need defaults, and its subflow may not use the caught_exception_branch branch or the caught_exception_info output"}
	RuleParallelFlowNodeIO = &Rule{Code: "parallel_flow_node_io", Severity: compile.Blocker, Group: "agentspec",
		Doc: "I8: the subflows of a ParallelFlowNode give same-named inputs the same type and never the same output name"}
	RuleSensitiveHeadersOverlap = &Rule{Code: "sensitive_headers_overlap", Severity: compile.Blocker, Group: "agentspec",
		Doc: "C3: a header is in both headers and sensitive_headers (ApiNode, RemoteTool, remote MCP transports)"}
	RuleMapNodeIO = &Rule{Code: "map_node_io", Severity: compile.Blocker, Group: "agentspec",
		Doc: "I3: a MapNode's inputs are iterated_<x> for its subflow's inputs and its outputs collected_<y> for the reduced subflow outputs"}
	RuleStartEndIOMismatch = &Rule{Code: "start_end_io_mismatch", Severity: compile.Blocker, Group: "agentspec",
		Doc: "I4: a StartNode's (EndNode's) inputs and outputs, when both are given, are the same properties"}
	RuleEndNodeOutputTypes = &Rule{Code: "end_node_output_types", Severity: compile.Blocker, Group: "agentspec",
		Doc: "F10: EndNodes of one Flow that expose the same output name give it the same type"}
	RuleAgenticPatternInvalid = &Rule{Code: "agentic_pattern_invalid", Severity: compile.Blocker, Group: "agentspec",
		Doc: "C1/C2: a Swarm needs at least one relationship; ManagerWorkers needs at least one worker and its manager may not be a worker"}
	RulePropertyTitleDuplicate = &Rule{Code: "property_title_duplicate", Severity: compile.Blocker, Group: "agentspec",
		Doc: "P4: two inputs (or two outputs) of one component share a title"}
)

var passAgentSpecIO = &Check{Name: "agentspec-io", Profiles: []compile.Profile{compile.ProfileAgentSpec}, Run: checkAgentSpecIO}

// placeholders returns the {{names}} in s, as pyagentspec's templating finds them.
func placeholders(s string, into map[string]bool) {
	compile.EachPlaceholder(s, compile.TemplateSpace, func(name string, _, _ int) { into[name] = true })
}

// Kinds of component a field takes.
var (
	nodeKinds  = mergeSets(coreNodeTypes)
	toolKinds  = map[string]bool{"ServerTool": true, "ClientTool": true, "RemoteTool": true, "MCPTool": true, "BuiltinTool": true}
	llmKinds   = mergeSets(llmConfigTypes, map[string]bool{"DbmsVectorChainLlmConfig": true})
	agentKinds = map[string]bool{"Agent": true, "Flow": true, "Swarm": true, "ManagerWorkers": true, "A2AAgent": true,
		"OciAgent": true, "SpecializedAgent": true}
	fieldKinds = map[string]map[string]bool{
		"ToolNode.tool": toolKinds, "Flow.start_node": nodeKinds, "Flow.nodes": nodeKinds,
		"LlmNode.llm_config": llmKinds, "Agent.llm_config": llmKinds, "AgentNode.agent": agentKinds,
		"FlowNode.subflow": {"Flow": true}, "MapNode.subflow": {"Flow": true}, "ParallelMapNode.subflow": {"Flow": true},
		"CatchExceptionNode.subflow": {"Flow": true}, "ParallelFlowNode.subflows": {"Flow": true},
		"Agent.tools": toolKinds, "Agent.toolboxes": {"MCPToolBox": true},
		"ControlFlowEdge.from_node": nodeKinds, "ControlFlowEdge.to_node": nodeKinds,
		"DataFlowEdge.source_node": nodeKinds, "DataFlowEdge.destination_node": nodeKinds,
		"Flow.control_flow_connections": {"ControlFlowEdge": true}, "Flow.data_flow_connections": {"DataFlowEdge": true},
	}
)

func mergeSets(sets ...map[string]bool) map[string]bool {
	out := map[string]bool{}
	for _, s := range sets {
		for k, v := range s {
			out[k] = v
		}
	}
	return out
}

func checkAgentSpecIO(p *Pass) {
	doc := p.Agent.Flow
	if !doc.Root.Is(compile.Object) || foreignFormat(doc.Root) != "" {
		return
	}
	if _, pre := preReleaseSyntax(doc.Root); pre {
		return
	}
	dm := p.model()
	known := knownComponentTypes()
	walkComponents(doc.Root, "", func(ptr string, c *compile.Node, ct string) {
		if !known[ct] {
			return
		}
		checkFieldKinds(p, dm, ptr, c, ct)
		checkTitlesUnique(p, doc, ptr, c)
		checkPlaceholderInputs(p, doc, ptr, c, ct)
		checkWrapped(p, dm, ptr, c, ct)
		switch ct {
		case "InputMessageNode":
			if outs := c.Get("outputs"); outs.Is(compile.Array) {
				if len(outs.Items) != 1 {
					p.Report(doc, compile.Append(ptr, "outputs"), RuleInputMessageNodeOutput, fmt.Sprintf("InputMessageNode %q declares %d outputs; it has exactly one, the user's answer as a string", c.Get("name").StringOr(""), len(outs.Items)))
				} else if t, ok := outs.Items[0].Get("type").Str(); ok && t != "string" {
					p.Report(doc, compile.AppendIndex(compile.Append(ptr, "outputs"), 0), RuleInputMessageNodeOutput, fmt.Sprintf("the output of InputMessageNode %q is %s; the user's answer is a string", c.Get("name").StringOr(""), t))
				}
			}
		case "CatchExceptionNode":
			checkCatchException(p, dm, ptr, c)
		case "ParallelFlowNode":
			checkParallelFlow(p, dm, ptr, c)
		case "MapNode", "ParallelMapNode":
			checkMapNode(p, dm, ptr, c, ct)
		case "StartNode", "EndNode":
			in, out := c.Get("inputs"), c.Get("outputs")
			if in.Is(compile.Array) && out.Is(compile.Array) {
				a, b := titleSet(in.Items), titleSet(out.Items)
				if len(setDiff(a, b))+len(setDiff(b, a)) > 0 {
					p.Report(doc, compile.Append(ptr, "outputs"), RuleStartEndIOMismatch, fmt.Sprintf("%s %q has inputs %s but outputs %s; they must be the same properties",
						ct, c.Get("name").StringOr(""), quoteList(sortedKeys(a)), quoteList(sortedKeys(b))))
				}
			}
		case "Swarm":
			if rel := c.Get("relationships"); rel.Is(compile.Array) && len(rel.Items) == 0 {
				p.Report(doc, compile.Append(ptr, "relationships"), RuleAgenticPatternInvalid, fmt.Sprintf("Swarm %q has no relationships; it needs at least one [caller, recipient] pair", c.Get("name").StringOr("")))
			}
		case "ManagerWorkers":
			checkManagerWorkers(p, dm, ptr, c)
		case "Flow":
			checkEndNodeOutputTypes(p, dm, c)
		case "ApiNode", "RemoteTool", "SSETransport", "StreamableHTTPTransport", "SSEmTLSTransport", "StreamableHTTPmTLSTransport":
			checkSensitiveHeaders(p, doc, ptr, c)
		}
	})
}

func checkFieldKinds(p *Pass, dm *compile.Model, ptr string, c *compile.Node, ct string) {
	for _, m := range c.Members {
		kinds := fieldKinds[ct+"."+m.Key]
		if kinds == nil {
			continue
		}
		fp := compile.Append(ptr, m.Key)
		check := func(v *compile.Node, vp string) {
			r := resolveAt(dm, v, vp)
			if r == nil {
				return
			}
			got, ok := r.Get("component_type").Str()
			if !ok || kinds[got] || !knownComponentTypes()[got] {
				return // missing or plugin types are other rules' business
			}
			p.Report(p.Agent.Flow, vp, RuleComponentRefWrongType, fmt.Sprintf("%s.%s takes %s, but the component there is of type %s", ct, m.Key, kindText(kinds), got))
		}
		if m.Value.Is(compile.Array) {
			for i, it := range m.Value.Items {
				check(it, compile.AppendIndex(fp, i))
			}
		} else if m.Value.Is(compile.Object) {
			check(m.Value, fp)
		}
	}
}

func kindText(kinds map[string]bool) string {
	switch {
	case len(kinds) == 1:
		return "a " + sortedKeys(kinds)[0]
	case kinds["StartNode"]:
		return "a node"
	case kinds["ServerTool"]:
		return "a tool (not a ToolBox)"
	case kinds["VllmConfig"]:
		return "an LLM configuration"
	case kinds["Agent"]:
		return "an agentic component"
	}
	return "one of " + strings.Join(sortedKeys(kinds), ", ")
}

func checkTitlesUnique(p *Pass, doc *compile.Doc, ptr string, c *compile.Node) {
	for _, key := range []string{"inputs", "outputs"} {
		seen := map[string]bool{}
		for i, prop := range items(c.Get(key)) {
			t, ok := prop.Get("title").Str()
			if !ok || t == "" {
				continue
			}
			if seen[t] {
				p.Report(doc, compile.AppendIndex(compile.Append(ptr, key), i), RulePropertyTitleDuplicate, fmt.Sprintf("%s of %q has two properties titled %q", key, c.Get("name").StringOr(compile.ComponentType(c)), t))
			}
			seen[t] = true
		}
	}
}

// templateFields: where pyagentspec looks for {{placeholders}} that become inputs.
var templateFields = map[string][]string{
	"LlmNode": {"prompt_template"}, "OutputMessageNode": {"message"}, "InputMessageNode": {"message"},
	"Agent": {"system_prompt"}, "AgentSpecializationParameters": {"additional_instructions"},
	"ApiNode":    {"url", "http_method", "api_spec_uri", "data", "query_params", "headers"},
	"RemoteTool": {"url", "http_method", "api_spec_uri", "data", "query_params", "headers"},
}

// optionalTemplates: template fields that may be absent.
var optionalTemplates = map[string]bool{"message": true, "api_spec_uri": true, "data": true, "query_params": true, "headers": true, "http_method": true}

// collectPlaceholders adds the placeholders of every string in v (dict
// keys and values and list items too, as for ApiNode data and headers).
func collectPlaceholders(v *compile.Node, into map[string]bool, depth int) bool {
	if v == nil || depth > 32 {
		return true
	}
	switch v.Kind {
	case compile.String:
		placeholders(v.Text, into)
	case compile.Object:
		if _, isRef := compile.RefID(v); isRef {
			return false // a disaggregated value: its content is elsewhere
		}
		for _, m := range v.Members {
			placeholders(m.Key, into)
			if !collectPlaceholders(m.Value, into, depth+1) {
				return false
			}
		}
	case compile.Array:
		for _, it := range v.Items {
			if !collectPlaceholders(it, into, depth+1) {
				return false
			}
		}
	}
	return true
}

func checkPlaceholderInputs(p *Pass, doc *compile.Doc, ptr string, c *compile.Node, ct string) {
	fields := templateFields[ct]
	ins := c.Get("inputs")
	if fields == nil || !ins.Is(compile.Array) {
		return
	}
	want := map[string]bool{}
	for _, f := range fields {
		v := c.Get(f)
		if v == nil && !optionalTemplates[f] {
			return // a missing template is the schema check's finding
		}
		if v.Is(compile.Object) || v.Is(compile.Array) {
			if f != "data" && f != "query_params" && f != "headers" {
				return
			}
		} else if v != nil && v.Kind != compile.Null && v.Kind != compile.String {
			continue
		}
		if !collectPlaceholders(v, want, 0) {
			return
		}
	}
	got := titleSet(ins.Items)
	missing, extra := setDiff(want, got), setDiff(got, want)
	if len(missing)+len(extra) == 0 {
		return
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "the template uses "+quoteList(missing)+" but they are not declared")
	}
	if len(extra) > 0 {
		parts = append(parts, quoteList(extra)+" are declared but the template never uses them")
	}
	p.Report(doc, compile.Append(ptr, "inputs"), RuleIOPlaceholderMismatch, fmt.Sprintf("inputs of %s %q must be the {{placeholders}} of its %s: %s",
		ct, c.Get("name").StringOr(""), strings.Join(fields, "/"), strings.Join(parts, "; ")))
}

// flowIO returns the declared inputs or outputs of a Flow, else what its
// StartNode (inputs) or its EndNodes (outputs common to all) give.
func flowIO(dm *compile.Model, flow *compile.Node, key string) ([]*compile.Node, bool) {
	if v := flow.Get(key); v.Is(compile.Array) {
		return v.Items, true
	}
	m := dm.FlowByNode(flow)
	if m == nil {
		return nil, false
	}
	if key == "inputs" {
		for i := range m.Nodes {
			if n := &m.Nodes[i]; n.Type == "StartNode" {
				return nodeProps(n, "inputs")
			}
		}
		return nil, false
	}
	var common []*compile.Node
	first := true
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n.Type != "EndNode" {
			continue
		}
		outs, ok := nodeProps(n, "outputs")
		if !ok {
			return nil, false
		}
		if first {
			common, first = outs, false
			continue
		}
		set := titleSet(outs)
		var keep []*compile.Node
		for _, o := range common {
			if set[o.Get("title").StringOr("")] {
				keep = append(keep, o)
			}
		}
		common = keep
	}
	return common, !first
}

// checkWrapped is I2: FlowNode/AgentNode/ToolNode I/O equals the wrapped
// component's, when both sides are declared.
func checkWrapped(p *Pass, dm *compile.Model, ptr string, c *compile.Node, ct string) {
	var field string
	switch ct {
	case "FlowNode":
		field = "subflow"
	case "AgentNode":
		field = "agent"
	case "ToolNode":
		field = "tool"
	default:
		return
	}
	inner := resolveAt(dm, c.Get(field), compile.Append(ptr, field))
	if !inner.Is(compile.Object) {
		return
	}
	ict := compile.ComponentType(inner)
	for _, key := range []string{"inputs", "outputs"} {
		decl := c.Get(key)
		if !decl.Is(compile.Array) {
			continue
		}
		var want []*compile.Node
		var ok bool
		if ict == "Flow" {
			want, ok = flowIO(dm, inner, key)
		} else if v := inner.Get(key); v.Is(compile.Array) {
			want, ok = v.Items, true
		}
		if !ok || (ct == "AgentNode" && ict != "Flow" && key == "outputs" && len(want) == 0) {
			continue
		}
		ws, gs := titleSet(want), titleSet(decl.Items)
		// A wrapped property with a default need not be declared by the node.
		var missing []string
		for _, t := range setDiff(ws, gs) {
			if pr := propByTitle(want, t); pr != nil && pr.Get("default") != nil && key == "inputs" {
				continue
			}
			missing = append(missing, t)
		}
		extra := setDiff(gs, ws)
		name := c.Get("name").StringOr("")
		if len(missing)+len(extra) > 0 {
			var parts []string
			if len(missing) > 0 {
				parts = append(parts, "missing "+quoteList(missing))
			}
			if len(extra) > 0 {
				parts = append(parts, "not in the "+field+": "+quoteList(extra))
			}
			p.Report(p.Agent.Flow, compile.Append(ptr, key), RuleIOWrappedMismatch, fmt.Sprintf("%s of %s %q must be the %s of its %s: %s", key, ct, name, key, field, strings.Join(parts, "; ")))
			continue
		}
		for i, d := range decl.Items {
			w := propByTitle(want, d.Get("title").StringOr(""))
			if w == nil {
				continue
			}
			src, dst := w, d // outputs: inner → declared; inputs: declared → inner
			if key == "inputs" {
				src, dst = d, w
			}
			if !castable(src, dst, 0) {
				p.Report(p.Agent.Flow, compile.AppendIndex(compile.Append(ptr, key), i), RuleIOWrappedMismatch, fmt.Sprintf("%s %q of %s %q is %s, but the %s's is %s, which cannot be cast to it",
					strings.TrimSuffix(key, "s"), d.Get("title").StringOr(""), ct, name, typeText(d), field, typeText(w)))
			}
		}
	}
}

func checkCatchException(p *Pass, dm *compile.Model, ptr string, c *compile.Node) {
	name := c.Get("name").StringOr("")
	for i, o := range items(c.Get("outputs")) {
		if o.Get("default") == nil {
			p.Report(p.Agent.Flow, compile.AppendIndex(compile.Append(ptr, "outputs"), i), RuleCatchExceptionNodeIO, fmt.Sprintf(
				"output %q of CatchExceptionNode %q has no default; when the subflow fails it is never produced", o.Get("title").StringOr(""), name))
		}
	}
	sub := resolveAt(dm, c.Get("subflow"), compile.Append(ptr, "subflow"))
	m := dm.FlowByNode(sub)
	if m == nil {
		return
	}
	for i := range m.Nodes {
		if n := &m.Nodes[i]; n.Type == "EndNode" && n.Comp.Get("branch_name").StringOr("") == caughtExceptionBranch {
			p.Report(p.Agent.Flow, n.Pointer, RuleCatchExceptionNodeIO, fmt.Sprintf("the subflow of CatchExceptionNode %q ends on branch %q, which the node reserves for caught exceptions", name, caughtExceptionBranch))
		}
	}
	if outs, ok := flowIO(dm, sub, "outputs"); ok && propByTitle(outs, "caught_exception_info") != nil {
		p.Report(p.Agent.Flow, compile.Append(ptr, "subflow"), RuleCatchExceptionNodeIO, fmt.Sprintf("the subflow of CatchExceptionNode %q outputs caught_exception_info, which the node reserves", name))
	}
}

func checkParallelFlow(p *Pass, dm *compile.Model, ptr string, c *compile.Node) {
	name := c.Get("name").StringOr("")
	inputs := map[string]*compile.Node{}
	outputs := map[string]int{}
	for i, s := range items(c.Get("subflows")) {
		sp := compile.AppendIndex(compile.Append(ptr, "subflows"), i)
		sub := resolveAt(dm, s, sp)
		if !sub.Is(compile.Object) {
			continue
		}
		if ins, ok := flowIO(dm, sub, "inputs"); ok {
			for _, in := range ins {
				t := in.Get("title").StringOr("")
				if prev := inputs[t]; prev != nil && typeText(prev) != typeText(in) {
					p.Report(p.Agent.Flow, sp, RuleParallelFlowNodeIO, fmt.Sprintf("subflows of ParallelFlowNode %q take input %q as %s and as %s; same-named inputs need the same type", name, t, typeText(prev), typeText(in)))
				} else if prev == nil {
					inputs[t] = in
				}
			}
		}
		if outs, ok := flowIO(dm, sub, "outputs"); ok {
			for _, o := range outs {
				t := o.Get("title").StringOr("")
				if prev, dup := outputs[t]; dup && prev != i {
					p.Report(p.Agent.Flow, sp, RuleParallelFlowNodeIO, fmt.Sprintf("subflows %d and %d of ParallelFlowNode %q both output %q; output names must be unique", prev, i, name, t))
				}
				outputs[t] = i
			}
		}
	}
}

func checkSensitiveHeaders(p *Pass, doc *compile.Doc, ptr string, c *compile.Node) {
	h, sh := c.Get("headers"), c.Get("sensitive_headers")
	if !h.Is(compile.Object) || !sh.Is(compile.Object) {
		return
	}
	var both []string
	for _, m := range h.Members {
		if sh.Get(m.Key) != nil {
			both = append(both, m.Key)
		}
	}
	sort.Strings(both)
	for _, k := range both {
		p.Report(doc, compile.Append(ptr, "sensitive_headers", k), RuleSensitiveHeadersOverlap, fmt.Sprintf("header %q is in both headers and sensitive_headers; keep it only in sensitive_headers", k))
	}
}

func checkMapNode(p *Pass, dm *compile.Model, ptr string, c *compile.Node, ct string) {
	sub := resolveAt(dm, c.Get("subflow"), compile.Append(ptr, "subflow"))
	if !sub.Is(compile.Object) {
		return
	}
	name := c.Get("name").StringOr("")
	if ins := c.Get("inputs"); ins.Is(compile.Array) {
		if sin, ok := flowIO(dm, sub, "inputs"); ok {
			want := map[string]bool{}
			for t := range titleSet(sin) {
				want["iterated_"+t] = true
			}
			reportSetMismatch(p, p.Agent.Flow, compile.Append(ptr, "inputs"), RuleMapNodeIO, fmt.Sprintf("inputs of %s %q", ct, name), want, titleSet(ins.Items))
		}
	}
	if outs := c.Get("outputs"); outs.Is(compile.Array) {
		want := map[string]bool{}
		if red := c.Get("reducers"); red.Is(compile.Object) {
			for _, m := range red.Members {
				want["collected_"+m.Key] = true
			}
		} else if sout, ok := flowIO(dm, sub, "outputs"); ok {
			for t := range titleSet(sout) {
				want["collected_"+t] = true
			}
		} else {
			return
		}
		reportSetMismatch(p, p.Agent.Flow, compile.Append(ptr, "outputs"), RuleMapNodeIO, fmt.Sprintf("outputs of %s %q", ct, name), want, titleSet(outs.Items))
	}
}

func reportSetMismatch(p *Pass, doc *compile.Doc, ptr string, rule *Rule, what string, want, got map[string]bool) {
	missing, extra := setDiff(want, got), setDiff(got, want)
	if len(missing)+len(extra) == 0 {
		return
	}
	var parts []string
	if len(missing) > 0 {
		parts = append(parts, "missing "+quoteList(missing))
	}
	if len(extra) > 0 {
		parts = append(parts, "unexpected "+quoteList(extra))
	}
	p.Report(doc, ptr, rule, what+" do not match its subflow: "+strings.Join(parts, "; "))
}

func checkManagerWorkers(p *Pass, dm *compile.Model, ptr string, c *compile.Node) {
	name := c.Get("name").StringOr("")
	ws := c.Get("workers")
	if !ws.Is(compile.Array) {
		return
	}
	if len(ws.Items) == 0 {
		p.Report(p.Agent.Flow, compile.Append(ptr, "workers"), RuleAgenticPatternInvalid, fmt.Sprintf("ManagerWorkers %q has no workers", name))
		return
	}
	mgr := resolveAt(dm, c.Get("group_manager"), compile.Append(ptr, "group_manager"))
	if mgr == nil {
		return
	}
	for i, w := range ws.Items {
		wp := compile.AppendIndex(compile.Append(ptr, "workers"), i)
		if wc := resolveAt(dm, w, wp); wc == mgr {
			p.Report(p.Agent.Flow, wp, RuleAgenticPatternInvalid, fmt.Sprintf("the group manager of ManagerWorkers %q is also one of its workers", name))
		}
	}
}

// checkEndNodeOutputTypes is F10 for one Flow.
func checkEndNodeOutputTypes(p *Pass, dm *compile.Model, flow *compile.Node) {
	m := dm.FlowByNode(flow)
	if m == nil {
		return
	}
	type seen struct {
		end  *compile.FlowNode
		prop *compile.Node
	}
	first := map[string]seen{}
	for i := range m.Nodes {
		n := &m.Nodes[i]
		if n.Type != "EndNode" {
			continue
		}
		outs, ok := nodeProps(n, "outputs")
		if !ok {
			continue
		}
		for _, o := range outs {
			t := o.Get("title").StringOr("")
			if t == "" {
				continue
			}
			prev, ok := first[t]
			if !ok {
				first[t] = seen{n, o}
				continue
			}
			if pt, ot := prev.prop.Get("type"), o.Get("type"); pt != nil && ot != nil && typeText(prev.prop) != typeText(o) {
				p.Report(p.Agent.Flow, n.Pointer, RuleEndNodeOutputTypes, fmt.Sprintf("EndNodes %q and %q of flow %q both output %q, as %s and as %s; the flow's output needs one type",
					prev.end.Label(), n.Label(), m.Label(), t, typeText(prev.prop), typeText(o)))
			}
		}
	}
}
