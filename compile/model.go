package compile

import "sync"

// Model is the flow model of an agent's flow file (one per loaded agent,
// shared): every Flow of the document with its nodes, control edges and
// data edges resolved through `$component_ref`s (FlowModel), the
// document's `$referenced_components` definitions, and the components that
// may run a child agent. The linter's flow-graph, data-flow and I/O rules,
// the graphs (flowgraph, and through them the dry run and the prompt
// report) and the workspace's child calls read it; Agent.Model builds it
// once, on first use, in one walk of the document. Nobody modifies it.
type Model struct {
	Flows []*FlowModel // every Flow of the document, in source order (the order and nesting of Flows)
	Defs  *Definitions // the document's $referenced_components definitions
	// Mount is what the WayFlow loader does to the context slots when it
	// mounts the agent (MountSlots): the slim slots' injected context
	// steps, the inputs it feeds, and why it would refuse the mount.
	Mount *SlotMount

	flows    []*Flow              // the Flow of each of Flows (Agent.Flows)
	byNode   map[*Node]*FlowModel // Flow component → its model
	callers  []*Node              // every component of a type that may run a child agent (CalledPackage), in document order
	registry *Node                // the registry's components, which references resolve against
	root     *Node                // the document's root (nil when it did not parse)
	refNodes []RefSite            // every {"$component_ref"} object, in source order (RefNodes), found by the model's walk
	typed    []*Node              // every object whose component_type is a string, in source order (Typed), found by the model's walk
	typedIDs []string             // the id of each of typed when it is a string, else "" (TypedIDs)
	ignoring []*Node              // every object with an IgnoreKey member, in source order (Ignoring), found by the model's walk
	uses     *usesCache           // the definitions-and-uses index, built on first use (Uses)
	// slowEndpoints: every endpoint resolved anew, none read from the
	// Flow's nodes entries (the oracle of TestEndpointsFromEntries)
	slowEndpoints bool
	// blocks are the arrays the build carves its lists from (the load's
	// Blocks: the batch lint), nil once built and in every other face.
	blocks *modelBlocks
}

// modelCache holds an agent's model, built once (Load gives every agent
// one). It remembers the documents it is for: a copy of the agent with
// another flow file or registry does not read it.
type modelCache struct {
	flow, registry *Doc
	once           sync.Once
	m              *Model
	// order is BFSOrder of the flow file's root, computed once on first
	// use (rootOrder) for the compiler (Compile) and the
	// model of the root Flow (FlowModel.BFSOrder), whichever asks first.
	orderOnce sync.Once
	order     []string
	// comps and types are each id's component and its type
	// (rootComponents), looked up once on first use.
	compsOnce sync.Once
	comps     []*Node
	types     []string
	// gates are each id's step count (rootStepCounts), given by the
	// compiler or counted on first use.
	gatesOnce sync.Once
	gates     []int32
	// art are the artifact checks of the flow file (artifactChecks), made
	// once for the compiler (Compile) and the linter (ArtifactRefusals),
	// whichever asks first.
	artOnce sync.Once
	art     *artifactChecks
}

// rootOrder is BFSOrder(root), computed once for the cache's documents.
func (c *modelCache) rootOrder(root *Node) []string {
	c.orderOnce.Do(func() { c.order = BFSOrder(root) })
	return c.order
}

// rootComponents are, for each id of rootOrder(root), the component it
// names in root's $referenced_components (Get: the last of a repeated key;
// nil for none) and its ComponentType, looked up once for the compiler
// (topology) and the root Flow's step order (FlowModel.StepOrder).
// Callers must not modify them.
func (c *modelCache) rootComponents(root *Node) ([]*Node, []string) {
	c.compsOnce.Do(func() { c.comps, c.types = componentsOf(root, c.rootOrder(root)) })
	return c.comps, c.types
}

// componentsOf looks each id up in flow's $referenced_components.
func componentsOf(flow *Node, ids []string) ([]*Node, []string) { return componentsNear(flow, ids) }

// sharedCache is the agent's model cache when it is for the agent's own
// documents (Load made it and no copy changed them), else nil.
func (a *Agent) sharedCache() *modelCache {
	if c := a.model; c != nil && c.flow == a.Flow && c.registry == a.Registry {
		return c
	}
	return nil
}

// Model is the flow model of the agent's flow file, built on first use
// and shared by every reader, concurrent ones included. An agent that was
// not made by Load (one written by hand, as tests do) gets a new model on
// every call. A nil agent, or one whose flow file did not parse, has an
// empty model.
func (a *Agent) Model() *Model {
	if a == nil {
		return &Model{}
	}
	if c := a.sharedCache(); c != nil {
		c.once.Do(func() { c.m = buildModelIn(a, a.ov.blocks.forModel()) })
		return c.m
	}
	return buildModel(a)
}

// WithoutModel is a copy of a that shares its documents and everything
// Load read, but not its flow model: a reader that keeps an agent's
// documents past the last use of its model (a diff holds each side's
// documents until both sides are compared, and the model of a large flow
// is a third of its memory) lets the model go with the original. The
// copy builds a model of its own if one is asked of it.
func (a *Agent) WithoutModel() *Agent {
	if a == nil {
		return nil
	}
	c := *a
	if c.model != nil {
		c.model = &modelCache{flow: c.Flow, registry: c.Registry}
	}
	return &c
}

// Flows lists every Flow of the agent's flow file as Flows(a.Flow.Root)
// does, from the agent's model (nil when the flow file did not parse).
// Callers must not modify the list nor its Flows.
func (a *Agent) Flows() []*Flow { return a.Model().flows }

// buildModel models the agent's flow file: one walk lists its Flows, its
// definitions and its calling components, then each Flow is resolved.
func buildModel(a *Agent) *Model { return buildModelIn(a, nil) }

// buildModelIn is buildModel with the model's lists carved from mb (nil:
// allocated). The agent's own model (Agent.Model) is built into its load's
// Blocks, which the batch lint lends again once the agent is done.
func buildModelIn(a *Agent, mb *modelBlocks) *Model {
	m := &Model{registry: a.RegistryComponents(), Mount: &SlotMount{}, uses: &usesCache{}}
	if a.Flow == nil || a.Flow.Root == nil {
		m.Defs = newDefinitions()
		return m
	}
	m.Defs = mb.definitions()
	m.blocks = mb
	defer func() { m.blocks = nil }()
	m.Mount = MountSlots(a.Flow)
	m.root = a.Flow.Root
	// the two longest lists grow in a lent scratch and are copied out at
	// their length: appended to from nil, they were allocated about twice
	// over (3.9 MB of the 1,000-agent lint's 53 MB for the uses alone)
	sc := modelScratchPool.Get().(*modelScratch)
	defer sc.release()
	var nest flowNesting
	var around *Flow // the innermost Flow holding the walk's value
	var walk func(n *Node)
	walk = func(n *Node) {
		if n.Kind == Array {
			for _, it := range n.Items {
				if it.Kind == Object || it.Kind == Array { // nothing to do at a scalar: no call
					walk(it)
				}
			}
			return
		}
		if n.Kind != Object {
			return
		}
		// the members every object is asked about, in one scan (the last
		// of a repeated key wins, as with Get and RefID)
		var ctN, rc, ref, idN *Node
		ignoring := false
		for _, mem := range n.Members {
			switch mem.Key {
			case "component_type":
				ctN = mem.Value
			case "id":
				idN = mem.Value
			case "$referenced_components":
				rc = mem.Value
			case "$component_ref":
				ref = mem.Value
			case IgnoreKey:
				ignoring = true
			}
		}
		if ignoring {
			m.ignoring = append(m.ignoring, n)
		}
		ct := ctN.StringOr("")
		if ctN != nil && ctN.Kind == String {
			sc.typed = append(sc.typed, n)
			sc.ids = append(sc.ids, idN.StringOr(""))
		}
		ptr, named := "", false
		outer := around
		if ct == "Flow" {
			around = nest.add(n)
			ptr, named = around.Pointer, true
		}
		if ref != nil && ref.Kind == String { // a use: RefID(n) holds
			sc.refs = append(sc.refs, RefSite{Node: n, ID: ref.Text, Flow: around})
		}
		if rc.Is(Object) {
			if !named {
				ptr = PointerOf(n) // a pointer only for the few objects that need one
			}
			m.Defs.add(ptr, rc, m.blocks)
		}
		switch ct {
		case "AgentNode", "FlowNode", "MapNode", "ParallelMapNode", "CatchExceptionNode":
			m.callers = append(m.callers, n)
		}
		for _, mem := range n.Members {
			if v := mem.Value; v.Kind == Object || v.Kind == Array {
				walk(v)
			}
		}
		around = outer
	}
	walk(a.Flow.Root)
	m.typed, m.typedIDs, m.refNodes = mb.typedCopy(sc.typed), mb.idsCopy(sc.ids), mb.refsCopy(sc.refs)
	m.flows = nest.flows
	m.Flows = make([]*FlowModel, len(m.flows))
	m.byNode = make(map[*Node]*FlowModel, len(m.flows))
	shared := a.sharedCache()
	for i, f := range m.flows {
		fm := m.buildFlow(f)
		if f.Node == a.Flow.Root && f.Parent == nil {
			fm.order = shared // the compiler's order of the same root, when it is the agent's own (nil: its own)
		}
		m.Flows[i] = fm
		m.byNode[f.Node] = fm
	}
	return m
}

// modelScratch holds the lists buildModel's walk grows (Model.typed and
// refNodes) between builds. release clears them, so the pool keeps no
// node of a document alive, and drops a scratch grown past
// modelScratchKeep entries (one large flow does not pin its lists).
type modelScratch struct {
	typed []*Node
	ids   []string
	refs  []RefSite
}

const modelScratchKeep = 4096

var modelScratchPool = sync.Pool{New: func() any { return new(modelScratch) }}

func (sc *modelScratch) release() {
	if cap(sc.typed) > modelScratchKeep || cap(sc.refs) > modelScratchKeep {
		return
	}
	clear(sc.typed)
	clear(sc.ids)
	clear(sc.refs)
	sc.typed, sc.ids, sc.refs = sc.typed[:0], sc.ids[:0], sc.refs[:0]
	modelScratchPool.Put(sc)
}

// exactCopy is a copy of s at its length, nil when s is empty.
func exactCopy[T any](s []T) []T {
	if len(s) == 0 {
		return nil
	}
	return append(make([]T, 0, len(s)), s...)
}

// Typed lists every object of the document whose component_type member
// (the last, when it is repeated) is a string, the empty string included,
// in source order: what a walk of the whole document asking each object
// for its component_type finds, found by the model's own walk. Callers
// must not modify the list.
func (m *Model) Typed() []*Node { return m.typed }

// TypedIDs is, for each object of Typed at the same index, its id member
// when that is a string (the last of a repeated key, as Get reads it),
// else "": what n.Get("id").StringOr("") gives, read in the model's one
// scan of the object's members. Callers must not modify it.
func (m *Model) TypedIDs() []string { return m.typedIDs }

// IgnoreKey is the member through which a document silences oastui's own
// findings in the object that holds it (lint's inline ignores).
const IgnoreKey = "x-oastui-ignore"

// Ignoring lists every object of the document that has an IgnoreKey
// member, in source order, found by the model's walk. Callers must not
// modify the list.
func (m *Model) Ignoring() []*Node { return m.ignoring }

// FlowByNode is the model of the Flow component n of the document, or nil.
func (m *Model) FlowByNode(n *Node) *FlowModel { return m.byNode[n] }

// FlowOf is the model of Flow f: the document's (the same component with
// the same pointer and enclosing Flows) when f is one of its Flows, else
// one built now for f alone — a registry component's Flow, a Flow of
// another document — whose references resolve in f's scopes and the
// registry only.
func (m *Model) FlowOf(f *Flow) *FlowModel {
	if fm := m.byNode[f.Node]; fm != nil && sameFlow(fm.Flow, f) {
		return fm
	}
	alone := &Model{registry: m.registry}
	if m.byNode[f.Node] != nil {
		alone.Mount = m.Mount // the document's component, seen from elsewhere
	}
	return alone.buildFlow(f)
}

// sameFlow: a and b are the same component at the same place, in the same
// enclosing Flows (so every reference resolves alike in both).
func sameFlow(a, b *Flow) bool {
	for ; a != nil && b != nil; a, b = a.Parent, b.Parent {
		if a.Node != b.Node || a.Pointer != b.Pointer {
			return false
		}
	}
	return a == nil && b == nil
}

// Resolve follows the reference n found at ptr inside Flow f as the Agent
// Spec SDKs would: the Flow's own and enclosing scopes and the registry
// first (Flow.Resolve), then the `$referenced_components` of an enclosing
// component (RefLexical), then any definition in the document
// (RefDocument). n itself (RefInline) when it is not a reference. With f
// nil the Flow's scopes and the registry are skipped.
func (m *Model) Resolve(f *Flow, n *Node, ptr string) Resolved {
	id, isRef := RefID(n)
	return m.resolveRef(f, n, ptr, id, isRef)
}

// resolveRef is Resolve with RefID(n) already read (id, isRef): the
// model's build reads it once per entry and endpoint, for the raw id too.
func (m *Model) resolveRef(f *Flow, n *Node, ptr string, id string, isRef bool) Resolved {
	if !isRef {
		return Resolved{Node: n, Pointer: ptr, Scope: RefInline, Owner: f}
	}
	if f != nil {
		if r := f.resolveRef(n, ptr, m.registry, id, isRef); r.Node != nil {
			return r
		}
	}
	if d := m.Defs.Lexical(id, ptr); d != nil {
		return Resolved{Node: d.Node, Pointer: d.Pointer(), Scope: RefLexical}
	}
	if d := m.Defs.First(id); d != nil {
		return Resolved{Node: d.Node, Pointer: d.Pointer(), Scope: RefDocument}
	}
	return Resolved{Scope: RefUnresolved}
}
