package diff

import (
	"bytes"
	"cmp"
	"encoding/json"
	"slices"
	"strings"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/lint/report"
	"github.com/oastui/oastui/slots"
)

// sideView is what the diff reads of one snapshot, keyed for matching.
type sideView struct {
	s       *analysis.Snapshot
	flow    *compile.Doc // the flow file
	pkgDoc  *compile.Doc
	flows   map[string]*flowView     // flow key ("" for the top-level flow, else the Flow's id) → flow
	flowKey []string                 // in document order
	steps   map[string]*compile.Step // into the compiled output's steps (read only)
	// stepList is steps in the compiled order, with their keys: readGates
	// walks the steps in the array's order (the map's order reads them at
	// random, a cache miss each in a large flow).
	stepList []keyedStep
	gates    gateSet  // step or node key → its approval facts
	order    []string // node keys in compiled step order (nil when it did not compile); readOrder
	bfs      []string // node keys in BFS order, flow by flow; readOrder
	ordered  bool     // readOrder has run
	inputs   map[string]port
	outputs  map[string]port
	arts     map[string]artifact
	prompts  map[string]*promptView // flow/node key → what the prompt checks read of its prompt
	slots    map[string]slots.Slot
	gated    map[string]compile.GatedStep
	screens  string // canonical JSON of hitlScreens
	pkg      pkgView
	finds    map[string]compile.Finding // fingerprint → finding
	ok       bool                       // the flow parsed
	// atPointer is flowsAt's index: flow pointer → the keys of its flows.
	atPointer map[string][]string
	// mount is what the WayFlow loader does to the context slots at mount
	// (the snapshot's model: Agent.Model().Mount, compile.MountSlots).
	mount *compile.SlotMount
	// mountInputs are the inputs the loader adds to the top-level flow at
	// mount for its slim slots (not in the file, nor in the compiled
	// inputSchema): they are in the mounted contract all the same.
	mountInputs map[string]bool
}

// flowView is one Flow as the diff reads it: the snapshot's graph model
// of the Flow (analysis.Flow.Model) as the file writes it (fileGraph),
// and its nodes by id, which the checks walk as a set.
type flowView struct {
	g *flowgraph.Graph
	// nodes are the graph's nodes by id when the graph is fileGraph's copy
	// (its index is the model's, whose places the copy shifts); nil when
	// the graph is the model's own, whose index finds them (node)
	nodes map[string]*flowgraph.Node
	ids   []string // the ids of the nodes, sorted once (sortedIDs)
	// at is where each of ids is in g.Nodes (ids[j] is g.Nodes[at[j]]'s);
	// nil unless the graph is the model's with every id once (nodeAt)
	at []int32
}

// nodeAt is node(id), id being sortedIDs()[j]: without a look-up when the
// sort kept the nodes' places.
func (f *flowView) nodeAt(j int, id string) *flowgraph.Node {
	if f.at != nil {
		return f.g.Nodes[f.at[j]]
	}
	return f.node(id)
}

// node is the flow's node with id, nil when none (f may be nil).
func (f *flowView) node(id string) *flowgraph.Node {
	switch {
	case f == nil:
		return nil
	case f.nodes != nil:
		return f.nodes[id]
	}
	return f.g.NodeOf(id)
}

// size is the number of distinct node ids.
func (f *flowView) size() int {
	if f.nodes != nil {
		return len(f.nodes)
	}
	return len(f.g.Nodes) // the model's graph: one node per id
}

// sortedIDs is the flow's node ids in order, sorted on first use: the
// checks that walk every node in id order share one sort. other is the
// other side's view of the same Flow (nil: none): when it has sorted its
// ids already and its graph lists the same ids in the same order (a Flow
// edited in place keeps its nodes), the two sides share that sort. Callers
// must not modify the list.
func (f *flowView) sortedIDs(other *flowView) []string {
	if f.ids != nil {
		return f.ids
	}
	if other != nil && other.ids != nil && sameNodeIDs(f.g.Nodes, other.g.Nodes) {
		f.ids = other.ids
		if f.nodes == nil && other.nodes == nil {
			f.at = other.at // the same ids at the same places
		}
		return f.ids
	}
	// the keys of nodes: the graph's ids, each once
	all := make([]string, len(f.g.Nodes))
	for i, n := range f.g.Nodes {
		all[i] = n.ID
	}
	at := sortOrder(all)
	ids := make([]string, len(at))
	for j, i := range at {
		ids[j] = all[i]
	}
	f.ids = slices.Compact(ids)
	if f.nodes == nil && len(f.ids) == len(at) {
		f.at = at // every id once: its node is the one at its place
	}
	return f.ids
}

// sameNodeIDs says a and b list the same node ids in the same order.
func sameNodeIDs(a, b []*flowgraph.Node) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].ID != b[i].ID {
			return false
		}
	}
	return true
}

// keyedStep is a compiled step with its key (stepKey).
type keyedStep struct {
	k  string
	st *compile.Step
}

type port struct {
	name     string
	typ      string // canonical JSON of type (and items' type)
	required bool
	def      string // canonical JSON of the default, "" when none
	hasDef   bool
	ptr      string // where it is declared in the flow file ("" unknown)
	// constraints (enum, pattern, bounds) and presentation (format, title,
	// description, x-* keys) of its schema, as canonical JSON.
	constraints, presentation string
}

// constraintKeys are the schema keywords that narrow or widen the values
// an input accepts.
var constraintKeys = map[string]bool{"enum": true, "const": true, "pattern": true, "minimum": true, "maximum": true,
	"exclusiveMinimum": true, "exclusiveMaximum": true, "minLength": true, "maxLength": true, "minItems": true, "maxItems": true,
	"uniqueItems": true, "multipleOf": true, "properties": true, "required": true, "additionalProperties": true, "items": true}

type artifact struct {
	key, ext, objType, ptr string
}

type pkgView struct {
	version  string
	deps     map[string]string // "npm:name" / "agent:name" → range
	depPtr   map[string]string // the same → where package.json declares it
	produces map[string]string // extension → its pinned objectTypeId ("" when none)
	// consumes: "primitive X" / "extension E (type)" → its requirement
	// ("" when not said); consumesDeclared: the key is present (even []).
	consumes         map[string]string
	consumesDeclared bool
	name             string
	other            map[string]string // "files", "cinatra.fieldRenderers", … → canonical JSON
	otherPtr         map[string]string
}

func view(s *analysis.Snapshot) *sideView {
	v := &sideView{s: s, flows: map[string]*flowView{}, steps: map[string]*compile.Step{}, inputs: map[string]port{},
		outputs: map[string]port{}, arts: map[string]artifact{}, prompts: map[string]*promptView{},
		slots: map[string]slots.Slot{}, gated: map[string]compile.GatedStep{}, finds: map[string]compile.Finding{},
		pkg: pkgView{deps: map[string]string{}, depPtr: map[string]string{}, other: map[string]string{}, otherPtr: map[string]string{}, produces: map[string]string{}, consumes: map[string]string{}}}
	if s == nil || s.Agent == nil {
		return v
	}
	a := s.Agent
	v.flow, v.pkgDoc = a.Flow, a.Package
	v.readPackage()
	v.readFindings()
	if !s.Parsed() {
		return v
	}
	v.ok = true
	v.mount = a.Model().Mount
	for i, f := range a.Flows() {
		g, err := s.Flow(f.Pointer).Model() // the snapshot's one model of the flow
		if err != nil {
			continue
		}
		fg := fileGraph(g)
		key := fg.FlowID
		if i == 0 {
			key = ""
		}
		if _, dup := v.flows[key]; dup {
			continue
		}
		fv := &flowView{g: fg}
		if fg != g { // a copy: its nodes by id here (the model's index places the model's)
			fv.nodes = make(map[string]*flowgraph.Node, len(fg.Nodes))
			for _, n := range fg.Nodes {
				fv.nodes[n.ID] = n
			}
		}
		g = fg
		v.flows[key] = fv
		v.flowKey = append(v.flowKey, key)
		if v.atPointer == nil {
			v.atPointer = map[string][]string{}
		}
		v.atPointer[g.FlowPointer] = append(v.atPointer[g.FlowPointer], key)
	}
	if c := s.Compiled; c != nil {
		v.steps, v.stepList = keySteps(c.ApprovalPolicy.Steps, c.StepNodesDistinct())
		v.inputs = schemaPorts(c.InputSchema)
		v.addMountInputs()
		v.outputs = schemaPorts(c.OutputSchema)
		for _, gs := range c.GatedSteps {
			v.gated[canon(gs.StepID)] = gs
		}
		if c.HitlScreens != nil {
			v.screens = canon(c.HitlScreens)
			if v.screens == "[]" || v.screens == "null" {
				v.screens = ""
			}
		}
	}
	v.readGates()
	v.readPortPointers()
	v.readArtifacts()
	v.readPrompts()
	if s.Slots != nil {
		for _, r := range s.Slots {
			v.slots[r.Slot.SlotID] = r.Slot
		}
	} else if list, _ := slots.Slots(a.Flow.Root); list != nil {
		for _, sl := range list {
			v.slots[sl.SlotID] = sl
		}
	}
	return v
}

// keySteps keys the compiled steps (stepKey), a key's first step kept:
// the steps by key (into steps, read only) and in order. Each step costs
// one assignment, its key new when the map grows; from the first key seen
// again (rare: an id nodes lists twice) the map is looked up before each
// assignment, as each step was before, and that key takes its first step
// back (one scan of the list).
//
// nodesDistinct is the compiler's word that no node of its order is named
// twice (CompiledAgentOas.StepNodesDistinct): then each step's key is a
// new one (a node's own, its gate steps' each with its own index, the
// setup step's "(setup)") unless a node's id is written as another key
// ("(setup)", or with "#gate" in it), and the steps are keyed without the
// map (nil: stepKeysDistinct and readGates read the list).
func keySteps(steps []compile.Step, nodesDistinct bool) (map[string]*compile.Step, []keyedStep) {
	if nodesDistinct {
		if list, ok := keyDistinct(steps); ok {
			return nil, list
		}
	}
	m := make(map[string]*compile.Step, len(steps))
	list := make([]keyedStep, 0, len(steps))
	again := false
	for i := range steps {
		st := &steps[i]
		k := stepKey(st)
		if again {
			if _, dup := m[k]; !dup {
				m[k] = st
				list = append(list, keyedStep{k, st})
			}
			continue
		}
		n := len(m)
		if m[k] = st; len(m) > n {
			list = append(list, keyedStep{k, st})
			continue
		}
		again = true
		for _, ks := range list {
			if ks.k == k {
				m[k] = ks.st
				break
			}
		}
	}
	return m, list
}

// keyDistinct keys steps of distinct nodes in one list (keySteps), and
// says they are keyed apart: only one step is keyed "(setup)", no other
// step's node id is "(setup)" when one is, and no step's node id is a
// gate step's key ("n#gate0", the only keys stepKey writes otherwise
// than as a node id: a gate step's node is no other step's). Steps of
// distinct nodes and gate indexes then have distinct keys. A gate step's
// key is looked for among the node ids only when there is one.
func keyDistinct(steps []compile.Step) ([]keyedStep, bool) {
	list := make([]keyedStep, len(steps))
	setup, gates, named := 0, 0, false // named: a node id is "(setup)"
	for i := range steps {
		st := &steps[i]
		k := st.NodeID // stepKey of a step of a node's own
		switch {
		case st.GateIndex >= 0:
			k = stepKey(st)
			gates++
		case st.StepNumber == 0 && st.NodeType == "":
			k = "(setup)"
			setup++
		}
		named = named || st.NodeID == "(setup)"
		list[i] = keyedStep{k, st}
	}
	if setup > 1 || setup == 1 && named {
		return nil, false
	}
	if gates > 0 {
		keys := make(map[string]bool, gates)
		for _, ks := range list {
			if ks.st.GateIndex >= 0 {
				keys[ks.k] = true
			}
		}
		for _, ks := range list {
			if ks.st.GateIndex < 0 && keys[ks.st.NodeID] {
				return nil, false
			}
		}
	}
	return list, true
}

// stepKey names a compiled step across revisions: its node, and the gate
// step it was expanded from.
func stepKey(st *compile.Step) string {
	k := st.NodeID
	if st.StepNumber == 0 && st.NodeType == "" {
		k = "(setup)"
	}
	if st.GateIndex >= 0 {
		k += "#gate" + itoa(st.GateIndex)
	}
	return k
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}

// canon is the canonical JSON of a compiled value (object keys sorted).
func canon(v any) string {
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	if err != nil {
		return ""
	}
	var x any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&x) != nil {
		return string(b)
	}
	out, _ := json.Marshal(x) // encoding/json sorts map keys
	return string(out)
}

// asMap turns a compiled JSON value into plain maps and slices.
func asMap(v any) map[string]any {
	if v == nil {
		return nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if dec.Decode(&m) != nil {
		return nil
	}
	return m
}

// schemaPorts reads {properties, required} of a compiled schema.
func schemaPorts(schema any) map[string]port {
	out := map[string]port{}
	m := asMap(schema)
	if m == nil {
		return out
	}
	req := map[string]bool{}
	if l, ok := m["required"].([]any); ok {
		for _, x := range l {
			if s, ok := x.(string); ok {
				req[s] = true
			}
		}
	}
	props, _ := m["properties"].(map[string]any)
	for name, p := range props {
		pm, _ := p.(map[string]any)
		pt := port{name: name, required: req[name]}
		if pm != nil {
			t := canon(pm["type"])
			if it, ok := pm["items"].(map[string]any); ok && it["type"] != nil {
				t += " of " + canon(it["type"])
			}
			pt.typ = t
			cons, pres := map[string]any{}, map[string]any{}
			for k, val := range pm {
				switch {
				case k == "type" || k == "default":
				case constraintKeys[k]:
					cons[k] = val
				default:
					pres[k] = val
				}
			}
			if len(cons) > 0 {
				pt.constraints = canon(cons)
			}
			if len(pres) > 0 {
				pt.presentation = canon(pres)
			}
			if d, ok := pm["default"]; ok {
				pt.def, pt.hasDef = canon(d), true
				if pt.def == "" {
					pt.def = "null"
				}
			}
		}
		out[name] = pt
	}
	return out
}

// readOrder lists node keys in compiled step order then the other nodes
// in BFS order (when the agent compiled), and in BFS order alone; once,
// on first use (moved, when the sides' orders may differ: sameOrderInputs).
func (v *sideView) readOrder() {
	if v.ordered || !v.ok { // a side that did not parse has no order (nil)
		return
	}
	v.ordered = true
	var seen map[string]bool
	if c := v.s.Compiled; c != nil {
		seen = make(map[string]bool, len(c.ApprovalPolicy.Steps))
		v.order = make([]string, 0, len(c.ApprovalPolicy.Steps))
		for i := range c.ApprovalPolicy.Steps {
			id := c.ApprovalPolicy.Steps[i].NodeID // not the whole Step copied per step
			if id == "" {
				continue
			}
			key := "/" + id // one string, made once, for the set and the order
			if !seen[key] {
				seen[key] = true
				v.order = append(v.order, key)
			}
		}
	}
	n := 0
	for _, k := range v.flowKey {
		n += len(v.flows[k].g.Nodes)
	}
	v.bfs = make([]string, 0, n)
	for _, k := range v.flowKey {
		f := v.flows[k]
		ns := append([]*flowgraph.Node(nil), f.g.Nodes...)
		slices.SortStableFunc(ns, func(a, b *flowgraph.Node) int { return cmp.Compare(a.BFS, b.BFS) })
		for _, n := range ns {
			if n.Kind == flowgraph.KindStart || n.Kind == flowgraph.KindEnd {
				continue // always first and last: their BFS rank moves with every node added
			}
			key := k + "/" + n.ID
			v.bfs = append(v.bfs, key)
			if len(v.order) > 0 && !seen[key] {
				seen[key] = true
				v.order = append(v.order, key)
			}
		}
	}
}

// sameOrderInputs says a and b read the same orders (readOrder) without
// making them: they compiled alike to steps of the same nodes, in the same
// order, and list the same flows, each with the same nodes (ids, BFS ranks,
// and which are the start and end) in the same order. readOrder reads
// nothing else, so their orders are then equal (the keys a flow with every
// node renamed made for both sides were most of the view's cost).
func sameOrderInputs(a, b *sideView) bool {
	if !a.ok || !b.ok {
		return false
	}
	ac, bc := a.s.Compiled, b.s.Compiled
	if (ac == nil) != (bc == nil) || !slices.Equal(a.flowKey, b.flowKey) {
		return false
	}
	if ac != nil {
		as, bs := ac.ApprovalPolicy.Steps, bc.ApprovalPolicy.Steps
		if len(as) != len(bs) {
			return false
		}
		for i := range as {
			if as[i].NodeID != bs[i].NodeID {
				return false
			}
		}
	}
	for _, k := range a.flowKey {
		an, bn := a.flows[k].g.Nodes, b.flows[k].g.Nodes
		if len(an) != len(bn) {
			return false
		}
		for i, n := range an {
			m := bn[i]
			if n.ID != m.ID || n.BFS != m.BFS || endpoint(n) != endpoint(m) {
				return false
			}
		}
	}
	return true
}

// endpoint: readOrder leaves the node out of the BFS order (a start or end).
func endpoint(n *flowgraph.Node) bool {
	return n.Kind == flowgraph.KindStart || n.Kind == flowgraph.KindEnd
}

// readPortPointers finds where the start inputs and end outputs are
// declared in the flow file, for positions.
func (v *sideView) readPortPointers() {
	f := v.flows[""]
	if f == nil {
		return
	}
	for _, n := range f.g.Nodes {
		if n.Pointer == "" {
			continue
		}
		var ports map[string]port
		var list string
		switch n.Kind {
		case flowgraph.KindStart:
			ports, list = v.inputs, "inputs"
		case flowgraph.KindEnd:
			ports, list = v.outputs, "outputs"
		default:
			continue
		}
		comp := v.comp(n)
		for i, it := range items(comp.Get(list)) {
			t, ok := it.Get("title").Str()
			if !ok {
				continue
			}
			if p, ok := ports[t]; ok && p.ptr == "" {
				p.ptr = compile.AppendIndex(compile.Append(n.Pointer, list), i)
				// The compiled schema carries no enum or bounds: the StartNode's input does.
				if list == "inputs" && p.constraints == "" && it.Is(compile.Object) {
					cons := map[string]any{}
					for _, m := range it.Members {
						if constraintKeys[m.Key] {
							cons[m.Key] = m.Value.Interface()
						}
					}
					if len(cons) > 0 {
						p.constraints = canon(cons)
					}
				}
				// The compiled schema carries no defaults: the StartNode's input does.
				if def := it.Get("default"); def != nil && !p.hasDef && list == "inputs" {
					p.def, p.hasDef = canon(def.Interface()), true
					if p.def == "" {
						p.def = "null"
					}
				}
				ports[t] = p
			}
		}
	}
}

// readArtifacts lists the artifacts the agent materialises: EndNode
// outputs with a cinatra.artifact binding and artifact_materialize
// passthrough ApiNodes.
func (v *sideView) readArtifacts() {
	for _, k := range v.flowKey {
		for _, n := range v.flows[k].g.Nodes {
			if n.Pointer == "" {
				continue
			}
			comp := v.comp(n)
			switch n.Kind {
			case flowgraph.KindEnd:
				for i, o := range items(comp.Get("outputs")) {
					art := o.Path("cinatra", "artifact")
					if !art.Is(compile.Object) {
						continue
					}
					title := o.Get("title").StringOr("")
					key := k + "/" + n.ID + " output " + title
					v.arts[key] = artifact{key: key, ext: art.Get("extension").StringOr(""), objType: art.Get("objectTypeId").StringOr(""),
						ptr: compile.Append(compile.AppendIndex(compile.Append(n.Pointer, "outputs"), i), "cinatra", "artifact")}
				}
			case flowgraph.KindAPI:
				data := comp.Get("data")
				if !strings.Contains(comp.Get("url").StringOr(""), "/api/agents/passthrough") || data.Get("tool").StringOr("") != "artifact_materialize" {
					continue
				}
				in := data.Get("input")
				key := k + "/" + n.ID
				v.arts[key] = artifact{key: key, ext: in.Get("extension").StringOr(""), objType: in.Get("objectTypeId").StringOr(""),
					ptr: compile.Append(n.Pointer, "data", "input")}
			}
		}
	}
}

// readPrompts reads the snapshot's prompt report (StagePromptText:
// templates, placeholders and models, no token counts) into what the
// prompt checks compare (promptView), which holds nothing of the report:
// a side's report may go once its view is made (Run).
func (v *sideView) readPrompts() {
	r := v.s.Prompts
	if r == nil {
		return
	}
	for _, n := range r.Nodes {
		key := flowKeyOf(v, n.FlowPointer) + "/" + n.ID
		if _, dup := v.prompts[key]; !dup {
			v.prompts[key] = newPromptView(n)
		}
	}
}

func flowKeyOf(v *sideView, ptr string) string {
	for _, k := range v.flowKey {
		if v.flows[k].g.FlowPointer == ptr {
			return k
		}
	}
	return ptr
}

func (v *sideView) readPackage() {
	if v.pkgDoc == nil || v.pkgDoc.Root == nil {
		return
	}
	root := v.pkgDoc.Root
	v.pkg.version = root.Get("version").StringOr("")
	v.pkg.name = root.Get("name").StringOr("")
	if root.Is(compile.Object) {
		own := map[string]bool{"name": true, "version": true, "dependencies": true, "peerDependencies": true}
		ownCinatra := map[string]bool{"dependencies": true, "agentDependencies": true, "produces": true, "consumes": true}
		for _, m := range root.Members {
			switch {
			case own[m.Key]:
			case m.Key == "cinatra" && m.Value.Is(compile.Object):
				for _, c := range m.Value.Members {
					if !ownCinatra[c.Key] {
						v.pkg.other["cinatra."+c.Key] = canon(c.Value.Interface())
						v.pkg.otherPtr["cinatra."+c.Key] = compile.Pointer("cinatra", c.Key)
					}
				}
			default:
				v.pkg.other[m.Key] = canon(m.Value.Interface())
				v.pkg.otherPtr[m.Key] = compile.Pointer(m.Key)
			}
		}
	}
	for _, field := range []string{"dependencies", "peerDependencies"} {
		obj := root.Get(field)
		if !obj.Is(compile.Object) {
			continue
		}
		for _, m := range obj.Members {
			v.pkg.deps["npm:"+m.Key] = m.Value.StringOr(canon(m.Value.Interface()))
			v.pkg.depPtr["npm:"+m.Key] = compile.Pointer(field, m.Key)
		}
	}
	// Both vocabularies (the platform's manifest-dependencies.ts): the
	// legacy cinatra.agentDependencies map and the canonical
	// cinatra.dependencies list, each entry keyed by its vocabulary so that
	// dropping or re-ranging one is named even when the other keeps it.
	for _, d := range v.s.Agent.Dependencies() {
		k := d.Form + ":" + d.PackageName
		val := DependencyRange(v.pkgDoc, d)
		var attrs []string
		for _, a := range []string{d.Kind, d.EdgeType, d.Requirement} {
			if a != "" {
				attrs = append(attrs, a)
			}
		}
		if len(attrs) > 0 {
			val += " (" + strings.Join(attrs, ", ") + ")"
		}
		if _, dup := v.pkg.deps[k]; !dup {
			v.pkg.deps[k] = val
			v.pkg.depPtr[k] = d.Pointer
		}
	}
	cin := root.Get("cinatra")
	for _, it := range items(cin.Get("produces")) {
		if s, ok := it.Str(); ok && s != "" {
			v.pkg.produces[s] = ""
		} else if e := it.Get("extension").StringOr(""); e != "" {
			v.pkg.produces[e] = it.Get("objectTypeId").StringOr("")
		}
	}
	// consumes entries are {primitive, requirement} (every real agent),
	// {extension, objectTypeId?} or a bare extension string.
	cons := cin.Get("consumes")
	v.pkg.consumesDeclared = cons != nil
	for _, it := range items(cons) {
		if p := it.Get("primitive").StringOr(""); p != "" {
			v.pkg.consumes["primitive "+p] = it.Get("requirement").StringOr("")
		} else if s := extOf(it); s != "" {
			v.pkg.consumes["extension "+s] = it.Get("requirement").StringOr("")
		}
	}
}

// extOf is a produces/consumes entry: a string, or {extension, objectTypeId}.
func extOf(n *compile.Node) string {
	if s, ok := n.Str(); ok {
		return s
	}
	s := n.Get("extension").StringOr("")
	if ot := n.Get("objectTypeId").StringOr(""); ot != "" && s != "" {
		s += " (" + ot + ")"
	}
	return s
}

// readFindings keys the review's findings by fingerprint: rule, file
// relative to the package, pointer and value hash (lines are not part of
// it, so moving text keeps it).
func (v *sideView) readFindings() {
	base := v.s.Agent.Dir
	for _, f := range v.s.Review.Findings {
		file := f.File
		if base != "" && strings.HasPrefix(file, base) {
			file = strings.TrimPrefix(strings.TrimPrefix(file, base), "/")
		}
		// the pointer as baselines and --new-from-rev key it (no array
		// index where the value names the finding: lint/report.StablePointer)
		k := f.Code + "\x00" + file + "\x00" + report.StablePointer(f) + "\x00" + f.ValueHash
		if f.Location == "" && f.ValueHash == "" {
			k += "\x00" + f.Message
		}
		if _, dup := v.finds[k]; !dup {
			v.finds[k] = f
		}
	}
}

// comp is graph node n's component in the flow file (the object
// n.Pointer names), as the graph resolved it (flowgraph.Node.Component);
// looked up by pointer only for a node the graph did not resolve.
func (v *sideView) comp(n *flowgraph.Node) *compile.Node {
	if c := n.Component(); c != nil || n.Pointer == "" {
		return c
	}
	return v.flow.Lookup(n.Pointer)
}

func items(n *compile.Node) []*compile.Node {
	if !n.Is(compile.Array) {
		return nil
	}
	return n.Items
}

// gate is what approval means for one step or node: the compiled step's
// values where the compiler emits them (it forces some: an
// InputMessageNode always asks), else the node's authored
// metadata.cinatra (the platform reads a2uiSurfaceId there, for one).
type gate struct {
	node                                string
	approval                            bool
	risk, owner, renderer, surface, ptr string
}

// gateSet is a side's gates by key: the gates in one list, in the order
// first set, and a map of each key's place in it (a map of the gates
// themselves held each 104-byte gate in a slot of a table about twice the
// gates' number: 8 MB a side of a 33,000-step flow). The map is made on
// the first look-up: a list readGates makes with distinct keys (every
// compiled step's gate, none authored) is often only walked
// (differingGates pairs two sides listing the same keys in the same order).
//
// get and place make the map on the first look-up, so a gateSet is read by
// one goroutine at a time: a side's view is, since Run makes it and runs
// the checks in turn.
type gateSet struct {
	at   map[string]int32 // nil until a look-up needs it; then every key of list
	list []keyedGate
	hint int // the map's size when made
}

type keyedGate struct {
	k string
	g gate
}

func newGateSet(n int) gateSet {
	return gateSet{list: make([]keyedGate, 0, n), hint: n}
}

// index makes the map of each key's place, when it is not made yet.
func (s *gateSet) index() {
	if s.at != nil {
		return
	}
	s.at = make(map[string]int32, max(s.hint, len(s.list)))
	for i := range s.list {
		s.at[s.list[i].k] = int32(i)
	}
}

// get is the gate of key k, and whether there is one.
func (s *gateSet) get(k string) (gate, bool) {
	if i, ok := s.place(k); ok {
		return s.list[i].g, true
	}
	return gate{}, false
}

// place is where the gate of key k is in list, and whether there is one.
func (s *gateSet) place(k string) (int32, bool) {
	if len(s.list) == 0 {
		return 0, false
	}
	s.index()
	i, ok := s.at[k]
	return i, ok
}

// ref is the gate of key k to set, made (zero) if there is none.
func (s *gateSet) ref(k string) *gate {
	s.index()
	i, ok := s.at[k]
	if !ok {
		i = int32(len(s.list))
		s.at[k] = i
		s.list = append(s.list, keyedGate{k: k})
	}
	return &s.list[i].g
}

// set sets the gate of key k.
func (s *gateSet) set(k string, g gate) { *s.ref(k) = g }

func (v *sideView) readGates() {
	n := len(v.stepList)
	for _, f := range v.flows {
		n = max(n, len(f.g.Nodes))
	}
	v.gates = newGateSet(n)
	for _, fk := range v.flowKey {
		for _, n := range v.flows[fk].g.Nodes {
			if n.Pointer == "" {
				continue
			}
			m := n.CinatraMeta() // as the graph read it from the node's component
			if n.Component() == nil {
				m = v.comp(n).Path("metadata", "cinatra")
			}
			if !m.Is(compile.Object) {
				if n.Kind == flowgraph.KindInput { // the compiler forces approval on it (its own value is ignored)
					v.gates.set(nodeSubject(fk, n.ID), gate{node: n.ID, ptr: n.Pointer, approval: true})
				}
				continue
			}
			g := gate{node: n.ID, ptr: n.Pointer, risk: m.Get("riskClass").StringOr(""), owner: m.Get("hitlOwnedBy").StringOr(""),
				renderer: m.Get("renderer").StringOr(""), surface: m.Get("a2uiSurfaceId").StringOr("")}
			ra := m.Get("requiresApproval")
			g.approval = ra.Is(compile.Bool) && ra.Bool || n.Kind == flowgraph.KindInput
			if ra == nil && g.risk == "" && g.owner == "" && g.renderer == "" && g.surface == "" {
				continue
			}
			v.gates.set(nodeSubject(fk, n.ID), g)
		}
	}
	// With no gate authored, each step's gate is a new one when the steps'
	// keys are distinct: the list is made without the map
	direct := len(v.gates.list) == 0 && v.stepKeysDistinct()
	for _, ks := range v.stepList {
		st := ks.st
		key := gateKey(ks)
		var g *gate
		if direct {
			v.gates.list = append(v.gates.list, keyedGate{k: key})
			g = &v.gates.list[len(v.gates.list)-1].g
		} else {
			g = v.gates.ref(key) // set in place: one look-up
		}
		g.node = st.NodeID
		g.approval = st.RequiresApproval
		// the step's values where it has them (one by one: a list of the
		// fields' addresses moved g to the heap, an allocation per step)
		setIf(&g.risk, st.RiskClass)
		setIf(&g.owner, st.HitlOwnedBy)
		setIf(&g.renderer, st.XRenderer)
		setIf(&g.surface, st.A2uiSurfaceID)
		// a step's gate without its node's place (ptr) is placed by gatePtr, when a change is reported
	}
}

// gateKey is the key of a compiled step's gate: its node's id for a
// top-level node (the same key as its authored facts), else the step's key.
func gateKey(ks keyedStep) string {
	if st := ks.st; st.GateIndex < 0 && st.NodeID != "" {
		return st.NodeID
	}
	return ks.k
}

// stepKeysDistinct says no two steps of stepList have the same gateKey.
// Their keys are distinct (view keeps a key's first step), and a step's
// gateKey is its key except for the setup step (key "(setup)"), whose
// gateKey is its node's id: distinct unless a step's key is that id.
func (v *sideView) stepKeysDistinct() bool {
	for _, ks := range v.stepList {
		if k := gateKey(ks); k != ks.k {
			if v.steps == nil { // keyed without the map (keySteps): the list has every key once
				for _, o := range v.stepList {
					if o.k == k {
						return false
					}
				}
				continue
			}
			if _, clash := v.steps[k]; clash {
				return false
			}
		}
	}
	return true
}

// setIf sets *dst to val unless val is "".
func setIf(dst *string, val string) {
	if val != "" {
		*dst = val
	}
}

// gatePtr is where gate g is in the flow file: the node's authored facts,
// else the first flow's node named like its step (a gate the compiled steps
// alone make: looked up only for the few gates a change is reported at).
func (v *sideView) gatePtr(g gate) string {
	if g.ptr != "" {
		return g.ptr
	}
	for _, fk := range v.flowKey {
		if n := v.flows[fk].node(g.node); n != nil && n.Pointer != "" {
			return n.Pointer
		}
	}
	return ""
}

// bothNodes calls f, flow by flow and in id order, for each node both sides
// have where each side knows the node's place in its file: the walk of the
// checks that compare one node with itself (calls, nodeIO, descriptions).
// The pairs are found once, for the three, each with the members of both
// components the three read (nodeFields): each component is read once, not
// once per check (a large flow's components are out of the cache by the
// next check's walk).
func (d *differ) bothNodes(f func(p *nodePair)) {
	if !d.paired {
		d.paired = true
		n := 0
		for fk, nf := range d.new.flows {
			if d.old.flows[fk] != nil {
				n += nf.size()
			}
		}
		d.pairs = make([]nodePair, 0, n)
		for _, fk := range unionKeys(d.old.flows, d.new.flows) {
			of, nf := d.old.flows[fk], d.new.flows[fk]
			if of == nil || nf == nil {
				continue
			}
			ids := nf.sortedIDs(of)
			// the sides share one sort: the same ids, each at the same place
			same := len(ids) > 0 && len(of.ids) == len(ids) && &of.ids[0] == &ids[0]
			for j, id := range ids {
				o := (*flowgraph.Node)(nil)
				if same {
					o = of.nodeAt(j, id)
				} else {
					o = of.node(id)
				}
				if n := nf.nodeAt(j, id); o != nil && o.Pointer != "" && n.Pointer != "" {
					oc, nc := d.old.comp(o), d.new.comp(n)
					d.pairs = append(d.pairs, nodePair{fk: fk, id: id, o: o, n: n, oc: oc, nc: nc, of: membersOf(oc), nf: membersOf(nc)})
				}
			}
		}
	}
	for i := range d.pairs {
		f(&d.pairs[i])
	}
}

// nodePair is a node both sides have (bothNodes): its graph nodes, their
// components and the components' members the checks read.
type nodePair struct {
	fk, id string
	o, n   *flowgraph.Node
	oc, nc *compile.Node
	of, nf nodeFields
}

// nodeFields are the members of a component that calls, nodeIO and
// descriptions read, as Get reads them (the last of a repeated key; all nil
// for what is no object).
type nodeFields struct {
	data, url, httpMethod, method, description, metadata, inputs, outputs *compile.Node
}

// membersOf reads c's members into nodeFields in one walk of them.
func membersOf(c *compile.Node) nodeFields {
	var f nodeFields
	if !c.Is(compile.Object) {
		return f
	}
	for i := range c.Members {
		m := &c.Members[i]
		switch m.Key {
		case "data":
			f.data = m.Value
		case "url":
			f.url = m.Value
		case "http_method":
			f.httpMethod = m.Value
		case "method":
			f.method = m.Value
		case "description":
			f.description = m.Value
		case "metadata":
			f.metadata = m.Value
		case "inputs":
			f.inputs = m.Value
		case "outputs":
			f.outputs = m.Value
		}
	}
	return f
}

// flowsAt are the keys of the flows whose pointer is sp, in document order
// (groupSubflow once scanned every flow for each subflow of each changed
// node).
func (v *sideView) flowsAt(sp string) []string { return v.atPointer[sp] }
