package lsp

import (
	"bytes"
	"encoding/binary"
	"slices"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// A didChange may carry many ranged edits (an editor's "replace all"
// sends one per occurrence), each range in the text the edits before it
// made (the protocol applies contentChanges in order). Applying each to
// a flat buffer costs a line table and a copy of the whole buffer per
// edit: 500 edits on 10 MB took 8 s and allocated 10 GB. pieces applies a
// batch to a list of chunks instead: each chunk knows its line breaks,
// so an LSP position is found by walking the chunk list and scanning one
// chunk, and an edit rewrites only the chunks it touches. A batch costs
// about (edits × (chunks + chunk size)) + buffer size, and one copy of
// the buffer at the end. Positions follow text's rules exactly (UTF-16
// units, "\n", "\r\n" and a lone "\r" end lines; FuzzBatchedEdits checks
// the two agree).

// chunkMax is the largest chunk an edit leaves (a larger one is split).
const chunkMax = 16 << 10

// chunk is a piece of the buffer, never empty.
type chunk struct {
	b []byte
	// breaks counts the line breaks that end inside b: each "\n", and each
	// "\r" followed (inside b) by something else than "\n". A "\r" that
	// ends b (endsCR) is a break unless the next chunk starts with "\n".
	breaks int
	endsCR bool
	cr     bool // holds a "\r" (else a "\n" alone ends a line)
	ascii  bool // no byte ≥ 0x80: a byte is a UTF-16 unit
}

// lineEnd is the offset in b of the first "\r" or "\n", or -1 (IndexAny
// without its slow set search: the two bytes are looked for directly).
func (c *chunk) lineEnd(b []byte) int {
	n := bytes.IndexByte(b, '\n')
	if !c.cr {
		return n
	}
	if r := bytes.IndexByte(b, '\r'); r >= 0 && (n < 0 || r < n) {
		return r
	}
	return n
}

func newChunk(b []byte) chunk {
	c := chunk{b: b, ascii: isASCII(b), cr: bytes.IndexByte(b, '\r') >= 0}
	c.breaks = bytes.Count(b, []byte{'\n'})
	for i := 0; ; {
		j := bytes.IndexByte(b[i:], '\r')
		if j < 0 {
			break
		}
		i += j + 1
		switch {
		case i == len(b):
			c.endsCR = true
		case b[i] != '\n':
			c.breaks++
		}
	}
	return c
}

// isASCII: no byte of b is ≥ 0x80 (eight bytes at a time).
func isASCII(b []byte) bool {
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, x := range b {
		if x >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// pieces is a buffer as chunks (the buffer they were cut from is shared
// and never written: a review in flight may hold it).
type pieces struct {
	chunks []chunk
	size   int
}

func newPieces(src []byte) *pieces {
	p := &pieces{}
	p.chunks = appendChunks(p.chunks, src)
	p.size = len(src)
	return p
}

// appendChunks cuts b into chunks of at most chunkMax bytes, at
// character boundaries.
func appendChunks(cs []chunk, b []byte) []chunk {
	for len(b) > 0 {
		n := len(b)
		if n > chunkMax {
			n = chunkMax
			for n > chunkMax-utf8.UTFMax && !utf8.RuneStart(b[n]) {
				n--
			}
		}
		cs = append(cs, newChunk(b[:n:n]))
		b = b[n:]
	}
	return cs
}

// breaksOf counts chunk i's line breaks, its final "\r" included when it
// is one.
func (p *pieces) breaksOf(i int) int {
	c := &p.chunks[i]
	n := c.breaks
	if c.endsCR && (i+1 == len(p.chunks) || p.chunks[i+1].b[0] != '\n') {
		n++
	}
	return n
}

// offset of an LSP position, as text.offset.
func (p *pieces) offset(pos protocol.Position) int {
	// the chunk and offset where line pos.Line starts
	i, at, base := 0, 0, 0 // chunk index, offset in it, offset of the chunk
	if line := int(pos.Line); line > 0 {
		seen := 0
		for i = 0; i < len(p.chunks); i++ {
			n := p.breaksOf(i)
			if seen+n >= line {
				break
			}
			seen += n
			base += len(p.chunks[i].b)
		}
		if i == len(p.chunks) {
			return p.size // past the last line
		}
		// the (line-seen)-th break of chunk i ends the line before
		c := &p.chunks[i]
		b := c.b
		for k := line - seen; ; {
			j := c.lineEnd(b[at:])
			at += j + 1
			if b[at-1] == '\r' && at < len(b) && b[at] == '\n' {
				continue // the "\r" of a "\r\n": the "\n" is the break
			}
			if k--; k == 0 {
				break
			}
		}
		if at == len(b) {
			base += len(b)
			i, at = i+1, 0
		}
	}
	// then pos.Character UTF-16 units along the line, stopping at its end
	want, n := int(pos.Character), 0
	for ; i < len(p.chunks); i, at = i+1, 0 {
		c := &p.chunks[i]
		rest := c.b[at:]
		end := c.lineEnd(rest)
		if end < 0 {
			end = len(rest)
		}
		if c.ascii {
			if step := want - n; step < end {
				return base + at + step
			}
			n += end
		} else {
			for k := 0; k < end; {
				r, size := utf8.DecodeRune(rest[k:])
				w := utf16Len(r)
				if n+w > want {
					return base + at + k
				}
				n += w
				k += size
			}
		}
		if end < len(rest) { // the line ends in this chunk
			return base + at + end
		}
		base += len(c.b)
	}
	return p.size
}

// locate is the chunk holding offset off and off's place in it (off at
// the end of the buffer: one past the last chunk).
func (p *pieces) locate(off int) (i, at int) {
	for i = 0; i < len(p.chunks); i++ {
		if off < len(p.chunks[i].b) {
			return i, off
		}
		off -= len(p.chunks[i].b)
	}
	return i, 0
}

// replace replaces the bytes [start, end) with text.
func (p *pieces) replace(start, end int, text string) {
	i, at := p.locate(start)
	j, atEnd := p.locate(end)
	n := len(text)
	if i < len(p.chunks) {
		n += at
	}
	if j < len(p.chunks) {
		n += len(p.chunks[j].b) - atEnd
	}
	nb := make([]byte, 0, n)
	if i < len(p.chunks) {
		nb = append(nb, p.chunks[i].b[:at]...)
	}
	nb = append(nb, text...)
	if j < len(p.chunks) {
		nb = append(nb, p.chunks[j].b[atEnd:]...)
		j++
	}
	p.chunks = slices.Replace(p.chunks, i, j, appendChunks(nil, nb)...)
	p.size += len(text) - (end - start)
}

// bytes is the buffer, in one new slice.
func (p *pieces) bytes() []byte {
	out := make([]byte, 0, p.size)
	for _, c := range p.chunks {
		out = append(out, c.b...)
	}
	return out
}

// contentChange is one of a didChange's changes: the whole text when
// Range is nil.
type contentChange struct {
	Range *protocol.Range `json:"range,omitempty"`
	Text  string          `json:"text"`
}

// byteEdit is one ranged change as it was applied: the bytes [start,
// end) of the buffer at that moment became n bytes. The server keeps them
// to carry a review's findings to the text after the edits (carrySpan).
type byteEdit struct{ start, end, n int }

// applyContentChanges applies a didChange's changes, in order, to src.
// The result is a new slice (src is not written). edits are the ranged
// changes after the last whole-text one; full says there was one (the
// text before it cannot be mapped to the result).
func applyContentChanges(src []byte, changes []contentChange) (out []byte, edits []byteEdit, full bool) {
	var p *pieces
	for _, c := range changes {
		if c.Range == nil {
			p = newPieces([]byte(c.Text))
			edits, full = edits[:0], true
			continue
		}
		if p == nil {
			p = newPieces(src)
		}
		start, end := p.offset(c.Range.Start), p.offset(c.Range.End)
		if end < start {
			start, end = end, start
		}
		p.replace(start, end, c.Text)
		edits = append(edits, byteEdit{start: start, end: end, n: len(c.Text)})
	}
	if p == nil {
		return src, nil, false
	}
	return p.bytes(), edits, full
}

// carrySpan is where the bytes [start, end) of a text are after edits
// (in order), and false when an edit touches them (replaces, or inserts
// next to or inside, any of them): a finding there may not hold any more.
func carrySpan(start, end int, edits []byteEdit) (int, int, bool) {
	for _, e := range edits {
		switch {
		case e.end < start:
			d := e.n - (e.end - e.start)
			start, end = start+d, end+d
		case e.start > end:
		default:
			return 0, 0, false
		}
	}
	return start, end, true
}
