package lint

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/oastui/oastui/compile"
)

// `$component_ref` scoping as the Agent Spec SDKs resolve it
// (reference/agentspec.md §4.2): one table per load, filled depth-first as
// `$referenced_components` blocks are met; outer scopes are visible; a key
// defined only in a sibling subtree works only when that sibling is loaded
// first — simulateLoad (below) replays pyagentspec's order to tell the two
// cases apart: component_ref_load_order (the SDK fails) and
// component_ref_sibling_scope (it loads, by the order of the fields); a key
// defined twice anywhere is an error; a component may not contain itself.

var (
	RuleComponentRefUnresolved = &Rule{Code: "component_ref_unresolved", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D11: a $component_ref names a key no $referenced_components of the document (nor the registry) defines; the SDK refuses to load it"}
	RuleComponentRefExternal = &Rule{Code: "component_ref_external", Severity: compile.Warning, Group: "agentspec",
		Doc: "D11: a $component_ref of the form <id>.<field> (a sensitive field) is not defined in the document; it must be supplied when the file is loaded"}
	RuleComponentRefSiblingScope = &Rule{Code: "component_ref_sibling_scope", Severity: compile.Warning, Group: "agentspec",
		Doc: "D14: a $component_ref resolves only through a sibling subtree's $referenced_components, which pyagentspec loads before the reference; it loads, but moving a node or a field breaks it"}
	RuleComponentRefLoadOrder = &Rule{Code: "component_ref_load_order", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D14: a $component_ref is defined only in a sibling subtree's $referenced_components that pyagentspec loads after the reference; the SDK stops with KeyError \"Missing reference for ID\""}
	RuleComponentRefCircular = &Rule{Code: "component_ref_circular", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D13: a referenced component contains itself through $component_refs; the SDKs stop with a circular-dependency error"}
	RuleComponentRefKeyRepeated = &Rule{Code: "component_ref_key_repeated", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D16 (SPEC §3.2; D12 in reference/agentspec.md §5.1): a $referenced_components key is defined twice in the document; the SDKs keep one table and refuse the second"}
	RuleComponentIDDuplicate = &Rule{Code: "component_id_duplicate", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D16: two distinct component objects share an id; the spec makes the configuration invalid (reuse a component through $component_ref)"}
)

var passRefScope = &Check{Name: "agentspec-refscope", Profiles: []compile.Profile{compile.ProfileAgentSpec}, Run: checkRefScope}

var passDuplicateDefinitions = &Check{Name: "agentspec-duplicates", Run: checkDuplicateDefinitions}

func checkRefScope(p *Pass) {
	doc := p.Agent.Flow
	if foreignFormat(doc.Root) != "" {
		return
	}
	ri := p.model().Uses() // compile's definitions-and-uses index; the scope policy is this check's
	registry := p.Agent.RegistryComponents()
	// Pointers of the refs pyagentspec meets before their definition, and
	// of those it meets at all (built on the first sibling-scope ref).
	var tooEarly, reached map[string]bool
	for _, u := range ri.All {
		if ri.Lexical(u.ID, u.Ptr) != nil {
			continue
		}
		if ds := ri.ByKey[u.ID]; len(ds) > 0 {
			if tooEarly == nil {
				early, met := simulateLoad(doc.Root, ri, func(id string) bool { return registry.Get(id) != nil })
				tooEarly, reached = pointerSet(early), pointerSet(met)
			}
			if tooEarly[u.Ptr] {
				p.Report(doc, u.Ptr, RuleComponentRefLoadOrder, fmt.Sprintf(
					"$component_ref %q is defined only at %s, a sibling part that pyagentspec loads after this reference (it loads a component's fields in model order and a $referenced_components block when it reaches its owner): loading fails with KeyError \"Missing reference for ID: %s\" — move the definition to a common ancestor's $referenced_components",
					u.ID, ds[0].Pointer(), u.ID))
				continue
			}
			why := "pyagentspec loads that part first, so it resolves, but reordering nodes or fields breaks it"
			if !reached[u.Ptr] {
				why = "pyagentspec never loads this reference (it sits in a field the component does not define or in a definition nothing uses), other loaders may"
			}
			p.Report(doc, u.Ptr, RuleComponentRefSiblingScope, fmt.Sprintf(
				"$component_ref %q is defined only at %s, outside this reference's own and enclosing scopes; %s — move the definition to a common ancestor's $referenced_components",
				u.ID, ds[0].Pointer(), why))
			continue
		}
		if registry.Get(u.ID) != nil {
			continue
		}
		if strings.Contains(u.ID, ".") {
			p.Report(doc, u.Ptr, RuleComponentRefExternal, fmt.Sprintf(
				"$component_ref %q is a sensitive-field reference not defined in this file; it must be supplied when the configuration is loaded", u.ID))
			continue
		}
		p.Report(doc, u.Ptr, RuleComponentRefUnresolved, fmt.Sprintf(
			"$component_ref %q is not defined in any $referenced_components of the document", u.ID))
	}
	reportRefCycles(p, doc, ri)
}

func pointerSet(ns map[*compile.Node]bool) map[string]bool {
	out := make(map[string]bool, len(ns))
	for n := range ns {
		out[compile.PointerOf(n)] = true
	}
	return out
}

// reportRefCycles reports the definitions that contain themselves through
// refs: the SDKs' table is the document's, so a reference resolves to the
// first definition of its key anywhere (Agent Spec's scope policy); the
// cycle search is compile.RefGraph's. Each cycle is reported once, at the
// reference that closes it.
func reportRefCycles(p *Pass, doc *compile.Doc, ri *compile.RefUses) {
	num := make(map[string]int, len(ri.Order))
	for i, key := range ri.Order {
		num[key] = i
	}
	g := compile.NewRefGraph[string]() // edge → the pointer of its first reference
	for i, key := range ri.Order {
		for _, u := range ri.Deps[key] {
			if to, ok := num[u.ID]; ok {
				g.Add(i, to, u.Ptr)
			}
		}
	}
	for _, c := range g.Cycles(len(ri.Order)) {
		keys := make([]string, 0, len(c)+1)
		for _, k := range c {
			keys = append(keys, ri.Order[k])
		}
		keys = append(keys, keys[0])
		p.Report(doc, g.Via(c[len(c)-1], c[0]), RuleComponentRefCircular, fmt.Sprintf(
			"component %q contains itself through $component_ref: %s", keys[0], strings.Join(keys, " → ")))
	}
}

// checkDuplicateDefinitions reports D16 in both profiles: a
// $referenced_components key defined more than once anywhere in the
// document, and two distinct component objects with the same id.
func checkDuplicateDefinitions(p *Pass) {
	doc := p.Agent.Flow
	if foreignFormat(doc.Root) != "" {
		return
	}
	defs := p.model().Defs
	var repeated []string // pointers of second definitions: their ids are reported as the key
	for _, key := range defs.Order {
		ds := defs.ByKey[key]
		for _, d := range ds[1:] {
			ptr := d.Pointer()
			repeated = append(repeated, ptr)
			p.Report(doc, ptr, RuleComponentRefKeyRepeated, fmt.Sprintf(
				"$referenced_components key %q is defined again here (first at %s); the SDKs keep one table for the whole document and refuse the second definition",
				key, ds[0].Pointer()))
		}
	}
	// The ids used more than once and each one's count (repeatedIDs);
	// the lists of objects (and the pointers) only for those, which are
	// few. ids are read off the model's walk (TypedIDs).
	typed, typedIDs := p.model().Typed(), p.model().TypedIDs()
	order, counts := repeatedIDs(typedIDs)
	if len(order) == 0 {
		return
	}
	ids := make(map[string][]*compile.Node, len(order))
	for k, id := range order {
		ids[id] = make([]*compile.Node, 0, counts[k])
	}
	for i, id := range typedIDs {
		if l, ok := ids[id]; ok && id != "" {
			ids[id] = append(l, typed[i])
		}
	}
	for _, id := range order {
		if len(ids[id]) < 2 {
			continue
		}
		var ptrs []string
	sites:
		for _, n := range ids[id] {
			ptr := compile.PointerOf(n)
			for _, r := range repeated {
				if ptr == r || strings.HasPrefix(ptr, r+"/") {
					continue sites // inside a repeated key's definition: reported as the key
				}
			}
			ptrs = append(ptrs, ptr)
		}
		if len(ptrs) < 2 {
			continue
		}
		for _, ptr := range ptrs[1:] {
			p.ReportByID(doc, ptr, RuleComponentIDDuplicate, fmt.Sprintf(
				"component id %q is also used by the component at %s; a component used twice must be defined once and referenced with $component_ref",
				id, ptrs[0]))
		}
	}
}

// repeatedScanMax is the number of ids up to which repeatedIDs compares
// them pairwise; more are counted in a map.
const repeatedScanMax = 64

// repeatedIDs lists the non-empty ids of typedIDs used more than once, in
// order of their first use, with each one's count. An agent's objects
// with a component_type are mostly edges without an id (the 1,000-agent
// tree: about 40 typed objects an agent; 920 agents with under 16 ids,
// 80 with 40 to 63): the ids are compared pairwise when they are few (at
// most 2,016 comparisons), not counted in a map sized for every typed
// object (1.9 MB of that lint's 55 MB), else counted in a map sized for
// the ids.
func repeatedIDs(typedIDs []string) (order []string, counts []int32) {
	var few [repeatedScanMax]int32 // the indexes of the non-empty ids, when few
	n := 0
	for i, id := range typedIDs {
		if id == "" {
			continue
		}
		if n < repeatedScanMax {
			few[n] = int32(i)
		}
		n++
	}
	if n <= repeatedScanMax {
		at := few[:n]
	next:
		for k, i := range at {
			id := typedIDs[i]
			for _, j := range at[:k] {
				if typedIDs[j] == id {
					continue next // counted at its first use
				}
			}
			c := int32(1)
			for _, j := range at[k+1:] {
				if typedIDs[j] == id {
					c++
				}
			}
			if c > 1 {
				order, counts = append(order, id), append(counts, c)
			}
		}
		return order, counts
	}
	type seen struct{ first, count int32 }
	byID := make(map[string]seen, n)
	for i, id := range typedIDs { // every object with a string component_type, in source order
		if id == "" {
			continue
		}
		e, ok := byID[id]
		if !ok {
			byID[id] = seen{first: int32(i), count: 1}
			continue
		}
		if e.count == 1 {
			order = append(order, id)
		}
		e.count++
		byID[id] = e
	}
	slices.SortFunc(order, func(a, b string) int { return int(byID[a].first - byID[b].first) })
	counts = make([]int32, len(order))
	for k, id := range order {
		counts[k] = byID[id].count
	}
	return order, counts
}

// The order in which pyagentspec deserialises a document, and hence which
// `$component_ref`s it can resolve (oracle/agent-spec,
// pyagentspec/src/pyagentspec/serialization/):
//
//   - deserializationcontext.py, _DeserializationContextImpl: ONE table
//     (self.referenced_components) per load. _load_component_from_dict
//     merges an object's `$referenced_components` into it when it starts
//     loading that object — the whole block at once, without loading its
//     entries — and only then resolves its `$component_ref` or loads its
//     fields through the component's plugin.
//   - _load_reference loads an entry lazily, the first time a reference to
//     it is met (so the blocks nested in an entry join the table only then),
//     and raises KeyError("Missing reference for ID: …") when the key is not
//     in the table yet, even if a block loaded later defines it.
//   - pydanticdeserializationplugin.py,
//     PydanticComponentDeserializationPlugin._resolve_content_and_build (the
//     builtins plugin, builtinsdeserializationplugin.py, is one): a
//     component's fields are loaded in `model_class.model_fields` order —
//     the class's field order, not the file's key order — and fields the
//     model does not define are never loaded. _load_field walks lists in
//     order and dicts in key order, and tests `$component_ref` on every
//     value it is given before looking at the annotation (so a reference
//     directly inside metadata or inputs is resolved, one deeper is not).
//   - deserializer.py, AgentSpecDeserializer.from_dict: a component library
//     (only `$referenced_components` at the top, import_only_referenced_
//     components=True) loads each entry with a fresh context.
//
// simulateLoad replays that walk and returns the references that are met
// before any loaded block defines their key: exactly the sibling-scope
// references the SDK fails on. The order of model_fields is the order of
// the properties of Base<Type> in the official JSON Schema, which pydantic
// generates from the same models (model_json_schema keeps field order).

// modelFieldOrder maps a component type to its fields in model order.
var modelFieldOrder = sync.OnceValue(func() map[string][]string {
	out := map[string][]string{}
	// The newest embedded schema first; older ones only add types it lacks.
	for _, file := range []string{"agentspec_json_spec_26_1_2.json", "agentspec_json_spec_26_1_0.json", "agentspec_json_spec_25_4_2.json", "agentspec_json_spec_25_4_1.json"} {
		src, err := schemaFS.ReadFile("schemas/" + file)
		if err != nil {
			continue
		}
		root, err := compile.Parse(src)
		if err != nil {
			continue
		}
		for _, d := range root.Get("$defs").Members {
			name, ok := strings.CutPrefix(d.Key, "Base")
			if !ok || name == "" {
				continue
			}
			if _, done := out[name]; done {
				continue
			}
			if ct, _ := d.Value.Path("properties", "component_type", "const").Str(); ct != name {
				continue
			}
			var fields []string
			for _, m := range d.Value.Get("properties").Members {
				if m.Key != "component_type" && m.Key != "$referenced_components" {
					fields = append(fields, m.Key)
				}
			}
			out[name] = fields
		}
	}
	return out
})

// loadSim is one simulated pyagentspec load.
type loadSim struct {
	ri       *compile.RefUses
	known    func(key string) bool // in the registry: always resolvable
	table    map[string]*compile.Node
	loading  map[string]bool // keys loaded or being loaded
	tooEarly map[*compile.Node]bool
	reached  map[*compile.Node]bool
}

// simulateLoad returns the {"$component_ref"} objects pyagentspec meets
// before their key is in its table, although the document defines it, and
// every reference it meets at all.
func simulateLoad(root *compile.Node, ri *compile.RefUses, known func(string) bool) (tooEarly, reached map[*compile.Node]bool) {
	s := &loadSim{ri: ri, known: known, tooEarly: map[*compile.Node]bool{}, reached: map[*compile.Node]bool{}}
	reset := func() {
		s.table = map[string]*compile.Node{}
		s.loading = map[string]bool{}
	}
	if isLibrary(root) {
		for _, m := range root.Get("$referenced_components").Members {
			reset()
			s.component(m.Value)
		}
		return s.tooEarly, s.reached
	}
	reset()
	s.component(root)
	return s.tooEarly, s.reached
}

// component is _load_component_from_dict: merge the block, then follow the
// reference or load the fields in model order.
func (s *loadSim) component(n *compile.Node) {
	if !n.Is(compile.Object) {
		return
	}
	if blk := n.Get("$referenced_components"); blk.Is(compile.Object) {
		for _, m := range blk.Members {
			if _, dup := s.table[m.Key]; !dup { // a repeated key fails anyway (component_ref_key_repeated)
				s.table[m.Key] = m.Value
			}
		}
	}
	if _, ok := compile.RefID(n); ok {
		s.ref(n)
		return
	}
	ct, _ := n.Get("component_type").Str()
	if fields, ok := modelFieldOrder()[ct]; ok {
		for _, f := range fields {
			if v := n.Get(f); v != nil {
				s.field(f, v)
			}
		}
		return
	}
	// A plugin or a type newer than the embedded schemas: the file's order.
	for _, m := range n.Members {
		switch m.Key {
		case "component_type", "$referenced_components", "agentspec_version":
			continue
		}
		s.field(m.Key, m.Value)
	}
}

// field is _load_field on one field of a component.
func (s *loadSim) field(key string, v *compile.Node) {
	if freeFormKeys[key] {
		// Plain JSON (Property, Dict[str, Any], Any): _load_field tests the
		// value and, for a dict or list annotation, each direct element.
		if !s.maybeRef(v) {
			for _, m := range v.Members {
				s.maybeRef(m.Value)
			}
			for _, it := range v.Items {
				s.maybeRef(it)
			}
		}
		return
	}
	s.value(v)
}

func (s *loadSim) maybeRef(v *compile.Node) bool {
	if _, ok := compile.RefID(v); ok {
		s.ref(v)
		return true
	}
	return false
}

// value loads a component-typed value, a list, or a nested plain object.
func (s *loadSim) value(v *compile.Node) {
	switch {
	case v == nil:
	case v.Kind == compile.Array:
		for _, it := range v.Items {
			s.value(it)
		}
	case v.Kind != compile.Object:
	case s.maybeRef(v): // _load_field resolves a reference before any merge
	case v.Get("component_type") != nil || v.Get("$referenced_components") != nil:
		s.component(v)
	default:
		for _, m := range v.Members {
			s.field(m.Key, m.Value)
		}
	}
}

// ref is _load_reference.
func (s *loadSim) ref(n *compile.Node) {
	id, _ := compile.RefID(n)
	s.reached[n] = true
	if s.known(id) || s.loading[id] {
		// In the registry (loaded_references, looked up first), loaded, or
		// a cycle (component_ref_circular).
		return
	}
	def, ok := s.table[id]
	if !ok {
		if len(s.ri.ByKey[id]) > 0 {
			s.tooEarly[n] = true
		}
		return
	}
	s.loading[id] = true
	s.component(def)
}
