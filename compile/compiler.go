package compile

import (
	"fmt"
	"path/filepath"
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
// The root Flow's BFS order is shared with the agent's flow model
// (FlowModel.BFSOrder, which the model's view and the graphs' step
// numbers read) through the agent's model cache, whichever asks first
// computing it for both: like Model, this holds the documents as Load
// left them (a tree changed after Load is a new Agent's).
//
// On failure the error is a *CompileError whose message is the reference's
// error text.
func Compile(a *Agent) (*CompiledAgentOas, error) { return compileWith(a, true) }

// compileWith is Compile; with shareOrder false the compiler orders the
// root Flow itself (the tests' oracle of the shared order).
func compileWith(a *Agent, shareOrder bool) (*CompiledAgentOas, error) {
	if a == nil || a.Flow == nil {
		return nil, fail("packageName is required")
	}
	c := &compiler{a: a, pkg: compilePackageName(a), shareOrder: shareOrder}
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

// compiler holds one compilation: the agent, what the phases have derived
// so far, and the output they fill in.
type compiler struct {
	a    *Agent
	pkg  string
	root *Node
	cin  *Node // the root Flow's metadata.cinatra
	refs *Node // the root Flow's $referenced_components
	reg  *Node // the global registry's components

	refMap  map[string]*Node   // c.refs by key (last duplicate wins), when c.refs has no index of its own
	edgesTo map[string][]*Node // data edges by destination node id
	fires   map[string]bool    // subflowFiresGate by subflow ref

	// bridgeData: bridge ApiNodes whose data the reference's pre-pass
	// replaces by an object (their authored data is not one).
	bridgeData map[*Node]bool

	// Topology (§11.4).
	nodeIDs      []string
	order        map[string]int // index of each node in nodeIDs, made on first use (position)
	nodeComps    []*Node        // the component of each node of nodeIDs (c.ref), looked up once
	nodeTypes    []string       // the ComponentType of each of nodeComps
	agentNodeIDs []string       // AgentNodes in BFS order
	start, end   *Node          // the StartNode, the first EndNode

	sib *sibling // package.json, nil when absent or unreadable
	out *CompiledAgentOas

	childAgents []ChildAgent // the FlowNode steps' childAgents (childAgent)

	shareOrder bool // share the root Flow's order with the model (Compile)
	// metaAgain: each FlowNode step reads its node's metadata.cinatra
	// again, not handed it by approvalPolicy (the oracle of
	// TestFlowNodeMetaOnceSame)
	metaAgain bool
	// ownArtifacts: the artifact checks run here, not read from the agent's
	// model cache (the oracle of TestSharedArtifactChecksSame)
	ownArtifacts bool
}

// run is compileOasAgentJson after the source was found: its phases in the
// reference's order, which is also the order in which its errors win.
func (c *compiler) run() (*CompiledAgentOas, error) {
	c.out = &CompiledAgentOas{}
	for _, phase := range []func() error{
		c.readSource,     // §11.1: read and parse the OAS source
		c.validate,       // §11.1: validateOasFlowStructural only
		c.prepasses,      // §11.2: llm and toolbox injection
		c.registries,     // §11.3: local refs, global registry, data edges
		c.topology,       // §11.4: BFS order, AgentNodes, the EndNode
		c.approvalPolicy, // §11.5–11.8: step 0 and one step per entry
		c.schemas,        // §11.9: inputSchema, outputSchema
		c.agentConfig,    // §11.9: prompt, llmConfig, toolboxes
		c.packageFiles,   // §11.10: sibling package.json and cinatra.json
		c.artifacts,      // §11.10 (main): artifact bindings, artifact_materialize nodes; §17.2: the produces mirror and road, hasArtifactBindings
		c.flowMetadata,   // §11.10: type, hitlScreens, trigger mode, gated steps
	} {
		if err := phase(); err != nil {
			return nil, err
		}
	}
	return c.out, nil
}

// readSource: the flow file was read and parsed (§11.1 errors).
func (c *compiler) readSource() error {
	a := c.a
	for _, f := range a.Findings {
		if f.Code == "agent_read_failed" && f.File == a.FlowPath {
			return fail("OAS source at %s could not be read: %s", a.FlowPath, a.Flow.Err.Msg)
		}
	}
	if a.Flow.Root == nil {
		msg := "unparseable"
		if a.Flow.Err != nil {
			msg = a.Flow.Err.Msg
		}
		return fail("OAS source at %s is malformed JSON: %s", a.FlowPath, msg)
	}
	c.root = a.Flow.Root
	if c.root.Kind == Null {
		return typeErr("Cannot read properties of null (reading '$referenced_components')")
	}
	c.cin = path(c.root, "metadata", "cinatra")
	return nil
}

// validate is the structural validation, the only one the compiler runs.
func (c *compiler) validate() error {
	issues := ValidateFlowStructural(c.root)
	if len(issues) == 0 {
		return nil
	}
	lines := make([]string, len(issues))
	for i, is := range issues {
		lines[i] = is.String()
	}
	return fail("OAS structural validation failed for %s:\n%s", c.pkg, strings.Join(lines, "\n"))
}

// prepasses: the reference mutates the document; nothing of it reaches the
// compiled output except the depth limit and, for a bridge ApiNode whose
// data is not an object, the {} it is replaced by (seen by the
// artifact_materialize collector). Recorded, not applied.
func (c *compiler) prepasses() error {
	bridge, err := prepassBridgeData(c.root)
	c.bridgeData = bridge
	return err
}

// prepassBridgeData runs the reference's llm and toolbox pre-passes over
// root's components (only when metadata.cinatra names an llm or a list of
// toolboxes, as the reference does) and returns the bridge ApiNodes whose
// data they replace; the error is the pre-pass's depth limit.
func prepassBridgeData(root *Node) (map[*Node]bool, error) {
	bridge := map[*Node]bool{}
	cin := path(root, "metadata", "cinatra")
	if llm := get(cin, "llm"); llm != nil {
		if err := prepass(root.Get("$referenced_components"), 0, "injectCinatraLlmIntoApiNodes: traversal exceeded MAX_DEPTH=16; possible pathological OAS input", bridge); err != nil {
			return bridge, err
		}
	}
	if tb := get(cin, "toolboxes"); tb != nil && tb.Kind == Array && len(tb.Items) > 0 && allStrings(tb) {
		if err := prepass(root.Get("$referenced_components"), 0, "propagateToolboxesIntoApiNodes: traversal exceeded MAX_DEPTH=16", bridge); err != nil {
			return bridge, err
		}
	}
	return bridge, nil
}

// bridgeDataOf is prepassBridgeData without its error (the compile
// reports the depth limit; a linter of the artifact checks needs only
// the nodes).
func bridgeDataOf(root *Node) map[*Node]bool {
	bridge, _ := prepassBridgeData(root)
	return bridge
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
func prepass(container *Node, depth int, tooDeep string, bridge map[*Node]bool) error {
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
					bridge[n] = true
				}
				continue
			}
		case "Flow":
			if nested := get(n, "$referenced_components"); isObj(nested) {
				if err := prepass(nested, depth+1, tooDeep, bridge); err != nil {
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

// registries: the global registry and the indexes of the root Flow the
// later phases look things up in. A registry file that was named but could
// not be read or parsed is an empty registry, as in the reference (not the
// built-in one).
func (c *compiler) registries() error {
	if c.a.Registry == nil || c.a.Registry.Root != nil {
		c.reg = c.a.RegistryComponents()
	}
	c.refs = c.root.Get("$referenced_components")
	if !c.refs.indexed() { // a parsed object of many members has its index already
		c.refMap = make(map[string]*Node, len(c.refs.Members))
		for _, m := range c.refs.Members {
			c.refMap[m.Key] = m.Value
		}
	}
	c.edgesTo = map[string][]*Node{}
	for _, e := range c.root.Get("data_flow_connections").itemsOrNil() {
		dst, _ := RefID(get(e, "destination_node"))
		c.edgesTo[dst] = append(c.edgesTo[dst], e)
	}
	c.fires = map[string]bool{}
	return nil
}

// topology: BFS order, the AgentNodes and the first EndNode.
func (c *compiler) topology() error {
	if sc := c.sharedOrder(); sc != nil {
		// shared with the root Flow's model (Compile): the order, each
		// node's component (c.ref's, c.refs.Get) and type
		c.nodeIDs = sc.rootOrder(c.root)
		c.nodeComps, c.nodeTypes = sc.rootComponents(c.root)
	} else {
		c.nodeIDs = BFSOrder(c.root)
		c.nodeComps = make([]*Node, len(c.nodeIDs))
		c.nodeTypes = make([]string, len(c.nodeIDs))
		for i, id := range c.nodeIDs {
			c.nodeComps[i] = c.ref(id)
			c.nodeTypes[i] = ComponentType(c.nodeComps[i])
		}
	}
	c.out.nodesDistinct = distinctComponents(c.refs, c.nodeComps)
	for i, id := range c.nodeIDs {
		comp, typ := c.nodeComps[i], c.nodeTypes[i]
		switch typ {
		case "AgentNode":
			c.agentNodeIDs = append(c.agentNodeIDs, id)
		case "EndNode":
			if c.end == nil {
				c.end = comp
			}
		}
	}
	if c.end == nil {
		return fail(`flow has no EndNode (expected exactly one node with component_type: "EndNode")`)
	}
	return nil
}

// approvalPolicy: step 0, then one step per steppable node (a FlowNode
// with gateSteps: one per gateStep), numbered from 1.
func (c *compiler) approvalPolicy() error {
	startID, _ := RefID(c.root.Get("start_node"))
	c.start = c.ref(startID)
	step0, err := c.setupStep(c.start)
	if err != nil {
		return err
	}
	// one entry per node at most but for a FlowNode's gateSteps: sized
	// once (a flow of 33,000 FlowNodes grew it by copies, 1.8 MB)
	entries := make([]entry, 0, len(c.nodeIDs))
	// the root's step counts, for its graph's step numbers
	// (rootStepCounts), when the order is the model cache's
	var counts []int32
	sc := c.sharedOrder()
	if sc != nil {
		counts = make([]int32, len(c.nodeIDs))
	}
	for i, id := range c.nodeIDs {
		comp := c.nodeComps[i]
		n := int32(1) // the node's entries
		switch c.nodeTypes[i] {
		case "InputMessageNode":
			if outs := get(comp, "outputs"); outs == nil || outs.Kind != Array || len(outs.Items) == 0 {
				return fail(`MISSING_INPUT_MESSAGE_OUTPUT: InputMessageNode "%s" must declare at least one output`, id)
			}
			entries = append(entries, entry{id: id, comp: comp, typ: c.nodeTypes[i], gateIdx: -1})
		case "FlowNode":
			// its metadata.cinatra, read once for its gate steps and its
			// steps (flowNodeStep)
			cin := path(comp, "metadata", "cinatra")
			if gs := get(cin, "gateSteps"); gs != nil && gs.Kind == Array && len(gs.Items) > 0 {
				for k, g := range gs.Items {
					entries = append(entries, entry{id: id, comp: comp, typ: "FlowNode", gate: g, gateIdx: k, cin: cin, cinRead: !c.metaAgain})
				}
				n = int32(len(gs.Items))
			} else {
				entries = append(entries, entry{id: id, comp: comp, typ: "FlowNode", gateIdx: -1, cin: cin, cinRead: !c.metaAgain})
			}
		case "AgentNode":
			entries = append(entries, entry{id: id, comp: comp, typ: c.nodeTypes[i], gateIdx: -1})
		default:
			n = 0
		}
		if counts != nil {
			counts[i] = n
		}
	}
	if sc != nil {
		sc.giveStepCounts(counts)
	}
	steps := make([]Step, 0, len(entries)+1)
	if step0 != nil {
		steps = append(steps, *step0)
	}
	for i, e := range entries {
		steps = append(steps, Step{})
		if err := c.step(&steps[len(steps)-1], e, i+1); err != nil {
			return err
		}
	}
	c.out.ApprovalPolicy.Steps = steps
	return nil
}

// schemas: inputSchema from the StartNode, outputSchema from the first
// EndNode.
func (c *compiler) schemas() (err error) {
	if c.out.InputSchema, err = c.inputSchema(c.start); err != nil {
		return err
	}
	c.out.OutputSchema, err = c.outputSchema(c.end)
	return err
}

// agentConfig: what the first AgentNodes' agents give the whole flow.
func (c *compiler) agentConfig() error {
	c.out.Prompt = c.prompt(c.agentNodeIDs)
	c.out.LlmConfig = c.llmConfig(c.agentNodeIDs)
	c.out.Toolboxes = c.toolboxes(c.agentNodeIDs)
	return nil
}

// packageFiles: package name, version and agentDependencies from
// package.json, cinatraConfig from cinatra.json.
func (c *compiler) packageFiles() error {
	c.out.AgentDependencies = OrderedObject{}
	if c.sib = readSibling(c.a.Package); c.sib != nil {
		c.out.PackageName = c.sib.name
		c.out.PackageVersion = c.sib.version
		c.out.AgentDependencies = c.sib.agentDependencies
	}
	c.out.CinatraConfig = readCinatraConfig(c.a.CinatraJSON)
	return nil
}

// artifacts: output bindings and artifact_materialize nodes, checked
// against package.json cinatra.produces when package.json was read.
func (c *compiler) artifacts() error {
	var produces []string
	var producesRefs []producesRef
	known := c.sib != nil
	if known {
		produces, producesRefs = c.sib.produces, c.sib.producesRefs
	}
	if m := CheckProducesMirror(c.a); m != nil {
		return fail("produces-mirror validation failed for %s: %s", c.pkg, m.Msg)
	}
	// the checks the linter runs too (ArtifactRefusals): made once per
	// agent when it has a model cache (ownArtifacts: the tests' oracle)
	ac := c.a.sharedArtifactChecks()
	if ac == nil || c.ownArtifacts {
		ac = &artifactChecks{bindings: collectArtifactBindings(c.root, known, produces, producesRefs)}
		if len(ac.bindings) == 0 {
			ac.materialize = collectMaterializeNodes(c.root, known, produces, producesRefs, c.bridgeData)
		}
	}
	if errs := ac.bindings; len(errs) > 0 {
		return fail("artifact output-binding validation failed for %s:\n%s", c.pkg, strings.Join(refusalLines(errs), "\n"))
	}
	if errs := ac.materialize; len(errs) > 0 {
		return fail("artifact_materialize node validation failed for %s:\n%s", c.pkg, strings.Join(refusalLines(errs), "\n"))
	}
	c.out.HasArtifactBindings = HasArtifactBindings(c.root)
	if exts := ProducesWithoutRoad(c.a); len(exts) > 0 {
		c.out.Warnings = append(c.out.Warnings, RoadWarning(c.pkg, exts))
	}
	return nil
}

// flowMetadata: the flow-level fields, the trigger mode and, in "full"
// mode, the gated steps.
func (c *compiler) flowMetadata() error {
	out := c.out
	out.Type = jsonValue(get(c.cin, "type"))
	out.CompiledPlan = []any{}
	out.HitlScreens = []any{}
	if hs := get(c.cin, "hitlScreens"); !nullish(hs) {
		out.HitlScreens = jsonValue(hs)
	}
	out.AgentSpecVersion = jsonValue(c.root.Get("agentspec_version"))
	out.TriggerMode = "full"
	if rt := get(c.cin, "runtime"); !nullish(rt) {
		if s, ok := rt.Str(); !ok || (s != "wayflow" && s != "cinatra-linear") {
			out.TriggerMode = "start-only"
		}
	}
	out.GatedSteps = []GatedStep{}
	if out.TriggerMode == "full" {
		out.GatedSteps = collectGatedSteps(out.PackageName, out.ApprovalPolicy.Steps)
	}
	return nil
}
