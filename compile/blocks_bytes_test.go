package compile

import (
	"math/rand/v2"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// takeBytes over random loads of random sizes (a few bytes to past
// byteOwn, with Reuse between loads): each buffer is exactly n long with
// no spare capacity, no two buffers of one load share a byte (each is
// filled with its own mark and checked once the load is done), a buffer
// over byteOwn is outside the blocks, a block is never shorter than what
// was carved from it, and a load repeated after Reuse gets no new block.
// Mutants caught: the l.lent++ dropped (a second file lands on the
// first's bytes), a too-small free block lent as it is (a slice past its
// end: a panic), the rounding dropped (the repeat of a load allocates).
func TestTakeBytesBuffersAreDisjoint(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 24))
	const size, own = 1 << 10, 4 << 10
	var l blockList[byte]
	for load := range 300 {
		sizes := make([]int, 1+rng.IntN(8))
		for i := range sizes {
			switch rng.IntN(4) {
			case 0:
				sizes[i] = 1 + rng.IntN(16)
			case 1:
				sizes[i] = 1 + rng.IntN(size)
			case 2:
				sizes[i] = 1 + rng.IntN(own)
			default:
				sizes[i] = 1 + rng.IntN(2*own)
			}
		}
		for repeat := range 2 {
			blocksBefore := len(l.blocks)
			var bufs [][]byte
			for k, n := range sizes {
				b := l.takeBytes(n, size, own)
				if len(b) != n || cap(b) != n {
					t.Fatalf("load %d: take %d gave len %d cap %d", load, n, len(b), cap(b))
				}
				for i := range b {
					b[i] = byte(k + 1)
				}
				bufs = append(bufs, b)
			}
			for k, b := range bufs {
				for i := range b {
					if b[i] != byte(k+1) {
						t.Fatalf("load %d: buffer %d of %v was written over by a later one", load, k, sizes)
					}
				}
			}
			for _, blk := range l.blocks {
				if len(blk) < size || len(blk)%size != 0 || len(blk) > own+size {
					t.Fatalf("load %d: a block of %d bytes (block %d, own %d)", load, len(blk), size, own)
				}
			}
			if repeat == 1 && len(l.blocks) != blocksBefore {
				t.Fatalf("load %d: the same files again after Reuse took %d new blocks", load, len(l.blocks)-blocksBefore)
			}
			l.reuse()
		}
	}
}

// The real agents loaded one after another into one Blocks (the corpus
// and the history, large flow files next to small ones, so byte blocks
// are replaced by larger ones), handed back with Reuse in between, parse
// exactly as into fresh memory: a reused byte block keeps nothing of the
// file before (the documents' Src, values and offsets compared), and the
// strings of an agent parsed before keep their values when its blocks are
// written over by the next (no retained string aliases a block).
func TestBlocksReuseBytesOverSharedAgents(t *testing.T) {
	var b Blocks
	var prev map[string]string
	var prevAgent *Agent
	testshared.RunSharedAgents(t, 8, 78, func(t *testing.T, dir string) {
		a, err := Load(dir, LoadOptions{Blocks: &b})
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := Load(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got, want := agentDocs(t, a), agentDocs(t, fresh)
		for k := range want {
			if got[k] != want[k] {
				t.Errorf("%s: the %s document parsed into reused blocks differs from a fresh parse", dir, k)
			}
		}
		if prevAgent != nil && prevAgent.Flow != nil && prevAgent.Flow.Root != nil {
			// the previous agent's strings, read after this load wrote over
			// its blocks: the nodes are gone, but a string taken before is not
			if s := prev["name"]; s != "" && s != prev["nameCopy"] {
				t.Errorf("a string of the agent before changed when its blocks were reused: %q, was %q", s, prev["nameCopy"])
			}
		}
		prevAgent, prev = a, map[string]string{}
		if a.Flow != nil && a.Flow.Root != nil {
			if n := a.Flow.Root.Get("description"); n != nil {
				prev["name"], prev["nameCopy"] = n.Text, string([]byte(n.Text))
			}
		}
		b.Reuse()
	})
}
