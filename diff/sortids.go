package diff

import (
	"slices"
	"strings"
)

// keyedID is an id's place in a list and its first eight bytes, big-endian
// and zero-padded: a < b between two keys means the ids are in that order
// too (a shorter id pads with zeros, below any byte a longer one has
// there, or equal to a zero byte it has: then the ids themselves decide).
type keyedID struct {
	k uint64
	i int32
}

// sortOrder is the places of ids in their sorted order (ids[p[0]] first;
// equal ids in any order): a stable radix sort of the ids' first eight
// bytes (a pass for each byte that differs between them), then each run of
// equal first bytes sorted by the ids themselves. A graph's ids are short
// and share few long prefixes ("n0" … "n32999"), so the string
// comparisons of a comparison sort are mostly saved.
func sortOrder(ids []string) []int32 {
	n := len(ids)
	p := make([]int32, n)
	if n < 64 {
		for i := range p {
			p[i] = int32(i)
		}
		slices.SortFunc(p, func(a, b int32) int { return strings.Compare(ids[a], ids[b]) })
		return p
	}
	a := make([]keyedID, 2*n)
	a, b := a[:n:n], a[n:]
	var or, and uint64 = 0, ^uint64(0)
	for i, s := range ids {
		var k uint64
		for j := 0; j < 8; j++ {
			k <<= 8
			if j < len(s) {
				k |= uint64(s[j])
			}
		}
		a[i] = keyedID{k, int32(i)}
		or |= k
		and &= k
	}
	var count [256]int
	for shift := uint(0); shift < 64; shift += 8 {
		if (or>>shift)&0xff == (and>>shift)&0xff {
			continue // every key has the same byte here
		}
		count = [256]int{}
		for _, e := range a {
			count[(e.k>>shift)&0xff]++
		}
		sum := 0
		for c := range count {
			sum, count[c] = sum+count[c], sum
		}
		for _, e := range a {
			c := (e.k >> shift) & 0xff
			b[count[c]] = e
			count[c]++
		}
		a, b = b, a
	}
	for i, e := range a {
		p[i] = e.i
	}
	for i := 0; i < n; {
		j := i + 1
		for j < n && a[j].k == a[i].k {
			j++
		}
		if j-i > 1 {
			slices.SortFunc(p[i:j], func(x, y int32) int { return strings.Compare(ids[x], ids[y]) })
		}
		i = j
	}
	return p
}
