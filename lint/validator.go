package lint

import (
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// The validator: the reference's validateOasAgentJson (SPEC §3.1,
// reference §9) as rules with stable codes and positions. All of it runs
// in the cinatra profile only.
//
// Deliberate differences from the reference, each a careful user's
// expectation where the reference is wrong or silent:
//   - case 38: a $component_ref that is not in the enclosing Flow's own
//     $referenced_components is accepted when the global registry has it
//     (the reference's global-id list is empty in code, so it rejects refs
//     its own compiler resolves; its docs promise what we do). A ref that
//     resolves only in an outer Flow is the warning component_ref_outer_scope
//     instead of an error.
//   - AgentNode semantics are checked in every Flow, not only the root.
//   - nodes as an object, numbers where strings belong, … never crash
//     (the reference throws a TypeError for a non-array `nodes`).

const validatorGroup = "validator"

var (
	RuleOASStructural = &Rule{Code: "oas_structural", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "the root is not a well-formed Cinatra Flow: agentspec_version 26.1.0, component_type Flow, id/name strings, metadata.cinatra.type, inputs/outputs/nodes/edges/$referenced_components of the right shape (reference §9.2)"}
	RuleLegacyField = &Rule{Code: "legacy_field", Severity: compile.Blocker, Group: validatorGroup,
		Doc:       "a legacy field (root componentType, metadata.cinatra formatVersion/executionMode/approvalPolicy/compiledPlan/inputSchema/outputSchema/prompt/taskSpec) that the compiler derives or that moved to Agent.system_prompt",
		Fix:       "remove the field: the compiler derives it (prompt and taskSpec hold text that belongs in Agent.system_prompt)",
		AutoFixes: []string{"remove the legacy field (not prompt/taskSpec/approvalPolicy)", "for prompt/taskSpec: move the text into the system_prompt of the flow's only local Agent, when that is absent or empty (no fix when there are several Agents or it already has a prompt: merging texts is the author's)", "remove metadata.cinatra.approvalPolicy (the compiler derives the approval policy; dangerous: it names approval, so never in a batch)"},
		FixTiers:  []edit.Tier{edit.Safe, edit.Unsafe, edit.Dangerous}}
	RuleAgentNodeHITLOwnedBy = &Rule{Code: "agentnode_hitl_owned_by", Severity: compile.Blocker, Group: validatorGroup,
		Doc: `an AgentNode's metadata.cinatra.hitlOwnedBy is neither "childAgent" nor "self"`}
	RuleAgentNodeSurfaceOverride = &Rule{Code: "agentnode_surface_override", Severity: compile.Blocker, Group: validatorGroup,
		Doc: `an AgentNode sets metadata.cinatra.a2uiSurfaceIdOverride without hitlOwnedBy "childAgent"`}
	RuleAgentNodeRequiresApprovalType = &Rule{Code: "agentnode_requires_approval_type", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "an AgentNode's metadata.cinatra.requiresApproval is not a boolean"}
	RuleUnresolvedComponentRef = &Rule{Code: "unresolved_component_ref", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "a $component_ref resolves neither in its enclosing Flow's $referenced_components, nor an outer Flow's, nor the global registry (validator case 38)"}
	RuleComponentRefOuterScope = &Rule{Code: "component_ref_outer_scope", Severity: compile.Warning, Group: validatorGroup,
		Doc: "a $component_ref resolves only in an outer Flow's $referenced_components; the runtime resolves each Flow's refs in its own scope"}
	RuleDuplicateNode = &Rule{Code: "duplicate_node", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "the root Flow's nodes array lists a node twice (validator case 39)"}
	RuleStartNodeCount = &Rule{Code: "start_node_count", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "the root Flow's $referenced_components does not hold exactly one StartNode (validator case 40)"}
	RuleEndNodeCount = &Rule{Code: "end_node_count", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "the root Flow's $referenced_components does not hold exactly one EndNode (validator case 41)"}
	RuleComponentRefCycle = &Rule{Code: "component_ref_cycle", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "a component contains itself through $component_ref references"}
	RuleObjectTypeNamespace = &Rule{Code: "object_type_namespace", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "a root output's cinatra.artifact annotation is not an object"}
	RuleObjectTypeRetired = &Rule{Code: "object_type_retired", Severity: compile.Suggestion, Group: validatorGroup,
		Doc:       "a root output carries the retired cinatra.object_type annotation (cinatra#1788): today's platform ignores and strips it (the output annotation is {artifact?}), so it declares nothing",
		Fix:       "remove it; bind the output to an artifact extension with outputs[].cinatra.artifact when the output is an artifact",
		AutoFixes: []string{"remove the retired cinatra.object_type"},
		FixTiers:  []edit.Tier{edit.Safe}}
	RuleInputMessageWithoutOutput = &Rule{Code: "input_message_without_output", Severity: compile.Blocker, Group: validatorGroup,
		Doc: "an InputMessageNode of the root Flow declares no outputs, so the compiler cannot name its field (MISSING_INPUT_MESSAGE_OUTPUT)"}
)

var passValidator = &Check{Name: "validator", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: runValidator}

// valCtx is one validator run over one flow document.
type valCtx struct {
	p    *Pass
	doc  *compile.Doc
	root *compile.Node
	reg  *compile.Node // the registry's components object (may be nil)

	flows  []valFlow     // every Flow object of the document, in source order
	counts map[*Rule]int // findings per rule, for valMaxPerRule
	// slowStructural: the structural check walks every edge, port and
	// reference field by field even when it is valid (the oracle of
	// TestStructuralShortcutsSameAsFields)
	slowStructural bool
}

// valFlow is a Flow object found by the walk.
type valFlow struct {
	node *compile.Node
	ptr  string
}

// valMaxPerRule bounds the findings one validator rule reports in one
// file; the rest are counted in a last finding. A hostile file with a
// hundred thousand broken components stays fast to lint and readable.
const valMaxPerRule = 200

func (v *valCtx) report(ptr string, rule *Rule, msg string) { v.reportFix(ptr, rule, msg) }

// reportFix is report with the finding's fixes.
func (v *valCtx) reportFix(ptr string, rule *Rule, msg string, fixes ...edit.Fix) {
	if v.counts == nil {
		v.counts = map[*Rule]int{}
	}
	v.counts[rule]++
	if v.counts[rule] > valMaxPerRule {
		return
	}
	v.p.ReportFix(v.doc, ptr, rule, msg, fixes...)
}

// reportOverflow adds, per rule over the bound, one finding at the root
// saying how many more there are.
func (v *valCtx) reportOverflow() {
	over := make([]*Rule, 0, len(v.counts))
	for r, n := range v.counts {
		if n > valMaxPerRule {
			over = append(over, r)
		}
	}
	sort.Slice(over, func(i, j int) bool { return over[i].Code < over[j].Code })
	for _, r := range over {
		v.p.Report(v.doc, "", r, fmt.Sprintf("… and %d more %s findings in this file (only the first %d are listed)", v.counts[r]-valMaxPerRule, r.Code, valMaxPerRule))
	}
}

func runValidator(p *Pass) {
	a := p.Agent
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return
	}
	v := &valCtx{p: p, doc: a.Flow, root: a.Flow.Root, reg: a.RegistryComponents()}
	v.checkStructural()
	v.checkLegacy()
	w := newValWalker(v)
	w.run()
	v.checkAgentNodes()
	v.checkRootCounts()
	w.checkCycles()
	w.releaseDefs() // defs and byDef are read by the walk and checkCycles only
	v.checkObjectTypes()
	v.checkInputMessageOutputs()
	v.runRuntime(w)
	v.checkLLM()
	v.reportOverflow()
}

var valLegacyCinatraFields = []string{"formatVersion", "executionMode", "approvalPolicy",
	"compiledPlan", "inputSchema", "outputSchema", "prompt", "taskSpec"}

func (v *valCtx) checkLegacy() {
	if v.root.Get("componentType") != nil {
		v.reportFix("/componentType", RuleLegacyField, "legacy field componentType must not appear in OAS agent.json",
			newFix(edit.Safe, "remove the legacy field componentType").add(fix.Remove(v.doc, "/componentType")).fix())
	}
	c := v.root.Path("metadata", "cinatra")
	if c == nil || c.Kind != compile.Object {
		return
	}
	for _, f := range valLegacyCinatraFields {
		if c.Get(f) != nil {
			ptr := compile.Pointer("metadata", "cinatra", f)
			var fx edit.Fix
			if f != "prompt" && f != "taskSpec" { // their text belongs in Agent.system_prompt: not deleted
				fx = newFix(legacyFieldTier(f), "remove the legacy field metadata.cinatra."+f).add(fix.Remove(v.doc, ptr)).fix()
			} else {
				fx = v.promptMoveFix(f, ptr, c.Get(f))
			}
			v.reportFix(ptr, RuleLegacyField,
				"legacy field metadata.cinatra."+f+" must not appear in OAS agent.json (derived at compile time or moved to Agent.system_prompt)", fx)
		}
	}
}

// legacyFieldTier is the tier of removing the legacy field
// metadata.cinatra.<f>: the compiler derives these and ignores the
// source's copy (safe), but approvalPolicy names approval, which no batch
// touches (dangerous: only on an explicit request).
func legacyFieldTier(f string) edit.Tier {
	if f == "approvalPolicy" {
		return edit.Dangerous
	}
	return edit.Safe
}

// promptMoveFix moves the text of metadata.cinatra.prompt or taskSpec
// into Agent.system_prompt, where the reference says it moved (§9.1: the
// compiled prompt is the system_prompt of the first AgentNode's local
// Agent, §11.9). Offered only when that target is certain and holds
// nothing: the legacy value is a non-empty string, the root Flow's
// $referenced_components hold exactly one Agent, an AgentNode there
// refers to it, and its system_prompt is absent or "". Otherwise no fix:
// merging two texts, or choosing among several Agents, is the author's.
func (v *valCtx) promptMoveFix(field, ptr string, val *compile.Node) edit.Fix {
	text, ok := val.Str()
	if !ok || text == "" {
		return edit.Fix{}
	}
	refs := v.root.Get("$referenced_components")
	if refs == nil || refs.Kind != compile.Object {
		return edit.Fix{}
	}
	agentID, agents := "", 0
	for _, m := range refs.Members {
		if compile.ComponentType(m.Value) == "Agent" {
			agentID, agents = m.Key, agents+1
		}
	}
	if agents != 1 || refs.Get(agentID) == nil || compile.ComponentType(refs.Get(agentID)) != "Agent" {
		return edit.Fix{} // none, several, or a duplicate key hiding one
	}
	used := false
	for _, m := range refs.Members {
		if compile.ComponentType(m.Value) == "AgentNode" {
			if r, ok := m.Value.Path("agent", "$component_ref").Str(); ok && r == agentID {
				used = true
			}
		}
	}
	if !used {
		return edit.Fix{}
	}
	aptr := compile.Pointer("$referenced_components", agentID)
	b := newFix(edit.Unsafe, "move metadata.cinatra."+field+" into the Agent's system_prompt").add(fix.Remove(v.doc, ptr))
	switch sp := refs.Get(agentID).Get("system_prompt"); {
	case sp == nil:
		b.add(fix.Insert(v.doc, aptr, "system_prompt", text))
	default:
		if s, ok := sp.Str(); !ok || s != "" {
			return edit.Fix{} // the Agent has its own prompt (or a non-string)
		}
		b.add(fix.Replace(v.doc, aptr+"/system_prompt", text))
	}
	return b.fix()
}

// checkAgentNodes applies the reference's AgentNode metadata.cinatra rules
// to the AgentNodes of every Flow's $referenced_components.
func (v *valCtx) checkAgentNodes() {
	for _, f := range v.flows {
		refs := f.node.Get("$referenced_components")
		for _, m := range valEntries(refs) {
			if compile.ComponentType(m.Value) != "AgentNode" {
				continue
			}
			c := m.Value.Path("metadata", "cinatra")
			if c == nil || c.Kind != compile.Object {
				continue
			}
			base := compile.Append(f.ptr, "$referenced_components", m.Key, "metadata", "cinatra")
			hitl := c.Get("hitlOwnedBy")
			hs, _ := hitl.Str()
			if hitl != nil && hs != "childAgent" && hs != "self" {
				v.report(compile.Append(base, "hitlOwnedBy"), RuleAgentNodeHITLOwnedBy,
					fmt.Sprintf(`AgentNode %s.metadata.cinatra.hitlOwnedBy must be "childAgent" or "self" (got %s)`, m.Key, valJSON(hitl)))
			}
			if c.Get("a2uiSurfaceIdOverride") != nil && hs != "childAgent" {
				v.report(compile.Append(base, "a2uiSurfaceIdOverride"), RuleAgentNodeSurfaceOverride,
					fmt.Sprintf(`AgentNode %s.metadata.cinatra.a2uiSurfaceIdOverride only valid when hitlOwnedBy === "childAgent"`, m.Key))
			}
			if ra := c.Get("requiresApproval"); ra != nil && ra.Kind != compile.Bool {
				v.report(compile.Append(base, "requiresApproval"), RuleAgentNodeRequiresApprovalType,
					fmt.Sprintf("AgentNode %s.metadata.cinatra.requiresApproval must be a boolean", m.Key))
			}
		}
	}
}

// checkRootCounts: validator cases 39–41 on the root Flow, as the
// reference does (nested Flows are the flow-graph rules' business).
func (v *valCtx) checkRootCounts() {
	if nodes := v.root.Get("nodes"); nodes.Is(compile.Array) {
		seen := make(map[string]bool, len(nodes.Items))
		for i, n := range nodes.Items {
			id, ok := compile.RefID(n)
			if !ok {
				continue
			}
			if seen[id] {
				v.report(compile.AppendIndex("/nodes", i), RuleDuplicateNode, "duplicate node reference in nodes array: "+id)
			}
			seen[id] = true
		}
	}
	refs := v.root.Get("$referenced_components")
	var starts, ends int
	for _, m := range valEntries(refs) {
		switch compile.ComponentType(m.Value) {
		case "StartNode":
			starts++
		case "EndNode":
			ends++
		}
	}
	ptr := "/$referenced_components"
	if refs == nil {
		ptr = ""
	}
	if starts != 1 {
		v.report(ptr, RuleStartNodeCount, fmt.Sprintf("flow must have exactly one StartNode in $referenced_components (got %d)", starts))
	}
	if ends != 1 {
		v.report(ptr, RuleEndNodeCount, fmt.Sprintf("flow must have exactly one EndNode in $referenced_components (got %d)", ends))
	}
}

// checkObjectTypes: the root Flow's outputs[].cinatra annotation carries
// an artifact binding object; a leftover object_type (the older
// reference's @scope/package:local-id) is retired (cinatra#1788:
// outputCinatraAnnotationSchema is {artifact?}, and the platform strips it).
func (v *valCtx) checkObjectTypes() {
	outs := v.root.Get("outputs")
	if !outs.Is(compile.Array) {
		return
	}
	for i, o := range outs.Items {
		c := o.Get("cinatra")
		if !c.Is(compile.Object) {
			continue
		}
		title := o.Get("title").StringOr("")
		base := compile.Append(compile.AppendIndex("/outputs", i), "cinatra")
		if art := c.Get("artifact"); art != nil && art.Kind != compile.Object {
			v.report(compile.Append(base, "artifact"), RuleObjectTypeNamespace,
				fmt.Sprintf("outputs[%s].cinatra.artifact must be an object (got %s)", title, valTypeName(art)))
		}
		// The retired object_type (cinatra#1788) is ignored and stripped by
		// today's platform, whatever its value: said, never refused.
		if c.Get("object_type") != nil {
			ptr := compile.Append(base, "object_type")
			v.reportFix(ptr, RuleObjectTypeRetired,
				fmt.Sprintf("outputs[%s].cinatra.object_type is retired: the platform ignores and strips it, so it declares nothing; bind the output with cinatra.artifact when it is an artifact", title),
				newFix(edit.Safe, "remove the retired cinatra.object_type").add(fix.Remove(v.doc, ptr)).fix())
		}
	}
}

// checkInputMessageOutputs: the compiler refuses an InputMessageNode of
// the root Flow without outputs (MISSING_INPUT_MESSAGE_OUTPUT).
func (v *valCtx) checkInputMessageOutputs() {
	refs := v.root.Get("$referenced_components")
	for _, m := range valEntries(refs) {
		if compile.ComponentType(m.Value) != "InputMessageNode" {
			continue
		}
		outs := m.Value.Get("outputs")
		if outs.Is(compile.Array) && len(outs.Items) > 0 {
			continue
		}
		id := m.Value.Get("id").StringOr(m.Key)
		ptr := compile.Pointer("$referenced_components", m.Key)
		if outs != nil {
			ptr = compile.Append(ptr, "outputs")
		}
		v.report(ptr, RuleInputMessageWithoutOutput,
			fmt.Sprintf(`InputMessageNode "%s" must declare at least one output`, id))
	}
}

// ---------------------------------------------------------------------------
// The walk: one pass over the whole document for $component_ref scopes
// (case 38, outer scope, cycles) and the whole-document runtime invariants.
// ---------------------------------------------------------------------------

type valScope struct {
	refs *compile.Node
	mem  []int // definition index of each member, in member order
}

type valDef struct {
	id    string
	scope string // pointer of the Flow whose $referenced_components holds it
}

func (d valDef) ptr() string { return compile.Append(d.scope, "$referenced_components", d.id) }

type valWalker struct {
	v *valCtx
	// The walk keeps no path: a finding names its place from the parsed
	// document's parent links (compile.PointerOf, valPathOf).
	//
	// uses are the document's {"$component_ref"} objects in source order,
	// each with its innermost Flow (compile.Model.RefNodes, the one uses
	// index, found by the model's walk); next is the first one the walk
	// has not reached.
	uses  []compile.RefSite
	next  int
	model *compile.Model
	defs  []valDef
	byDef map[*compile.Node]int // a definition's component → its index
	lent  *valDefs              // where defs and byDef came from (releaseDefs)
	stack []int                 // definitions enclosing the current value
	// the "contains or refers to" graph between definitions; each edge
	// keeps the first {"$component_ref"} object that caused it (nil for
	// containment). Pointers are built only for a reported cycle.
	graph *compile.RefGraph[*compile.Node]
	rt    *rtWalk
}

func newValWalker(v *valCtx) *valWalker {
	m := v.p.model()
	sc := valDefsPool.Get().(*valDefs)
	return &valWalker{v: v, graph: compile.NewRefGraph[*compile.Node](),
		model: m, uses: m.RefNodes(), defs: sc.defs[:0], byDef: sc.byDef, lent: sc,
		rt: newRtWalk(v)}
}

// valDefs lends a walk's definitions (valWalker.defs and byDef) to the
// next document's walk: they were made anew for every document (about
// 1.7 MB of the 1,000-agent lint, most of it the map's growth). The lists
// hold a document's ids and pointers and the map its nodes: releaseDefs
// clears both to their capacity before they go back, and a walk with more
// than valDefsKeep definitions keeps its own (a map cleared keeps its
// size, and every clear after would pay for it).
type valDefs struct {
	defs  []valDef
	byDef map[*compile.Node]int
}

const valDefsKeep = 1024

var valDefsPool = sync.Pool{New: func() any { return &valDefs{byDef: map[*compile.Node]int{}} }}

// releaseDefs gives the walk's definitions back to valDefsPool; the walk
// has none after.
func (w *valWalker) releaseDefs() {
	sc, defs, byDef := w.lent, w.defs, w.byDef
	w.lent, w.defs, w.byDef = nil, nil, nil
	if sc == nil || cap(defs) > valDefsKeep || len(byDef) > valDefsKeep {
		return
	}
	clear(defs[:cap(defs)])
	clear(byDef)
	sc.defs, sc.byDef = defs[:0], byDef
	valDefsPool.Put(sc)
}

// run walks the document from its root, whose key is "$" (valLastKey of
// the root and of the items of a root array).
func (w *valWalker) run() { w.visit(w.v.root, "$") }

func (w *valWalker) addEdge(from, to int, ref *compile.Node) { w.graph.Add(from, to, ref) }

// visit walks n, whose key is key: the key of the nearest member above n,
// array items taking their array's (valLastKey(n) in a parsed document,
// found here without climbing the parent links).
func (w *valWalker) visit(n *compile.Node, key string) {
	switch n.Kind {
	case compile.String:
		w.rt.str(n, key)
	case compile.Array:
		for _, it := range n.Items {
			w.visit(it, key)
		}
	case compile.Object:
		w.object(n)
	}
}

func (w *valWalker) object(n *compile.Node) {
	// One scan for the members every object is asked about (last wins, as
	// Node.Get); the platform's member rules run on the members they read.
	var ctN, titleN, typeN, refsN, metaN *compile.Node
	for _, m := range n.Members {
		switch m.Key {
		case "component_type":
			ctN = m.Value
		case "title":
			titleN = m.Value
		case "type":
			typeN = m.Value
		case "$referenced_components":
			refsN = m.Value
		case "metadata":
			metaN = m.Value
		case "skillIds", "skill_ids", "system", "user", "description":
			platformMember(w.v.p, m, w.rt.skillIDs)
		}
	}
	ct := ctN.StringOr("")
	var scope *valScope
	if ct == "Flow" {
		var ptr string
		if fm := w.model.FlowByNode(n); fm != nil {
			ptr = fm.Flow.Pointer
		} else {
			ptr = compile.PointerOf(n)
		}
		w.v.flows = append(w.v.flows, valFlow{node: n, ptr: ptr})
		if refs := refsN; refs.Is(compile.Object) {
			scope = &valScope{refs: refs, mem: make([]int, len(refs.Members))}
			for j, m := range refs.Members {
				scope.mem[j] = len(w.defs)
				w.byDef[m.Value] = len(w.defs)
				w.defs = append(w.defs, valDef{id: m.Key, scope: ptr})
			}
		}
	}
	w.rt.object(n, ct, titleN, typeN, metaN)
	if w.next < len(w.uses) && w.uses[w.next].Node == n {
		w.ref(w.uses[w.next])
		w.next++
	}
	for _, m := range n.Members {
		if scope != nil && m.Key == "$referenced_components" && m.Value == scope.refs {
			for j, dm := range m.Value.Members {
				def := scope.mem[j]
				if len(w.stack) > 0 {
					w.addEdge(w.stack[len(w.stack)-1], def, nil)
				}
				w.stack = append(w.stack, def)
				w.visit(dm.Value, dm.Key)
				w.stack = w.stack[:len(w.stack)-1]
			}
		} else {
			w.visit(m.Value, m.Key)
		}
	}
}

// ref checks one {"$component_ref": id} object.
func (w *valWalker) ref(use compile.RefSite) {
	n, id := use.Node, use.ID
	refPtr := func() string { return compile.PointerOf(n) + "/$component_ref" }
	target := -1
	outer := false
	if f := use.Flow; f != nil {
		// The Flow's scopes as the model resolves them (the registry after,
		// below), without building a pointer (Flow.Lookup); outside its own
		// scope is an outer one.
		if c, owner := f.Lookup(id); c != nil {
			if d, ok := w.byDef[c]; ok {
				target, outer = d, owner != ownScope(f)
			}
		}
	}
	switch {
	case target >= 0:
		if outer {
			w.v.report(refPtr(), RuleComponentRefOuterScope,
				fmt.Sprintf(`$component_ref "%s" at %s resolves only in an outer Flow's $referenced_components (defined at %s); the runtime resolves a Flow's refs in its own scope, so define "%s" in this Flow's $referenced_components too`,
					id, dottedOrRoot(n), w.defs[target].ptr(), id))
		}
		if len(w.stack) > 0 {
			w.addEdge(w.stack[len(w.stack)-1], target, n)
		}
	case w.v.reg.Get(id) != nil:
		// the global registry has it (documented deviation from the reference)
	default:
		w.v.report(refPtr(), RuleUnresolvedComponentRef,
			fmt.Sprintf(`unresolved $component_ref "%s" at %s (not in local $referenced_components nor a known global id)`, id, dottedOrRoot(n)))
	}
}

// ownScope is the scope Flow f resolves in first: the innermost of f and
// its enclosing Flows with a $referenced_components block (nil: none), so
// that a Flow without one reads its parent's as its own.
func ownScope(f *compile.Flow) *compile.Flow {
	for ; f != nil; f = f.Parent {
		if f.Refs().Is(compile.Object) {
			return f
		}
	}
	return nil
}

// dottedOrRoot is the reference's dotted path of n, "<root>" for the root.
func dottedOrRoot(n *compile.Node) string {
	if d := valPathOf(n).dotted(); d != "" {
		return d
	}
	return "<root>"
}

// checkCycles reports each group of components that contain themselves
// through references (compile.RefGraph.Cycles: the shortest cycle through
// the group's first definition), once, at the first reference of the cycle.
func (w *valWalker) checkCycles() {
	type cyc struct {
		start   int
		ids     []string
		refNode *compile.Node
	}
	var cycles []cyc
	want := map[*compile.Node]string{}
	for _, path := range w.graph.Cycles(len(w.defs)) {
		start := path[0]
		ids := make([]string, 0, len(path)+1)
		var refNode *compile.Node
		for i, u := range path {
			ids = append(ids, w.defs[u].id)
			if refNode == nil {
				refNode = w.graph.Via(u, path[(i+1)%len(path)])
			}
		}
		ids = append(ids, w.defs[start].id)
		cycles = append(cycles, cyc{start, ids, refNode})
		if refNode != nil {
			want[refNode] = ""
		}
	}
	valPointersOf(want)
	for _, c := range cycles {
		loc := w.defs[c.start].ptr()
		if c.refNode != nil {
			loc = want[c.refNode] + "/$component_ref"
		}
		w.v.report(loc, RuleComponentRefCycle,
			fmt.Sprintf(`component "%s" contains itself through $component_ref: %s`, w.defs[c.start].id, strings.Join(c.ids, " → ")))
	}
}

// valPointersOf fills want (node → pointer).
func valPointersOf(want map[*compile.Node]string) {
	for n := range want {
		want[n] = compile.PointerOf(n)
	}
}
