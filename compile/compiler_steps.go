package compile

import (
	"fmt"
	"math"
	"regexp"
	"strings"
)

// The approval steps (reference cinatra.md §11.5–11.8, §11.10 gatedSteps).

// entry is one element of the reference's expanded steppable list: a node,
// or one gateStep of a FlowNode.
type entry struct {
	id      string
	comp    *Node  // its component (compiler.ref of id, looked up by topology)
	typ     string // the component's ComponentType
	gate    *Node  // the gateStep, for an expanded FlowNode
	gateIdx int
	cin     *Node // comp's metadata.cinatra, when cinRead (a FlowNode's, read by approvalPolicy)
	cinRead bool
}

// present marks m present with the value of its typed field.
func (s *Step) present(m stepMember) {
	s.has |= 1 << m
	s.dropWritten(m)
}

func (s *Step) dropWritten(m stepMember) {
	for i, w := range s.written {
		if w.m == m {
			s.written = append(s.written[:i:i], s.written[i+1:]...)
			return
		}
	}
}

// setStr and setFlag set a member to a value the compiler supplies.
func (s *Step) setStr(m stepMember, v string) { *s.str(m) = v; s.present(m) }
func (s *Step) setFlag(m stepMember, v bool)  { *s.flag(m) = v; s.present(m) }

// setNode sets a member to a value of the document, which the reference
// copies as written: into the typed field when it has the field's type,
// else verbatim (the typed field stays zero). An undefined value (nil)
// leaves the member out.
func (s *Step) setNode(m stepMember, n *Node) {
	if p := s.str(m); p != nil {
		*p = ""
	}
	if p := s.flag(m); p != nil {
		*p = false
	}
	s.has &^= 1 << m
	s.dropWritten(m)
	if n == nil {
		return
	}
	s.has |= 1 << m
	switch p, b := s.str(m), s.flag(m); {
	case n.Kind == String && p != nil:
		*p = n.Text
		return
	case n.Kind == Bool && b != nil:
		*b = n.Bool
		return
	case m == mGateCount && n.Kind == Number:
		if f, ok := n.Float(); ok && f == float64(int(f)) {
			gc := int(f)
			s.GateCount = &gc
			if gc != 0 || !math.Signbit(f) {
				return // the int is written as the number was
			}
		}
	}
	s.written = append(s.written, rawMember{m, jsonValue(n)})
}

// setDefined is setNode when the value is not undefined (null included):
// the reference's `if (x !== undefined) step.k = x`.
func (s *Step) setDefined(m stepMember, n *Node) {
	if n != nil {
		s.setNode(m, n)
	}
}

// setLate is setNode for a member a later pass adds: when the step does
// not have it yet, it goes after the shape's own members.
func (s *Step) setLate(m stepMember, n *Node) {
	if !s.has.has(m) {
		s.late |= 1 << m
	}
	s.setNode(m, n)
}

// setRequiresApproval is `requiresApproval: x ?? false`.
func (s *Step) setRequiresApproval(n *Node) {
	if nullish(n) {
		s.setFlag(mRequiresApproval, false)
		return
	}
	s.setNode(mRequiresApproval, n)
}

// setupStep is step 0 (§11.5): present iff some StartNode required input
// is not hidden.
func (c *compiler) setupStep(start *Node) (*Step, error) {
	cin := path(start, "metadata", "cinatra")
	req := coalesce(get(cin, "required"))
	hid := coalesce(get(cin, "hidden"))
	if nullish(req) {
		return nil, nil
	}
	if req.Kind != Array {
		return nil, typeErr("_snReq.some is not a function")
	}
	need := false
	inHidden := includer(hid, "_snHid")
	for _, f := range req.Items {
		if nullish(hid) {
			need = true
			break
		}
		in, err := inHidden(f)
		if err != nil {
			return nil, err
		}
		if !in {
			need = true
			break
		}
	}
	if !need {
		return nil, nil
	}
	name := coalesce(get(start, "name"), strNode("Setup"))
	s := &Step{shape: stepSetup, GateIndex: -1}
	s.NodeID, _ = RefID(c.root.Get("start_node"))
	s.present(mStepNumber)
	s.setNode(mName, name)
	s.setNode(mDescription, name)
	s.setFlag(mRequiresApproval, true)
	s.setStr(mRiskClass, "read_only")
	s.setStr(mHitlOwnedBy, "self")
	s.setFlag(mSkipLlm, true)
	return s, nil
}

// merged is mergeParentLeafCinatra (§11.7): exactly five keys, the parent's
// value unless nullish, a2uiSurfaceIdOverride consumed.
type merged struct{ a2uiSurfaceID, renderer, requiresApproval, riskClass, hitlOwnedBy *Node }

func merge(p, l *Node) merged {
	if p == nil && l == nil {
		return merged{} // every coalesce of nothing is nil (a node with no metadata)
	}
	return merged{
		a2uiSurfaceID:    coalesce(get(p, "a2uiSurfaceIdOverride"), get(l, "a2uiSurfaceId"), get(p, "a2uiSurfaceId")),
		renderer:         coalesce(get(p, "renderer"), get(l, "renderer")),
		requiresApproval: coalesce(get(p, "requiresApproval"), get(l, "requiresApproval")),
		riskClass:        coalesce(get(p, "riskClass"), get(l, "riskClass")),
		hitlOwnedBy:      coalesce(get(p, "hitlOwnedBy"), get(l, "hitlOwnedBy")),
	}
}

// step builds the step of entry e, number n (§11.6), into s (the step's
// place in the compiled steps: a Step is some 300 bytes, built in place
// rather than copied in and out of each builder).
func (c *compiler) step(s *Step, e entry, n int) error {
	comp := e.comp
	*s = Step{NodeID: e.id, GateIndex: e.gateIdx, StepNumber: n}
	s.present(mStepNumber)
	switch e.typ {
	case "InputMessageNode":
		c.inputMessageStep(s, comp)
		return nil
	case "AgentNode":
		c.agentStep(s, comp, e.id)
		return nil
	}
	return c.flowNodeStep(s, comp, e)
}

func (c *compiler) inputMessageStep(s *Step, ime *Node) {
	out0 := coalesce(get(get(ime, "outputs"), "0"), &Node{Kind: Object})
	field := coalesce(get(out0, "title"), get(out0, "id"), strNode(s.NodeID))
	cin := path(ime, "metadata", "cinatra")
	declared := coalesce(get(cin, "inputMessageSchema"), get(get(get(ime, "inputs"), "0"), "schema"))
	var schema any = OrderedObject{{"type", "object"}}
	if truthy(declared) && objectKeysLen(declared) > 0 {
		schema = jsonValue(declared)
	}
	renderer := coalesce(get(get(cin, "inputRenderers"), jsString(field)), get(cin, "renderer"), strNode(SchemaFieldFallbackRenderer))
	s.shape = stepInputMessage
	s.setStr(mNodeType, "input_message")
	s.setFlag(mRequiresApproval, true)
	s.setStr(mRiskClass, "read_only")
	s.setStr(mHitlOwnedBy, "self")
	s.setFlag(mSkipLlm, true)
	s.setNode(mName, coalesce(get(ime, "name"), field))
	s.setNode(mDescription, coalesce(get(cin, "description"), get(ime, "name"), field))
	s.setNode(mXRenderer, renderer)
	s.setNode(mInputMessageField, field)
	s.InputMessageSchema = schema
	s.present(mInputMessageSchema)
	if t, ok := path(cin, "artifactReview", "targetsInput").Str(); ok && t != "" {
		s.setStr(mArtifactReviewTargetsInput, t)
	}
}

func (c *compiler) agentStep(s *Step, node *Node, id string) {
	parent := path(node, "metadata", "cinatra")
	agentRef := get(get(node, "agent"), "$component_ref")
	var resolved *Node
	if truthy(agentRef) {
		resolved = c.resolve(agentRef)
	}
	eff := merge(parent, path(resolved, "metadata", "cinatra"))
	s.shape = stepAgent
	s.setStr(mNodeType, "agent")
	s.setRequiresApproval(eff.requiresApproval)
	s.setNode(mDescription, coalesce(get(parent, "description"), get(node, "name")))
	s.setNode(mName, get(node, "name"))
	s.setDefined(mRiskClass, eff.riskClass)
	s.setDefined(mXRenderer, eff.renderer)
	s.setDefined(mA2uiSurfaceID, eff.a2uiSurfaceID)
	s.setDefined(mHitlOwnedBy, eff.hitlOwnedBy)
	if ComponentType(resolved) == "A2AAgent" {
		s.ChildAgent = &ChildAgent{PackageName: jsonValue(coalesce(CalledPackage(node, resolved), strNode(""))), InputMapping: c.inputMapping(id)}
		s.present(mChildAgent)
	}
	if cc := c.connectionConfig(resolved); cc != nil {
		s.ConnectionConfig = cc
		s.present(mConnectionConfig)
	}
}

func (c *compiler) flowNodeStep(s *Step, node *Node, e entry) error {
	parent := e.cin
	if !e.cinRead {
		parent = path(node, "metadata", "cinatra")
	}
	eff := merge(parent, nil)
	// the package name ?? "": nil stands for the "" (no node made for it
	// per FlowNode), whose JSON value is "" and which is falsy
	pkgName := calledPackageOf(node, parent, e.typ)
	if nullish(pkgName) {
		pkgName = nil
	}
	var pkg any = ""
	if pkgName != nil {
		pkg = jsonValue(pkgName)
	}
	s.shape = stepFlowNode
	s.setStr(mNodeType, "agent")
	s.setRequiresApproval(eff.requiresApproval)
	name := get(node, "name") // read once for both
	s.setNode(mDescription, coalesce(get(parent, "description"), name))
	s.setNode(mName, name)
	s.ChildAgent = c.childAgent(ChildAgent{PackageName: pkg, InputMapping: c.inputMapping(e.id)})
	s.present(mChildAgent)
	if e.gateIdx >= 0 {
		s.shape = stepFlowGate
		gs := e.gate
		if nullish(gs) {
			return typeErr("Cannot read properties of %s (reading 'name')", jsString(gs))
		}
		if truthy(get(gs, "name")) {
			s.setNode(mName, get(gs, "name"))
			s.setNode(mDescription, coalesce(get(gs, "description"), get(gs, "name")))
		}
		s.setDefined(mRiskClass, get(gs, "riskClass"))
		s.setDefined(mXRenderer, get(gs, "renderer"))
		s.setDefined(mHitlOwnedBy, get(gs, "hitlOwnedBy"))
		s.setDefined(mGateCount, get(gs, "gateCount"))
		s.setDefined(mRequiresApproval, get(gs, "requiresApproval"))
		s.setDefined(mA2uiSurfaceID, eff.a2uiSurfaceID)
		if !c.subflowFiresGate(get(get(node, "subflow"), "$component_ref")) {
			f := false
			s.FiresRendererGate = &f
			s.present(mFiresRendererGate)
		}
		return nil
	}
	s.setDefined(mRiskClass, eff.riskClass)
	s.setDefined(mXRenderer, eff.renderer)
	s.setDefined(mA2uiSurfaceID, eff.a2uiSurfaceID)
	if eff.hitlOwnedBy != nil {
		s.setNode(mHitlOwnedBy, eff.hitlOwnedBy)
	} else {
		s.setStr(mHitlOwnedBy, "childAgent")
	}
	if !truthyAny(s.get(mXRenderer)) && pkgName != nil && truthy(pkgName) {
		if pkgName.Kind != String {
			return typeErr("packageName.includes is not a function")
		}
		renderer, risk := c.childRendererInfo(pkgName.Text)
		if truthy(renderer) {
			s.setLate(mXRenderer, renderer)
		}
		if truthy(risk) && !s.has.has(mRiskClass) {
			s.setLate(mRiskClass, risk)
		}
	}
	return nil
}

// childAgent is a place for a FlowNode step's childAgent, out of an array
// the compiler shares among its steps (an allocation per FlowNode step).
func (c *compiler) childAgent(v ChildAgent) *ChildAgent {
	if len(c.childAgents) == cap(c.childAgents) {
		c.childAgents = make([]ChildAgent, 0, 256)
	}
	c.childAgents = append(c.childAgents, v)
	return &c.childAgents[len(c.childAgents)-1]
}

// calledPackageOf is CalledPackage(node, nil) for a node of type typ
// (ComponentType(node)) whose metadata.cinatra is cin: a FlowNode's is
// read from cin, which its step has looked up already, without reading the
// node's type and its metadata again (65,996 FlowNode steps in a large
// flow).
func calledPackageOf(node, cin *Node, typ string) *Node {
	if typ == "FlowNode" {
		return get(cin, "packageName")
	}
	return CalledPackage(node, nil)
}

// truthyAny is ToBoolean of a value already placed in the output.
func truthyAny(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case string:
		return x != ""
	case bool:
		return x
	case rawNode:
		return truthy(x.n)
	}
	return true
}

// subflowFiresGate: does the FlowNode's inlined subflow hold an
// InputMessageNode with requiresApproval === true that is not a
// context-selector gate? Unknown subflows count as firing.
func (c *compiler) subflowFiresGate(ref *Node) bool {
	if !truthy(ref) {
		return true
	}
	key := jsString(ref)
	if f, ok := c.fires[key]; ok {
		return f
	}
	sub := c.ref(key)
	if !isObj(sub) {
		return true
	}
	fires := false
	var visit func(n *Node)
	visit = func(n *Node) {
		if fires || !isObj(n) {
			return
		}
		if n.Kind == Array {
			for _, it := range n.Items {
				visit(it)
			}
			return
		}
		if ComponentType(n) == "InputMessageNode" {
			cin := coalesce(path(n, "metadata", "cinatra"), &Node{Kind: Object})
			ra := get(cin, "requiresApproval")
			approval := ra != nil && ra.Kind == Bool && ra.Bool
			renderer := str(get(cin, "renderer"))
			id := str(get(n, "id"))
			if approval && !strings.HasSuffix(renderer, ":context-selector") && !strings.HasPrefix(id, "ctx-") {
				fires = true
				return
			}
		}
		for _, e := range entries(n) {
			visit(e.Value)
		}
	}
	visit(sub)
	c.fires[key] = fires
	return fires
}

// childRendererInfo reads the child agent's flow (found by package name in
// the same tree) and returns the renderer and riskClass of its first
// top-level InputMessageNode with requiresApproval === true and a renderer.
func (c *compiler) childRendererInfo(pkgName string) (renderer, risk *Node) {
	if strings.Contains(pkgName, "..") || strings.ContainsRune(pkgName, 0) || strings.Count(pkgName, "/") > 1 {
		return nil, nil
	}
	if pkgName[strings.LastIndexByte(pkgName, '/')+1:] == "" {
		return nil, nil
	}
	child, err := c.a.FindAgent(pkgName)
	if err != nil || child.Flow == nil || child.Flow.Root == nil {
		return nil, nil
	}
	refs := coalesce(child.Flow.Root.Get("$referenced_components"), &Node{Kind: Object})
	if !isObj(refs) {
		return nil, nil
	}
	var comps []*Node
	if refs.Kind == Object {
		for _, e := range entries(refs) {
			comps = append(comps, e.Value)
		}
	} else {
		comps = refs.Items
	}
	for _, comp := range comps {
		if nullish(comp) {
			return nil, nil // comp.component_type throws; the reference tries the next file
		}
		if ComponentType(comp) != "InputMessageNode" {
			continue
		}
		cin := coalesce(path(comp, "metadata", "cinatra"), &Node{Kind: Object})
		if ra := get(cin, "requiresApproval"); ra == nil || ra.Kind != Bool || !ra.Bool {
			continue
		}
		if r := get(cin, "renderer"); truthy(r) {
			return r, get(cin, "riskClass")
		}
	}
	return nil, nil
}

// inputMapping is §11.8: how the step's node is fed, by destination input.
func (c *compiler) inputMapping(id string) OrderedObject {
	var m objBuilder
	for _, e := range c.edgesTo[id] {
		srcID, _ := RefID(get(e, "source_node"))
		srcOut := str(get(e, "source_output"))
		var v string
		if ComponentType(c.ref(srcID)) == "StartNode" {
			v = "{{input_params." + srcOut + "}}"
		} else {
			srcIdx, dstIdx := c.position(srcID), c.position(id)
			if srcIdx == dstIdx-1 {
				v = "{{child_output." + srcOut + "}}"
			} else {
				v = "{{" + srcID + "_output." + srcOut + "}}"
			}
		}
		m.set(str(get(e, "destination_input")), v)
	}
	return m.object()
}

// position is id's index in the BFS order (nodeIDs), -1 when it is not in
// it. The index is made on the first data edge that asks (a flow without
// data edges between its nodes makes none).
func (c *compiler) position(id string) int {
	if c.order == nil {
		c.order = make(map[string]int, len(c.nodeIDs))
		for i, id := range c.nodeIDs {
			c.order[id] = i
		}
	}
	if i, ok := c.order[id]; ok {
		return i
	}
	return -1
}

// objBuilder sets members of an OrderedObject in O(1) each.
type objBuilder struct {
	obj OrderedObject
	idx map[string]int
}

func (b *objBuilder) set(k string, v any) {
	if b.idx == nil {
		b.idx = map[string]int{}
	}
	if i, ok := b.idx[k]; ok {
		b.obj[i].Value = v
		return
	}
	b.idx[k] = len(b.obj)
	b.obj = append(b.obj, ObjField{k, v})
}

func (b *objBuilder) object() OrderedObject {
	if b.obj == nil {
		return OrderedObject{}
	}
	return b.obj
}

var sideEffectRe = regexp.MustCompile(`(_send|_publish|_post|_delete)$`)

// collectGatedSteps (reference trigger-infer-side-effects): steps without
// childAgent whose riskClass ends _send/_publish/_post/_delete.
func collectGatedSteps(pkgName any, steps []Step) []GatedStep {
	out := []GatedStep{}
	root := pkgName
	if root == nil {
		root = "RootAgent"
	}
	for i := range steps {
		s := &steps[i] // read in place: a Step is some 300 bytes, copied per step (33,000 in a large flow)
		if s.ChildAgent != nil {
			continue // opaque child steps count only with sideEffects: true, never set
		}
		name := s.get(mName)
		if name == nil {
			name = fmt.Sprintf("step-%d", s.StepNumber)
		}
		label := s.get(mDescription)
		if label == nil {
			label = name
		}
		risk := s.get(mRiskClass)
		riskStr := ""
		switch r := risk.(type) {
		case string:
			riskStr = r
		case rawNode:
			riskStr = jsString(r.n)
		case bool:
			riskStr = fmt.Sprint(r)
		}
		if !sideEffectRe.MatchString(riskStr) {
			continue
		}
		tool := risk
		if tool == nil {
			tool = ""
		}
		out = append(out, GatedStep{StepID: name, StepNumber: s.StepNumber, AgentPath: []any{root}, Label: label, ToolName: tool, InferredOrManual: "inferred"})
	}
	return out
}
