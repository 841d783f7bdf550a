package compile

import (
	"math/rand"
	"reflect"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/internal/race"
)

// newNodeResliced is newNode as it was, reslicing its slab for each node
// (the oracle of TestNewNodeCarvesAsResliced); p.slabAt stays 0.
func newNodeResliced(p *parser) *Node {
	if len(p.slab) == 0 {
		if p.blocks != nil {
			p.slab = p.blocks.nodes.next(nodeBlock)
		} else {
			p.slab = make([]Node, slabSize(p.rest()))
		}
	}
	n := &p.slab[0]
	p.slab = p.slab[1:]
	if p.blocks != nil {
		*n = Node{}
	}
	return n
}

// carvedAt is the block and the index in it of node n: the place a parse
// carved it from.
func carvedAt(t *testing.T, l *blockList[Node], n *Node) [2]int {
	for b, blk := range l.blocks {
		base := uintptr(unsafe.Pointer(&blk[0]))
		if at := uintptr(unsafe.Pointer(n)); at >= base && at < base+uintptr(len(blk))*unsafe.Sizeof(Node{}) {
			return [2]int{b, int((at - base) / unsafe.Sizeof(Node{}))}
		}
	}
	t.Fatalf("node %p is in no block", n)
	return [2]int{}
}

// TestNewNodeCarvesAsResliced: newNode, which steps an index through its
// slab, carves the nodes the resliced version did — the same block and
// place for each, a lent node cleared, the same rest handed back to the
// blocks after each parse (parseScratch's defer) — over random runs of
// parses of 0 to 3,000 nodes into two Blocks reused now and then; and
// without blocks, every node is from a fresh slab, zero.
func TestNewNodeCarvesAsResliced(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	var got, want Blocks
	for doc := 0; doc < 400; doc += race.Stride(8) {
		if r.Intn(10) == 0 {
			got.Reuse()
			want.Reuse()
		}
		p, q := parser{blocks: &got}, parser{blocks: &want}
		p.slab, q.slab = got.nodes.rest, want.nodes.rest
		nodes := r.Intn(3000)
		if r.Intn(4) == 0 {
			nodes = r.Intn(5)
		}
		for i := 0; i < nodes; i++ {
			a, b := p.newNode(), newNodeResliced(&q)
			if !reflect.DeepEqual(*a, Node{}) {
				t.Fatalf("doc %d, node %d: a lent node not cleared: %+v", doc, i, *a)
			}
			if ga, wa := carvedAt(t, &got.nodes, a), carvedAt(t, &want.nodes, b); ga != wa {
				t.Fatalf("doc %d, node %d: carved at %v, the resliced version at %v", doc, i, ga, wa)
			}
			a.Text, a.Offset = "used", i // what the next use of the block clears
			b.Text, b.Offset = "used", i
		}
		got.nodes.rest, want.nodes.rest = p.slab[p.slabAt:], q.slab
		if len(got.nodes.rest) != len(want.nodes.rest) || len(got.nodes.rest) > 0 && carvedAt(t, &got.nodes, &got.nodes.rest[0]) != carvedAt(t, &want.nodes, &want.nodes.rest[0]) {
			t.Fatalf("doc %d: rest of %d nodes, the resliced version's %d", doc, len(got.nodes.rest), len(want.nodes.rest))
		}
	}
	if len(got.nodes.blocks) != len(want.nodes.blocks) || len(got.nodes.blocks) < 2 {
		t.Fatalf("%d blocks, the resliced version's %d", len(got.nodes.blocks), len(want.nodes.blocks))
	}
	p := parser{src: make([]byte, 5000)}
	seen := map[*Node]bool{}
	for i := 0; i < 2000; i++ {
		n := p.newNode()
		if seen[n] || !reflect.DeepEqual(*n, Node{}) {
			t.Fatalf("node %d: carved twice or not zero", i)
		}
		seen[n] = true
		n.Text = "used"
	}
}
