package lint

import (
	"bytes"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// The context-slot contract (SPEC §3.4; seed 000; reference §13.1–13.2):
// every slot declared in metadata.cinatra.contextSlots is well formed and
// unique, the package depends on the context-selection agent, and each slot
// is wired through an explicit context FlowNode placed before the node that
// consumes its contextSlotBindings.

// ContextSelectionAgent is the package every slotted agent depends on.
const ContextSelectionAgent = "@cinatra-ai/context-selection-agent"

const contextSelectorScreen = ContextSelectionAgent + ":context-selector"

// GroupSlots is the group of the context-slot contract's rules.
const GroupSlots = "slots"

var (
	RuleContextSlotInvalid = &Rule{Code: "context_slot_invalid", Severity: compile.Blocker, Group: GroupSlots,
		Doc: "a contextSlots entry breaks the slot schema (slotId a non-empty string without the loader's __SLOT__ token, ≥1 accepted extension, selectionMode/resolutionMode enums, minItems ≥ 0, maxItems > 0, minItems ≤ maxItems, no unknown keys)"}
	RuleContextSlotDuplicate = &Rule{Code: "context_slot_duplicate", Severity: compile.Blocker, Group: GroupSlots,
		Doc: "two contextSlots entries share a slotId; the context_resolve handler rejects the agent"}
	RuleContextSlotDependencyMissing = &Rule{Code: "context_slot_dependency_missing", Severity: compile.Blocker, Group: GroupSlots,
		Doc:       "the agent declares contextSlots but package.json lists @cinatra-ai/context-selection-agent in neither cinatra.agentDependencies nor cinatra.dependencies[]",
		AutoFixes: []string{"add " + ContextSelectionAgent + " to package.json in the form it already uses (cinatra.agentDependencies, else cinatra.dependencies[] entries)"},
		FixTiers:  []edit.Tier{edit.Unsafe}}
	RuleContextSlotNotWired = &Rule{Code: "context_slot_not_wired", Severity: compile.Blocker, Group: GroupSlots,
		Doc:       "a slot in the explicit form (a node carries metadata.cinatra.purpose author-placed-context-resolution-for-<slot>) has no context FlowNode (a FlowNode whose subflow calls /api/context-resolve), the FlowNode is not placed before its consumer, or the contextSlotBindings data edge into the consumer is missing",
		AutoFixes: []string{"wire context slot <id>: add the context FlowNode context_<id> and its subflow (as the corpus's slotted agents), placed before the slot's consumer, with the control and data edges in and out (a slot with no context FlowNode at all)"},
		FixTiers:  []edit.Tier{edit.Unsafe}}
	RuleContextSlotStubWiring = &Rule{Code: "context_slot_stub_wiring", Severity: compile.Blocker, Group: GroupSlots,
		Doc: "a stub stands in for the context-selection agent: start.contextSlotBindings fed to a consumer, start.contextRefs passed to end.contextRefs, a contextSlotBindings Start input, or the context-selector screen without a context FlowNode"}
	RuleContextSlotMountRefused = &Rule{Code: "context_slot_mount_refused", Severity: compile.Blocker, Group: GroupSlots,
		Doc:       "the WayFlow loader would refuse to mount the agent because of a context slot (docker/wayflow/context_subflow_injection.py): an injected id collides with one in the file, no or an ambiguous owner package, no or an ambiguous consumer input, a consumer input already wired, a start with no successor, an incompatible hidden input, a malformed nested declaration, or a parentSatisfiedContextSlots line it cannot keep",
		AutoFixes: []string{"add the bindings input the loader wires the slot into (a slot with no consumer)", "mark a hand-placed context step as placed by the author (metadata.cinatra.purpose)"},
		FixTiers:  []edit.Tier{edit.Unsafe, edit.Unsafe}}
	RuleContextDependencyLeak = &Rule{Code: "context_dependency_leak", Severity: compile.Warning, Group: GroupSlots,
		Doc: "package.json declares @cinatra-ai/context-selection-agent but the agent has no contextSlots (a transitive-declaration leak)"}
)

var passContextSlots = &Check{Name: "slots_contract", Profiles: []compile.Profile{compile.ProfileCinatra}, Run: checkContextSlots}

var slotIDRe = newLazyRegexp(`^[A-Za-z_][A-Za-z0-9_]*$`)

// slotDecl is one well-enough-formed slot: it has a string slotId.
type slotDecl struct {
	ID          string
	Ptr         string
	Interactive bool
}

// containsContextRefs is bytes.Contains(src, "contextRefs"), searching for
// the word's rarest byte, its 'R', and comparing the word around each one:
// a search led by "co" stops at every "component_type" and "connections"
// of a flow, and one for the tail "xtRefs" at every 'x' of a prompt's
// "context", "text" and "next" (the 1,000-agent tree has an 'x' every 240
// bytes, an 'R' every 630).
func containsContextRefs(src []byte) bool {
	const word = "contextRefs"
	const r = len("context") // the offset of the 'R' in word
	for off := r; off < len(src); {
		i := bytes.IndexByte(src[off:], 'R')
		if i < 0 {
			return false
		}
		if at := off + i - r; at+len(word) <= len(src) && string(src[at:at+len(word)]) == word {
			return true
		}
		off += i + 1
	}
	return false
}

func checkContextSlots(p *Pass) {
	a := p.Agent
	doc := a.Flow
	root := doc.Root
	const slotsPtr = "/metadata/cinatra/contextSlots"
	slotsNode := root.Path("metadata", "cinatra", "contextSlots")
	mount := a.Model().Mount
	depNamed := a.Package != nil && bytes.Contains(a.Package.Src, []byte(ContextSelectionAgent))
	if slotsNode == nil && !depNamed && len(mount.Refusals) == 0 && !containsContextRefs(doc.Src) {
		return // nothing of the contract applies (the common case: no slots)
	}
	dep := slotDependency(a.Package)
	flows := a.Flows()
	reg := a.RegistryComponents()

	slotStubStartToEnd(p, flows, reg)
	slotMountRefusals(p, mount)

	hasSlots := slotsNode != nil && slotsNode.Kind != compile.Null &&
		!(slotsNode.Kind == compile.Array && len(slotsNode.Items) == 0)
	if !hasSlots {
		if dep.declared {
			p.Report(a.Package, dep.ptr, RuleContextDependencyLeak,
				"package.json declares "+ContextSelectionAgent+" but the agent declares no contextSlots; a parent declares it only for its own slots, never because a child uses one — remove the dependency")
		}
		return
	}

	slots := slotValidate(p, doc, slotsPtr, slotsNode)

	switch {
	case dep.declared && !dep.runtimeRequired:
		p.Report(a.Package, dep.ptr, RuleContextSlotDependencyMissing,
			fmt.Sprintf("package.json declares %s as a %s/%s edge; the agent declares contextSlots, so it needs a runtime, required edge", ContextSelectionAgent, dep.edge.EdgeType, dep.edge.Requirement))
	case dep.declared:
	case a.Package != nil && a.Package.Root != nil:
		p.ReportFix(a.Package, "/cinatra/agentDependencies", RuleContextSlotDependencyMissing,
			"the agent declares contextSlots but package.json has no runtime, required edge to "+ContextSelectionAgent+" (in cinatra.dependencies[], or in cinatra.agentDependencies when there is no such list); add it",
			slotDependencyFix(a.Package))
	default:
		p.Report(doc, slotsPtr, RuleContextSlotDependencyMissing,
			"the agent declares contextSlots but no package.json beside it declares "+ContextSelectionAgent+" (cinatra.dependencies[] or cinatra.agentDependencies)")
	}

	ctx := findContextFlowNodes(flows, reg)
	if len(flows) > 0 {
		slotStubTopLevel(p, flows[0], reg, ctx, slots, mount.HasSlim())
	}
	for _, s := range slots {
		c := matchContextFlowNode(s, slots, ctx)
		if c == nil {
			// The slim form (no purpose marker): the loader injects the
			// context step at mount; what it refuses is reported by
			// slotMountRefusals.
			if ms := mount.Slot("", s.ID); ms == nil || ms.Form != compile.SlotExplicit {
				continue
			}
			x, _ := WireContextSlot(doc, slotPackageName(a), s.ID)
			p.ReportFix(doc, s.Ptr, RuleContextSlotNotWired,
				fmt.Sprintf("slot %q is marked as placed by the author (metadata.cinatra.purpose %q) but has no context FlowNode: add a FlowNode context_%s whose subflow calls %s (the %s flow), placed before the node that consumes the slot; or remove the marker and let the loader inject it", s.ID, compile.AuthorPlacedPurpose+s.ID, s.ID, contextResolveURL, ContextSelectionAgent),
				x)
			p.found[len(p.found)-1].Slot = s.ID
			continue
		}
		slotCheckWiring(p, doc, s, c)
	}
}

// slotMountRefusals reports why the WayFlow loader would refuse the mount.
// A malformed or duplicate declaration of the flow's own contextSlots is
// context_slot_invalid's and context_slot_duplicate's.
func slotMountRefusals(p *Pass, mount *compile.SlotMount) {
	for _, r := range mount.Refusals {
		if (r.Kind == compile.MountMalformed || r.Kind == compile.MountDuplicate) &&
			(r.Pointer == "/metadata/cinatra/contextSlots" || strings.HasPrefix(r.Pointer, "/metadata/cinatra/contextSlots/")) {
			continue
		}
		msg := "the WayFlow loader would refuse to mount the agent: "
		if r.Slot != "" {
			msg = fmt.Sprintf("slot %q: %s", r.Slot, msg)
		}
		msg += strings.TrimPrefix(r.Message, fmt.Sprintf("slot %q: ", r.Slot))
		var x edit.Fix
		switch r.Kind {
		case compile.MountConsumerMissing:
			x = slotConsumerFix(p.Agent.Flow, mount, r.Slot)
		case compile.MountCollision:
			x = slotMarkerFix(p.Agent.Flow, r.Slot)
		}
		p.ReportFix(p.Agent.Flow, r.Pointer, RuleContextSlotMountRefused, msg+" ("+r.Kind+")", x)
		p.found[len(p.found)-1].Slot = r.Slot
	}
}

// slotConsumerFix gives the step the start node leads to (in the flow's
// own $referenced_components) the bindings input the loader wires: the
// slim form's consumer, named contextSlotBindings when the flow declares
// one slot, <slot>ContextSlotBindings when it declares several.
func slotConsumerFix(doc *compile.Doc, mount *compile.SlotMount, slot string) edit.Fix {
	ms := mount.Slot("", slot)
	if ms == nil || len(ms.Before) != 1 {
		return edit.Fix{}
	}
	n := 0
	for _, s := range mount.Slots {
		if s.Definition == "" {
			n++
		}
	}
	title := "contextSlotBindings"
	if n > 1 {
		title = slot + "ContextSlotBindings"
	}
	step := doc.Root.Get("$referenced_components").Get(ms.Before[0])
	in := step.Get("inputs")
	if !in.Is(compile.Array) {
		return edit.Fix{}
	}
	f := newFix(edit.Unsafe, fmt.Sprintf("add the input %s to %s (the loader wires slot %s into it)", title, ms.Before[0], slot))
	f.add(fix.Append(doc, ptrOf(in), fix.Raw(`{"title": `+strconv.Quote(title)+`, "type": "array", "items": {"type": "object"}}`)))
	// An ApiNode takes only the inputs its data template names.
	if data := step.Get("data"); compile.ComponentType(step) == "ApiNode" && data.Is(compile.Object) && data.Get(title) == nil {
		f.add(fix.Insert(doc, ptrOf(data), title, "{{"+title+"}}"))
	}
	return f.fix()
}

// slotMarkerFix marks the hand-placed context FlowNode context_<slot> as
// the author's (metadata.cinatra.purpose), so the loader keeps it instead
// of injecting a second one over its ids: the explicit form.
func slotMarkerFix(doc *compile.Doc, slot string) edit.Fix {
	n := doc.Root.Get("$referenced_components").Get("context_" + slot)
	if compile.ComponentType(n) != "FlowNode" || n.Path("metadata", "cinatra", "purpose") != nil {
		return edit.Fix{}
	}
	f := newFix(edit.Unsafe, "mark context_"+slot+" as placed by the author ("+compile.AuthorPlacedPurpose+slot+")")
	return f.add(slotPurposeEdit(doc, n, compile.AuthorPlacedPurpose+slot)).fix()
}

// slotPurposeEdit sets metadata.cinatra.purpose on component n, creating
// the objects on the way.
func slotPurposeEdit(doc *compile.Doc, n *compile.Node, purpose string) (edit.Edit, error) {
	meta := n.Get("metadata")
	switch {
	case meta == nil:
		return fix.Insert(doc, ptrOf(n), "metadata", map[string]any{"cinatra": map[string]string{"purpose": purpose}})
	case !meta.Is(compile.Object):
		return edit.Edit{}, fix.ErrNotJSON
	}
	c := meta.Get("cinatra")
	switch {
	case c == nil:
		return fix.Insert(doc, ptrOf(meta), "cinatra", map[string]string{"purpose": purpose})
	case !c.Is(compile.Object):
		return edit.Edit{}, fix.ErrNotJSON
	}
	return fix.Insert(doc, ptrOf(c), "purpose", purpose)
}

// contextResolveURL is the context-resolve URL of the context subflow,
// exactly as the platform's explicit-wiring test requires it
// (packages/extensions/src/__tests__/contextslots-require-explicit-context-selection-agent.test.ts @9c10bbc4).
const contextResolveURL = "{{CINATRA_BASE_URL}}/api/context-resolve"

// slotValidate reports context_slot_invalid and context_slot_duplicate and
// returns the slots that have a string slotId (first occurrence of each).
func slotValidate(p *Pass, doc *compile.Doc, slotsPtr string, slotsNode *compile.Node) []slotDecl {
	bad := func(ptr, msg string) { p.Report(doc, ptr, RuleContextSlotInvalid, msg) }
	if slotsNode.Kind != compile.Array {
		bad(slotsPtr, "metadata.cinatra.contextSlots must be an array of slots, got "+slotsNode.Kind.String()+"; the platform then ignores every slot")
		return nil
	}
	var out []slotDecl
	seen := map[string]string{}
	for i, s := range slotsNode.Items {
		ptr := compile.AppendIndex(slotsPtr, i)
		where := fmt.Sprintf("contextSlots[%d]", i)
		if s.Kind != compile.Object {
			bad(ptr, where+" must be an object, got "+s.Kind.String())
			continue
		}
		known := map[string]bool{"slotId": true, "acceptedArtifactExtensions": true, "selectionMode": true,
			"resolutionMode": true, "minItems": true, "maxItems": true, "readableOnly": true}
		for _, m := range s.Members {
			if !known[m.Key] {
				bad(compile.Append(ptr, m.Key), fmt.Sprintf("%s has unknown field %q (the slot schema is strict: slotId, acceptedArtifactExtensions, selectionMode, resolutionMode, minItems, maxItems, readableOnly)", where, m.Key))
			}
		}
		id, idOK := s.Get("slotId").Str()
		switch {
		case s.Get("slotId") == nil:
			bad(ptr, where+" has no slotId")
		case !idOK:
			bad(compile.Append(ptr, "slotId"), where+".slotId must be a string")
		case id == "":
			bad(compile.Append(ptr, "slotId"), where+".slotId must not be empty")
		case strings.Contains(id, compile.SlotTemplateToken):
			bad(compile.Append(ptr, "slotId"), fmt.Sprintf("%s.slotId %q contains %s, the WayFlow loader's reserved template token", where, id, compile.SlotTemplateToken))
		}
		if ext := s.Get("acceptedArtifactExtensions"); ext == nil || ext.Kind != compile.Array || len(ext.Items) == 0 {
			bad(compile.Append(ptr, "acceptedArtifactExtensions"), where+".acceptedArtifactExtensions must list at least one artifact extension package name")
		} else {
			for j, e := range ext.Items {
				if v, ok := e.Str(); !ok || strings.TrimSpace(v) == "" {
					bad(compile.AppendIndex(compile.Append(ptr, "acceptedArtifactExtensions"), j), where+".acceptedArtifactExtensions entries must be non-empty strings")
				}
			}
		}
		slotEnum(bad, s, ptr, where, "selectionMode", "interactive", "autonomous")
		slotEnum(bad, s, ptr, where, "resolutionMode", "override", "accumulate")
		minV, minOK := slotInt(bad, s, ptr, where, "minItems", 0)
		maxV, maxOK := slotInt(bad, s, ptr, where, "maxItems", 1)
		if minOK && maxOK && minV > maxV {
			bad(compile.Append(ptr, "minItems"), fmt.Sprintf("%s.minItems (%d) must not exceed maxItems (%d)", where, minV, maxV))
		}
		if ro := s.Get("readableOnly"); ro != nil && ro.Kind != compile.Bool {
			bad(compile.Append(ptr, "readableOnly"), where+".readableOnly must be a boolean")
		}
		if !idOK || id == "" {
			continue
		}
		if first, dup := seen[id]; dup {
			p.Report(doc, compile.Append(ptr, "slotId"), RuleContextSlotDuplicate,
				fmt.Sprintf("slotId %q is declared twice (first at %s); slot ids must be unique per agent", id, first))
			continue
		}
		seen[id] = ptr
		mode := s.Get("selectionMode").StringOr("interactive")
		out = append(out, slotDecl{ID: id, Ptr: ptr, Interactive: mode != "autonomous"})
	}
	return out
}

func slotEnum(bad func(string, string), s *compile.Node, ptr, where, key string, allowed ...string) {
	v := s.Get(key)
	if v == nil {
		bad(ptr, fmt.Sprintf("%s has no %s (one of %s)", where, key, strings.Join(allowed, ", ")))
		return
	}
	str, _ := v.Str()
	for _, a := range allowed {
		if str == a && v.Kind == compile.String {
			return
		}
	}
	bad(compile.Append(ptr, key), fmt.Sprintf("%s.%s must be one of %s", where, key, strings.Join(allowed, ", ")))
}

// slotInt checks an optional integer field with a minimum.
func slotInt(bad func(string, string), s *compile.Node, ptr, where, key string, min int) (int, bool) {
	v := s.Get(key)
	if v == nil {
		return 0, false
	}
	f, ok := v.Float()
	if !ok || f != float64(int(f)) || f < float64(min) || f > 1e9 {
		bad(compile.Append(ptr, key), fmt.Sprintf("%s.%s must be an integer ≥ %d", where, key, min))
		return 0, false
	}
	return int(f), true
}

// slotDep is the context-selection agent's edge in package.json, read
// through both manifest vocabularies (compile.ManifestDependencies).
type slotDep struct {
	declared, runtimeRequired bool
	ptr                       string
	edge                      compile.DependencyEdge
}

func slotDependency(pkg *compile.Doc) slotDep {
	e, ok := compile.ManifestDependencies(pkg).Edge(ContextSelectionAgent)
	if !ok {
		return slotDep{}
	}
	return slotDep{declared: true, runtimeRequired: e.RuntimeRequired(), ptr: e.Pointer, edge: e}
}

// ctxFlowNode is a context FlowNode: a FlowNode whose subflow holds an
// ApiNode calling /api/context-resolve.
type ctxFlowNode struct {
	Flow       *compile.Flow // the Flow whose nodes hold it
	ID         string        // the id edges use for it
	Ptr        string        // the FlowNode component
	NodesIndex int           // index in Flow's nodes; -1 when only defined, never placed
	NodesPtr   string        // pointer of its nodes[] entry ("" when not placed)
	Subflow    *compile.Node
	SubflowPtr string
}

// findContextFlowNodes lists the context FlowNodes of every Flow, in order.
func findContextFlowNodes(flows []*compile.Flow, reg *compile.Node) []*ctxFlowNode {
	var out []*ctxFlowNode
	for _, f := range flows {
		placed := map[string]bool{}
		nodesPtr := compile.Append(f.Pointer, "nodes")
		if nodes := f.Node.Get("nodes"); nodes != nil && nodes.Kind == compile.Array {
			for i, it := range nodes.Items {
				ip := compile.AppendIndex(nodesPtr, i)
				r := f.Resolve(it, ip, reg)
				if c := contextFlowNode(f, r, reg); c != nil {
					c.ID = slotEdgeID(it, r.Node)
					c.NodesIndex, c.NodesPtr = i, ip
					placed[r.Pointer] = true
					out = append(out, c)
				}
			}
		}
		// FlowNodes defined in the Flow's own $referenced_components but
		// never placed in nodes[].
		if refs := f.Refs(); refs != nil && refs.Kind == compile.Object {
			for _, m := range refs.Members {
				ptr := compile.Append(f.RefsPointer(), m.Key)
				if placed[ptr] {
					continue
				}
				r := compile.Resolved{Node: m.Value, Pointer: ptr, Scope: compile.RefLocal, Owner: f}
				if c := contextFlowNode(f, r, reg); c != nil {
					c.ID = m.Key
					c.NodesIndex = -1
					out = append(out, c)
				}
			}
		}
	}
	return out
}

func contextFlowNode(f *compile.Flow, r compile.Resolved, reg *compile.Node) *ctxFlowNode {
	if r.Node == nil || compile.ComponentType(r.Node) != "FlowNode" {
		return nil
	}
	sub := r.Node.Get("subflow")
	if sub == nil {
		sub = r.Node.Get("flow")
	}
	owner := f
	if r.Owner != nil {
		owner = r.Owner
	}
	rs := owner.Resolve(sub, compile.Append(r.Pointer, "subflow"), reg)
	if rs.Node == nil || compile.ComponentType(rs.Node) != "Flow" || !callsContextResolve(rs.Node) {
		return nil
	}
	return &ctxFlowNode{Flow: f, Ptr: r.Pointer, Subflow: rs.Node, SubflowPtr: rs.Pointer}
}

// callsContextResolve: one of the subflow's own components (its
// $referenced_components, or a node written inline in its nodes) is an
// ApiNode whose url is exactly the context-resolve URL, as the platform's
// explicit-wiring test requires.
func callsContextResolve(flow *compile.Node) bool {
	is := func(n *compile.Node) bool {
		return compile.ComponentType(n) == "ApiNode" && n.Get("url").StringOr("") == contextResolveURL
	}
	if refs := flow.Get("$referenced_components"); refs.Is(compile.Object) {
		for _, m := range refs.Members {
			if is(m.Value) {
				return true
			}
		}
	}
	if nodes := flow.Get("nodes"); nodes.Is(compile.Array) {
		for _, n := range nodes.Items {
			if is(n) {
				return true
			}
		}
	}
	return false
}

// slotEdgeID is the id that edges use for a node: the $component_ref id, or
// the inline component's id (then name).
func slotEdgeID(ref, comp *compile.Node) string {
	if id, ok := compile.RefID(ref); ok {
		return id
	}
	if id := comp.Get("id").StringOr(""); id != "" {
		return id
	}
	return comp.Get("name").StringOr("")
}

// matchContextFlowNode finds the context FlowNode serving slot s: the one
// named context_<slotId>; else the one whose slotId input is fed from a
// StartNode input defaulting to the slotId; else, with a single slot and a
// single context FlowNode, that one.
func matchContextFlowNode(s slotDecl, slots []slotDecl, ctx []*ctxFlowNode) *ctxFlowNode {
	for _, c := range ctx {
		if c.ID == "context_"+s.ID {
			return c
		}
	}
	for _, c := range ctx {
		if slotIDFedTo(c) == s.ID {
			return c
		}
	}
	if len(slots) == 1 && len(ctx) == 1 {
		return ctx[0]
	}
	return nil
}

// slotIDFedTo returns the default of the StartNode input that a data edge
// feeds into the context FlowNode's slotId input, or "".
func slotIDFedTo(c *ctxFlowNode) string {
	var out string
	slotEachDFE(c.Flow, func(_ slotDFE, e *compile.Node) {
		if out != "" || slotEdgeEndID(e, "destination_node") != c.ID || e.Get("destination_input").StringOr("") != "slotId" {
			return
		}
		src := c.Flow.Resolve(e.Get("source_node"), "", nil)
		if compile.ComponentType(src.Node) != "StartNode" {
			return
		}
		name := e.Get("source_output").StringOr("")
		if in := src.Node.Get("inputs"); in != nil && in.Kind == compile.Array {
			for _, it := range in.Items {
				if it.Get("title").StringOr("") == name {
					out = it.Get("default").StringOr("")
				}
			}
		}
	})
	return out
}

func slotEachDFE(f *compile.Flow, fn func(at slotDFE, e *compile.Node)) {
	dfes := f.Node.Get("data_flow_connections")
	if dfes == nil || dfes.Kind != compile.Array {
		return
	}
	for i, e := range dfes.Items {
		if e.Kind == compile.Object {
			fn(slotDFE{f: f, i: i}, e)
		}
	}
}

// slotDFE names the i-th entry of a Flow's data_flow_connections; its
// pointer is built when a report asks for it (it was built for every edge
// of every Flow the slot rules look at).
type slotDFE struct {
	f *compile.Flow
	i int
}

func (d slotDFE) ptr() string {
	return compile.AppendIndex(compile.Append(d.f.Pointer, "data_flow_connections"), d.i)
}

// slotEdgeEndID is the node id an edge end ("source_node", …) names.
func slotEdgeEndID(e *compile.Node, key string) string {
	n := e.Get(key)
	if s, ok := n.Str(); ok {
		return s
	}
	return slotEdgeID(n, n)
}

// slotNodeIndex returns the position of node id in f's nodes[], or -1.
func slotNodeIndex(f *compile.Flow, id string) int {
	nodes := f.Node.Get("nodes")
	if nodes == nil || nodes.Kind != compile.Array {
		return -1
	}
	for i, it := range nodes.Items {
		if slotEdgeID(it, it) == id {
			return i
		}
	}
	return -1
}

func slotCheckWiring(p *Pass, doc *compile.Doc, s slotDecl, c *ctxFlowNode) {
	// The subflow must hand back contextSlotBindings, not the legacy contextRefs.
	var outs []string
	if o := c.Subflow.Get("outputs"); o != nil && o.Kind == compile.Array {
		for _, it := range o.Items {
			outs = append(outs, it.Get("title").StringOr(""))
		}
	}
	subPtr := c.SubflowPtr
	if subPtr == "" {
		subPtr = c.Ptr
	}
	hasBindings, hasRefs := false, false
	for _, t := range outs {
		hasBindings = hasBindings || t == "contextSlotBindings"
		hasRefs = hasRefs || t == "contextRefs"
	}
	if !hasBindings || hasRefs {
		p.reportSlot(s.ID, doc, compile.Append(subPtr, "outputs"), RuleContextSlotNotWired,
			fmt.Sprintf("the subflow of context FlowNode %s must output contextSlotBindings (and not the legacy contextRefs) for slot %q", c.ID, s.ID))
	}
	if c.NodesIndex < 0 {
		p.reportSlot(s.ID, doc, c.Ptr, RuleContextSlotNotWired,
			fmt.Sprintf("context FlowNode %s for slot %q is defined but not placed in nodes[]; it never runs", c.ID, s.ID))
		return
	}
	var consumers []string
	slotEachDFE(c.Flow, func(_ slotDFE, e *compile.Node) {
		if slotEdgeEndID(e, "source_node") == c.ID && e.Get("source_output").StringOr("") == "contextSlotBindings" &&
			e.Get("destination_input").StringOr("") == "contextSlotBindings" {
			consumers = append(consumers, slotEdgeEndID(e, "destination_node"))
		}
	})
	if len(consumers) == 0 {
		p.reportSlot(s.ID, doc, c.Ptr, RuleContextSlotNotWired,
			fmt.Sprintf("context FlowNode %s for slot %q has no data edge %s.contextSlotBindings → <consumer>.contextSlotBindings; the binding must be an explicit data edge, not a prompt-template reference", c.ID, s.ID, c.ID))
		return
	}
	sort.Strings(consumers)
	for _, cons := range consumers {
		if i := slotNodeIndex(c.Flow, cons); i >= 0 && i < c.NodesIndex {
			p.reportSlot(s.ID, doc, c.NodesPtr, RuleContextSlotNotWired,
				fmt.Sprintf("context FlowNode %s for slot %q is placed after its consumer %s in nodes[]; place it before the first node that consumes the slot", c.ID, s.ID, cons))
		}
	}
}

// slotStubTopLevel reports the anti-stubs of the top-level Flow of an agent
// with slots: start.contextSlotBindings fed straight to a consumer, a
// contextSlotBindings Start input, and the context-selector screen listed
// without any context FlowNode.
func slotStubTopLevel(p *Pass, root *compile.Flow, reg *compile.Node, ctx []*ctxFlowNode, slots []slotDecl, slim bool) {
	doc := p.Agent.Flow
	slotEachDFE(root, func(at slotDFE, e *compile.Node) {
		if e.Get("source_output").StringOr("") != "contextSlotBindings" || e.Get("destination_input").StringOr("") != "contextSlotBindings" {
			return
		}
		if compile.ComponentType(root.Resolve(e.Get("source_node"), "", reg).Node) == "StartNode" {
			p.Report(doc, at.ptr(), RuleContextSlotStubWiring,
				"data edge feeds the StartNode's contextSlotBindings straight into "+slotEdgeEndID(e, "destination_node")+"; the bindings must come from the slot's context FlowNode")
		}
	})
	sr := root.Resolve(root.Node.Get("start_node"), compile.Append(root.Pointer, "start_node"), reg)
	if compile.ComponentType(sr.Node) == "StartNode" && sr.Pointer != "" {
		if in := sr.Node.Get("inputs"); in != nil && in.Kind == compile.Array {
			for i, it := range in.Items {
				if it.Get("title").StringOr("") == "contextSlotBindings" {
					p.Report(doc, compile.AppendIndex(compile.Append(sr.Pointer, "inputs"), i), RuleContextSlotStubWiring,
						"the StartNode declares a contextSlotBindings input: a caller-supplied binding bypasses the context-selection agent and its audit trail")
				}
			}
		}
	}
	interactive := false
	for _, s := range slots {
		interactive = interactive || s.Interactive
	}
	if len(ctx) == 0 && interactive && !slim { // a slim slot's injected step opens the screen
		screens := doc.Root.Path("metadata", "cinatra", "hitlScreens")
		if screens != nil && screens.Kind == compile.Array {
			for i, it := range screens.Items {
				if v := it.StringOr(""); v == contextSelectorScreen || v == "context-selector" {
					p.Report(doc, compile.AppendIndex("/metadata/cinatra/hitlScreens", i), RuleContextSlotStubWiring,
						"hitlScreens lists the context-selector screen but no context FlowNode opens it; add the slot's context FlowNode")
				}
			}
		}
	}
}

// slotStubStartToEnd reports start.contextRefs → end.contextRefs in any
// Flow of any agent: a pass-through that fakes the context agent's output.
func slotStubStartToEnd(p *Pass, flows []*compile.Flow, reg *compile.Node) {
	for _, f := range flows {
		slotEachDFE(f, func(at slotDFE, e *compile.Node) {
			if e.Get("source_output").StringOr("") != "contextRefs" || e.Get("destination_input").StringOr("") != "contextRefs" {
				return
			}
			if compile.ComponentType(f.Resolve(e.Get("source_node"), "", reg).Node) == "StartNode" &&
				compile.ComponentType(f.Resolve(e.Get("destination_node"), "", reg).Node) == "EndNode" {
				p.Report(p.Agent.Flow, at.ptr(), RuleContextSlotStubWiring,
					"data edge passes start.contextRefs straight to end.contextRefs: a stub that fakes the context-selection agent's output")
			}
		})
	}
}

// slotDependencyRange is the version range the dependency fix writes (the
// context-selection agent's current minor, as the corpus declares it).
const slotDependencyRange = "^0.1.1"

// slotDependencyFix declares the context-selection agent in package.json
// as a runtime, required edge, in the vocabulary the platform's manifest
// reader takes (packages/extensions/src/manifest-dependencies.ts @496336f8):
// an entry of the canonical cinatra.dependencies[] list when the file has
// that list or no dependency block at all (the form the platform now
// writes); a member of the legacy cinatra.agentDependencies map too when
// that map exists, so the two still agree; the map alone when it is the
// only block (a new canonical list beside it would leave its other entries
// in conflict).
func slotDependencyFix(pkg *compile.Doc) edit.Fix {
	f := newFix(edit.Unsafe, "add "+ContextSelectionAgent+" "+slotDependencyRange+" to package.json as a runtime, required dependency")
	entry := `{"packageName": ` + strconv.Quote(ContextSelectionAgent) + `, "edgeType": "runtime", ` +
		`"versionConstraint": {"kind": "semver-range", "range": "` + slotDependencyRange + `"}, "requirement": "required", "kind": "agent"}`
	c := pkg.Root.Get("cinatra")
	if c == nil {
		return f.add(fix.Insert(pkg, "", "cinatra", fix.Raw(`{"dependencies": [`+entry+`]}`))).fix()
	}
	if !c.Is(compile.Object) {
		return edit.Fix{}
	}
	ad, deps := c.Get("agentDependencies"), c.Get("dependencies")
	if (ad != nil && !ad.Is(compile.Object)) || (deps != nil && !deps.Is(compile.Array)) {
		return edit.Fix{}
	}
	if deps != nil {
		for _, d := range deps.Items {
			if d.Get("packageName").StringOr("") == ContextSelectionAgent {
				return edit.Fix{} // there, but not a runtime, required edge: the author decides
			}
		}
		f.add(fix.Append(pkg, ptrOf(deps), fix.Raw(entry)))
	}
	if ad != nil {
		if v := ad.Get(ContextSelectionAgent); v != nil { // present but not a range
			f.add(fix.Replace(pkg, ptrOf(v), slotDependencyRange))
		} else {
			f.add(fix.Insert(pkg, ptrOf(ad), ContextSelectionAgent, slotDependencyRange))
		}
	}
	if deps == nil && ad == nil {
		f.add(fix.Insert(pkg, ptrOf(c), "dependencies", fix.Raw("["+entry+"]")))
	}
	return f.fix()
}

// slotPackageName is the agent's package name: metadata.cinatra.packageName,
// else package.json's name.
func slotPackageName(a *compile.Agent) string {
	if n := a.Flow.Root.Path("metadata", "cinatra", "packageName").StringOr(""); n != "" {
		return n
	}
	if a.Package != nil && a.Package.Root != nil {
		return a.Package.Root.Get("name").StringOr("")
	}
	return ""
}
