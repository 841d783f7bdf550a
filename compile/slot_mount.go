package compile

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// What the WayFlow loader does to an agent's context slots when it mounts
// the agent (cinatra-ai/cinatra docker/wayflow/context_subflow_injection.py
// @b76ddc22, cinatra#1194, parent-satisfied lines cinatra#3032), modelled
// over the parsed flow file without changing it:
//
//   - A carrier is a Flow definition (the document itself, or any object
//     with a string id and $referenced_components, start_node or nodes)
//     whose own metadata.cinatra.contextSlots is present and not null.
//   - A slot whose definition already holds, outside nested definitions, a
//     node with metadata.cinatra.purpose
//     "author-placed-context-resolution-for-<slot>" (or
//     "loader-injected-…") is in the explicit form: left as written.
//   - A slot a parent's metadata.cinatra.parentSatisfiedContextSlots line
//     answers is received from the definition's StartNode.
//   - Every other slot is in the slim form: the loader adds the subflow
//     context-<slot>-subflow and the FlowNode context_<slot>, chained after
//     the StartNode (the StartNode's former successors follow the last
//     injected node), hidden string StartNode inputs cinatra_run_id,
//     projectId, <slot>ParentPackageName (the owner package) and
//     <slot>SlotId, and data edges from the FlowNode's contextSlotBindings
//     into each consumer: an executable node of nodes (by $component_ref)
//     declaring an input contextSlotBindings (one-slot definitions only) or
//     <slot>ContextSlotBindings.
//
// Every way the loader refuses the mount is a MountRefusal naming the slot.
// Where the loader stops at the first refusal, the model goes on and lists
// each one it can tell apart.

// Slot forms (MountedSlot.Form).
const (
	SlotSlim            = "slim"             // declared only; the loader injects the context step at mount
	SlotExplicit        = "explicit"         // the author placed the context step (the purpose marker)
	SlotParentSatisfied = "parent-satisfied" // a parent's parentSatisfiedContextSlots line answers it
)

// Mount refusal kinds (MountRefusal.Kind).
const (
	MountMalformed         = "malformed-declaration"
	MountDuplicate         = "duplicate-declaration"
	MountCollision         = "id-collision"
	MountOwnerMissing      = "no-owner-package"
	MountOwnerAmbiguous    = "ambiguous-owner-package"
	MountConsumerMissing   = "no-consumer"
	MountConsumerAmbiguous = "ambiguous-consumer"
	MountAlreadyWired      = "input-already-wired"
	MountNoSuccessor       = "start-without-successor"
	MountShape             = "unsupported-shape"
	MountInputConflict     = "incompatible-input"
	MountParentSatisfied   = "parent-satisfied-line"
)

// Context marker prefixes of metadata.cinatra.purpose (the explicit form).
const (
	AuthorPlacedPurpose   = "author-placed-context-resolution-for-"
	LoaderInjectedPurpose = "loader-injected-context-resolution-for-"
)

// SlotTemplateToken is the loader's reserved template token: a slotId
// holding it is refused.
const SlotTemplateToken = "__SLOT__"

// SlotMount is the loader's view of an agent's context slots.
type SlotMount struct {
	Slots    []MountedSlot  // every valid declared slot, in document order
	Refusals []MountRefusal // why the mount would fail, in document order
	Lines    []ParentSatisfiedLine
}

// MountedSlot is one declared slot and what the loader does with it.
type MountedSlot struct {
	Slot       string
	Form       string // SlotSlim, SlotExplicit or SlotParentSatisfied
	Definition string // id of the carrying Flow ("" for the document's own flow)
	DefPointer string // the carrying Flow
	Pointer    string // its contextSlots entry
	// For the slim form: what the loader adds.
	Owner     string   // the owner package (<slot>ParentPackageName's default)
	Node      string   // the injected FlowNode: context_<slot>
	Subflow   string   // the injected subflow: context-<slot>-subflow
	After     string   // the node the injected FlowNode follows (the StartNode, or the previous slot's context node)
	Before    []string // the StartNode's former successors, which now follow the last injected node
	Consumers []SlotConsumer
	// HiddenInputs are the StartNode inputs the loader adds (those not
	// already declared), hidden from the run form.
	HiddenInputs []string
	Refused      bool // a refusal names this slot: the loader would not mount the agent
}

// SlotConsumer is a node input the loader feeds with a slot's bindings.
type SlotConsumer struct {
	Node    string // component id
	Input   string // contextSlotBindings or <slot>ContextSlotBindings
	Pointer string // the component
}

// MountRefusal is one reason the loader refuses to mount the agent.
type MountRefusal struct {
	Kind    string
	Slot    string // the slot it is about ("" when about the whole declaration)
	Pointer string
	Message string
}

// ParentSatisfiedLine is one metadata.cinatra.parentSatisfiedContextSlots
// line.
type ParentSatisfiedLine struct {
	ParentSlot, ChildPackage, ChildSlot string
	Pointer                             string
}

// Injected is whether the loader adds a context step to the flow.
func (m *SlotMount) Injected() bool {
	if m == nil {
		return false
	}
	for _, s := range m.Slots {
		if s.Form == SlotSlim && !s.Refused {
			return true
		}
	}
	return false
}

// Slot is the mounted slot id of the flow definition def ("" for the
// document's own flow), or nil.
func (m *SlotMount) Slot(def, id string) *MountedSlot {
	if m == nil {
		return nil
	}
	for i := range m.Slots {
		if m.Slots[i].Slot == id && m.Slots[i].Definition == def {
			return &m.Slots[i]
		}
	}
	return nil
}

// FedInput is whether the loader feeds input of component node (in the
// flow definition def) with a slot's bindings.
func (m *SlotMount) FedInput(def, node, input string) bool {
	if m == nil {
		return false
	}
	for _, s := range m.Slots {
		if s.Definition != def || s.Refused {
			continue
		}
		for _, c := range s.Consumers {
			if c.Node == node && c.Input == input {
				return true
			}
		}
	}
	return false
}

// SlimInput is whether input is the bindings input of a slim slot of the
// flow definition def ("" for the document's own flow): contextSlotBindings,
// or <slot>ContextSlotBindings. The loader feeds it at mount, or refuses
// the mount (a refusal says why); either way the file is not to wire it.
func (m *SlotMount) SlimInput(def, input string) bool {
	if m == nil {
		return false
	}
	for _, s := range m.Slots {
		if s.Definition == def && s.Form == SlotSlim && (input == "contextSlotBindings" || input == s.Slot+"ContextSlotBindings") {
			return true
		}
	}
	return false
}

// HasSlim is whether a slot of the document is in the slim form.
func (m *SlotMount) HasSlim() bool {
	if m == nil {
		return false
	}
	for _, s := range m.Slots {
		if s.Form == SlotSlim {
			return true
		}
	}
	return false
}

// InjectedIDs are the ids the injection of slot adds (the loader's
// collision set).
func InjectedIDs(slot string) []string {
	out := []string{"context-" + slot + "-subflow", "context_" + slot}
	for _, k := range []string{"start", "resolve_context", "select_mode", "emit_context_payload",
		"context_select_gate", "finalize_interactive", "finalize_autonomous", "end"} {
		out = append(out, "ctx-"+slot+"-"+k)
	}
	return out
}

// MountSlots models the loader's mount of the flow file doc's context
// slots. Pure: it reads doc only. A document without "contextSlots" costs
// one byte search (for `Slots"`, whose rare first byte keeps it fast on
// JSON, where a quote starts every other token).
func MountSlots(doc *Doc) *SlotMount {
	m := &SlotMount{}
	if doc == nil || doc.Root == nil || doc.Root.Kind != Object || !bytes.Contains(doc.Src, []byte(`Slots"`)) {
		return m
	}
	carriers := slotCarriers(doc.Root)
	if len(carriers) == 0 {
		return m
	}
	type owned struct {
		c     *slotCarrier
		pkg   string
		slots map[string]bool
	}
	var all []owned
	for _, c := range carriers {
		c.slots = m.validateSlots(c)
		ids := map[string]bool{}
		for _, s := range c.slots {
			ids[s.id] = true
		}
		all = append(all, owned{c, mountMeta(c.def).Get("packageName").StringOr(""), ids})
	}
	// The parent-satisfied lines: which child slots a parent answers, and
	// which lines each parent hands down.
	satisfied := map[*Node]map[string]bool{}
	handDown := map[*Node][]ParentSatisfiedLine{}
	handDownTo := map[*Node][]*slotCarrier{}
	for _, o := range all {
		if o.c.malformed {
			continue
		}
		for _, l := range m.parentLines(o.c) {
			if !o.slots[l.ParentSlot] {
				m.refuse(MountParentSatisfied, l.ParentSlot, l.Pointer, fmt.Sprintf("%s: the parent-satisfied line names parent slot %q, which this agent does not declare in its own contextSlots", o.c.label, l.ParentSlot))
				continue
			}
			var target *slotCarrier
			for _, t := range all {
				if t.c != o.c && t.pkg == l.ChildPackage && t.slots[l.ChildSlot] {
					target = t.c
					break
				}
			}
			if target == nil {
				m.refuse(MountParentSatisfied, l.ParentSlot, l.Pointer, fmt.Sprintf("%s: the parent-satisfied line for %s slot %q names no embedded agent in this document that declares it", o.c.label, l.ChildPackage, l.ChildSlot))
				continue
			}
			if satisfied[target.def] == nil {
				satisfied[target.def] = map[string]bool{}
			}
			satisfied[target.def][l.ChildSlot] = true
			handDown[o.c.def] = append(handDown[o.c.def], l)
			handDownTo[o.c.def] = append(handDownTo[o.c.def], target)
		}
	}
	var allIDs map[string]bool // every id of the document, walked only when a slot is injected
	ids := func() map[string]bool {
		if allIDs == nil {
			allIDs = mountAllIDs(doc.Root)
		}
		return allIDs
	}
	for _, o := range all {
		if o.c.malformed || len(o.c.slots) == 0 {
			continue
		}
		m.inject(doc.Root, o.c, satisfied[o.c.def], handDown[o.c.def], handDownTo[o.c.def], ids)
	}
	for i := range m.Slots {
		for _, r := range m.Refusals {
			if r.Slot == m.Slots[i].Slot {
				m.Slots[i].Refused = true
			}
		}
	}
	return m
}

type slotCarrier struct {
	def       *Node
	id        string // "" for the document's own flow
	label     string
	raw       *Node
	slots     []slotEntry
	malformed bool
}

type slotEntry struct {
	id, ptr string
}

func (m *SlotMount) refuse(kind, slot, ptr, msg string) {
	m.Refusals = append(m.Refusals, MountRefusal{Kind: kind, Slot: slot, Pointer: ptr, Message: msg})
}

func mountMeta(n *Node) *Node {
	c := n.Get("metadata").Get("cinatra")
	if !c.Is(Object) {
		return nil
	}
	return c
}

// isFlowDefinition mirrors the loader's test of a Flow definition.
func isFlowDefinition(n *Node) bool {
	if !n.Is(Object) || !n.Get("id").Is(String) {
		return false
	}
	sn := n.Get("start_node")
	return n.Get("$referenced_components").Is(Object) || sn.Is(String) || sn.Is(Object) || n.Get("nodes").Is(Array)
}

// slotCarriers lists the Flow definitions declaring contextSlots, the
// document first.
func slotCarriers(root *Node) []*slotCarrier {
	var out []*slotCarrier
	consider := func(n *Node, isRoot bool) {
		c := mountMeta(n)
		raw := c.Get("contextSlots")
		if raw == nil || raw.Kind == Null {
			return
		}
		sc := &slotCarrier{def: n, raw: raw}
		if !isRoot {
			sc.id = n.Get("id").StringOr("")
		}
		if sc.id != "" {
			sc.label = fmt.Sprintf("definition %q", sc.id)
		} else {
			sc.label = "root flow"
		}
		out = append(out, sc)
	}
	consider(root, true)
	// the walk asks an object for its metadata first (most have none)
	// and then whether it is a Flow definition: consider does nothing
	// without metadata.cinatra.contextSlots, so the order of the two pure
	// tests changes no carrier; it calls itself at objects and arrays
	// only (a scalar holds no carrier)
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Kind == Array {
			for _, it := range n.Items {
				if it.Kind == Object || it.Kind == Array {
					walk(it)
				}
			}
			return
		}
		if md := n.Get("metadata"); md != nil && md.Kind == Object && isFlowDefinition(n) {
			consider(n, false)
		}
		for _, mem := range n.Members {
			if v := mem.Value; v.Kind == Object || v.Kind == Array {
				walk(v)
			}
		}
	}
	for _, mem := range root.Members {
		if v := mem.Value; v.Kind == Object || v.Kind == Array {
			walk(v)
		}
	}
	return out
}

// validateSlots checks a carrier's declaration as the loader does
// (strict); a malformed one refuses the mount.
func (m *SlotMount) validateSlots(c *slotCarrier) []slotEntry {
	base := Append(PointerOf(c.def), "metadata", "cinatra", "contextSlots")
	bad := func(slot, ptr, msg string) {
		c.malformed = true
		m.refuse(MountMalformed, slot, ptr, c.label+": "+msg)
	}
	if c.raw.Kind != Array {
		bad("", base, "metadata.cinatra.contextSlots must be an array")
		return nil
	}
	var out []slotEntry
	seen := map[string]bool{}
	allowed := map[string]bool{"slotId": true, "acceptedArtifactExtensions": true, "selectionMode": true,
		"resolutionMode": true, "minItems": true, "maxItems": true, "readableOnly": true}
	for i, e := range c.raw.Items {
		ptr := AppendIndex(base, i)
		loc := fmt.Sprintf("contextSlots[%d]", i)
		if e.Kind != Object {
			bad("", ptr, loc+" is not an object")
			continue
		}
		id, _ := e.Get("slotId").Str()
		var unknown []string
		for _, mem := range e.Members {
			if !allowed[mem.Key] {
				unknown = append(unknown, mem.Key)
			}
		}
		if len(unknown) > 0 {
			sort.Strings(unknown)
			bad(id, ptr, fmt.Sprintf("%s has unknown key(s): %s", loc, strings.Join(unknown, ", ")))
			continue
		}
		if !e.Get("slotId").Is(String) || id == "" {
			bad("", ptr, loc+" has a missing or empty slotId")
			continue
		}
		if strings.Contains(id, SlotTemplateToken) {
			bad(id, Append(ptr, "slotId"), fmt.Sprintf("slotId %q contains the loader's reserved template token %s", id, SlotTemplateToken))
			continue
		}
		if seen[id] {
			c.malformed = true
			m.refuse(MountDuplicate, id, Append(ptr, "slotId"), fmt.Sprintf("%s: %s: duplicate slotId %q", c.label, loc, id))
			continue
		}
		seen[id] = true
		if msg := slotEntryProblem(e); msg != "" {
			bad(id, ptr, loc+": "+msg)
			continue
		}
		out = append(out, slotEntry{id: id, ptr: ptr})
	}
	if c.malformed {
		return nil
	}
	return out
}

// slotEntryProblem is the first field of a slot (beyond slotId and unknown
// keys) the loader refuses, or "".
func slotEntryProblem(e *Node) string {
	ext := e.Get("acceptedArtifactExtensions")
	okExt := ext.Is(Array) && len(ext.Items) > 0
	if okExt {
		for _, it := range ext.Items {
			if v, ok := it.Str(); !ok || v == "" {
				okExt = false
			}
		}
	}
	if !okExt {
		return "acceptedArtifactExtensions must be a non-empty array of non-empty strings"
	}
	if v, ok := e.Get("selectionMode").Str(); !ok || (v != "interactive" && v != "autonomous") {
		return "invalid selectionMode"
	}
	if v, ok := e.Get("resolutionMode").Str(); !ok || (v != "override" && v != "accumulate") {
		return "invalid resolutionMode"
	}
	integral := func(n *Node) (float64, bool) {
		if !n.Is(Number) {
			return 0, false
		}
		f, ok := n.Float()
		return f, ok && f == float64(int64(f))
	}
	minN, maxN := e.Get("minItems"), e.Get("maxItems")
	minV, minOK := integral(minN)
	maxV, maxOK := integral(maxN)
	if minN != nil && (!minOK || minV < 0) {
		return "invalid minItems"
	}
	if maxN != nil && (!maxOK || maxV < 1) {
		return "invalid maxItems"
	}
	if minOK && maxOK && minV > maxV {
		return "minItems must be <= maxItems"
	}
	if ro := e.Get("readableOnly"); ro != nil && ro.Kind != Bool {
		return "invalid readableOnly"
	}
	return ""
}

// parentLines reads and checks a carrier's parentSatisfiedContextSlots.
func (m *SlotMount) parentLines(c *slotCarrier) []ParentSatisfiedLine {
	raw := mountMeta(c.def).Get("parentSatisfiedContextSlots")
	if raw == nil || raw.Kind == Null {
		return nil
	}
	base := Append(PointerOf(c.def), "metadata", "cinatra", "parentSatisfiedContextSlots")
	if raw.Kind != Array {
		m.refuse(MountParentSatisfied, "", base, c.label+": metadata.cinatra.parentSatisfiedContextSlots must be an array")
		return nil
	}
	var out []ParentSatisfiedLine
	seen := map[[2]string]bool{}
	for i, e := range raw.Items {
		ptr := AppendIndex(base, i)
		loc := fmt.Sprintf("parentSatisfiedContextSlots[%d]", i)
		if e.Kind != Object {
			m.refuse(MountParentSatisfied, "", ptr, c.label+": "+loc+" is not an object")
			continue
		}
		ok := true
		for _, mem := range e.Members {
			if mem.Key != "parentSlotId" && mem.Key != "childPackage" && mem.Key != "childSlotId" {
				m.refuse(MountParentSatisfied, e.Get("parentSlotId").StringOr(""), ptr, fmt.Sprintf("%s: %s has unknown key %q", c.label, loc, mem.Key))
				ok = false
			}
		}
		for _, k := range []string{"childPackage", "childSlotId", "parentSlotId"} {
			if v, isStr := e.Get(k).Str(); !isStr || v == "" {
				m.refuse(MountParentSatisfied, e.Get("parentSlotId").StringOr(""), ptr, fmt.Sprintf("%s: %s: %s must be a non-empty string", c.label, loc, k))
				ok = false
			}
		}
		if !ok {
			continue
		}
		l := ParentSatisfiedLine{ParentSlot: e.Get("parentSlotId").StringOr(""), ChildPackage: e.Get("childPackage").StringOr(""),
			ChildSlot: e.Get("childSlotId").StringOr(""), Pointer: ptr}
		key := [2]string{l.ChildPackage, l.ChildSlot}
		if seen[key] {
			m.refuse(MountParentSatisfied, l.ParentSlot, ptr, fmt.Sprintf("%s: %s: %s slot %q is satisfied twice (one line per child slot)", c.label, loc, l.ChildPackage, l.ChildSlot))
			continue
		}
		seen[key] = true
		out = append(out, l)
		m.Lines = append(m.Lines, l)
	}
	return out
}

// mountAllIDs is every id string and $referenced_components key of the
// document (the loader's collision set).
func mountAllIDs(root *Node) map[string]bool {
	ids := map[string]bool{}
	WalkNodes(root, func(n *Node) bool {
		if n.Kind != Object {
			return true
		}
		if v, ok := n.Get("id").Str(); ok {
			ids[v] = true
		}
		if rc := n.Get("$referenced_components"); rc.Is(Object) {
			for _, mem := range rc.Members {
				ids[mem.Key] = true
			}
		}
		return true
	})
	return ids
}

// markerSlots are the slots with a context marker held by def itself (not
// by a nested definition).
func markerSlots(def *Node) map[string]bool {
	out := map[string]bool{}
	var scan func(n *Node, isRoot bool)
	scan = func(n *Node, isRoot bool) {
		switch n.Kind {
		case Array:
			for _, it := range n.Items {
				scan(it, false)
			}
		case Object:
			if !isRoot && isFlowDefinition(n) {
				return
			}
			if p, ok := mountMeta(n).Get("purpose").Str(); ok {
				for _, pre := range []string{AuthorPlacedPurpose, LoaderInjectedPurpose} {
					if s := strings.TrimPrefix(p, pre); s != p && s != "" {
						out[s] = true
					}
				}
			}
			for _, mem := range n.Members {
				scan(mem.Value, false)
			}
		}
	}
	scan(def, true)
	return out
}

// mountRef is the id an edge end or nodes entry names: a $component_ref,
// or a plain string.
func mountRef(n *Node) (string, bool) {
	if id, ok := RefID(n); ok {
		return id, true
	}
	return n.Str()
}

func (m *SlotMount) inject(root *Node, c *slotCarrier, satisfied map[string]bool, lines []ParentSatisfiedLine, targets []*slotCarrier, idsOf func() map[string]bool) {
	markers := markerSlots(c.def)
	defPtr := PointerOf(c.def)
	single := len(c.slots) == 1
	pending := map[string]bool{}
	for _, s := range c.slots {
		ms := MountedSlot{Slot: s.id, Definition: c.id, DefPointer: defPtr, Pointer: s.ptr}
		switch {
		case markers[s.id]:
			ms.Form = SlotExplicit
		case satisfied[s.id]:
			ms.Form = SlotParentSatisfied
			ms.Consumers = m.consumers(c, s.id, single, startRefOf(c.def))
		default:
			ms.Form = SlotSlim
			pending[s.id] = true
		}
		m.Slots = append(m.Slots, ms)
	}
	for _, l := range lines {
		if !pending[l.ParentSlot] {
			m.refuse(MountParentSatisfied, l.ParentSlot, l.Pointer, fmt.Sprintf("%s: the parent-satisfied line hands down from slot %q, which this agent does not resolve itself (it is already carried, or a parent satisfies it)", c.label, l.ParentSlot))
		}
	}
	if len(pending) == 0 {
		return
	}
	refuseAll := func(kind, ptr, msg string) {
		for _, s := range c.slots {
			if pending[s.id] {
				m.refuse(kind, s.id, ptr, fmt.Sprintf("slot %q: %s", s.id, msg))
			}
		}
	}
	owner := m.ownerPackage(root, c, refuseAll)
	refs, nodes, cfc := c.def.Get("$referenced_components"), c.def.Get("nodes"), c.def.Get("control_flow_connections")
	startRef, okStart := mountRef(c.def.Get("start_node"))
	if !refs.Is(Object) || !nodes.Is(Array) || !cfc.Is(Array) || !okStart {
		refuseAll(MountShape, defPtr, c.label+": unsupported definition shape for context-subflow injection (it needs $referenced_components, nodes, control_flow_connections and start_node)")
		return
	}
	startDef := refs.Get(startRef)
	if !startDef.Is(Object) {
		refuseAll(MountShape, Append(defPtr, "start_node"), fmt.Sprintf("%s: start node %q is not defined in $referenced_components", c.label, startRef))
		return
	}
	if d := c.def.Get("data_flow_connections"); d != nil && !d.Is(Array) {
		refuseAll(MountShape, Append(defPtr, "data_flow_connections"), c.label+": data_flow_connections is not an array")
		return
	}
	var before []string
	for _, e := range cfc.Items {
		if from, ok := mountRef(e.Get("from_node")); ok && from == startRef {
			to, _ := mountRef(e.Get("to_node"))
			before = append(before, to)
		}
	}
	if len(before) == 0 {
		refuseAll(MountNoSuccessor, Append(defPtr, "start_node"), fmt.Sprintf("%s: start node %q has no outgoing control edge, so there is nowhere to splice the context step", c.label, startRef))
	}
	injected, allIDs := map[string]bool{}, idsOf()
	for _, s := range c.slots {
		if !pending[s.id] {
			continue
		}
		for _, id := range InjectedIDs(s.id) {
			if allIDs[id] || injected[id] {
				m.refuse(MountCollision, s.id, s.ptr, fmt.Sprintf("slot %q: %s: the injected component id %q collides with an id already in the document (give the context step the marker metadata.cinatra.purpose %q to keep a hand-placed one)", s.id, c.label, id, AuthorPlacedPurpose+s.id))
				break
			}
			injected[id] = true
		}
	}
	prev := startRef
	addedBefore := map[string]bool{}
	for i := range m.Slots {
		ms := &m.Slots[i]
		if ms.Definition != c.id || ms.DefPointer != defPtr || !pending[ms.Slot] {
			continue
		}
		ms.Owner = owner
		ms.Node, ms.Subflow, ms.After = "context_"+ms.Slot, "context-"+ms.Slot+"-subflow", prev
		prev = ms.Node
		for _, h := range m.hiddenInputs(c, startDef, ms.Slot, owner) {
			if !addedBefore[h] { // the loader added it for an earlier slot
				addedBefore[h] = true
				ms.HiddenInputs = append(ms.HiddenInputs, h)
			}
		}
		ms.Consumers = m.consumers(c, ms.Slot, single, "")
	}
	for i := range m.Slots {
		ms := &m.Slots[i]
		if ms.Node != "" && ms.Node == prev && ms.DefPointer == defPtr {
			ms.Before = before
		}
	}
	for k, l := range lines {
		if pending[l.ParentSlot] {
			m.handDown(c, targets[k], l)
		}
	}
}

func startRefOf(def *Node) string {
	s, _ := mountRef(def.Get("start_node"))
	return s
}

// ownerPackage is the definition's owner package: its own
// metadata.cinatra.packageName and that of every FlowNode running it must
// name exactly one.
func (m *SlotMount) ownerPackage(root *Node, c *slotCarrier, refuseAll func(kind, ptr, msg string)) string {
	cands := map[string]bool{}
	if p := mountMeta(c.def).Get("packageName").StringOr(""); p != "" {
		cands[p] = true
	}
	if id := c.def.Get("id").StringOr(""); id != "" {
		WalkNodes(root, func(n *Node) bool {
			if n.Kind == Object {
				if ref, ok := RefID(n.Get("subflow")); ok && ref == id {
					if p := mountMeta(n).Get("packageName").StringOr(""); p != "" {
						cands[p] = true
					}
				}
			}
			return true
		})
	}
	ptr := Append(PointerOf(c.def), "metadata", "cinatra")
	switch len(cands) {
	case 0:
		refuseAll(MountOwnerMissing, ptr, c.label+": cannot tell the owner package of the declared contextSlots (no metadata.cinatra.packageName on the flow, and no FlowNode with a packageName runs it)")
		return ""
	case 1:
		for p := range cands {
			return p
		}
	}
	var names []string
	for p := range cands {
		names = append(names, p)
	}
	sort.Strings(names)
	refuseAll(MountOwnerAmbiguous, ptr, c.label+": ambiguous owner package for the declared contextSlots: "+strings.Join(names, ", "))
	return ""
}

// hiddenInputs are the StartNode inputs the loader adds for slot, and
// refuses those it cannot reuse.
func (m *SlotMount) hiddenInputs(c *slotCarrier, start *Node, slot, owner string) []string {
	want := []struct {
		title   string
		def     string
		pinned  bool
		ownerOf bool
	}{
		{"cinatra_run_id", "", false, false},
		{"projectId", "", false, false},
		{slot + "ParentPackageName", owner, true, true},
		{slot + "SlotId", slot, true, false},
	}
	var added []string
	for _, w := range want {
		missing := false
		for _, holder := range []*Node{c.def, start} {
			in := holder.Get("inputs")
			if in != nil && !in.Is(Array) {
				m.refuse(MountShape, slot, PointerOf(in), fmt.Sprintf("slot %q: %s: 'inputs' is not an array", slot, c.label))
				continue
			}
			var found *Node
			if in != nil {
				for _, it := range in.Items {
					if it.Get("title").StringOr("") == w.title && it.Get("title").Is(String) {
						found = it
						break
					}
				}
			}
			if found == nil {
				if holder == start {
					missing = true
				}
				continue
			}
			if t, _ := found.Get("type").Str(); t != "string" {
				m.refuse(MountInputConflict, slot, PointerOf(found), fmt.Sprintf("slot %q: %s: the existing input %q is not a string; the injected context step needs a string", slot, c.label, w.title))
				continue
			}
			if w.pinned && !(w.ownerOf && owner == "") {
				if d, ok := found.Get("default").Str(); !ok || d != w.def {
					m.refuse(MountInputConflict, slot, PointerOf(found), fmt.Sprintf("slot %q: %s: the existing input %q has default %s, the loader needs %q", slot, c.label, w.title, mountShow(found.Get("default")), w.def))
				}
			}
		}
		if missing {
			added = append(added, w.title)
		}
	}
	return added
}

func mountShow(n *Node) string {
	if n == nil {
		return "none"
	}
	if s, ok := n.Str(); ok {
		return fmt.Sprintf("%q", s)
	}
	return n.Kind.String()
}

// consumers are the inputs the loader feeds with slot's bindings; it
// refuses zero, ambiguous and already-wired ones. exclude is a node that
// is never a consumer (the StartNode, for a received slot).
func (m *SlotMount) consumers(c *slotCarrier, slot string, single bool, exclude string) []SlotConsumer {
	refs, nodes := c.def.Get("$referenced_components"), c.def.Get("nodes")
	if !refs.Is(Object) || !nodes.Is(Array) {
		m.refuse(MountShape, slot, PointerOf(c.def), fmt.Sprintf("slot %q: %s: unsupported definition shape (it needs $referenced_components and nodes)", slot, c.label))
		return nil
	}
	inNodes := map[string]bool{}
	for _, it := range nodes.Items {
		if id, ok := mountRef(it); ok {
			inNodes[id] = true
		}
	}
	wired := map[[2]string]bool{}
	if d := c.def.Get("data_flow_connections"); d.Is(Array) {
		for _, e := range d.Items {
			dst, ok1 := mountRef(e.Get("destination_node"))
			in, ok2 := e.Get("destination_input").Str()
			if ok1 && ok2 {
				wired[[2]string{dst, in}] = true
			}
		}
	}
	qualified := slot + "ContextSlotBindings"
	var out []SlotConsumer
	refused := false
	for _, mem := range refs.Members {
		id, comp := mem.Key, mem.Value
		if id == exclude || !inNodes[id] || !comp.Is(Object) {
			continue
		}
		if isFlowDefinition(comp) && ComponentType(comp) == "Flow" {
			continue
		}
		in := comp.Get("inputs")
		if !in.Is(Array) {
			continue
		}
		bare, qual := false, false
		for _, it := range in.Items {
			switch it.Get("title").StringOr("") {
			case "contextSlotBindings":
				bare = bare || it.Get("title").Is(String)
			case qualified:
				qual = true
			}
		}
		ptr := PointerOf(comp)
		target := ""
		switch {
		case bare && qual:
			m.refuse(MountConsumerAmbiguous, slot, ptr, fmt.Sprintf("slot %q: %s: component %q declares both contextSlotBindings and %s", slot, c.label, id, qualified))
			refused = true
			continue
		case qual:
			target = qualified
		case bare && !single:
			m.refuse(MountConsumerAmbiguous, slot, ptr, fmt.Sprintf("slot %q: %s: component %q declares the bare contextSlotBindings input but the flow declares several context slots; name it %s", slot, c.label, id, qualified))
			refused = true
			continue
		case bare:
			target = "contextSlotBindings"
		default:
			continue
		}
		if wired[[2]string{id, target}] {
			m.refuse(MountAlreadyWired, slot, ptr, fmt.Sprintf("slot %q: %s: input %q of %q already has a data edge; the loader refuses to wire it twice", slot, c.label, target, id))
			refused = true
			continue
		}
		out = append(out, SlotConsumer{Node: id, Input: target, Pointer: ptr})
	}
	if len(out) == 0 && !refused {
		want := "contextSlotBindings"
		if !single {
			want = qualified + " (the flow declares several slots)"
		}
		m.refuse(MountConsumerMissing, slot, c.slotPtr(slot), fmt.Sprintf("slot %q: %s: no consumer: no step in nodes declares an input %s", slot, c.label, want))
	}
	return out
}

func (c *slotCarrier) slotPtr(slot string) string {
	for _, s := range c.slots {
		if s.id == slot {
			return s.ptr
		}
	}
	return PointerOf(c.def)
}

// handDown checks the edge the loader draws from the parent's context node
// into the one node running the child.
func (m *SlotMount) handDown(c *slotCarrier, child *slotCarrier, l ParentSatisfiedLine) {
	refs, nodes := c.def.Get("$referenced_components"), c.def.Get("nodes")
	if !refs.Is(Object) || !nodes.Is(Array) {
		return // refused as the shape already
	}
	inNodes := map[string]bool{}
	for _, it := range nodes.Items {
		if id, ok := mountRef(it); ok {
			inNodes[id] = true
		}
	}
	var holders []string
	for _, mem := range refs.Members {
		if inNodes[mem.Key] && mem.Value.Is(Object) {
			if ref, ok := mountRef(mem.Value.Get("subflow")); ok && ref == child.id && child.id != "" {
				holders = append(holders, mem.Key)
			}
		}
	}
	if len(holders) != 1 {
		m.refuse(MountParentSatisfied, l.ParentSlot, l.Pointer, fmt.Sprintf("slot %q: %s: the parent-satisfied line for %s slot %q resolves %d nodes running that agent; exactly one is needed to hand the pick down", l.ParentSlot, c.label, l.ChildPackage, l.ChildSlot, len(holders)))
		return
	}
	input := l.ChildSlot + "ContextSlotBindings"
	name := "parent_satisfied_" + l.ChildSlot + "_to_" + holders[0]
	if d := c.def.Get("data_flow_connections"); d.Is(Array) {
		for _, e := range d.Items {
			dst, _ := mountRef(e.Get("destination_node"))
			if dst == holders[0] && e.Get("destination_input").StringOr("") == input {
				m.refuse(MountAlreadyWired, l.ParentSlot, PointerOf(e), fmt.Sprintf("slot %q: %s: input %q of %q already has a data edge; the loader refuses to hand the parent's pick down over it", l.ParentSlot, c.label, input, holders[0]))
			}
			if e.Get("name").StringOr("") == name {
				m.refuse(MountAlreadyWired, l.ParentSlot, PointerOf(e), fmt.Sprintf("slot %q: %s: data edge %q already exists", l.ParentSlot, c.label, name))
			}
		}
	}
}
