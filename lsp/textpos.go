package lsp

import (
	"sort"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// text is a buffer with its line table, converting byte offsets to LSP
// positions and back. LSP positions count UTF-16 code units within a line
// (the protocol's default position encoding) and lines end at "\n",
// "\r\n" or a lone "\r". A byte of invalid UTF-8 counts as one unit (it
// decodes to U+FFFD).
type text struct {
	src   []byte
	lines []int // byte offset of each line's start
	// wide[i]: line i holds a byte outside ASCII. On the other lines a
	// position's character is its byte column: position need not count
	// the line's characters (a one-line flow of 5,000 diagnostics counted
	// up to each: 6 s; 20,000: 90 s).
	wide []bool
	// counting makes position count every line's characters, as it did
	// before the wide lines were marked: the equivalence test's oracle
	// (TestPositionSameAsCounting sets it on its own texts).
	counting bool
}

func newText(src []byte) *text {
	t := &text{src: src, lines: []int{0}, wide: []bool{false}}
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case c == '\n':
			t.lines = append(t.lines, i+1)
			t.wide = append(t.wide, false)
		case c == '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				i++
			}
			t.lines = append(t.lines, i+1)
			t.wide = append(t.wide, false)
		case c >= utf8.RuneSelf:
			t.wide[len(t.wide)-1] = true
		}
	}
	return t
}

// lineEnd is the offset of the end of line i's content (before its break).
func (t *text) lineEnd(i int) int {
	if i+1 >= len(t.lines) {
		return len(t.src)
	}
	end := t.lines[i+1] - 1
	if t.src[end] == '\n' && end > t.lines[i] && t.src[end-1] == '\r' {
		end--
	}
	return end
}

// lineAt is the 0-based line holding byte offset off (clamped).
func (t *text) lineAt(off int) int {
	off = min(max(off, 0), len(t.src))
	return sort.Search(len(t.lines), func(i int) bool { return t.lines[i] > off }) - 1
}

// runeOffset is the byte offset of the col-th character (1-based, in
// runes, as findings count columns) of 1-based line n, or of the line's
// end when the line is shorter (the text's end past its last line).
func (t *text) runeOffset(n, col int) int {
	if n < 1 {
		n = 1
	}
	if n > len(t.lines) {
		return len(t.src)
	}
	off, end := t.lines[n-1], t.lineEnd(n-1)
	for c := 1; c < col && off < end; c++ {
		_, size := utf8.DecodeRune(t.src[off:end])
		off += size
	}
	return off
}

// position of byte offset off (clamped to the text). An offset inside a
// line break or inside a character is placed at the end of the line or at
// that character's start.
func (t *text) position(off int) protocol.Position {
	off = min(max(off, 0), len(t.src))
	i := t.lineAt(off)
	start, end := t.lines[i], t.lineEnd(i)
	off = min(off, end)
	if !t.wide[i] && !t.counting {
		return protocol.Position{Line: uint32(i), Character: uint32(off - start)}
	}
	n := 0
	for p := start; p < off; {
		r, size := utf8.DecodeRune(t.src[p:])
		if p+size > off { // inside a character
			break
		}
		n += utf16Len(r)
		p += size
	}
	return protocol.Position{Line: uint32(i), Character: uint32(n)}
}

// offset of an LSP position: a line past the end is the end of the text,
// a character past the line's end is the line's end (as the protocol
// says), a character inside a surrogate pair is the pair's character.
func (t *text) offset(p protocol.Position) int {
	if int(p.Line) >= len(t.lines) {
		return len(t.src)
	}
	off, end := t.lines[p.Line], t.lineEnd(int(p.Line))
	for n := 0; off < end; {
		r, size := utf8.DecodeRune(t.src[off:])
		w := utf16Len(r)
		if n+w > int(p.Character) {
			break
		}
		n += w
		off += size
	}
	return off
}

func (t *text) rangeOf(start, end int) protocol.Range {
	return protocol.Range{Start: t.position(start), End: t.position(max(start, end))}
}

func utf16Len(r rune) int {
	if r >= 0x10000 && r <= utf8.MaxRune {
		return 2
	}
	return 1
}
