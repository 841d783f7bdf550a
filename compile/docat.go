package compile

import (
	"bytes"
	"sort"
)

// Offset → value helpers: the extent of a value or a key in the source and
// the innermost value at a byte offset. The language server turns a cursor
// into a JSON Pointer with them, and a finding's pointer into the range of
// the offending value (not just its first character).
//
// The extents are exact for JSON documents, whose values are contiguous
// tokens with only whitespace between them. A YAML document's values have
// no closing token: there a container ends where its last child ends and a
// scalar at the end of its line.

// ValueEnd returns the byte offset just past the value n of d: after a
// string's closing quote, a number's or literal's last character, an
// object's "}" or an array's "]". It never panics and stays within Src;
// for a value it cannot measure (a YAML document, a tree built by hand) it
// returns the end of the line where the value starts.
func (d *Doc) ValueEnd(n *Node) int {
	if n == nil || n.Offset < 0 || n.Offset >= len(d.Src) {
		return min(max(0, nodeOffset(n)), len(d.Src))
	}
	if end, ok := d.jsonEnd(n, 0); ok {
		return end
	}
	return d.yamlEnd(n, 0)
}

// yamlEnd approximates a value without a closing token (YAML): a
// container ends where its last child ends, a scalar at the end of its
// line (a block scalar's first line only).
func (d *Doc) yamlEnd(n *Node, depth int) int {
	end := d.lineEndAt(n.Offset)
	if depth > MaxDepth+1 {
		return end
	}
	var last *Node
	switch {
	case n.Kind == Object && len(n.Members) > 0:
		last = n.Members[len(n.Members)-1].Value
	case n.Kind == Array && len(n.Items) > 0:
		last = n.Items[len(n.Items)-1]
	}
	if last != nil && last.Offset >= n.Offset && last.Offset < len(d.Src) {
		end = max(end, d.yamlEnd(last, depth+1))
	}
	return end
}

func nodeOffset(n *Node) int {
	if n == nil {
		return 0
	}
	return n.Offset
}

// KeyEnd returns the byte offset just past the key of m (its closing quote
// in JSON; the end of the key's line in YAML).
func (d *Doc) KeyEnd(m Member) int {
	if m.KeyOffset >= 0 && m.KeyOffset < len(d.Src) && d.Src[m.KeyOffset] == '"' {
		if end, ok := stringEnd(d.Src, m.KeyOffset); ok {
			return end
		}
	}
	if m.KeyOffset < 0 || m.KeyOffset > len(d.Src) {
		return min(max(m.KeyOffset, 0), len(d.Src))
	}
	if m.Key != "" && bytes.HasPrefix(d.Src[m.KeyOffset:], []byte(m.Key)) { // a plain YAML key
		return m.KeyOffset + len(m.Key)
	}
	return d.lineEndAt(m.KeyOffset)
}

// lineEndAt is the end of the line holding off (before "\r\n" or "\n").
// It is LineSpan's end of Position's line, bounded below by off, found
// from off without the position index when the line ends within
// posScanLine bytes of off (the next newline, then back over "\r"s no
// further than off); a longer line (a minified file) asks the index, so
// that many findings on one long line cost O(log n) each, not its length.
func (d *Doc) lineEndAt(off int) int {
	off = min(max(off, 0), len(d.Src))
	end := len(d.Src)
	if j := bytes.IndexByte(d.Src[off:min(len(d.Src), off+posScanLine)], '\n'); j >= 0 {
		end = off + j
	} else if off+posScanLine < len(d.Src) {
		line, _ := d.Position(off)
		_, end = d.LineSpan(line)
		return max(end, off)
	}
	for end > off && d.Src[end-1] == '\r' {
		end--
	}
	return end
}

// jsonEnd measures a JSON value; false when the source does not hold the
// token the node's kind expects at its offset.
func (d *Doc) jsonEnd(n *Node, depth int) (int, bool) {
	src := d.Src
	if n.Offset < 0 || n.Offset >= len(src) || depth > MaxDepth+1 {
		return 0, false
	}
	c := src[n.Offset]
	switch n.Kind {
	case String:
		if c != '"' {
			return 0, false
		}
		return stringEnd(src, n.Offset)
	case Number, Bool, Null:
		if !isLiteralByte(c) {
			return 0, false
		}
		i := n.Offset
		for i < len(src) && isLiteralByte(src[i]) {
			i++
		}
		return i, true
	case Object, Array:
		open, close := byte('{'), byte('}')
		var last *Node
		if n.Kind == Array {
			open, close = '[', ']'
			if len(n.Items) > 0 {
				last = n.Items[len(n.Items)-1]
			}
		} else if len(n.Members) > 0 {
			last = n.Members[len(n.Members)-1].Value
		}
		if c != open {
			return 0, false
		}
		i := n.Offset + 1
		if last != nil {
			e, ok := d.jsonEnd(last, depth+1)
			if !ok || e <= n.Offset {
				return 0, false
			}
			i = e
		}
		for i < len(src) && isSpace(src[i]) {
			i++
		}
		if i < len(src) && src[i] == close {
			return i + 1, true
		}
	}
	return 0, false
}

func isLiteralByte(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '-' || c == '+' || c == '.'
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// stringEnd returns the offset past the closing quote of the JSON string
// whose opening quote is at start: the first '"' after it that no '\\'
// escapes; false at a newline no '\\' escapes first, or at the end. The
// quotes and newlines are found with IndexByte (a long prompt is read a
// vector at a time, where a loop over its bytes stopped at every escape);
// whether one is escaped is the parity of the backslashes just before it.
// TestStringEndSameAsLoop holds it to the loop over bytes.
func stringEnd(src []byte, start int) (int, bool) {
	for i := start + 1; i <= len(src); {
		end := len(src)
		k := bytes.IndexByte(src[i:], '"')
		if k >= 0 {
			end = i + k
		}
		for j := i; ; {
			n := bytes.IndexByte(src[j:end], '\n')
			if n < 0 {
				break
			}
			if !escapedAt(src, start, j+n) {
				return 0, false
			}
			j += n + 1
		}
		if k < 0 {
			return 0, false
		}
		if !escapedAt(src, start, end) {
			return end + 1, true
		}
		i = end + 1
	}
	return 0, false
}

// escapedAt reports that the byte at p follows an odd run of backslashes
// (after start, the opening quote).
func escapedAt(src []byte, start, p int) bool {
	n := 0
	for q := p - 1; q > start && src[q] == '\\'; q-- {
		n++
	}
	return n%2 == 1
}

// NodeAt returns the innermost value of d whose source holds byte offset
// off, and onKey when off lies on the key of the member holding that value
// (then the value is the member's). nil when off is outside the root value
// or the document did not parse. Cost: a binary search per level.
func (d *Doc) NodeAt(off int) (n *Node, onKey bool) {
	n = d.Root
	if n == nil || off < n.Offset || off >= d.ValueEnd(n) {
		return nil, false
	}
	for {
		switch n.Kind {
		case Object:
			ms := n.Members
			i := sort.Search(len(ms), func(i int) bool { return ms[i].KeyOffset > off }) - 1
			if i < 0 {
				return n, false
			}
			m := ms[i]
			if off < d.KeyEnd(m) {
				return m.Value, true
			}
			if m.Value == nil || off < m.Value.Offset || off >= d.ValueEnd(m.Value) {
				return n, false
			}
			n = m.Value
		case Array:
			its := n.Items
			i := sort.Search(len(its), func(i int) bool { return its[i].Offset > off }) - 1
			if i < 0 || its[i] == nil || off >= d.ValueEnd(its[i]) {
				return n, false
			}
			n = its[i]
		default:
			return n, false
		}
	}
}

// PointerAt is the JSON Pointer of NodeAt(off) ("" with ok false when off
// names no value).
func (d *Doc) PointerAt(off int) (ptr string, onKey, ok bool) {
	n, onKey := d.NodeAt(off)
	if n == nil {
		return "", false, false
	}
	return PointerOf(n), onKey, true
}

// KeySpan returns the byte range of the key of the member holding n in its
// parent object (quotes included), and false when n is not an object
// member.
func (d *Doc) KeySpan(n *Node) (start, end int, ok bool) {
	p := n.Parent()
	if p == nil || p.Kind != Object || int(n.slot) >= len(p.Members) {
		return 0, 0, false
	}
	m := p.Members[n.slot]
	return m.KeyOffset, d.KeyEnd(m), true
}

// ValueSpan returns the byte range [start, end) of the value ptr names,
// falling back (like PointerPosition) to the deepest ancestor that exists;
// for an unparsed document, the syntax error's offset to the end of its
// line. ok is false when nothing could be placed (an empty range at 0).
func (d *Doc) ValueSpan(ptr string) (start, end int, ok bool) {
	if d.Root == nil {
		if d.Err != nil {
			off := min(max(d.Err.Offset, 0), len(d.Src))
			return off, d.lineEndAt(off), true
		}
		return 0, 0, false
	}
	n, _ := d.resolve(ptr)
	if n == nil {
		return 0, 0, false
	}
	return n.Offset, d.ValueEnd(n), true
}
