// Package bpe counts the tokens of a text in OpenAI's o200k_base and
// cl100k_base encodings, as tiktoken's encode_ordinary does, with no
// start-up cost: the rank tables are generated at build time (gen, go
// generate) into a form the package reads in place from the binary's
// embedded bytes (no parsing, sorting, map or allocation at start), and
// the pre-tokenizer is the encodings' regular expression written out by
// hand, linear in its input (a backtracking engine took quadratic time on
// a long run of one character, issue 26 item 13), as is the merge of a
// long piece (a heap instead of tiktoken's rescan of every pair).
package bpe

import (
	_ "embed"
	"fmt"
	"unicode/utf8"
)

//go:generate go run ./gen -enc o200k_base -out o200k_base.bpe
//go:generate go run ./gen -enc cl100k_base -out cl100k_base.bpe

//go:embed o200k_base.bpe
var o200kData string

//go:embed cl100k_base.bpe
var cl100kData string

// Encoding is one BPE encoding: its rank table (read in place) and its
// pre-tokenizer.
type Encoding struct {
	Name  string
	data  string // the embedded table: header, offsets, slots, token bytes
	n     uint32 // tokens; a token's rank is its index
	mask  uint32 // slots - 1
	offs  int    // byte offset of the offsets array
	slots int    // byte offset of the hash slots
	blob  int    // byte offset of the token bytes
	next  func(s string, i int) int
}

var (
	// O200K is o200k_base (GPT-4o, GPT-4.1, GPT-5 families).
	O200K = open("o200k_base", o200kData, o200kNext)
	// CL100K is cl100k_base (GPT-4, GPT-3.5-turbo).
	CL100K = open("cl100k_base", cl100kData, cl100kNext)
)

// Get returns the encoding named name.
func Get(name string) (*Encoding, error) {
	switch name {
	case O200K.Name:
		return O200K, nil
	case CL100K.Name:
		return CL100K, nil
	}
	return nil, fmt.Errorf("unknown encoding %q", name)
}

func open(name, data string, next func(string, int) int) *Encoding {
	if len(data) < 16 || data[:4] != "BPE1" {
		panic("bpe: " + name + ": not a generated table (go generate ./internal/bpe)")
	}
	e := &Encoding{Name: name, data: data, next: next}
	e.n = u32(data, 4)
	slots := u32(data, 8)
	e.mask = slots - 1
	e.offs = 16
	e.slots = e.offs + 4*int(e.n+1)
	e.blob = e.slots + 4*int(slots)
	if e.blob+int(u32(data, 12)) != len(data) {
		panic("bpe: " + name + ": truncated table")
	}
	return e
}

func u32(s string, i int) uint32 {
	return uint32(s[i]) | uint32(s[i+1])<<8 | uint32(s[i+2])<<16 | uint32(s[i+3])<<24
}

// Token is the bytes of the token of rank r.
func (e *Encoding) Token(r int) string {
	a, b := u32(e.data, e.offs+4*r), u32(e.data, e.offs+4*r+4)
	return e.data[e.blob+int(a) : e.blob+int(b)]
}

// hash is FNV-1a, as gen.Hash.
func hash(s string) uint32 {
	h := uint32(2166136261)
	for i := 0; i < len(s); i++ {
		h ^= uint32(s[i])
		h *= 16777619
	}
	return h
}

// Rank is the rank of the token whose bytes are s, if s is one.
func (e *Encoding) Rank(s string) (int, bool) {
	h := hash(s) & e.mask
	for {
		v := u32(e.data, e.slots+4*int(h))
		if v == 0 {
			return 0, false
		}
		if e.Token(int(v-1)) == s {
			return int(v - 1), true
		}
		h = (h + 1) & e.mask
	}
}

// Count is the number of tokens text encodes to (special-token text such
// as "<|endoftext|>" counted as ordinary text, as encode_ordinary does).
// Bytes that are not UTF-8 count as U+FFFD, each, as tiktoken-go did.
func (e *Encoding) Count(text string) int {
	if !utf8.ValidString(text) {
		text = string([]rune(text))
	}
	n := 0
	var sc scratch
	for i := 0; i < len(text); {
		j := e.next(text, i)
		n += e.countPiece(text[i:j], &sc)
		i = j
	}
	return n
}

// scratch is the reusable memory of countPiece.
type scratch struct {
	parts   []part
	heap    []pair
	lookups int // rank look-ups of mergeHeap (its tests bound them)
}

type part struct {
	start      int
	rank       int // rank of this part merged with the next (noRank: none)
	prev, next int // neighbours (-1: none)
}

const noRank = int(^uint(0) >> 1)

// simpleMax is the length up to which a piece is merged as tiktoken does
// (rescanning every pair after each merge: quadratic, fastest when short).
const simpleMax = 64

func (e *Encoding) countPiece(p string, sc *scratch) int {
	if len(p) <= 1 {
		return len(p)
	}
	if _, ok := e.Rank(p); ok {
		return 1
	}
	if len(p) <= simpleMax {
		return e.mergeSimple(p)
	}
	return e.mergeHeap(p, sc)
}

// pairRank is the rank of p[a:b] (noRank when it is not a token).
func (e *Encoding) pairRank(p string, a, b int) int {
	if r, ok := e.Rank(p[a:b]); ok {
		return r
	}
	return noRank
}

// mergeSimple is tiktoken's byte_pair_merge: repeatedly merge the adjacent
// pair of lowest rank (the leftmost of equals), returning the parts left.
func (e *Encoding) mergeSimple(p string) int {
	var buf [simpleMax + 1][2]int // start, rank of part+next
	parts := buf[:len(p)+1]
	for i := range parts {
		parts[i] = [2]int{i, noRank}
	}
	rank := func(i int) int { // parts[i] merged with parts[i+1]
		if i+2 < len(parts) {
			return e.pairRank(p, parts[i][0], parts[i+2][0])
		}
		return noRank
	}
	for i := 0; i+2 < len(parts); i++ {
		parts[i][1] = rank(i)
	}
	for len(parts) > 1 {
		m, mi := noRank, -1
		for i := 0; i < len(parts)-1; i++ {
			if parts[i][1] < m {
				m, mi = parts[i][1], i
			}
		}
		if mi < 0 {
			break
		}
		parts = append(parts[:mi+1], parts[mi+2:]...)
		parts[mi][1] = rank(mi)
		if mi > 0 {
			parts[mi-1][1] = rank(mi - 1)
		}
	}
	return len(parts) - 1
}

// pair is a heap entry: the part starting at start merged with its next
// has rank rank (stale when the part's rank changed since).
type pair struct{ rank, start int }

func less(a, b pair) bool { return a.rank < b.rank || a.rank == b.rank && a.start < b.start }

// mergeHeap is mergeSimple in O(n log n): the same merges in the same
// order (lowest rank first, leftmost of equals), the candidates in a heap.
func (e *Encoding) mergeHeap(p string, sc *scratch) int {
	n := len(p)
	// sized once for the piece: grown by doubling, a piece of 400,000
	// braces left twice its size of garbage per count
	if cap(sc.parts) < n {
		sc.parts = make([]part, 0, n)
	}
	if cap(sc.heap) < n {
		sc.heap = make([]pair, 0, n)
	}
	parts := sc.parts[:0]
	for i := 0; i < n; i++ {
		parts = append(parts, part{start: i, prev: i - 1, next: i + 1})
	}
	parts[n-1].next = -1
	end := func(i int) int { // end of part i
		if parts[i].next < 0 {
			return n
		}
		return parts[i].next
	}
	h := sc.heap[:0]
	push := func(x pair) {
		h = append(h, x)
		for c := len(h) - 1; c > 0; {
			par := (c - 1) / 2
			if !less(h[c], h[par]) {
				break
			}
			h[c], h[par] = h[par], h[c]
			c = par
		}
	}
	pop := func() pair {
		top := h[0]
		last := len(h) - 1
		h[0] = h[last]
		h = h[:last]
		for c := 0; ; {
			l, r, m := 2*c+1, 2*c+2, c
			if l < len(h) && less(h[l], h[m]) {
				m = l
			}
			if r < len(h) && less(h[r], h[m]) {
				m = r
			}
			if m == c {
				break
			}
			h[c], h[m] = h[m], h[c]
			c = m
		}
		return top
	}
	rerank := func(i int) {
		sc.lookups++
		parts[i].rank = noRank
		if j := parts[i].next; j >= 0 {
			parts[i].rank = e.pairRank(p, i, end(j))
			if parts[i].rank != noRank {
				push(pair{parts[i].rank, i})
			}
		}
	}
	for i := 0; i < n; i++ {
		rerank(i)
	}
	count := n
	for len(h) > 0 {
		x := pop()
		i := x.start
		if parts[i].start < 0 || parts[i].rank != x.rank {
			continue // merged away, or re-ranked since
		}
		j := parts[i].next
		// merge j into i
		parts[i].next = parts[j].next
		if k := parts[j].next; k >= 0 {
			parts[k].prev = i
		}
		parts[j].start = -1
		count--
		rerank(i)
		if pv := parts[i].prev; pv >= 0 {
			rerank(pv)
		}
	}
	sc.parts, sc.heap = parts, h
	return count
}
