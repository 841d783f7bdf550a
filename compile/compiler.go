package compile

import (
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
)

// CompileError is a compile failure. Msg is the reference's error text, the
// `error` of its `{"ok":false,"error":…}` result. Thrown marks the failures
// the reference raises as an exception instead of returning ok:false (a
// TypeError on malformed input, the pre-pass depth limit); the CLI reports
// them the same way.
type CompileError struct {
	Msg    string
	Thrown bool
}

func (e *CompileError) Error() string { return e.Msg }

func sprintf(format string, args ...any) string { return fmt.Sprintf(format, args...) }

func fail(format string, args ...any) error { return &CompileError{Msg: fmt.Sprintf(format, args...)} }

// SchemaFieldFallbackRenderer is the xRenderer of an InputMessageNode step
// that names no renderer.
const SchemaFieldFallbackRenderer = "@cinatra-ai/agent-builder:schema-field-fallback"

// injectMaxDepth bounds the reference's llm/toolbox pre-passes.
const injectMaxDepth = 16

// Compile derives the CompiledAgentOas of a loaded agent exactly as the
// reference compiler does (SPEC §4; reference cinatra.md §11). It reads the
// agent's parsed tree and never modifies it. Package data comes from the
// agent's package.json and cinatra.json, components from its flow and the
// global registry (Agent.RegistryComponents), and child agents' renderers
// from the agents of the same tree (Agent.FindAgent).
//
// On failure the error is a *CompileError whose message is the reference's
// error text.
func Compile(a *Agent) (*CompiledAgentOas, error) {
	if a == nil || a.Flow == nil {
		return nil, fail("packageName is required")
	}
	c := &compiler{a: a, pkg: compilePackageName(a)}
	return c.run()
}

// compilePackageName is the name the reference's error texts use: the
// package.json name, else metadata.cinatra.packageName, else the package
// directory's (or flow file's) base name.
func compilePackageName(a *Agent) string {
	if a.Package != nil {
		if s, ok := a.Package.Root.Get("name").Str(); ok && s != "" {
			return s
		}
	}
	if a.Flow != nil {
		if s, ok := a.Flow.Root.Path("metadata", "cinatra", "packageName").Str(); ok && s != "" {
			return s
		}
	}
	if a.Dir != "" {
		return filepath.Base(a.Dir)
	}
	return filepath.Base(a.FlowPath)
}

type compiler struct {
	a    *Agent
	pkg  string
	root *Node
	refs *Node // the root Flow's $referenced_components
	reg  *Node // the global registry's components

	nodeIDs []string
	order   map[string]int

	refMap  map[string]*Node   // c.refs by key (last duplicate wins)
	edgesTo map[string][]*Node // data edges by destination node id
	fires   map[string]bool    // subflowFiresGate by subflow ref

	// bridgeData: bridge ApiNodes whose data the reference's pre-pass
	// replaces by an object (their authored data is not one).
	bridgeData map[*Node]bool
}

type entry struct {
	id      string
	gate    *Node // the gateStep, for an expanded FlowNode
	gateIdx int
}

func (c *compiler) run() (*CompiledAgentOas, error) {
	a := c.a
	for _, f := range a.Findings {
		if f.Code == "agent_read_failed" && f.File == a.FlowPath {
			return nil, fail("OAS source at %s could not be read: %s", a.FlowPath, a.Flow.Err.Msg)
		}
	}
	if a.Flow.Root == nil {
		msg := "unparseable"
		if a.Flow.Err != nil {
			msg = a.Flow.Err.Msg
		}
		return nil, fail("OAS source at %s is malformed JSON: %s", a.FlowPath, msg)
	}
	c.root = a.Flow.Root
	if c.root.Kind == Null {
		return nil, typeErr("Cannot read properties of null (reading '$referenced_components')")
	}

	// 3. Structural validation.
	if issues := ValidateFlowStructural(c.root); len(issues) > 0 {
		lines := make([]string, len(issues))
		for i, is := range issues {
			lines[i] = is.String()
		}
		return nil, fail("OAS structural validation failed for %s:\n%s", c.pkg, strings.Join(lines, "\n"))
	}

	// Pre-passes. The reference mutates the document; nothing of it reaches
	// the compiled output except the depth limit and, for a bridge ApiNode
	// whose data is not an object, the {} it is replaced by (seen by the
	// artifact_materialize collector). Recorded, not applied.
	cin := path(c.root, "metadata", "cinatra")
	c.bridgeData = map[*Node]bool{}
	if llm := get(cin, "llm"); llm != nil {
		if err := c.prepass(c.root.Get("$referenced_components"), 0, "injectCinatraLlmIntoApiNodes: traversal exceeded MAX_DEPTH=16; possible pathological OAS input"); err != nil {
			return nil, err
		}
	}
	if tb := get(cin, "toolboxes"); tb != nil && tb.Kind == Array && len(tb.Items) > 0 && allStrings(tb) {
		if err := c.prepass(c.root.Get("$referenced_components"), 0, "propagateToolboxesIntoApiNodes: traversal exceeded MAX_DEPTH=16"); err != nil {
			return nil, err
		}
	}

	// 4. Registries.
	// A registry file that was named but could not be read or parsed is an
	// empty registry, as in the reference (not the built-in one).
	if a.Registry != nil && a.Registry.Root == nil {
		c.reg = nil
	} else {
		c.reg = a.RegistryComponents()
	}
	c.refs = c.root.Get("$referenced_components")
	c.refMap = make(map[string]*Node, len(c.refs.Members))
	for _, m := range c.refs.Members {
		c.refMap[m.Key] = m.Value
	}
	c.edgesTo = map[string][]*Node{}
	for _, e := range c.root.Get("data_flow_connections").itemsOrNil() {
		dst, _ := RefID(get(e, "destination_node"))
		c.edgesTo[dst] = append(c.edgesTo[dst], e)
	}
	c.fires = map[string]bool{}

	// 5. Topology.
	c.nodeIDs = BFSOrder(c.root)
	c.order = make(map[string]int, len(c.nodeIDs))
	for i, id := range c.nodeIDs {
		c.order[id] = i
	}
	var agentNodeIDs, imnIDs, steppable []string
	endID, hasEnd := "", false
	for _, id := range c.nodeIDs {
		switch ComponentType(c.ref(id)) {
		case "AgentNode":
			agentNodeIDs = append(agentNodeIDs, id)
			steppable = append(steppable, id)
		case "InputMessageNode":
			imnIDs = append(imnIDs, id)
			steppable = append(steppable, id)
		case "FlowNode":
			steppable = append(steppable, id)
		case "EndNode":
			if !hasEnd {
				endID, hasEnd = id, true
			}
		}
	}
	if !hasEnd {
		return nil, fail(`flow has no EndNode (expected exactly one node with component_type: "EndNode")`)
	}

	// 6. Step 0.
	startID, _ := RefID(c.root.Get("start_node"))
	start := c.ref(startID)
	step0, err := c.setupStep(start)
	if err != nil {
		return nil, err
	}
	for _, id := range imnIDs {
		outs := get(c.ref(id), "outputs")
		if outs == nil || outs.Kind != Array || len(outs.Items) == 0 {
			return nil, fail(`MISSING_INPUT_MESSAGE_OUTPUT: InputMessageNode "%s" must declare at least one output`, id)
		}
	}
	var entries []entry
	for _, id := range steppable {
		comp := c.ref(id)
		if ComponentType(comp) == "FlowNode" {
			if gs := path(comp, "metadata", "cinatra", "gateSteps"); gs != nil && gs.Kind == Array && len(gs.Items) > 0 {
				for i, g := range gs.Items {
					entries = append(entries, entry{id: id, gate: g, gateIdx: i})
				}
				continue
			}
		}
		entries = append(entries, entry{id: id, gateIdx: -1})
	}
	steps := make([]Step, 0, len(entries)+1)
	if step0 != nil {
		steps = append(steps, *step0)
	}
	agentSteps := make([]Step, len(entries))
	for i, e := range entries {
		s, err := c.step(e, i+1)
		if err != nil {
			return nil, err
		}
		agentSteps[i] = s
	}

	// 7. inputSchema.
	inputSchema, err := c.inputSchema(start)
	if err != nil {
		return nil, err
	}
	// 8. outputSchema.
	outputSchema, err := c.outputSchema(c.ref(endID))
	if err != nil {
		return nil, err
	}
	// 9, 12, 13. prompt, llmConfig, toolboxes.
	prompt := c.prompt(agentNodeIDs)
	llmConfig := c.llmConfig(agentNodeIDs)
	toolboxes := c.toolboxes(agentNodeIDs)
	// 14. connectionConfig of A2AAgent-backed AgentNode steps.
	for i, e := range entries {
		c.connectionConfig(e.id, &agentSteps[i])
	}
	steps = append(steps, agentSteps...)

	// 10. Sibling package.json and cinatra.json.
	sib := readSibling(a.Package)
	cinatraConfig := readCinatraConfig(a.CinatraJSON)

	// 10b, 10c. Artifact bindings and artifact_materialize nodes.
	var produces []string
	var producesRefs []producesRef
	known := false
	if sib != nil {
		known, produces, producesRefs = true, sib.produces, sib.producesRefs
	}
	if errs := collectArtifactBindings(c.root, known, produces, producesRefs); len(errs) > 0 {
		return nil, fail("artifact output-binding validation failed for %s:\n%s", c.pkg, strings.Join(errs, "\n"))
	}
	if errs := collectMaterializeNodes(c.root, known, produces, producesRefs, c.bridgeData); len(errs) > 0 {
		return nil, fail("artifact_materialize node validation failed for %s:\n%s", c.pkg, strings.Join(errs, "\n"))
	}

	// 11. Flow-level metadata, trigger mode, gated steps.
	out := &CompiledAgentOas{
		ApprovalPolicy:    ApprovalPolicy{Steps: steps},
		InputSchema:       inputSchema,
		OutputSchema:      outputSchema,
		Prompt:            prompt,
		AgentDependencies: OrderedObject{},
		Type:              jsonValue(get(cin, "type")),
		CompiledPlan:      []any{},
		HitlScreens:       []any{},
		LlmConfig:         llmConfig,
		Toolboxes:         toolboxes,
		AgentSpecVersion:  jsonValue(c.root.Get("agentspec_version")),
		CinatraConfig:     cinatraConfig,
	}
	if hs := get(cin, "hitlScreens"); !nullish(hs) {
		out.HitlScreens = jsonValue(hs)
	}
	if sib != nil {
		out.PackageName = sib.name
		out.PackageVersion = sib.version
		out.AgentDependencies = sib.agentDependencies
	}
	out.TriggerMode = "full"
	if rt := get(cin, "runtime"); !nullish(rt) {
		if s, ok := rt.Str(); !ok || (s != "wayflow" && s != "cinatra-linear") {
			out.TriggerMode = "start-only"
		}
	}
	out.GatedSteps = []GatedStep{}
	if out.TriggerMode == "full" {
		out.GatedSteps = collectGatedSteps(out.PackageName, steps)
	}
	return out, nil
}

func allStrings(n *Node) bool {
	for _, it := range n.Items {
		if it.Kind != String {
			return false
		}
	}
	return true
}

// prepass walks $referenced_components containers as the reference's
// llm/toolbox injectors do: bridge ApiNodes get an object data, Flow
// components are descended into, depth is limited.
func (c *compiler) prepass(container *Node, depth int, tooDeep string) error {
	if !truthy(container) {
		return nil
	}
	if depth > injectMaxDepth {
		return &CompileError{Msg: tooDeep, Thrown: true}
	}
	if container.Kind != Object && container.Kind != Array {
		return nil
	}
	var vals []*Node
	if container.Kind == Object {
		for _, e := range entries(container) {
			vals = append(vals, e.Value)
		}
	} else {
		vals = container.Items
	}
	for _, n := range vals {
		if !isObj(n) {
			continue
		}
		switch ComponentType(n) {
		case "ApiNode":
			if targetsLlmBridge(get(n, "url")) {
				if d := get(n, "data"); !(truthy(d) && isObj(d)) {
					c.bridgeData[n] = true
				}
				continue
			}
		case "Flow":
			if nested := get(n, "$referenced_components"); isObj(nested) {
				if err := c.prepass(nested, depth+1, tooDeep); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// targetsLlmBridge: the compiler's bridge predicate (equality or suffix).
func targetsLlmBridge(u *Node) bool {
	s, ok := u.Str()
	return ok && strings.HasSuffix(s, "/api/llm-bridge")
}

// setupStep is step 0: present iff some StartNode required input is not hidden.
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
	s := &Step{StepNumber: 0, RequiresApproval: true, RiskClass: "read_only", HitlOwnedBy: "self", SkipLlm: true, GateIndex: -1}
	s.NodeID, _ = RefID(c.root.Get("start_node"))
	s.set("stepNumber", 0)
	s.setNode("name", name)
	s.setNode("description", name)
	s.set("requiresApproval", true)
	s.set("riskClass", "read_only")
	s.set("hitlOwnedBy", "self")
	s.set("skipLlm", true)
	return s, nil
}

// set records a member of the step's JSON and mirrors it into the typed
// field when the value has the expected type.
func (s *Step) set(key string, v any) {
	s.fields.Set(key, v)
	switch key {
	case "stepNumber":
		s.StepNumber, _ = v.(int)
	case "nodeType":
		s.NodeType, _ = v.(string)
	case "requiresApproval":
		s.RequiresApproval, _ = v.(bool)
	case "riskClass":
		s.RiskClass, _ = v.(string)
	case "hitlOwnedBy":
		s.HitlOwnedBy, _ = v.(string)
	case "skipLlm":
		s.SkipLlm, _ = v.(bool)
	case "name":
		s.Name, _ = v.(string)
	case "description":
		s.Description, _ = v.(string)
	case "xRenderer":
		s.XRenderer, _ = v.(string)
	case "inputMessageField":
		s.InputMessageField, _ = v.(string)
	case "inputMessageSchema":
		if _, u := v.(undefType); !u {
			s.InputMessageSchema = v
		}
	case "a2uiSurfaceId":
		s.A2uiSurfaceID, _ = v.(string)
	case "childAgent":
		s.ChildAgent, _ = v.(*ChildAgent)
	case "artifactReviewTargetsInput":
		s.ArtifactReviewTargetsInput, _ = v.(string)
	case "connectionConfig":
		s.ConnectionConfig, _ = v.(*ConnectionConfig)
	case "firesRendererGate":
		if b, ok := v.(bool); ok {
			s.FiresRendererGate = &b
		}
	}
}

// setNode sets a member from a node of the document (undefined: the member
// keeps its place but is not emitted).
func (s *Step) setNode(key string, n *Node) {
	switch {
	case n == nil:
		s.set(key, undef)
	case n.Kind == String:
		s.set(key, n.Text)
	case n.Kind == Bool:
		s.set(key, n.Bool)
	case key == "gateCount" && n.Kind == Number:
		s.fields.Set(key, jsonValue(n))
		if f, ok := n.Float(); ok && f == float64(int(f)) {
			gc := int(f)
			s.GateCount = &gc
		}
	default:
		s.set(key, jsonValue(n))
	}
}

// merge is mergeParentLeafCinatra (reference cinatra.md §11.7): exactly
// five keys, the parent's value unless nullish, a2uiSurfaceIdOverride
// consumed.
type merged struct{ a2uiSurfaceID, renderer, requiresApproval, riskClass, hitlOwnedBy *Node }

func merge(p, l *Node) merged {
	return merged{
		a2uiSurfaceID:    coalesce(get(p, "a2uiSurfaceIdOverride"), get(l, "a2uiSurfaceId"), get(p, "a2uiSurfaceId")),
		renderer:         coalesce(get(p, "renderer"), get(l, "renderer")),
		requiresApproval: coalesce(get(p, "requiresApproval"), get(l, "requiresApproval")),
		riskClass:        coalesce(get(p, "riskClass"), get(l, "riskClass")),
		hitlOwnedBy:      coalesce(get(p, "hitlOwnedBy"), get(l, "hitlOwnedBy")),
	}
}

// resolve is resolveComponentRef: local $referenced_components, then the
// global registry; a value counts when it is a non-null object (or array).
func (c *compiler) resolve(id *Node) *Node {
	key := jsString(id)
	if l := c.ref(key); truthy(l) && isObj(l) {
		return l
	}
	if g := get(c.reg, key); truthy(g) && isObj(g) {
		return g
	}
	return nil
}

func (c *compiler) step(e entry, n int) (Step, error) {
	comp := c.ref(e.id)
	s := Step{NodeID: e.id, GateIndex: e.gateIdx}
	switch ComponentType(comp) {
	case "InputMessageNode":
		return c.inputMessageStep(s, comp, n), nil
	case "AgentNode":
		return c.agentStep(s, comp, e.id, n), nil
	}
	return c.flowNodeStep(s, comp, e, n)
}

func (c *compiler) inputMessageStep(s Step, ime *Node, n int) Step {
	out0 := coalesce(get(get(ime, "outputs"), "0"), &Node{Kind: Object})
	field := coalesce(get(out0, "title"), get(out0, "id"), strNode(s.NodeID))
	cin := path(ime, "metadata", "cinatra")
	declared := coalesce(get(cin, "inputMessageSchema"), get(get(get(ime, "inputs"), "0"), "schema"))
	var schema any = OrderedObject{{"type", "object"}}
	if truthy(declared) && objectKeysLen(declared) > 0 {
		schema = jsonValue(declared)
	}
	renderer := coalesce(get(get(cin, "inputRenderers"), jsString(field)), get(cin, "renderer"), strNode(SchemaFieldFallbackRenderer))
	s.set("nodeType", "input_message")
	s.set("stepNumber", n)
	s.set("requiresApproval", true)
	s.set("riskClass", "read_only")
	s.set("hitlOwnedBy", "self")
	s.set("skipLlm", true)
	s.setNode("name", coalesce(get(ime, "name"), field))
	s.setNode("description", coalesce(get(cin, "description"), get(ime, "name"), field))
	s.setNode("xRenderer", renderer)
	s.setNode("inputMessageField", field)
	s.set("inputMessageSchema", schema)
	if t, ok := path(cin, "artifactReview", "targetsInput").Str(); ok && t != "" {
		s.set("artifactReviewTargetsInput", t)
	}
	return s
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

// ref is the root Flow's $referenced_components[id].
func (c *compiler) ref(id string) *Node { return c.refMap[id] }

func (c *compiler) inputMapping(id string) OrderedObject {
	var m objBuilder
	for _, e := range c.edgesTo[id] {
		srcID, _ := RefID(get(e, "source_node"))
		srcOut := str(get(e, "source_output"))
		var v string
		if ComponentType(c.ref(srcID)) == "StartNode" {
			v = "{{input_params." + srcOut + "}}"
		} else {
			srcIdx, ok := c.order[srcID]
			if !ok {
				srcIdx = -1
			}
			dstIdx, ok := c.order[id]
			if !ok {
				dstIdx = -1
			}
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

func (c *compiler) agentStep(s Step, node *Node, id string, n int) Step {
	parent := path(node, "metadata", "cinatra")
	agentRef := get(get(node, "agent"), "$component_ref")
	var resolved *Node
	if truthy(agentRef) {
		resolved = c.resolve(agentRef)
	}
	eff := merge(parent, path(resolved, "metadata", "cinatra"))
	var child *ChildAgent
	if ComponentType(resolved) == "A2AAgent" {
		child = &ChildAgent{PackageName: jsonValue(coalesce(path(resolved, "metadata", "cinatra", "packageName"), strNode(""))), InputMapping: c.inputMapping(id)}
	}
	s.set("nodeType", "agent")
	s.set("stepNumber", n)
	s.setRequiresApproval(eff.requiresApproval)
	s.setNode("description", coalesce(get(parent, "description"), get(node, "name")))
	s.setNode("name", get(node, "name"))
	s.setDefined("riskClass", eff.riskClass)
	s.setDefined("xRenderer", eff.renderer)
	s.setDefined("a2uiSurfaceId", eff.a2uiSurfaceID)
	s.setDefined("hitlOwnedBy", eff.hitlOwnedBy)
	if child != nil {
		s.set("childAgent", child)
	}
	return s
}

// setRequiresApproval is `requiresApproval: x ?? false`.
func (s *Step) setRequiresApproval(n *Node) {
	if nullish(n) {
		s.set("requiresApproval", false)
		return
	}
	s.setNode("requiresApproval", n)
}

// setDefined sets key when the value is not undefined (null included).
func (s *Step) setDefined(key string, n *Node) {
	if n != nil {
		s.setNode(key, n)
	}
}

func (c *compiler) flowNodeStep(s Step, node *Node, e entry, n int) (Step, error) {
	parent := path(node, "metadata", "cinatra")
	eff := merge(parent, nil)
	pkgName := coalesce(get(parent, "packageName"), strNode(""))
	child := &ChildAgent{PackageName: jsonValue(pkgName), InputMapping: c.inputMapping(e.id)}
	s.set("nodeType", "agent")
	s.set("stepNumber", n)
	s.setRequiresApproval(eff.requiresApproval)
	s.setNode("description", coalesce(get(parent, "description"), get(node, "name")))
	s.setNode("name", get(node, "name"))
	s.set("childAgent", child)
	if e.gateIdx >= 0 {
		gs := e.gate
		if nullish(gs) {
			return s, typeErr("Cannot read properties of %s (reading 'name')", jsString(gs))
		}
		if truthy(get(gs, "name")) {
			s.setNode("name", get(gs, "name"))
			s.setNode("description", coalesce(get(gs, "description"), get(gs, "name")))
		}
		s.setDefined("riskClass", get(gs, "riskClass"))
		s.setDefined("xRenderer", get(gs, "renderer"))
		s.setDefined("hitlOwnedBy", get(gs, "hitlOwnedBy"))
		s.setDefined("gateCount", get(gs, "gateCount"))
		s.setDefined("requiresApproval", get(gs, "requiresApproval"))
		s.setDefined("a2uiSurfaceId", eff.a2uiSurfaceID)
		if !c.subflowFiresGate(get(get(node, "subflow"), "$component_ref")) {
			s.set("firesRendererGate", false)
		}
		return s, nil
	}
	s.setDefined("riskClass", eff.riskClass)
	s.setDefined("xRenderer", eff.renderer)
	s.setDefined("a2uiSurfaceId", eff.a2uiSurfaceID)
	if eff.hitlOwnedBy != nil {
		s.setNode("hitlOwnedBy", eff.hitlOwnedBy)
	} else {
		s.set("hitlOwnedBy", "childAgent")
	}
	if !truthyAny(s.fields.Get("xRenderer")) && truthy(pkgName) {
		if pkgName.Kind != String {
			return s, typeErr("packageName.includes is not a function")
		}
		renderer, risk := c.childRendererInfo(pkgName.Text)
		if truthy(renderer) {
			s.setNode("xRenderer", renderer)
		}
		if truthy(risk) && !s.fields.Has("riskClass") && !hasKey(s.fields, "riskClass") {
			s.setNode("riskClass", risk)
		}
	}
	return s, nil
}

// hasKey: the member exists at all (undefined counts as absent for
// `step.riskClass === undefined`, so only a defined one blocks).
func hasKey(o OrderedObject, key string) bool { return o.Has(key) }

// truthyAny is ToBoolean of a value already placed in the output.
func truthyAny(v any) bool {
	switch x := v.(type) {
	case nil:
		return false
	case undefType:
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

func (c *compiler) inputSchema(start *Node) (any, error) {
	cin := path(start, "metadata", "cinatra")
	inputs := coalesce(get(start, "inputs"), &Node{Kind: Array})
	required := coalesce(get(cin, "required"), &Node{Kind: Array})
	hidden := coalesce(get(cin, "hidden"), &Node{Kind: Array})
	renderers := coalesce(get(cin, "inputRenderers"), &Node{Kind: Object})
	sources := coalesce(get(cin, "inputDataSources"), &Node{Kind: Object})
	titles := coalesce(get(cin, "inputTitles"), &Node{Kind: Object})
	var props objBuilder
	inHidden := includer(hidden, "startHidden")
	items, err := iterate(inputs, "startInputs")
	if err != nil {
		return nil, err
	}
	for _, prop := range items {
		if nullish(prop) {
			return nil, typeErr("Cannot destructure property 'title' of 'prop' as it is %s.", jsString(prop))
		}
		title := get(prop, "title")
		typ := get(prop, "type")
		key := jsString(title)
		shape := OrderedObject{{"type", val(typ)}, {"title", val(coalesce(get(titles, key), title))}}
		if f := get(prop, "format"); truthy(f) {
			shape.Set("format", jsonValue(f))
		}
		if d := get(prop, "description"); truthy(d) {
			shape.Set("description", jsonValue(d))
		}
		if it := coalesce(get(prop, "items"), get(get(prop, "json_schema"), "items")); truthy(it) {
			shape.Set("items", jsonValue(it))
		}
		subProps := coalesce(get(prop, "properties"), get(get(prop, "json_schema"), "properties"))
		subReq := coalesce(get(prop, "required"), get(get(prop, "json_schema"), "required"))
		if str(typ) == "object" && typ.Kind == String && truthy(subProps) && subProps.Kind == Object {
			shape.Set("properties", jsonValue(subProps))
			if subReq != nil && subReq.Kind == Array {
				shape.Set("required", jsonValue(subReq))
			}
		}
		if r := get(renderers, key); truthy(r) {
			shape.Set("x-renderer", jsonValue(r))
		}
		if d := get(sources, key); truthy(d) {
			shape.Set("x-data-source", jsonValue(d))
		}
		in, err := inHidden(title)
		if err != nil {
			return nil, err
		}
		if in {
			shape.Set("x-hidden", true)
		}
		props.set(key, shape)
	}
	return OrderedObject{{"type", "object"}, {"required", jsonValue(required)}, {"properties", props.object()}}, nil
}

func (c *compiler) outputSchema(end *Node) (any, error) {
	outs := coalesce(get(end, "outputs"), &Node{Kind: Array})
	if length(outs) <= 0 {
		return nil, nil
	}
	items, err := iterate(outs, "endOutputs")
	if err != nil {
		return nil, err
	}
	var props objBuilder
	for _, prop := range items {
		if nullish(prop) {
			return nil, typeErr("Cannot destructure property 'title' of 'prop' as it is %s.", jsString(prop))
		}
		title := get(prop, "title")
		shape := OrderedObject{{"type", val(get(prop, "type"))}, {"title", val(title)}}
		if f := get(prop, "format"); truthy(f) {
			shape.Set("format", jsonValue(f))
		}
		if d := get(prop, "description"); truthy(d) {
			shape.Set("description", jsonValue(d))
		}
		if it := coalesce(get(prop, "items"), get(get(prop, "json_schema"), "items")); truthy(it) {
			shape.Set("items", jsonValue(it))
		}
		props.set(jsString(title), shape)
	}
	return OrderedObject{{"type", "object"}, {"properties", props.object()}}, nil
}

func (c *compiler) prompt(agentNodeIDs []string) *string {
	for _, id := range agentNodeIDs {
		ref := get(get(c.ref(id), "agent"), "$component_ref")
		if !truthy(ref) {
			continue
		}
		agent := c.ref(jsString(ref))
		if !truthy(agent) {
			continue
		}
		if ComponentType(agent) == "Agent" {
			if p, ok := get(agent, "system_prompt").Str(); ok {
				return &p
			}
		}
	}
	return nil
}

// resolveInlineOrRef: an inline component, or the one a $component_ref names.
func (c *compiler) resolveInlineOrRef(raw *Node) *Node {
	if raw.Kind == Object && hasMember(raw, "$component_ref") {
		return c.resolve(raw.Get("$component_ref"))
	}
	return raw
}

func hasMember(n *Node, key string) bool {
	for _, m := range n.Members {
		if m.Key == key {
			return true
		}
	}
	return false
}

func (c *compiler) firstAgents(agentNodeIDs []string, fn func(agent *Node) bool) {
	for _, id := range agentNodeIDs {
		ref := get(get(c.ref(id), "agent"), "$component_ref")
		if !truthy(ref) {
			continue
		}
		agent := c.resolve(ref)
		if agent == nil || ComponentType(agent) != "Agent" {
			continue
		}
		if fn(agent) {
			return
		}
	}
}

func (c *compiler) llmConfig(agentNodeIDs []string) *LlmConfig {
	var out *LlmConfig
	c.firstAgents(agentNodeIDs, func(agent *Node) bool {
		raw := get(agent, "llm_config")
		if !truthy(raw) || !isObj(raw) {
			return false
		}
		cfg := c.resolveInlineOrRef(raw)
		if cfg == nil {
			return false
		}
		model, ok := get(cfg, "model_id").Str()
		if !ok {
			return false
		}
		out = &LlmConfig{ModelID: model}
		if t := str(get(cfg, "api_type")); t == "chat_completions" || t == "responses" {
			out.APIType = t
		}
		return true
	})
	return out
}

func (c *compiler) toolboxes(agentNodeIDs []string) []Toolbox {
	out := []Toolbox{}
	c.firstAgents(agentNodeIDs, func(agent *Node) bool {
		list := get(agent, "toolboxes")
		if list == nil || list.Kind != Array || len(list.Items) == 0 {
			return false
		}
		var got []Toolbox
		for _, e := range list.Items {
			if !truthy(e) || !isObj(e) {
				continue
			}
			tb := c.resolveInlineOrRef(e)
			if tb == nil || ComponentType(tb) != "MCPToolBox" {
				continue
			}
			id, ok1 := get(tb, "id").Str()
			u, ok2 := path(tb, "client_transport", "url").Str()
			if !ok1 || !ok2 {
				continue
			}
			got = append(got, Toolbox{ID: id, URL: u})
		}
		if len(got) > 0 {
			out = got
			return true
		}
		return false
	})
	return out
}

func (c *compiler) connectionConfig(id string, s *Step) {
	node := c.ref(id)
	if ComponentType(node) != "AgentNode" {
		return
	}
	ref := get(get(node, "agent"), "$component_ref")
	if !truthy(ref) {
		return
	}
	agent := c.resolve(ref)
	if agent == nil || ComponentType(agent) != "A2AAgent" {
		return
	}
	raw := get(agent, "connection_config")
	if !truthy(raw) || !isObj(raw) {
		return
	}
	cc := c.resolveInlineOrRef(raw)
	if cc == nil {
		return
	}
	t, v := get(cc, "timeout"), get(cc, "verify")
	if t == nil || t.Kind != Number || v == nil || v.Kind != Bool {
		return
	}
	f, _ := t.Float()
	s.set("connectionConfig", &ConnectionConfig{Timeout: f, Verify: v.Bool})
}

// sibling is what the reference reads from package.json.
type sibling struct {
	name, version     any // string or nil
	agentDependencies any
	produces          []string
	producesRefs      []producesRef
}

type producesRef struct{ extension, objectTypeID string }

func readSibling(d *Doc) *sibling {
	if d == nil || d.Root == nil || d.Root.Kind == Null {
		return nil
	}
	r := d.Root
	s := &sibling{agentDependencies: OrderedObject{}}
	if v, ok := get(r, "name").Str(); ok {
		s.name = v
	}
	if v, ok := get(r, "version").Str(); ok {
		s.version = v
	}
	if deps := path(r, "cinatra", "agentDependencies"); !nullish(deps) {
		s.agentDependencies = jsonValue(deps)
	}
	s.produces, s.producesRefs = []string{}, []producesRef{}
	if raw := path(r, "cinatra", "produces"); raw != nil && raw.Kind == Array {
		var refs []producesRef
		for _, it := range raw.Items {
			if !truthy(it) || !isObj(it) {
				continue
			}
			ext, ok := get(it, "extension").Str()
			if !ok || ext == "" {
				continue
			}
			refs = append(refs, producesRef{extension: ext, objectTypeID: str(get(it, "objectTypeId"))})
		}
		if len(refs) == len(raw.Items) {
			s.producesRefs = refs
			for _, r := range refs {
				s.produces = append(s.produces, r.extension)
			}
		}
	}
	return s
}

func readCinatraConfig(d *Doc) *CinatraConfig {
	if d == nil || d.Root == nil || d.Root.Kind == Null {
		return nil
	}
	r := d.Root
	out := &CinatraConfig{}
	if l := get(r, "limits"); truthy(l) && isObj(l) {
		if m := get(l, "maxRecipients"); m != nil && m.Kind == Number {
			if f, _ := m.Float(); f > 0 {
				out.Limits = &CinatraLimits{MaxRecipients: f}
			}
		}
	}
	if rc := get(r, "requiredConnections"); rc != nil && rc.Kind == Array {
		for _, it := range rc.Items {
			if truthy(it) && isObj(it) && get(it, "type").Is(String) {
				out.RequiredConnections = append(out.RequiredConnections, jsonValue(it))
			}
		}
	}
	if df := get(r, "defaults"); truthy(df) && isObj(df) {
		sn := get(df, "senderName")
		if sn != nil && sn.Kind == String {
			v := sn.Text
			out.Defaults = &CinatraDefaults{SenderName: &v}
		} else if sn != nil && sn.Kind == Null {
			out.Defaults = &CinatraDefaults{}
		}
	}
	return out
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
	for _, s := range steps {
		if s.fields.Has("childAgent") || s.ChildAgent != nil {
			continue // opaque child steps count only with sideEffects: true, never set
		}
		name := s.fields.Get("name")
		if name == nil {
			name = fmt.Sprintf("step-%d", s.StepNumber)
		}
		label := s.fields.Get("description")
		if label == nil {
			label = name
		}
		risk := s.fields.Get("riskClass")
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
