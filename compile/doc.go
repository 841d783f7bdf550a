package compile

import (
	"bytes"
	"encoding/binary"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"
	"unsafe"
)

// Doc is one parsed file: its bytes, its tree and a line table so that any
// node or JSON Pointer maps to a 1-based line and column.
type Doc struct {
	Path string       // path as shown to the user (relative when possible)
	Src  []byte       // the file's bytes
	Root *Node        // nil when the file did not parse
	Err  *SyntaxError // why it did not parse
	// Duplicates are the keys given twice in one object, in source order
	// (the parsers keep the last value, as JSON.parse does; loading turns
	// them into duplicate_key findings).
	Duplicates []DuplicateKey

	// The position index, built once on first use (positions may be asked
	// for from several goroutines): line starts and rune checkpoints.
	posOnce sync.Once
	lines   []int      // byte offset of the start of each line
	marks   []runeMark // checkpoints every runeMarkStep bytes inside long lines
	// posBuilt: the index is built (set inside posOnce). posScans: the
	// positions answered without it (scanPosition), at most posScanMax.
	posBuilt atomic.Bool
	posScans atomic.Int32
	// posLast: the offset, line and column of the position scanPosition
	// answered last (posPack), 0 before the first: the next offset counts
	// from there (a finding's end after its start, the next finding).
	posLast atomic.Uint64

	// The excerpts built for findings in this document (Excerpt).
	exMu     sync.Mutex
	excerpts map[excerptKey]Excerpt
}

// runeMark is a checkpoint inside a line: the byte offset off is the start
// of a character, col the number of characters from the line start to it.
// With one every runeMarkStep bytes, turning an offset into a column counts
// at most runeMarkStep bytes instead of the whole line, so a finding on a
// minified one-line file costs O(log n), not O(line length).
type runeMark struct{ off, col int }

const runeMarkStep = 512

// ParseDoc parses src as JSON. A parse error is kept in Doc.Err; it is the
// caller's job to turn it into an invalid_json finding (see Doc.Findings).
func ParseDoc(path string, src []byte) *Doc { return parseDocInto(path, src, nil) }

// parseDocInto is ParseDoc parsing into blocks (nil: allocated).
func parseDocInto(path string, src []byte, blocks *Blocks) *Doc {
	d := &Doc{Path: path, Src: src}
	root, dups, err := parseInto(src, blocks)
	if err != nil {
		d.Err = err
	} else {
		d.Root, d.Duplicates = root, dups
	}
	return d
}

func (d *Doc) lineStarts() []int {
	d.posOnce.Do(d.buildPosIndex)
	return d.lines
}

// buildPosIndex records the start of every line and a checkpoint every
// runeMarkStep bytes within a line. Characters are counted as
// utf8.RuneCount counts them (an invalid byte is one character), walking
// from the line start, so the columns are exactly those of a count from
// the line start.
func (d *Doc) buildPosIndex() {
	src := d.Src
	lines := make([]int, 1, bytes.Count(src, newline)+1)
	var marks []runeMark
	for start := 0; ; {
		end := len(src)
		if j := bytes.IndexByte(src[start:], '\n'); j >= 0 {
			end = start + j
		}
		// Only a line of runeMarkStep bytes or more has checkpoints: the
		// characters of the others are not counted here.
		if end-start >= runeMarkStep {
			last, col := start, 0
			for i := start; i < end; {
				if i-last >= runeMarkStep {
					marks = append(marks, runeMark{off: i, col: col})
					last = i
				}
				// Eight ASCII bytes are eight characters: skip them a word
				// at a time, short of the next checkpoint (every offset a
				// word skips is a character start before it, so no
				// checkpoint moves).
				lim := min(end, last+runeMarkStep)
				for i+8 <= lim && binary.LittleEndian.Uint64(src[i:])&0x8080808080808080 == 0 {
					i += 8
					col += 8
				}
				if i >= lim {
					continue
				}
				if c := src[i]; c < utf8.RuneSelf {
					i++
				} else {
					_, size := utf8.DecodeRune(src[i:])
					i += size
				}
				col++
			}
		}
		if end == len(src) {
			break
		}
		start = end + 1
		lines = append(lines, start)
	}
	d.lines, d.marks = lines, marks
	d.posBuilt.Store(true)
}

// Most documents with a finding are asked for the positions of one or
// two of them: counting the lines before the offset (a vector count) and
// the characters from its line's start costs a small part of the index,
// which records every line of the file. Position answers the first
// posScanMax positions of a document so, when the document is at most
// posScanMaxSrc bytes and the offset's line starts at most posScanLine
// bytes before it; past any of these it builds the index, so a document
// asked for many positions, or a long line, costs what it did.
const (
	posScanMax    = 16
	posScanMaxSrc = 1 << 20
	posScanLine   = 4096
)

// scanPosition is Position (off already clamped to Src) without the index:
// the line is one more than the newlines before off, the column one more
// than the characters (utf8.RuneCount) from the line's start to off — what
// the index gives, whose checkpoints are counted from the line start too.
//
// It starts from the last position it answered (posLast) when it can: an
// offset on the same line after it (a finding's end after its start) adds
// the characters between the two, when the last offset starts a character
// (no character then spans it, so the counts add up; a byte that cannot
// start one is a UTF-8 continuation byte); another offset counts the
// newlines from the last one, or back to it. Otherwise ok is false when
// the line starts more than posScanLine bytes before off.
func (d *Doc) scanPosition(off int) (line, col int, ok bool) {
	src := d.Src[:off]
	last := d.posLast.Load()
	lastOff, lastLine, lastCol := int(last&posMask), int(last>>posBits&posMask), int(last>>(2*posBits))
	if last != 0 && lastOff <= off {
		n := bytes.Count(src[lastOff:], newline)
		if n == 0 && (lastOff == off || utf8.RuneStart(src[lastOff])) {
			line, col = lastLine, lastCol+runeCount(src[lastOff:])
			d.posLast.Store(posPack(off, line, col))
			return line, col, true
		}
	}
	lo := max(0, off-posScanLine)
	start := bytes.LastIndexByte(src[lo:], '\n') + 1
	if start == 0 && lo > 0 {
		return 0, 0, false
	}
	start += lo
	switch {
	case last == 0 || off < lastOff-off: // none, or nearer the start
		line = 1 + bytes.Count(src, newline)
	case lastOff <= off:
		line = lastLine + bytes.Count(src[lastOff:], newline)
	default:
		line = lastLine - bytes.Count(d.Src[off:lastOff], newline)
	}
	col = runeCount(src[start:]) + 1
	d.posLast.Store(posPack(off, line, col))
	return line, col, true
}

// runeCount is utf8.RuneCount(b) with ASCII skipped eight bytes at a time
// (a prompt's line is thousands of bytes, nearly all ASCII): an ASCII byte
// is one character, and an encoding that is not one counts one character
// a byte, as utf8.DecodeRune steps over it.
func runeCount(b []byte) int {
	n, i := 0, 0
	for i < len(b) {
		for i+8 <= len(b) && binary.LittleEndian.Uint64(b[i:])&0x8080808080808080 == 0 {
			i += 8
			n += 8
		}
		if i >= len(b) {
			break
		}
		if b[i] < utf8.RuneSelf {
			i++
		} else {
			_, size := utf8.DecodeRune(b[i:])
			i += size
		}
		n++
	}
	return n
}

// posLast packs an offset, its line and its column (each at most
// posScanMaxSrc + 1) in posBits each; 0 is none, a line being at least 1.
const (
	posBits = 21
	posMask = 1<<posBits - 1
)

func posPack(off, line, col int) uint64 {
	return uint64(off) | uint64(line)<<posBits | uint64(col)<<(2*posBits)
}

var newline = []byte{'\n'}

// lineOf returns the 0-based line holding byte offset off.
func (d *Doc) lineOf(off int) int {
	ls := d.lineStarts()
	return sort.Search(len(ls), func(i int) bool { return ls[i] > off }) - 1
}

// Position turns a byte offset into a 1-based line and a 1-based column
// counted in characters (runes), as editors and SARIF expect.
func (d *Doc) Position(off int) (line, col int) {
	if off < 0 {
		off = 0
	}
	if off > len(d.Src) {
		off = len(d.Src)
	}
	if !d.posBuilt.Load() && len(d.Src) <= posScanMaxSrc && d.posScans.Add(1) <= posScanMax {
		if line, col, ok := d.scanPosition(off); ok {
			return line, col
		}
	}
	i := d.lineOf(off)
	start, base := d.lines[i], 0
	// the last checkpoint at or before off, when it is on this line
	if k := sort.Search(len(d.marks), func(k int) bool { return d.marks[k].off > off }) - 1; k >= 0 && d.marks[k].off >= start {
		start, base = d.marks[k].off, d.marks[k].col
	}
	return i + 1, base + utf8.RuneCount(d.Src[start:off]) + 1
}

// Offset is the inverse of Position: the byte offset of the col-th
// character (1-based) of 1-based line n, or of the line's end when the
// line is shorter. Like Position it costs O(log n), so a formatter can cut
// an excerpt around a finding's column without walking a minified line.
func (d *Doc) Offset(line, col int) int { return d.offsetAt(line, col) }

// LineSpan returns the byte range [start, end) of 1-based line n in Src,
// without its line ending ("\n", and a "\r" before it); 0, 0 when n is out
// of range. Unlike Line it copies nothing.
func (d *Doc) LineSpan(n int) (start, end int) {
	ls := d.lineStarts()
	if n < 1 || n > len(ls) {
		return 0, 0
	}
	start, end = ls[n-1], len(d.Src)
	if n < len(ls) {
		end = ls[n] - 1
	}
	for end > start && d.Src[end-1] == '\r' {
		end--
	}
	return start, end
}

// offsetAt is the inverse of Position for a column inside a line: the byte
// offset of the col-th character (1-based) of 1-based line n, or of the
// line's end when the line is shorter.
func (d *Doc) offsetAt(n, col int) int {
	ls := d.lineStarts()
	if n < 1 {
		return 0
	}
	if n > len(ls) {
		return len(d.Src)
	}
	off, at := ls[n-1], 1
	end := len(d.Src)
	if n < len(ls) {
		end = ls[n]
	}
	// the last checkpoint of this line at or before the column
	lo := sort.Search(len(d.marks), func(k int) bool { return d.marks[k].off >= off })
	hi := sort.Search(len(d.marks), func(k int) bool { return d.marks[k].off >= end })
	if k := lo + sort.Search(hi-lo, func(k int) bool { return d.marks[lo+k].col+1 > col }) - 1; k >= lo {
		off, at = d.marks[k].off, d.marks[k].col+1
	}
	for ; at < col && off < len(d.Src) && d.Src[off] != '\n'; at++ {
		_, size := utf8.DecodeRune(d.Src[off:])
		off += size
	}
	return off
}

// Line returns the text of 1-based line n without its line ending.
func (d *Doc) Line(n int) string {
	ls := d.lineStarts()
	if n < 1 || n > len(ls) {
		return ""
	}
	end := len(d.Src)
	if n < len(ls) {
		end = ls[n] - 1
	}
	return strings.TrimRight(string(d.Src[ls[n-1]:end]), "\r")
}

// Lookup finds the node an RFC 6901 JSON Pointer names, or nil.
func (d *Doc) Lookup(ptr string) *Node {
	n, complete := d.resolve(ptr)
	if !complete {
		return nil
	}
	return n
}

// PointerPosition returns the line and column of the value ptr names. When
// the pointer names something that does not exist (a missing key), it falls
// back to the deepest ancestor that does, so a finding always has a place.
func (d *Doc) PointerPosition(ptr string) (line, col int) {
	if d.Root == nil {
		if d.Err != nil {
			return d.Position(d.Err.Offset)
		}
		return 1, 1
	}
	n, _ := d.resolve(ptr)
	if n == nil {
		return 1, 1
	}
	return d.Position(n.Offset)
}

// resolve walks ptr from the root and returns the deepest node reached and
// whether that is the whole pointer.
func (d *Doc) resolve(ptr string) (*Node, bool) {
	n := d.Root
	if ptr == "" || n == nil {
		return n, n != nil
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range SplitPointer(ptr) {
		var next *Node
		switch n.Kind {
		case Object:
			next = n.Get(tok)
		case Array:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Items) {
				next = n.Items[i]
			}
		}
		if next == nil {
			return n, false
		}
		n = next
	}
	return n, true
}

// EscapePointerToken escapes one reference token (RFC 6901 §3).
func EscapePointerToken(s string) string {
	if !hasPointerSpecial(s) {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// hasPointerSpecial is strings.ContainsAny(s, "~/"): a loop over the
// bytes, where ContainsAny builds a set of the two bytes on every call
// (36,520 tokens for 1,000 agents, nearly all short keys and ids).
func hasPointerSpecial(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c == '~' || c == '/' {
			return true
		}
	}
	return false
}

// Pointer joins reference tokens into a JSON Pointer: Pointer("a", "b/c") = "/a/b~1c".
func Pointer(tokens ...string) string { return Append("", tokens...) }

// Append adds tokens to an existing pointer, in one allocation.
func Append(ptr string, tokens ...string) string {
	n := len(ptr)
	for _, t := range tokens {
		n += 1 + len(t)
	}
	var b strings.Builder
	b.Grow(n)
	b.WriteString(ptr)
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(EscapePointerToken(t))
	}
	return b.String()
}

// AppendIndex adds an array index to a pointer: one allocation of the
// result's length, the index's digits written into it (a concatenation
// with strconv.Itoa goes through the runtime's general loop over its
// parts, and Itoa allocates an index of 100 or more on its own).
func AppendIndex(ptr string, i int) string {
	if i < 0 {
		return ptr + "/" + strconv.Itoa(i)
	}
	var d [20]byte
	k := len(d)
	for {
		k--
		d[k] = byte('0' + i%10)
		i /= 10
		if i == 0 {
			break
		}
	}
	var b strings.Builder
	b.Grow(len(ptr) + 1 + len(d) - k)
	b.WriteString(ptr)
	b.WriteByte('/')
	b.Write(d[k:])
	return b.String()
}

// indexPointers hands out the pointers ptr/0, ptr/1, … ptr/(n-1) of a
// list's items in order (next), all made in one allocation: the model
// points at every entry of a Flow's nodes and connections, and an
// allocation each was most of what those pointers cost. Each is a
// substring of the one string, which stays alive while any of them does.
type indexPointers struct {
	all  string
	off  int // where the next pointer starts in all
	base int // len(ptr) + 1
	i    int // the next index
}

func newIndexPointers(ptr string, n int) indexPointers {
	size := 0
	for i, width, next := 0, 1, 10; i < n; i++ {
		if i == next {
			width, next = width+1, next*10
		}
		size += len(ptr) + 1 + width
	}
	b := make([]byte, 0, size)
	for i := 0; i < n; i++ {
		b = append(b, ptr...)
		b = append(b, '/')
		b = strconv.AppendInt(b, int64(i), 10)
	}
	return indexPointers{all: unsafe.String(unsafe.SliceData(b), len(b)), base: len(ptr) + 1}
}

// next is the pointer of the next index (AppendIndex(ptr, i)).
func (p *indexPointers) next() string {
	w := 1
	for v := p.i; v >= 10; v /= 10 {
		w++
	}
	s := p.all[p.off : p.off+p.base+w]
	p.off += p.base + w
	p.i++
	return s
}

// SplitPointer splits a JSON Pointer into unescaped reference tokens.
func SplitPointer(ptr string) []string {
	if ptr == "" {
		return nil
	}
	parts := strings.Split(ptr[1:], "/")
	for i, p := range parts {
		if strings.Contains(p, "~") {
			parts[i] = strings.ReplaceAll(strings.ReplaceAll(p, "~1", "/"), "~0", "~")
		}
	}
	return parts
}

// Walk visits n and every value below it in source order with its JSON
// Pointer. Returning false from fn skips the node's children.
func Walk(n *Node, ptr string, fn func(ptr string, n *Node) bool) {
	if n == nil || !fn(ptr, n) {
		return
	}
	switch n.Kind {
	case Object:
		for _, m := range n.Members {
			Walk(m.Value, Append(ptr, m.Key), fn)
		}
	case Array:
		for i, it := range n.Items {
			Walk(it, AppendIndex(ptr, i), fn)
		}
	}
}

// PointerOf returns the JSON Pointer of n within the tree it was parsed in
// ("" for the root). Nodes built by hand, outside a parse, have no parent
// and are named "" too.
func PointerOf(n *Node) string {
	depth := 0
	for c := n; c != nil && c.parent != nil; c = c.parent {
		depth++
	}
	if depth == 0 {
		return ""
	}
	tokens := make([]string, depth)
	for c := n; c.parent != nil; c = c.parent {
		depth--
		if c.parent.Kind == Object {
			tokens[depth] = c.parent.Members[c.slot].Key
		} else {
			tokens[depth] = strconv.Itoa(int(c.slot))
		}
	}
	return Pointer(tokens...)
}

// WalkNodes visits n and every value below it in source order, like Walk
// but without building pointers: use PointerOf for the few nodes that need
// one. Returning false from fn skips the node's children.
func WalkNodes(n *Node, fn func(n *Node) bool) {
	if n == nil || !fn(n) {
		return
	}
	for _, m := range n.Members {
		WalkNodes(m.Value, fn)
	}
	for _, it := range n.Items {
		WalkNodes(it, fn)
	}
}

// linkTree sets the parent links of a tree built outside the JSON parser
// (the YAML loader) so that PointerOf works on it too, indexes large
// objects' keys and returns the repeated keys.
func linkTree(n *Node, dups []DuplicateKey) []DuplicateKey {
	for i, m := range n.Members {
		m.Value.parent, m.Value.slot = n, int32(i)
		dups = linkTree(m.Value, dups)
	}
	for i, it := range n.Items {
		it.parent, it.slot = n, int32(i)
		dups = linkTree(it, dups)
	}
	if n.Kind == Object {
		dups = indexKeys(n, dups)
	}
	return dups
}

// Key returns the member key under which n sits in its parent object, or ""
// when n is the root or an array element.
func (n *Node) Key() string {
	if n == nil || n.parent == nil || n.parent.Kind != Object {
		return ""
	}
	return n.parent.Members[n.slot].Key
}

// Parent returns the object or array that holds n, or nil for the root (and
// for nodes built by hand).
func (n *Node) Parent() *Node {
	if n == nil {
		return nil
	}
	return n.parent
}
