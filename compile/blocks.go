package compile

// Blocks is memory that the JSON documents of one load are parsed into
// (their bytes, nodes, object members and array items), lent again to the
// next load once the caller has let go of every document of the first.
//
// `oastui lint` over a tree parses a thousand agents one after another on
// each worker and keeps none of their documents (only findings, which
// hold strings and offsets, never a Node or the file's bytes): parsing
// each into fresh memory made the collector run a hundred times per
// thousand agents to take back what the next agent could have reused.
//
// The flow model of an agent loaded with a Blocks (Agent.Model) is built
// into it too (modelBlocks): its Flows' entries, nodes and edges, the
// walk's lists and the definitions' tables, lent again with the
// documents. Lint keeps nothing of a model either: the findings hold
// strings (never a model's value), the workspace summary strings and
// counts. Every other face loads without Blocks, and its models are
// built into new memory as before.
//
// A Blocks belongs to one goroutine. After a load made with it, the
// caller says what became of its documents: Reuse when nothing of them is
// reachable any more (the next load overwrites them), Keep when they are
// kept (their blocks are given up, and the next load gets new ones). The
// zero value is ready; a nil *Blocks allocates as usual. Documents read
// through a RegistryCache, shared by many loads, never use it.
type Blocks struct {
	nodes   blockList[Node]
	members blockList[Member]
	items   blockList[*Node]
	bytes   blockList[byte]
	model   modelBlocks // the flow model's arrays (buildModel)
}

// Block sizes: a block of nodes or members holds a few agents' worth of
// small files and a tenth of a large flow file; file bytes come in 1 MiB
// blocks (a larger file gets its own buffer, outside the blocks).
const (
	nodeBlock   = 1024
	memberBlock = 1024
	itemBlock   = 256
	byteBlock   = 1 << 20
)

// Reuse lends every block again: the documents parsed into them, and
// the models built into them, must no longer be reachable. Nothing is cleared here: a node is cleared when
// the parser carves it, and a member, an item or a byte is written over
// before it is read. Until the next loads write over them, the blocks'
// old entries keep what they pointed to (the strings and key indexes of
// the documents before) reachable: at most one load's worth, for as long
// as the Blocks lives.
func (b *Blocks) Reuse() {
	if b == nil {
		return
	}
	b.nodes.reuse()
	b.members.reuse()
	b.items.reuse()
	b.bytes.reuse()
	b.model.reuse()
}

// Keep gives up the blocks lent so far: the documents in them (and the
// models) are kept.
func (b *Blocks) Keep() {
	if b == nil {
		return
	}
	b.nodes.keep()
	b.members.keep()
	b.items.keep()
	b.bytes.keep()
	b.model.keep()
}

// modelBlocks are the arrays of the flow models built for the loads of a
// Blocks (Agent.Model of an agent Load made with it): the Flows' entries,
// nodes, edges and control lists, the walk's lists and the definitions.
// Every kind holds values and pointers into the documents and into the
// model itself, never a string's bytes, so a finding's message or pointer
// (a string) never aliases them. A slice carved from them is cleared when
// it is carved (modelTake), so none of its entries beyond what the new
// model writes holds a node of an older document.
type modelBlocks struct {
	entries blockList[NodeEntry]
	nodes   blockList[FlowNode]
	control blockList[ControlEdge]
	data    blockList[DataEdge]
	links   blockList[*ControlEdge]
	defs    blockList[RefDef]
	typed   blockList[*Node]
	ids     blockList[string]
	refs    blockList[RefSite]
	flows   blockList[FlowModel]
	// tables are the definitions' tables (their maps), tables[:lentTables]
	// lent to the models built since the last reuse
	tables     []*Definitions
	lentTables int
}

// Model block sizes, in elements: a few agents' worth of each (the
// 1,000-agent tree's flows hold about 20 data edges and as many nodes).
const (
	entryBlock    = 256
	flowNodeBlock = 256
	edgeBlock     = 256
	linkBlock     = 1024
	defBlock      = 512
	listBlock     = 2048
	refBlock      = 2048 // a flow's uses: hundreds
	flowBlock     = 64
)

func (mb *modelBlocks) reuse() {
	mb.entries.reuse()
	mb.nodes.reuse()
	mb.control.reuse()
	mb.data.reuse()
	mb.links.reuse()
	mb.defs.reuse()
	mb.typed.reuse()
	mb.ids.reuse()
	mb.refs.reuse()
	mb.flows.reuse()
	mb.lentTables = 0
}

func (mb *modelBlocks) keep() {
	mb.entries.keep()
	mb.nodes.keep()
	mb.control.keep()
	mb.data.keep()
	mb.links.keep()
	mb.defs.keep()
	mb.typed.keep()
	mb.ids.keep()
	mb.refs.keep()
	mb.flows.keep()
	mb.tables = append([]*Definitions(nil), mb.tables[mb.lentTables:]...)
	mb.lentTables = 0
}

// forModel is the blocks of the flow models, nil for a nil b.
func (b *Blocks) forModel() *modelBlocks {
	if b == nil {
		return nil
	}
	return &b.model
}

// lend is n cleared elements of l (blocks of size), capacity n. Unlike
// take, any n up to a whole block is carved from one (a model has a few
// lists of each kind, and a block is lent again to every agent after): n
// over the rest of the current block starts the next block.
func lend[T any](l *blockList[T], n, size int) []T {
	switch {
	case n == 0:
		return []T{} // not nil, as make([]T, 0) is (no allocation)
	case n > size:
		return make([]T, n)
	case n > len(l.rest):
		l.rest = l.next(size)
	}
	out := l.rest[:n:n]
	l.rest = l.rest[n:]
	clear(out)
	return out
}

// The model's arrays, each of length n (capacity n), cleared: carved from
// mb, or new when mb is nil (no Blocks: every face but the batch lint).

func (mb *modelBlocks) entryList(n int) []NodeEntry {
	if mb == nil {
		return make([]NodeEntry, n)
	}
	return lend(&mb.entries, n, entryBlock)
}

func (mb *modelBlocks) nodeList(n int) []FlowNode {
	if mb == nil {
		return make([]FlowNode, n)
	}
	return lend(&mb.nodes, n, flowNodeBlock)
}

func (mb *modelBlocks) controlList(n int) []ControlEdge {
	if mb == nil {
		return make([]ControlEdge, n)
	}
	return lend(&mb.control, n, edgeBlock)
}

func (mb *modelBlocks) dataList(n int) []DataEdge {
	if mb == nil {
		return make([]DataEdge, n)
	}
	return lend(&mb.data, n, edgeBlock)
}

// flowModel is a cleared FlowModel, carved from mb or new.
func (mb *modelBlocks) flowModel() *FlowModel {
	if mb == nil {
		return new(FlowModel)
	}
	return &lend(&mb.flows, 1, flowBlock)[0]
}

func (mb *modelBlocks) linkList(n int) []*ControlEdge {
	if mb == nil {
		return make([]*ControlEdge, n)
	}
	return lend(&mb.links, n, linkBlock)
}

func (mb *modelBlocks) defList(n int) []RefDef {
	if mb == nil {
		return make([]RefDef, n)
	}
	return lend(&mb.defs, n, defBlock)
}

// definitionsKeep is the number of keys past which a definitions table is
// not lent again (one large flow does not pin its maps, nor has every
// later agent clear them).
const definitionsKeep = 4096

// definitions is an empty table of definitions: one lent again, its maps
// cleared, or a new one (always, when mb is nil).
func (mb *modelBlocks) definitions() *Definitions {
	if mb == nil {
		return newDefinitions()
	}
	for mb.lentTables < len(mb.tables) {
		d := mb.tables[mb.lentTables]
		if len(d.ByKey) > definitionsKeep || len(d.Blocks) > definitionsKeep {
			mb.tables = append(mb.tables[:mb.lentTables], mb.tables[mb.lentTables+1:]...)
			continue
		}
		mb.lentTables++
		clear(d.ByKey)
		clear(d.Blocks)
		d.Order = nil
		return d
	}
	d := newDefinitions()
	d.lent = true
	mb.tables = append(mb.tables, d)
	mb.lentTables++
	return d
}

// copies of the walk's lists (exactCopy: nil when empty)

func (mb *modelBlocks) typedCopy(s []*Node) []*Node {
	if mb == nil || len(s) == 0 {
		return exactCopy(s)
	}
	return append(lend(&mb.typed, len(s), listBlock)[:0], s...)
}

func (mb *modelBlocks) idsCopy(s []string) []string {
	if mb == nil || len(s) == 0 {
		return exactCopy(s)
	}
	return append(lend(&mb.ids, len(s), listBlock)[:0], s...)
}

func (mb *modelBlocks) refsCopy(s []RefSite) []RefSite {
	if mb == nil || len(s) == 0 {
		return exactCopy(s)
	}
	return append(lend(&mb.refs, len(s), refBlock)[:0], s...)
}

// blockList is one kind of block: those lent (blocks[:lent]) and those
// free for the next load (blocks[lent:]), and the unused rest of the
// block being carved.
type blockList[T any] struct {
	blocks [][]T
	lent   int
	rest   []T
}

// next is a whole block of size elements: a free one, else a new one.
func (l *blockList[T]) next(size int) []T {
	if l.lent < len(l.blocks) {
		b := l.blocks[l.lent]
		l.lent++
		return b
	}
	b := make([]T, size)
	l.blocks = append(l.blocks, b)
	l.lent++
	return b
}

// take carves n elements (capacity n, so that an append copies instead of
// writing over a neighbour) from the current block, starting the next
// block of size elements when it does not fit; n over a quarter of a
// block gets its own slice, outside the blocks.
func (l *blockList[T]) take(n, size int) []T {
	if n > size/4 {
		return make([]T, n)
	}
	if n > len(l.rest) {
		l.rest = l.next(size)
	}
	out := l.rest[:n:n]
	l.rest = l.rest[n:]
	return out
}

func (l *blockList[T]) reuse() {
	l.lent, l.rest = 0, nil
}

func (l *blockList[T]) keep() {
	// a new list: the old one's first entries would hold the kept blocks
	// for as long as the Blocks lives
	l.blocks = append([][]T(nil), l.blocks[l.lent:]...)
	l.lent, l.rest = 0, nil
}
