package lint

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint/fix"
)

// Wiring a context slot the way the corpus's slotted agents do it
// (blog-draft-writer, blog-image-prompt, email-outreach — their wiring is
// the same template with the slot id substituted):
//
//   - a FlowNode context_<slot> ("Resolve <slot>") whose subflow is the
//     top-level Flow context-<slot>-subflow: StartNode → ApiNode
//     /api/context-resolve → BranchingNode on selectionMode → (default)
//     OutputMessageNode → context-selector InputMessageNode → ApiNode
//     /api/context-finalize, or (autonomous) ApiNode /api/context-finalize
//     → EndNode contextSlotBindings;
//   - placed in nodes[] just before the consumer; the control edges that
//     entered the consumer now enter the FlowNode (their names kept, as the
//     corpus keeps "start_to_generate"), and a new edge
//     context_<slot>_to_<consumer> follows it;
//   - hidden Start inputs cinatra_run_id, <slot>ParentPackageName,
//     <slot>SlotId and projectId (the Flow's inputs mirror them) fed to the
//     FlowNode's parentRunId, parentPackageName, slotId and projectId;
//   - the data edge context_<slot>.contextSlotBindings →
//     <consumer>.contextSlotBindings (the consumer gains that input if it
//     lacks it), and the context-selector screen in hitlScreens.

//go:embed slots_wire_subflow.json
var slotSubflowTemplate []byte

// slotSubflowCompact is the template without its layout (the fix helpers
// indent it in the file's own style).
var slotSubflowCompact = func() string {
	var b bytes.Buffer
	if err := json.Compact(&b, slotSubflowTemplate); err != nil {
		panic("lint: slots_wire_subflow.json: " + err.Error())
	}
	return b.String()
}()

// slotBindingsInput is the consumer's contextSlotBindings input as the
// corpus declares it.
const slotBindingsInput = `{"title":"contextSlotBindings","type":"array","json_schema":{"items":{"type":"object","properties":{` +
	`"artifactId":{"type":"string"},"representationRevisionId":{"type":"string"},"semanticAssertionId":{"type":"string"},` +
	`"extension":{"type":"string"},"sourceScope":{"type":"string"},"ownerId":{"type":"string"}}}}}`

// WireSlotTitle is the title of the fix for slot id.
func WireSlotTitle(slotID string) string { return "wire context slot " + slotID }

// WireContextSlot builds the fix that wires slot slotID of the agent flow
// doc (a parsed cinatra/oas.json) through a new context FlowNode placed
// before the slot's consumer: the node that declares a contextSlotBindings
// input no edge feeds yet, else the node the StartNode leads to. pkgName
// is the agent's package name (the parentPackageName default). The edits
// touch only doc; every other byte stays as it was. The same generator
// serves `oastui new --slot`.
func WireContextSlot(doc *compile.Doc, pkgName, slotID string) (edit.Fix, error) {
	w, err := newSlotWiring(doc, pkgName, slotID)
	if err != nil {
		return edit.Fix{}, err
	}
	return w.build()
}

type slotWiring struct {
	doc              *compile.Doc
	pkg, slot, tag   string // tag: the slot id, suffixed when its names are taken
	root             *compile.Flow
	refs             *compile.Node // the root Flow's $referenced_components
	startID          string
	start            *compile.Node // the StartNode component (in refs)
	consumerID       string
	consumer         *compile.Node
	consumerItemPtr  string // its nodes[] entry
	consumerInbound  []*compile.Node
	controlEdgesNode *compile.Node
}

func newSlotWiring(doc *compile.Doc, pkgName, slotID string) (*slotWiring, error) {
	if doc == nil || doc.Root == nil || compile.IsYAMLPath(doc.Path) {
		return nil, fix.ErrNotJSON
	}
	if !slotIDRe.MatchString(slotID) {
		return nil, fmt.Errorf("slot id %q is not identifier-safe", slotID)
	}
	flows := compile.Flows(doc.Root)
	if len(flows) == 0 || flows[0].Pointer != "" {
		return nil, fmt.Errorf("%s: the document is not a Flow", doc.Path)
	}
	w := &slotWiring{doc: doc, pkg: pkgName, slot: slotID, root: flows[0]}
	f := w.root.Node
	w.refs = f.Get("$referenced_components")
	if !w.refs.Is(compile.Object) {
		return nil, fmt.Errorf("%s: the flow has no $referenced_components to hold the context FlowNode", doc.Path)
	}
	nodes := f.Get("nodes")
	w.controlEdgesNode = f.Get("control_flow_connections")
	if !nodes.Is(compile.Array) || !w.controlEdgesNode.Is(compile.Array) {
		return nil, fmt.Errorf("%s: the flow has no nodes[] or control_flow_connections[]", doc.Path)
	}
	if dfe := f.Get("data_flow_connections"); dfe != nil && !dfe.Is(compile.Array) {
		return nil, fmt.Errorf("%s: data_flow_connections is not an array", doc.Path)
	}
	// The StartNode, defined in the root's $referenced_components.
	id, ok := compile.RefID(f.Get("start_node"))
	if !ok || compile.ComponentType(w.refs.Get(id)) != "StartNode" {
		return nil, fmt.Errorf("%s: start_node is not a $component_ref to a StartNode of this flow", doc.Path)
	}
	w.startID, w.start = id, w.refs.Get(id)
	if in := w.start.Get("inputs"); in != nil && !in.Is(compile.Array) {
		return nil, fmt.Errorf("%s: the StartNode's inputs is not an array", doc.Path)
	}
	if err := w.findConsumer(nodes); err != nil {
		return nil, err
	}
	w.tag = slotID
	for n := 2; w.taken(w.tag); n++ {
		w.tag = fmt.Sprintf("%s_%d", slotID, n)
	}
	return w, nil
}

// findConsumer picks the node the slot's bindings go to.
func (w *slotWiring) findConsumer(nodes *compile.Node) error {
	fed := map[string]bool{}
	slotEachDFE(w.root, func(_ slotDFE, e *compile.Node) {
		if e.Get("destination_input").StringOr("") == "contextSlotBindings" {
			fed[slotEdgeEndID(e, "destination_node")] = true
		}
	})
	type cand struct {
		id, ptr string
		n       *compile.Node
	}
	var all []cand
	for i, it := range nodes.Items {
		id, ok := compile.RefID(it)
		if !ok {
			continue
		}
		c := w.refs.Get(id)
		switch compile.ComponentType(c) {
		case "", "StartNode", "EndNode":
			continue
		}
		all = append(all, cand{id, compile.AppendIndex(compile.PointerOf(nodes), i), c})
	}
	pick := func(c cand) {
		w.consumerID, w.consumer, w.consumerItemPtr = c.id, c.n, c.ptr
	}
	for _, c := range all {
		if w.takesBindings(c.n) && !fed[c.id] {
			pick(c)
			break
		}
	}
	if w.consumer == nil { // one already bound by another slot: the bindings accumulate
		for _, c := range all {
			if w.takesBindings(c.n) {
				pick(c)
				break
			}
		}
	}
	if w.consumer == nil { // the node the StartNode leads to
		for _, e := range w.controlEdgesNode.Items {
			if slotEdgeEndID(e, "from_node") != w.startID {
				continue
			}
			to := slotEdgeEndID(e, "to_node")
			for _, c := range all {
				if c.id == to && !strings.HasPrefix(to, "context_") {
					pick(c)
				}
			}
			break
		}
	}
	if w.consumer == nil {
		return fmt.Errorf("%s: no step to consume the slot (no node with a contextSlotBindings input, and the StartNode leads to no step defined in this flow)", w.doc.Path)
	}
	if in := w.consumer.Get("inputs"); in != nil && !in.Is(compile.Array) {
		return fmt.Errorf("%s: the inputs of %s is not an array", w.doc.Path, w.consumerID)
	}
	for _, e := range w.controlEdgesNode.Items {
		if slotEdgeEndID(e, "to_node") == w.consumerID {
			if _, ok := compile.RefID(e.Get("to_node")); !ok {
				return fmt.Errorf("%s: a control edge into %s does not use a $component_ref", w.doc.Path, w.consumerID)
			}
			w.consumerInbound = append(w.consumerInbound, e)
		}
	}
	return nil
}

// takesBindings: n declares a contextSlotBindings input (a FlowNode: or
// its subflow, defined in this flow, does).
func (w *slotWiring) takesBindings(n *compile.Node) bool {
	if hasInput(n, "contextSlotBindings") {
		return true
	}
	if compile.ComponentType(n) == "FlowNode" {
		if id, ok := compile.RefID(n.Get("subflow")); ok {
			return hasInput(w.refs.Get(id), "contextSlotBindings")
		}
		return hasInput(n.Get("subflow"), "contextSlotBindings")
	}
	return false
}

// localSubflow is the subflow of FlowNode n when it is a Flow with an
// inputs array defined in this flow's $referenced_components, else nil.
func (w *slotWiring) localSubflow(n *compile.Node) *compile.Node {
	if compile.ComponentType(n) != "FlowNode" {
		return nil
	}
	id, ok := compile.RefID(n.Get("subflow"))
	if !ok {
		return nil
	}
	if sub := w.refs.Get(id); compile.ComponentType(sub) == "Flow" && sub.Get("inputs").Is(compile.Array) {
		return sub
	}
	return nil
}

func hasInput(n *compile.Node, title string) bool { return hasPort(n, "inputs", title) }

func hasOutput(n *compile.Node, title string) bool { return hasPort(n, "outputs", title) }

func hasPort(n *compile.Node, key, title string) bool {
	if in := n.Get(key); in.Is(compile.Array) {
		for _, it := range in.Items {
			if it.Get("title").StringOr("") == title {
				return true
			}
		}
	}
	return false
}

// taken: one of the names the wiring of tag would define is in use.
func (w *slotWiring) taken(tag string) bool {
	for _, name := range []string{"context_" + tag, "context-" + tag + "-subflow", "ctx-" + tag + "-"} {
		if bytes.Contains(w.doc.Src, []byte(`"`+name)) {
			return true
		}
	}
	return hasInput(w.start, tag+"ParentPackageName") || hasInput(w.start, tag+"SlotId")
}

func ref(id string) string { return `{"$component_ref":` + jsonString(id) + `}` }

func jsonString(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func control(name, from, to string) fix.Raw {
	return fix.Raw(`{"component_type":"ControlFlowEdge","name":` + jsonString(name) + `,"from_node":` + ref(from) + `,"to_node":` + ref(to) + `}`)
}

func dataEdge(name, from, out, to, in string) fix.Raw {
	return fix.Raw(`{"component_type":"DataFlowEdge","name":` + jsonString(name) + `,"source_node":` + ref(from) +
		`,"source_output":` + jsonString(out) + `,"destination_node":` + ref(to) + `,"destination_input":` + jsonString(in) + `}`)
}

func (w *slotWiring) build() (edit.Fix, error) {
	d, tag := w.doc, w.tag
	ctxID := "context_" + tag
	subID := "context-" + tag + "-subflow"
	f := newFix(edit.Unsafe, WireSlotTitle(w.slot))

	// Start inputs (reused when present: cinatra_run_id and projectId are
	// shared by every slot, as in the corpus).
	type startIn struct {
		title string
		def   string
		to    string // the FlowNode input it feeds
	}
	ins := []startIn{{"cinatra_run_id", "", "parentRunId"}, {tag + "ParentPackageName", w.pkg, "parentPackageName"},
		{tag + "SlotId", w.slot, "slotId"}, {"projectId", "", "projectId"}}
	var newIns []any
	var hidden []string
	for _, in := range ins {
		if hasInput(w.start, in.title) {
			continue
		}
		newIns = append(newIns, fix.Raw(`{"title":`+jsonString(in.title)+`,"type":"string","default":`+jsonString(in.def)+`}`))
		hidden = append(hidden, in.title)
	}
	startPtr := ptrOf(w.start)
	if len(newIns) > 0 {
		if in := w.start.Get("inputs"); in != nil {
			f.add(fix.Append(d, ptrOf(in), newIns...))
		} else {
			f.add(fix.Insert(d, startPtr, "inputs", rawArray(newIns)))
		}
		if outs := w.start.Get("outputs"); outs.Is(compile.Array) { // outputs spelled out: mirror them
			var add []any
			for _, v := range newIns {
				t := titleOfRaw(v.(fix.Raw))
				if !hasOutput(w.start, t) {
					add = append(add, fix.Raw(`{"title":`+jsonString(t)+`,"type":"string"}`))
				}
			}
			if len(add) > 0 {
				f.add(fix.Append(d, ptrOf(outs), add...))
			}
		}
		if fin := w.root.Node.Get("inputs"); fin.Is(compile.Array) {
			var mirror []any
			for _, v := range newIns {
				if !hasInput(w.root.Node, titleOfRaw(v.(fix.Raw))) {
					mirror = append(mirror, v)
				}
			}
			if len(mirror) > 0 {
				f.add(fix.Append(d, ptrOf(fin), mirror...))
			}
		}
		var hide []string
		have := map[string]bool{}
		if h := w.start.Path("metadata", "cinatra", "hidden"); h.Is(compile.Array) {
			for _, it := range h.Items {
				have[it.StringOr("")] = true
			}
		}
		for _, t := range hidden {
			if !have[t] {
				hide = append(hide, t)
			}
		}
		if len(hide) > 0 {
			f.add(setPath(d, w.start, []string{"metadata", "cinatra", "hidden"}, hide))
		}
	}

	// The context-selector screen the subflow's gate renders.
	screens := d.Root.Path("metadata", "cinatra", "hitlScreens")
	listed := false
	if screens.Is(compile.Array) {
		for _, it := range screens.Items {
			if v := it.StringOr(""); v == contextSelectorScreen {
				listed = true
			}
		}
	}
	if !listed {
		if c := d.Root.Path("metadata", "cinatra"); c.Is(compile.Object) {
			f.add(setPath(d, c, []string{"hitlScreens"}, []string{contextSelectorScreen}))
		}
	}

	// The consumer's contextSlotBindings input.
	if !w.takesBindings(w.consumer) {
		if sub := w.localSubflow(w.consumer); sub != nil && w.consumer.Get("inputs") == nil {
			// A FlowNode without inputs of its own takes its subflow's: the
			// subflow and its StartNode gain the input (hidden, defaulting
			// to [], as email-outreach's drafting subflow declares it).
			in := fix.Raw(strings.TrimSuffix(slotBindingsInput, "}") + `,"default":[]}`)
			f.add(fix.Append(d, ptrOf(sub.Get("inputs")), in))
			if id, ok := compile.RefID(sub.Get("start_node")); ok {
				if st := sub.Path("$referenced_components", id); compile.ComponentType(st) == "StartNode" && st.Get("inputs").Is(compile.Array) {
					f.add(fix.Append(d, ptrOf(st.Get("inputs")), in))
					f.add(setPath(d, st, []string{"metadata", "cinatra", "hidden"}, []string{"contextSlotBindings"}))
				}
			}
		} else if in := w.consumer.Get("inputs"); in != nil {
			f.add(fix.Append(d, ptrOf(in), fix.Raw(slotBindingsInput)))
		} else {
			f.add(fix.Insert(d, ptrOf(w.consumer), "inputs", fix.Raw("["+slotBindingsInput+"]")))
		}
	}

	// Placement: before the consumer, control edges through the FlowNode.
	f.add(fix.InsertBefore(d, w.consumerItemPtr, fix.Raw(ref(ctxID))))
	for _, e := range w.consumerInbound {
		f.add(fix.Replace(d, ptrOf(e.Get("to_node")), fix.Raw(ref(ctxID))))
	}
	f.add(fix.Append(d, ptrOf(w.controlEdgesNode), control(ctxID+"_to_"+w.consumerID, ctxID, w.consumerID)))

	// Data edges in and out.
	var dfes []any
	for _, in := range ins {
		title := in.title
		dfes = append(dfes, dataEdge(w.startID+"_"+title+"_to_"+ctxID+"_"+in.to, w.startID, title, ctxID, in.to))
	}
	dfes = append(dfes, dataEdge(ctxID+"_contextSlotBindings_to_"+w.consumerID, ctxID, "contextSlotBindings", w.consumerID, "contextSlotBindings"))
	if dn := w.root.Node.Get("data_flow_connections"); dn != nil {
		f.add(fix.Append(d, ptrOf(dn), dfes...))
	} else {
		f.add(fix.Insert(d, ptrOf(w.root.Node), "data_flow_connections", rawArray(dfes)))
	}

	// The subflow and the FlowNode.
	sub := fix.Raw(strings.ReplaceAll(slotSubflowCompact, "__SLOT__", tag))
	node := fix.Raw(`{"component_type":"FlowNode","id":` + jsonString(ctxID) + `,"name":` + jsonString("Resolve "+w.slot) +
		`,"subflow":` + ref(subID) + `,"metadata":{"cinatra":{"purpose":` + jsonString("author-placed-context-resolution-for-"+w.slot) + `}}}`)
	f.add(fix.InsertMembers(d, ptrOf(w.refs), []string{subID, ctxID}, []any{sub, node}))

	x := f.fix()
	if len(x.Edits) == 0 {
		return x, fmt.Errorf("%s: %s: %w", d.Path, x.Title, errNotFixable)
	}
	return x, nil
}

func titleOfRaw(r fix.Raw) string {
	var v struct{ Title string }
	_ = json.Unmarshal([]byte(r), &v)
	return v.Title
}

// rawArray is the JSON array of the Raw items vs.
func rawArray(vs []any) fix.Raw {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = string(v.(fix.Raw))
	}
	return fix.Raw("[" + strings.Join(parts, ",") + "]")
}
