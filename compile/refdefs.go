package compile

// The `$referenced_components` definitions of a whole document, as the
// Agent Spec SDKs see them (reference/agentspec.md §4.2): one table per
// load, so a reference that no enclosing scope defines may still be met by
// a definition elsewhere. The flow model (Model.Resolve) falls back on
// them, and the linter's reference-scope and duplicate checks read them.

// RefDef is one entry of a `$referenced_components` block.
type RefDef struct {
	Key   string
	Node  *Node  // the definition
	Owner string // pointer of the object whose $referenced_components holds it
}

// Pointer is where the definition is (built on demand: most are never
// named).
func (d RefDef) Pointer() string { return Append(d.Owner, "$referenced_components", d.Key) }

// Definitions lists every `$referenced_components` entry of a document.
// A nil *Definitions holds none.
type Definitions struct {
	ByKey  map[string][]RefDef // key → its definitions, in source order
	Blocks map[string]*Node    // owner pointer → its $referenced_components object
	Order  []string            // keys in order of first definition

	lent bool // the table is lent again from blocks (modelBlocks.definitions), its maps cleared
}

func newDefinitions() *Definitions {
	return &Definitions{ByKey: map[string][]RefDef{}, Blocks: map[string]*Node{}}
}

// add records the block rc of the object at owner.
//
// The block's definitions share one allocation; each key's list starts as a
// slice of it with capacity one, so a later definition of the same key is
// appended to a copy, never over a neighbour. The first block added (the
// root Flow's, which the model's walk meets first) sizes the table: a flow
// of 33,000 nodes defines them all there.
//
// The slab is carved from mb when it is set (Model.blocks).
func (d *Definitions) add(owner string, rc *Node, mb *modelBlocks) {
	d.Blocks[owner] = rc
	if len(d.ByKey) == 0 && len(rc.Members) > 8 {
		if !d.lent { // a table lent again keeps its map (Model.blocks)
			d.ByKey = make(map[string][]RefDef, len(rc.Members))
		}
		d.Order = make([]string, 0, len(rc.Members))
	}
	slab := mb.defList(len(rc.Members))
	for i, m := range rc.Members {
		slab[i] = RefDef{Key: m.Key, Node: m.Value, Owner: owner}
		defs, seen := d.ByKey[m.Key]
		if !seen {
			d.Order = append(d.Order, m.Key)
			d.ByKey[m.Key] = slab[i : i+1 : i+1]
			continue
		}
		d.ByKey[m.Key] = append(defs, slab[i])
	}
}

// Lexical finds key in the $referenced_components of the object at ptr or
// of one of its ancestors, nearest first; nil when none defines it.
func (d *Definitions) Lexical(key, ptr string) *RefDef {
	if d == nil || len(d.ByKey[key]) == 0 {
		return nil
	}
	toks := SplitPointer(ptr)
	for i := len(toks); i >= 0; i-- {
		owner := Pointer(toks[:i]...)
		if blk := d.Blocks[owner]; blk != nil && blk.Get(key) != nil {
			defs := d.ByKey[key]
			for j := range defs {
				if defs[j].Owner == owner {
					return &defs[j]
				}
			}
		}
	}
	return nil
}

// First is the first definition of key in the document, or nil.
func (d *Definitions) First(key string) *RefDef {
	if d == nil || len(d.ByKey[key]) == 0 {
		return nil
	}
	return &d.ByKey[key][0]
}
