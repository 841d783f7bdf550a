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

// Reuse lends every block again: the documents parsed into them must no
// longer be reachable. Nothing is cleared here: a node is cleared when
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
}

// Keep gives up the blocks lent so far: the documents in them are kept.
func (b *Blocks) Keep() {
	if b == nil {
		return
	}
	b.nodes.keep()
	b.members.keep()
	b.items.keep()
	b.bytes.keep()
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
