package compile

import "sync"

// The document's `$component_ref` uses, beside its definitions
// (Definitions): the one definitions-and-uses index of a flow file. The
// linter's Agent Spec reference-scope check reads it as it is (one table
// per load, reference/agentspec.md §4.2); each reader keeps its own scope
// policy.

// RefUse is one {"$component_ref": id} object of the document.
type RefUse struct {
	ID   string
	Node *Node  // the {"$component_ref"} object
	Ptr  string // its pointer
}

// RefUses lists every use of the document and, for each definition, the
// uses inside it.
type RefUses struct {
	*Definitions                     // the $referenced_components entries
	All          []RefUse            // every use, in source order
	Deps         map[string][]RefUse // key → the uses in its first definition (outside nested blocks, which are their own entries)
}

// usesCache builds a model's RefUses once.
type usesCache struct {
	once sync.Once
	u    *RefUses
}

// Uses is the definitions-and-uses index of the model's document, built on
// first use and shared (concurrent readers included). Nobody modifies it.
func (m *Model) Uses() *RefUses {
	if m.uses == nil { // a Model written by hand
		return buildRefUses(m.Defs, m.RefNodes())
	}
	m.uses.once.Do(func() { m.uses.u = buildRefUses(m.Defs, m.refNodes) })
	return m.uses.u
}

// RefSite is one {"$component_ref": id} object of a model's document
// (RefID holds) and the innermost Flow of the model that holds it (the
// object itself when it is one; nil outside every Flow).
type RefSite struct {
	Node *Node
	ID   string // the id it refers to
	Flow *Flow
}

// RefNodes is every use of the model's document, in source order: the
// uses the model's own walk met, with no pointer built. Uses is made of
// them; the Cinatra validator reads them as they are. Callers must not
// modify the list.
func (m *Model) RefNodes() []RefSite {
	if m.uses == nil { // a Model written by hand: its walk did not run
		var refs []RefSite
		WalkNodes(m.root, func(n *Node) bool {
			if id, isRef := RefID(n); isRef {
				refs = append(refs, RefSite{Node: n, ID: id, Flow: m.flowAround(n)})
			}
			return true
		})
		return refs
	}
	return m.refNodes
}

// flowAround is the innermost Flow of the model that holds n (n itself
// when it is one), found through n's parents; nil outside every Flow.
func (m *Model) flowAround(n *Node) *Flow {
	for ; n != nil; n = n.parent {
		if fm := m.byNode[n]; fm != nil {
			return fm.Flow
		}
	}
	return nil
}

// buildRefUses indexes the uses refs (every use of the document, in source
// order) and the uses of each of defs.
func buildRefUses(defs *Definitions, refs []RefSite) *RefUses {
	if defs == nil {
		defs = newDefinitions()
	}
	u := &RefUses{Definitions: defs, Deps: map[string][]RefUse{}, All: make([]RefUse, len(refs))}
	for i, r := range refs {
		u.All[i] = RefUse{ID: r.ID, Node: r.Node, Ptr: PointerOf(r.Node)}
	}
	for _, key := range u.Order {
		d := u.ByKey[key][0]
		WalkNodes(d.Node, func(n *Node) bool {
			if n != d.Node && n.Key() == "$referenced_components" {
				return false
			}
			if id, ok := RefID(n); ok {
				u.Deps[key] = append(u.Deps[key], RefUse{ID: id, Node: n, Ptr: PointerOf(n)})
			}
			return true
		})
	}
	return u
}
