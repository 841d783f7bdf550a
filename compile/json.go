package compile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"sync"
	"unsafe"

	"github.com/go-json-experiment/json/jsontext"
)

// Limits on what Parse accepts. A file beyond them is refused with a
// finding instead of being parsed: an agent file is hand-written and a few
// hundred KiB at most (the largest corpus agent is 176 KiB), so these leave
// two orders of magnitude of headroom while keeping a hostile input from
// costing memory or stack.
const (
	MaxFileBytes = 16 << 20 // 16 MiB
	MaxDepth     = 256      // nesting of objects and arrays
)

// Kind is the JSON type of a Node.
type Kind uint8

const (
	Null Kind = iota
	Bool
	Number
	String
	Object
	Array
)

func (k Kind) String() string {
	return [...]string{"null", "boolean", "number", "string", "object", "array"}[k]
}

// Node is one JSON value with the byte offset where it starts in the source.
// Objects keep their members in source order; duplicate keys are kept (the
// validator reports them, D16) and Get returns the last one, as JSON.parse does.
//
// The fields are ordered to pack the struct (96 bytes): a flow of 50,000
// nodes holds about a million of them.
type Node struct {
	Offset  int      // byte offset of the value's first byte
	Text    string   // string value, or the literal text of a number
	Members []Member // object members in source order
	Items   []*Node  // array elements

	// parent and slot (member or item index in parent) let PointerOf name
	// any node without walks building a pointer string for every value.
	parent *Node

	// keys indexes the members of a large object, built by the parsers
	// (indexKeys), so Get costs O(1) instead of a scan: a flow's
	// $referenced_components may hold tens of thousands of members.
	keys *keyIndex

	slot int32
	Kind Kind
	Bool bool // value of a boolean
	// uniq is len(Members) when the parser found no repeated key in a small
	// object (indexKeys), else 0: Get takes its first member when that is
	// the key. Members appended or dropped later make it stale, and Get
	// ignores it.
	uniq uint16
}

// keyIndex maps each key of an object to its last member (last wins, as in
// JavaScript). n is len(Members) when it was built: members appended
// later (a tree edited by hand) make Get fall back to the scan.
type keyIndex struct {
	last map[string]int
	n    int
}

// keyIndexMin is the member count from which an object gets an index.
const keyIndexMin = 16

// Member is one key/value pair of an object.
type Member struct {
	Key       string
	KeyOffset int // byte offset of the key's opening quote
	Value     *Node
}

// Get returns the value of key in an object, or nil. With duplicate keys the
// last one wins, as in JavaScript.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	ms := n.Members
	kp := unsafe.StringData(key)
	// the first member, when it is the key in an object without a repeated
	// key (the key the parser interned from seedKeys is the caller's
	// literal: two in five look-ups end here)
	if len(ms) > 0 && unsafe.StringData(ms[0].Key) == kp && int(n.uniq) == len(ms) && len(ms[0].Key) == len(key) {
		return ms[0].Value
	}
	if n.keys != nil && n.keys.n == len(n.Members) {
		if i, ok := n.keys.last[key]; ok && i < len(n.Members) && n.Members[i].Key == key {
			return n.Members[i].Value
		}
		return nil
	}
	// The members in a local slice: the loop keeps its bounds in registers
	// (n.Members would be loaded again after each memequal call) and
	// needs no bounds check. A key the parser interned from seedKeys is
	// the caller's literal itself: found by its pointer, without a call
	// to compare its bytes.
	for i := len(ms) - 1; i >= 0; i-- {
		if m := &ms[i]; len(m.Key) == len(key) && (unsafe.StringData(m.Key) == kp || m.Key == key) {
			return m.Value
		}
	}
	return nil
}

// indexed says n is an object whose key index covers its members, so Get
// is a look-up rather than a scan.
func (n *Node) indexed() bool {
	return n != nil && n.Kind == Object && n.keys != nil && n.keys.n == len(n.Members)
}

// Path follows keys through nested objects: n.Path("metadata", "cinatra").
func (n *Node) Path(keys ...string) *Node {
	for _, k := range keys {
		n = n.Get(k)
	}
	return n
}

// Str returns the value of a string node and whether it is one.
func (n *Node) Str() (string, bool) {
	if n == nil || n.Kind != String {
		return "", false
	}
	return n.Text, true
}

// StringOr returns the string value, or def when n is not a string.
func (n *Node) StringOr(def string) string {
	if s, ok := n.Str(); ok {
		return s
	}
	return def
}

// Float returns the value of a number node.
func (n *Node) Float() (float64, bool) {
	if n == nil || n.Kind != Number {
		return 0, false
	}
	f, err := strconv.ParseFloat(n.Text, 64)
	return f, err == nil
}

// Is reports whether n is present and of kind k.
func (n *Node) Is(k Kind) bool { return n != nil && n.Kind == k }

// Interface converts the tree to plain Go values (map[string]any, []any,
// string, float64, bool, nil), as encoding/json would decode it.
func (n *Node) Interface() any {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Bool:
		return n.Bool
	case Number:
		f, _ := strconv.ParseFloat(n.Text, 64)
		return f
	case String:
		return n.Text
	case Object:
		m := make(map[string]any, len(n.Members))
		for _, mem := range n.Members {
			m[mem.Key] = mem.Value.Interface()
		}
		return m
	case Array:
		a := make([]any, len(n.Items))
		for i, it := range n.Items {
			a[i] = it.Interface()
		}
		return a
	}
	return nil
}

// DuplicateKey is a key given twice in one object of a parsed document:
// Offset is where the later occurrence's key starts, First where the first
// one does. Get returns the last one's value, as JSON.parse does.
type DuplicateKey struct {
	Key    string
	Offset int
	First  int

	obj *Node // the object holding the key
}

// Pointer is the JSON Pointer of the repeated member (which Get, and so
// the pointer, resolves to the last occurrence).
func (k DuplicateKey) Pointer() string { return Append(PointerOf(k.obj), k.Key) }

// keySig is one of 64 bits, from k's length and its first and last bytes.
func keySig(k string) uint64 {
	h := uint(len(k))
	if len(k) > 0 {
		h ^= uint(k[0])<<1 ^ uint(k[len(k)-1])<<3
	}
	return 1 << (h & 63)
}

// indexKeys builds the key index of a large object and appends each
// repeated key to dups (every occurrence after the first).
func indexKeys(n *Node, dups []DuplicateKey) []DuplicateKey {
	ms := n.Members
	if len(ms) < keyIndexMin {
		before := len(dups)
		// a key is compared with the keys before it only when one of them
		// has its signature (equal keys have equal signatures): most
		// objects repeat no key, and most of their keys share no signature
		var seen uint64
		for i := range ms {
			sig := keySig(ms[i].Key)
			if seen&sig != 0 {
				for j := 0; j < i; j++ {
					if ms[j].Key == ms[i].Key {
						dups = append(dups, DuplicateKey{Key: ms[i].Key, Offset: ms[i].KeyOffset, First: ms[j].KeyOffset, obj: n})
						break
					}
				}
			}
			seen |= sig
		}
		if len(dups) == before {
			n.uniq = uint16(len(ms))
		}
		return dups
	}
	idx := &keyIndex{last: make(map[string]int, len(ms)), n: len(ms)}
	var first map[string]int // built at the first duplicate only
	for i, m := range ms {
		if _, seen := idx.last[m.Key]; seen {
			if first == nil {
				first = make(map[string]int)
				for j := i - 1; j >= 0; j-- {
					first[ms[j].Key] = j
				}
			}
			dups = append(dups, DuplicateKey{Key: m.Key, Offset: m.KeyOffset, First: ms[first[m.Key]].KeyOffset, obj: n})
		} else if first != nil {
			first[m.Key] = i
		}
		idx.last[m.Key] = i
	}
	n.keys = idx
	return dups
}

// SyntaxError is a JSON document that could not be parsed, or was refused.
type SyntaxError struct {
	Offset  int    // byte offset of the problem
	Msg     string // readable reason, without position
	Refused bool   // the input is beyond oastui's limits rather than malformed
}

// tooLarge is the error for a file over MaxFileBytes.
func tooLarge(n int) *SyntaxError {
	return &SyntaxError{Msg: fmt.Sprintf("file is %.1f MiB; oastui reads at most %d MiB",
		float64(n)/(1<<20), MaxFileBytes>>20), Refused: true}
}

func (e *SyntaxError) Error() string { return fmt.Sprintf("offset %d: %s", e.Offset, e.Msg) }

// Parse reads one JSON document into a tree of Nodes. It never panics: bad,
// huge or too deeply nested input comes back as a *SyntaxError.
func Parse(src []byte) (*Node, error) {
	root, _, err := parse(src)
	if err != nil {
		return nil, err // a typed nil *SyntaxError would make err != nil
	}
	return root, nil
}

// parse is Parse that also returns the duplicate keys found, in source order.
func parse(src []byte) (*Node, []DuplicateKey, *SyntaxError) { return parseInto(src, nil) }

// parseInto is parse with its nodes, members and items carved from blocks
// (nil: allocated).
func parseInto(src []byte, blocks *Blocks) (*Node, []DuplicateKey, *SyntaxError) {
	return parseWith(src, blocks, true)
}

// parseWith is parseInto; with fast, the document is first read by the
// parser's own scanner (jsonfast.go), and by jsontext's decoder only when
// the scanner meets something it does not accept (the decoder then says
// what is wrong, and where). Without fast, the decoder reads it.
func parseWith(src []byte, blocks *Blocks, fast bool) (*Node, []DuplicateKey, *SyntaxError) {
	sc := scratchPool.Get().(*scratch)
	root, dups, err := parseScratch(src, blocks, fast, sc)
	scratchPool.Put(sc)
	return root, dups, err
}

// parseScratch is parseWith with the scratch sc (see scratchPool).
func parseScratch(src []byte, blocks *Blocks, fast bool, sc *scratch) (*Node, []DuplicateKey, *SyntaxError) {
	if len(src) > MaxFileBytes {
		return nil, nil, tooLarge(len(src))
	}
	p := parser{src: src, blocks: blocks}
	if blocks != nil {
		p.slab = blocks.nodes.rest
		defer func() { blocks.nodes.rest = p.slab[p.slabAt:] }()
	}
	p.strs, p.members, p.items, p.unq = sc.strs, sc.members, sc.items, sc.unq
	p.recent, p.internBytes = &sc.recent, sc.internBytes
	defer p.release(sc)
	if fast {
		if root, ok := p.fast(); ok {
			sort.Slice(p.dups, func(i, j int) bool { return p.dups[i].Offset < p.dups[j].Offset })
			return root, p.dups, nil
		}
		// What the scanner built is dropped; the decoder parses into
		// fresh nodes (the ones carved so far are not zero any more). The
		// scanner leaves its stacks uncleared past their length.
		clear(p.members[:cap(p.members)])
		clear(p.items[:cap(p.items)])
		p.members, p.items, p.dups = p.members[:0], p.items[:0], nil
	}
	// A bytes.Buffer is parsed in place: the decoder copies nothing.
	p.dec = jsontext.NewDecoder(bytes.NewBuffer(src), jsontext.AllowDuplicateNames(true))
	root, err := p.value(0)
	if err != nil {
		return nil, nil, p.syntaxError(err)
	}
	if _, err := p.dec.ReadToken(); err == nil {
		return nil, nil, &SyntaxError{Offset: int(p.dec.InputOffset()), Msg: "unexpected data after the top-level value"}
	} else if !errors.Is(err, errEOF) && !isEOF(err) {
		return nil, nil, p.syntaxError(err)
	}
	sort.Slice(p.dups, func(i, j int) bool { return p.dups[i].Offset < p.dups[j].Offset })
	return root, p.dups, nil
}

var errEOF = errors.New("EOF")

func isEOF(err error) bool { return err != nil && err.Error() == "EOF" }

type parser struct {
	src    []byte
	dec    *jsontext.Decoder // nil while the scanner reads (pos)
	pos    int               // the scanner's offset
	unq    []byte            // the scanner's buffer for unescaping a string
	slab   []Node            // nodes are carved from blocks sized to the input left (slabSize)
	slabAt int               // the next node of slab (an index: reslicing slab stored three words and a pointer each time)

	// The members of objects and the items of arrays are carved from
	// blocks too (keepMembers, keepItems): one allocation per block
	// instead of one per object or array.
	memberSlab []Member
	itemSlab   []*Node
	blocks     *Blocks // when set, every block comes from it

	members []Member // open objects' members, innermost last
	items   []*Node  // open arrays' items, innermost last

	dups []DuplicateKey // repeated keys, in the order their objects close

	// strs interns the keys and short strings of a parse: a flow file
	// repeats a few dozen keys and values thousands of times. It is kept
	// from one parse to the next (scratch), so the keys every agent file
	// shares are found, not added and copied, in each new file;
	// internBytes is the length of its strings.
	strs        map[string]string
	internBytes int
	// recent holds the last interned string of each of recentSlots: most
	// keys ("component_type", "name", "id") are found here without
	// hashing the whole string for the map. Kept with strs.
	recent *[recentSlots]recentEntry
}

// recentEntry is a slot of parser.recent: the string and its words
// (recentWords), so a string of up to 16 bytes is found again by two
// word compares, without a call to compare its bytes.
type recentEntry struct {
	s      string
	w0, w1 uint64
}

// recentWords packs a non-empty string's bytes into two words: for up to
// 16 bytes, strings of one length with equal words are equal (8 to 16
// bytes: the first 8 and the last 8; 4 to 7: the first 4 and the last 4;
// 1 to 3: the first, middle and last byte). For a longer string they are
// its first and last 8 bytes, a filter before the compare.
func recentWords(b []byte) (w0, w1 uint64) {
	switch n := len(b); {
	case n >= 8:
		return binary.LittleEndian.Uint64(b), binary.LittleEndian.Uint64(b[n-8:])
	case n >= 4:
		return uint64(binary.LittleEndian.Uint32(b)), uint64(binary.LittleEndian.Uint32(b[n-4:]))
	default:
		return uint64(b[0]) | uint64(b[n/2])<<8 | uint64(b[n-1])<<16, 0
	}
}

// recentSlot is the slot of parser.recent for a non-empty string of n
// bytes and words w0, w1: its length and words, mixed.
func recentSlot(n int, w0, w1 uint64) uint32 {
	h := (w0 ^ w1*0x9E3779B97F4A7C15 ^ uint64(n)) * 0xBF58476D1CE4E5B9
	return uint32(h >> (64 - recentBits))
}

// recentBits sizes parser.recent: 1,024 slots (256 missed one look-up in
// six to the map).
const (
	recentBits  = 10
	recentSlots = 1 << recentBits
)

// scratchPool holds a parse's scratch between parses: the interning map
// and its recent slots (kept while they are small, internKeep), the
// members and items stacks (emptied: they hold no reference once a parse
// returns) and the scanner's unescaping buffer (a string is copied out
// of it).
var scratchPool = sync.Pool{New: func() any { return newScratch() }}

func newScratch() *scratch {
	sc := &scratch{strs: make(map[string]string, 256), members: make([]Member, 0, 64), items: make([]*Node, 0, 64)}
	seedStrs(sc.strs)
	return sc
}

// seedStrs interns seedKeys in strs (they are not counted in
// internBytes: their bytes are the program's).
func seedStrs(strs map[string]string) {
	for _, k := range seedKeys {
		strs[k] = k
	}
}

type scratch struct {
	strs        map[string]string
	internBytes int
	recent      [recentSlots]recentEntry
	members     []Member
	items       []*Node
	unq         []byte
}

// The interned strings a scratch keeps for the next parse: up to
// internKeep strings of internKeepBytes in all (the 25 corpus agents'
// files intern 1,052 distinct strings, 18 KB, between them). Past
// either, the release drops them all.
const (
	internKeep      = 3072
	internKeepBytes = 64 << 10
)

// release gives the parse's scratch back to sc for the next parse; the
// interned strings past internKeep or internKeepBytes, stacks a hostile
// file grew past 4,096 entries and an unescaping buffer past 64 KiB are
// dropped.
func (p *parser) release(sc *scratch) {
	if len(p.strs) > internKeep || p.internBytes > internKeepBytes {
		clear(p.strs)
		clear(sc.recent[:])
		p.internBytes = 0
		seedStrs(p.strs)
	}
	sc.strs, sc.internBytes = p.strs, p.internBytes
	sc.members, sc.items, sc.unq = p.members[:0], p.items[:0], p.unq[:0]
	if cap(sc.unq) > 64<<10 {
		sc.unq = nil
	}
	if cap(sc.members) > 4096 {
		sc.members = make([]Member, 0, 64)
	}
	if cap(sc.items) > 4096 {
		sc.items = make([]*Node, 0, 64)
	}
	clear(sc.members[:cap(sc.members)])
	clear(sc.items[:cap(sc.items)])
	p.strs, p.members, p.items, p.unq, p.recent = nil, nil, nil, nil, nil
}

// internCap bounds the strings interned per parse.
const internCap = 4096

// internMax is the longest string value interned (keys always are).
const internMax = 32

// text is the string the token just read (tok, starting at off in the
// source) stands for: read straight from the source and interned when it
// has no escape, else decoded by the token.
func (p *parser) text(tok jsontext.Token, off int, intern bool) string {
	end := int(p.dec.InputOffset())
	if off >= 0 && end <= len(p.src) && end-off >= 2 && p.src[off] == '"' && p.src[end-1] == '"' {
		raw := p.src[off+1 : end-1]
		if bytes.IndexByte(raw, '\\') < 0 {
			return p.str(raw, intern)
		}
	}
	return tok.String()
}

// str is the string of raw, the bytes of a string token without escapes
// between its quotes: interned when intern is set.
func (p *parser) str(raw []byte, intern bool) string {
	if !intern || p.strs == nil {
		return string(raw) // one copy, where the token would unquote into a buffer first
	}
	if len(raw) == 0 {
		return ""
	}
	w0, w1 := recentWords(raw)
	slot := &p.recent[recentSlot(len(raw), w0, w1)]
	if len(slot.s) == len(raw) && slot.w0 == w0 && slot.w1 == w1 && (len(raw) <= 16 || slot.s == string(raw)) {
		return slot.s
	}
	s, ok := p.strs[string(raw)]
	if !ok {
		s = string(raw)
		if len(p.strs) < internCap { // a file of distinct ids does not grow the map without end
			p.strs[s] = s
			p.internBytes += len(s)
		}
	}
	*slot = recentEntry{s, w0, w1}
	return s
}

func (p *parser) newNode() *Node {
	if p.slabAt == len(p.slab) {
		p.newSlab()
	}
	n := &p.slab[p.slabAt]
	p.slabAt++
	if p.blocks != nil {
		*n = Node{} // a lent block is not cleared by Reuse: what the node held before goes here
	}
	return n
}

// newSlab gives the parse a slab of nodes to carve from.
func (p *parser) newSlab() {
	if p.blocks != nil {
		p.slab = p.blocks.nodes.next(nodeBlock)
	} else {
		p.slab = make([]Node, slabSize(p.rest()))
	}
	p.slabAt = 0
}

// keepMembers copies the members of an object that just closed into a
// slice of their exact length carved from the parse's member block (keep).
func (p *parser) keepMembers(ms []Member) []Member {
	var from *blockList[Member]
	if p.blocks != nil {
		from = &p.blocks.members
	}
	return keep(ms, from, memberBlock, &p.memberSlab, p.rest(), memberBytes)
}

// keepItems is keepMembers for the items of an array.
func (p *parser) keepItems(items []*Node) []*Node {
	var from *blockList[*Node]
	if p.blocks != nil {
		from = &p.blocks.items
	}
	return keep(items, from, itemBlock, &p.itemSlab, p.rest(), itemBytes)
}

// rest is the number of input bytes not yet read.
func (p *parser) rest() int {
	if p.dec == nil {
		return len(p.src) - p.pos
	}
	return len(p.src) - int(p.dec.InputOffset())
}

// keep copies s into a slice of its exact length (its capacity is its
// length, so a later append — a tree edited by hand — copies instead of
// overwriting a neighbour), carved from the load's blocks when there are
// some (from, in blocks of fromSize), else from the parse's own slab,
// which is sized to the input left (rest bytes at one entry per perEntry)
// and replaced when s does not fit; an s larger than half a slab gets its
// own slice.
func keep[T any](s []T, from *blockList[T], fromSize int, slab *[]T, rest, perEntry int) []T {
	n := len(s)
	if from != nil {
		out := from.take(n, fromSize)
		copy(out, s)
		return out
	}
	if n > len(*slab) {
		size := blockSize(rest, perEntry)
		if n > size/2 {
			return append([]T(nil), s...)
		}
		*slab = make([]T, size)
	}
	out := (*slab)[:n:n]
	*slab = (*slab)[n:]
	copy(out, s)
	return out
}

// Slabs of nodes are sized to the values the rest of the input may hold,
// about one per slabBytesPerNode bytes (agent files run at 36–42 bytes a
// value), within [slabMin, slabMax]: a small file (a package.json, ~40
// values) no longer gets a block of 128 mostly unused nodes, and the last
// block of a large file is left over by a few nodes, not up to 127.
const (
	slabBytesPerNode = 48
	slabMin          = 16
	slabMax          = 1024
)

func slabSize(rest int) int { return blockSize(rest, slabBytesPerNode) }

// blockSize is the length of a block for the rest bytes of input left,
// at one entry per perEntry bytes, within [slabMin, slabMax].
func blockSize(rest, perEntry int) int {
	return min(max(rest/perEntry+slabMin, slabMin), slabMax)
}

// The corpus's agent files hold an object member every ~50 bytes and an
// array item every ~260 (measured over ../shared/corpus); blocks are sized
// a little under that, so that the block left over at the end is small.
const (
	memberBytes = 56
	itemBytes   = 280
)

var errTooDeep = errors.New("too deep")

func (p *parser) syntaxError(err error) *SyntaxError {
	var se *SyntaxError
	if errors.As(err, &se) {
		return se
	}
	var je *jsontext.SyntacticError
	if errors.As(err, &je) {
		msg := "invalid JSON"
		if je.Err != nil {
			msg = je.Err.Error()
		}
		return &SyntaxError{Offset: int(je.ByteOffset), Msg: msg}
	}
	if isEOF(err) || err.Error() == "unexpected EOF" {
		return &SyntaxError{Offset: int(p.dec.InputOffset()), Msg: "unexpected end of file"}
	}
	return &SyntaxError{Offset: int(p.dec.InputOffset()), Msg: err.Error()}
}

func (p *parser) value(depth int) (*Node, error) {
	if depth > MaxDepth {
		return nil, &SyntaxError{Offset: int(p.dec.InputOffset()), Msg: fmt.Sprintf("nesting deeper than %d levels", MaxDepth), Refused: true}
	}
	off := p.next()
	tok, err := p.dec.ReadToken()
	if err != nil {
		return nil, err
	}
	n := p.newNode()
	n.Offset = off
	switch tok.Kind() {
	case 'n':
		n.Kind = Null
	case 't', 'f':
		n.Kind, n.Bool = Bool, tok.Bool()
	case '"':
		n.Kind = String
		n.Text = p.text(tok, off, int(p.dec.InputOffset())-off <= internMax+2)
	case '0':
		n.Kind = Number
		if end := int(p.dec.InputOffset()); off < end && end <= len(p.src) {
			n.Text = string(p.src[off:end]) // the literal as written, as tok.String() gives it
		} else {
			n.Text = tok.String()
		}
	case '{':
		n.Kind = Object
		// Members collect on a stack shared by the whole parse and are
		// copied out once, at their exact size, when the object closes.
		base := len(p.members)
		for p.dec.PeekKind() != '}' {
			keyOff := p.next()
			kt, err := p.dec.ReadToken()
			if err != nil {
				return nil, err
			}
			key := p.text(kt, keyOff, true) // before the next read voids the token
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.parent, v.slot = n, int32(len(p.members)-base)
			p.members = append(p.members, Member{Key: key, KeyOffset: keyOff, Value: v})
		}
		if len(p.members) > base {
			n.Members = p.keepMembers(p.members[base:])
			clear(p.members[base:]) // drop references the stack no longer needs
			p.members = p.members[:base]
			p.dups = indexKeys(n, p.dups)
		}
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
	case '[':
		n.Kind = Array
		base := len(p.items)
		for p.dec.PeekKind() != ']' {
			v, err := p.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v.parent, v.slot = n, int32(len(p.items)-base)
			p.items = append(p.items, v)
		}
		if len(p.items) > base {
			n.Items = p.keepItems(p.items[base:])
			clear(p.items[base:])
			p.items = p.items[:base]
		}
		if _, err := p.dec.ReadToken(); err != nil {
			return nil, err
		}
	default:
		return nil, fmt.Errorf("unexpected token %v", tok.Kind())
	}
	return n, nil
}

// next returns the offset of the next token: InputOffset points just past
// the previous one, so skip the whitespace and separators (':' and ',') the
// decoder will skip too.
func (p *parser) next() int {
	i := int(p.dec.InputOffset())
	for i < len(p.src) {
		switch p.src[i] {
		case ' ', '\t', '\n', '\r', ':', ',':
			i++
		default:
			return i
		}
	}
	return i
}
