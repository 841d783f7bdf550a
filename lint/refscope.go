package lint

import (
	"fmt"
	"sort"
	"strings"

	"github.com/oastui/oastui/compile"
)

// `$component_ref` scoping as the Agent Spec SDKs resolve it
// (reference/agentspec.md §4.2): one table per load, filled depth-first as
// `$referenced_components` blocks are met; outer scopes are visible; a key
// defined only in a sibling subtree works only when that sibling happens to
// be loaded first; a key defined twice anywhere is an error; a component
// may not contain itself.

var (
	RuleComponentRefUnresolved = &Rule{Code: "component_ref_unresolved", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D11: a $component_ref names a key no $referenced_components of the document (nor the registry) defines; the SDK refuses to load it"}
	RuleComponentRefExternal = &Rule{Code: "component_ref_external", Severity: compile.Warning, Group: "agentspec",
		Doc: "D11: a $component_ref of the form <id>.<field> (a sensitive field) is not defined in the document; it must be supplied when the file is loaded"}
	RuleComponentRefSiblingScope = &Rule{Code: "component_ref_sibling_scope", Severity: compile.Warning, Group: "agentspec",
		Doc: "D14: a $component_ref resolves only through a sibling subtree's $referenced_components; the SDKs resolve it only if that sibling is loaded first"}
	RuleComponentRefCircular = &Rule{Code: "component_ref_circular", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D13: a referenced component contains itself through $component_refs; the SDKs stop with a circular-dependency error"}
	RuleComponentRefKeyRepeated = &Rule{Code: "component_ref_key_repeated", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D16 (SPEC §3.2; D12 in reference/agentspec.md §5.1): a $referenced_components key is defined twice in the document; the SDKs keep one table and refuse the second"}
	RuleComponentIDDuplicate = &Rule{Code: "component_id_duplicate", Severity: compile.Blocker, Group: "agentspec",
		Doc: "D16: two distinct component objects share an id; the spec makes the configuration invalid (reuse a component through $component_ref)"}
)

var passRefScope = &Check{Name: "agentspec-refscope", Profiles: []compile.Profile{compile.ProfileAgentSpec}, Run: checkRefScope}

var passDuplicateDefinitions = &Check{Name: "agentspec-duplicates", Run: checkDuplicateDefinitions}

// refDef is one entry of a `$referenced_components` block.
type refDef struct {
	key   string
	node  *compile.Node
	ptr   string // pointer of the definition
	owner string // pointer of the object whose $referenced_components holds it
}

// refUse is one {"$component_ref": id} object.
type refUse struct {
	id  string
	ptr string
}

// refIndex lists every definition and use of the document.
type refIndex struct {
	defs   map[string][]refDef      // key → definitions, in source order
	blocks map[string]*compile.Node // owner pointer → its $referenced_components object
	uses   []refUse                 // in source order
	order  []string                 // keys in order of first definition
	deps   map[string][]refUse      // key → refs used in its definition (outside nested blocks)
}

// buildRefIndex indexes the definitions; withUses also lists every
// reference and each definition's dependencies (for the scope and cycle
// checks), which costs a pointer per reference.
func buildRefIndex(root *compile.Node, withUses bool) *refIndex {
	ri := &refIndex{defs: map[string][]refDef{}, blocks: map[string]*compile.Node{}, deps: map[string][]refUse{}}
	compile.WalkNodes(root, func(n *compile.Node) bool {
		if n.Kind != compile.Object {
			return true
		}
		id, isRef := compile.RefID(n)
		isRef = isRef && withUses
		rc := n.Get("$referenced_components")
		if !isRef && !rc.Is(compile.Object) {
			return true
		}
		ptr := compile.PointerOf(n) // only for the few objects that need one
		if isRef {
			ri.uses = append(ri.uses, refUse{id: id, ptr: ptr})
		}
		if rc.Is(compile.Object) {
			bp := compile.Append(ptr, "$referenced_components")
			ri.blocks[ptr] = rc
			for _, m := range rc.Members {
				if _, seen := ri.defs[m.Key]; !seen {
					ri.order = append(ri.order, m.Key)
				}
				ri.defs[m.Key] = append(ri.defs[m.Key], refDef{key: m.Key, node: m.Value, ptr: compile.Append(bp, m.Key), owner: ptr})
			}
		}
		return true
	})
	for _, key := range ri.order {
		if !withUses {
			break
		}
		d := ri.defs[key][0]
		compile.WalkNodes(d.node, func(n *compile.Node) bool {
			if n != d.node && n.Key() == "$referenced_components" {
				return false // nested definitions are their own entries
			}
			if id, ok := compile.RefID(n); ok {
				ri.deps[key] = append(ri.deps[key], refUse{id: id, ptr: compile.PointerOf(n)})
			}
			return true
		})
	}
	return ri
}

// lexical finds key in the $referenced_components of the object at ptr or
// of one of its ancestors, nearest first.
func (ri *refIndex) lexical(key, ptr string) *refDef {
	toks := compile.SplitPointer(ptr)
	for i := len(toks); i >= 0; i-- {
		owner := compile.Pointer(toks[:i]...)
		if blk := ri.blocks[owner]; blk != nil && blk.Get(key) != nil {
			for j := range ri.defs[key] {
				if ri.defs[key][j].owner == owner {
					return &ri.defs[key][j]
				}
			}
		}
	}
	return nil
}

func checkRefScope(p *Pass) {
	doc := p.Agent.Flow
	if foreignFormat(doc.Root) != "" {
		return
	}
	ri := buildRefIndex(doc.Root, true)
	registry := p.Agent.RegistryComponents()
	for _, u := range ri.uses {
		if ri.lexical(u.id, u.ptr) != nil {
			continue
		}
		if ds := ri.defs[u.id]; len(ds) > 0 {
			p.Report(doc, u.ptr, RuleComponentRefSiblingScope, fmt.Sprintf(
				"$component_ref %q is defined only at %s, outside this reference's own and enclosing scopes; the SDKs resolve it only when that part is loaded first — move the definition to a common ancestor's $referenced_components",
				u.id, ds[0].ptr))
			continue
		}
		if registry.Get(u.id) != nil {
			continue
		}
		if strings.Contains(u.id, ".") {
			p.Report(doc, u.ptr, RuleComponentRefExternal, fmt.Sprintf(
				"$component_ref %q is a sensitive-field reference not defined in this file; it must be supplied when the configuration is loaded", u.id))
			continue
		}
		p.Report(doc, u.ptr, RuleComponentRefUnresolved, fmt.Sprintf(
			"$component_ref %q is not defined in any $referenced_components of the document", u.id))
	}
	reportRefCycles(p, doc, ri)
}

// reportRefCycles finds definitions that contain themselves through refs.
func reportRefCycles(p *Pass, doc *compile.Doc, ri *refIndex) {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	reported := map[string]bool{}
	var visit func(key string)
	visit = func(key string) {
		color[key] = grey
		stack = append(stack, key)
		for _, u := range ri.deps[key] {
			if _, ok := ri.defs[u.id]; !ok {
				continue
			}
			switch color[u.id] {
			case white:
				visit(u.id)
			case grey:
				i := len(stack) - 1
				for i > 0 && stack[i] != u.id {
					i--
				}
				cycle := append(append([]string{}, stack[i:]...), u.id)
				sig := canonicalCycle(cycle[:len(cycle)-1])
				if !reported[sig] {
					reported[sig] = true
					p.Report(doc, u.ptr, RuleComponentRefCircular, fmt.Sprintf(
						"component %q contains itself through $component_ref: %s", u.id, strings.Join(cycle, " → ")))
				}
			}
		}
		stack = stack[:len(stack)-1]
		color[key] = black
	}
	for _, key := range ri.order {
		if color[key] == white {
			visit(key)
		}
	}
}

func canonicalCycle(keys []string) string {
	s := append([]string{}, keys...)
	sort.Strings(s)
	return strings.Join(s, "\x00")
}

// checkDuplicateDefinitions reports D16 in both profiles: a
// $referenced_components key defined more than once anywhere in the
// document, and two distinct component objects with the same id.
func checkDuplicateDefinitions(p *Pass) {
	doc := p.Agent.Flow
	if foreignFormat(doc.Root) != "" {
		return
	}
	ri := buildRefIndex(doc.Root, false)
	var repeated []string // pointers of second definitions: their ids are reported as the key
	for _, key := range ri.order {
		ds := ri.defs[key]
		for _, d := range ds[1:] {
			repeated = append(repeated, d.ptr)
			p.Report(doc, d.ptr, RuleComponentRefKeyRepeated, fmt.Sprintf(
				"$referenced_components key %q is defined again here (first at %s); the SDKs keep one table for the whole document and refuse the second definition",
				key, ds[0].ptr))
		}
	}
	ids := map[string][]string{}
	var order []string
	compile.WalkNodes(doc.Root, func(n *compile.Node) bool {
		if n.Kind != compile.Object {
			return true
		}
		if _, ok := n.Get("component_type").Str(); !ok {
			return true
		}
		id, ok := n.Get("id").Str()
		if !ok || id == "" {
			return true
		}
		if _, seen := ids[id]; !seen {
			order = append(order, id)
		}
		ids[id] = append(ids[id], compile.PointerOf(n))
		return true
	})
	for _, id := range order {
		var ptrs []string
	sites:
		for _, ptr := range ids[id] {
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
			p.Report(doc, ptr, RuleComponentIDDuplicate, fmt.Sprintf(
				"component id %q is also used by the component at %s; a component used twice must be defined once and referenced with $component_ref",
				id, ptrs[0]))
		}
	}
}
