package lsp

import (
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

func TestPositionsUTF16(t *testing.T) {
	src := []byte("a😀b\r\né\rx\n\xffz𝄞\n")
	tx := newText(src)
	cases := []struct {
		off        int
		line, char uint32
	}{
		{0, 0, 0}, {1, 0, 1}, {5, 0, 3}, {6, 0, 4}, // after the astral char: 2 units
		{7, 0, 4}, {8, 1, 0}, // CRLF: \r is the line's end, \n too
		{10, 1, 1}, {11, 2, 0}, // lone CR ends a line
		{13, 3, 0}, {14, 3, 1}, {15, 3, 2}, {19, 3, 4}, {20, 4, 0},
		{3, 0, 1}, // inside 😀: its start
	}
	for _, c := range cases {
		p := tx.position(c.off)
		if p.Line != c.line || p.Character != c.char {
			t.Errorf("position(%d) = %d:%d, want %d:%d", c.off, p.Line, p.Character, c.line, c.char)
		}
	}
	// round trip at every character start
	for off := 0; off <= len(src); {
		p := tx.position(off)
		if got := tx.offset(p); got != off && !(off < len(src) && (src[off] == '\n' || src[off] == '\r')) {
			t.Errorf("offset(position(%d)) = %d", off, got)
		}
		if off == len(src) {
			break
		}
		_, size := utf8.DecodeRune(src[off:])
		off += size
	}
	if got := tx.offset(protocol.Position{Line: 0, Character: 2}); got != 1 {
		t.Errorf("inside the surrogate pair = %d, want 1", got)
	}
	if got := tx.offset(protocol.Position{Line: 0, Character: 99}); got != 6 {
		t.Errorf("past the line end = %d, want 6", got)
	}
	if got := tx.offset(protocol.Position{Line: 99}); got != len(src) {
		t.Errorf("past the last line = %d", got)
	}
	// the units agree with unicode/utf16 on valid text
	line := "x😀é𝄞y"
	if got, want := newText([]byte(line)).position(len(line)).Character, len(utf16.Encode([]rune(line))); int(got) != want {
		t.Errorf("utf16 length %d, want %d", got, want)
	}
}
