package lint

import (
	"hash/maphash"
	"sync"
)

// idRepeats finds the ids that two or more objects of a document hold
// (component_id_duplicate) with a table of indices it keeps between
// documents: checkDuplicateDefinitions made a map of every id with its
// first object and count per document (1.9 MB of the 1,000-agent lint's
// 59 MB), and nearly every document repeats none.
type idRepeats struct {
	seed  maphash.Seed
	table []int32 // open addressing: the index of an id's first object + 1, 0 when empty
	count []int32 // by index: how many objects hold the id whose first object this is
	next  []int32 // by index: the next object with the same id, -1 for none
	last  []int32 // by first index: the last object with that id met so far
}

// idRepeatsKeep is the id count past which a table does not go back to
// the pool (one large flow does not pin its table).
const idRepeatsKeep = 1 << 14

var idRepeatsPool = sync.Pool{New: func() any { return &idRepeats{seed: maphash.MakeSeed()} }}

// find lists, for every non-empty id of ids held at two or more indices,
// those indices in order; the lists in order of their first index.
func (t *idRepeats) find(ids []string) [][]int32 {
	n := len(ids)
	size := 16
	for size < 2*n {
		size <<= 1
	}
	t.table = sized(t.table, size)
	clear(t.table)
	t.count = sized(t.count, n)
	clear(t.count)
	t.next, t.last = sized(t.next, n), sized(t.last, n)
	table, count, next, last := t.table, t.count[:n], t.next[:n], t.last[:n]
	mask := uint64(size - 1)
	repeats := 0
	for i, id := range ids {
		if id == "" {
			continue
		}
		next[i] = -1
		for s := maphash.String(t.seed, id) & mask; ; s = (s + 1) & mask {
			k := table[s]
			if k == 0 {
				table[s] = int32(i + 1)
				count[i], last[i] = 1, int32(i)
				break
			}
			if f := k - 1; ids[f] == id {
				if count[f] == 1 {
					repeats++
				}
				count[f]++
				next[last[f]] = int32(i)
				last[f] = int32(i)
				break
			}
		}
	}
	if repeats == 0 {
		return nil
	}
	groups := make([][]int32, 0, repeats)
	for f := range count {
		if count[f] < 2 {
			continue
		}
		g := make([]int32, 0, count[f])
		for j := int32(f); j >= 0; j = next[j] {
			g = append(g, j)
		}
		groups = append(groups, g)
	}
	return groups
}

// sized is s at length n, reallocated when its capacity is short.
func sized(s []int32, n int) []int32 {
	if cap(s) < n {
		return make([]int32, n)
	}
	return s[:n]
}

// release puts the table back in the pool unless it outgrew
// idRepeatsKeep ids. It holds indices only, no string of a document.
func (t *idRepeats) release() {
	if cap(t.count) > idRepeatsKeep {
		return
	}
	idRepeatsPool.Put(t)
}
