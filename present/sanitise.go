package present

// The sanitiser: Clean and CleanLine remove what a terminal acts on. Faces
// call Text/Line/Lines (present.go), which apply it before the masker.

import (
	"strings"
	"unicode/utf8"
)

// Clean makes a string taken from an agent file safe to draw in a
// terminal. It removes:
//   - escape sequences: CSI (ESC [ … final), OSC (ESC ] … BEL or ST), DCS,
//     SOS, PM and APC strings (ESC P/X/^/_ … ST), two-byte ESC sequences, and
//     their 8-bit C1 forms (U+009B CSI, U+009D OSC, U+0090/98/9E/9F strings);
//   - every other C0 and C1 control character and DEL (tab, newline and
//     carriage return become a space);
//   - bidirectional formatting characters (U+061C, U+200E, U+200F,
//     U+202A–U+202E, U+2066–U+2069), zero-width characters (U+200B–U+200D,
//     U+2060, U+FEFF) and line/paragraph separators (U+2028/9, as a space);
//   - bytes that are not valid UTF-8.
//
// The result never contains a byte below 0x20, DEL or a C1 control.
func Clean(s string) string { return clean(s, false) }

// CleanLine is Clean for a source line shown as an excerpt: it keeps tabs
// (so that a caret line can be aligned under them) and removes everything
// else Clean removes.
func CleanLine(s string) string { return clean(s, true) }

func clean(s string, keepTab bool) string {
	if isClean(s) {
		return s
	}
	return cleanRunes(s, keepTab)
}

// cleanRunes is clean past its first look: text with characters beyond
// ASCII that are all kept (a dash, an accent, a quotation mark in a
// prompt) is returned as it is, uncopied; any other goes through
// cleanCopy.
func cleanRunes(s string, keepTab bool) string {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if c < 0x20 || c == 0x7f {
				return cleanCopy(s, keepTab)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 || Unsafe(r) {
			return cleanCopy(s, keepTab)
		}
		i += size
	}
	return s
}

// cleanCopy writes s without what Clean removes.
func cleanCopy(s string, keepTab bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			i++ // invalid byte
			continue
		}
		switch {
		case r == 0x1b: // ESC
			i = skipEscape(s, i+size)
			continue
		case r == 0x9b: // 8-bit CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // 8-bit OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		case r == '\t' && keepTab:
			b.WriteByte('\t')
		case r == '\t' || r == '\n' || r == '\r' || r == 0x2028 || r == 0x2029:
			b.WriteByte(' ')
		case r < 0x20 || (r >= 0x7f && r <= 0x9f):
			// other control: dropped
		case isInvisibleFormat(r):
			// dropped
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// Unsafe reports whether Clean removes or replaces r: a C0 or C1 control
// character, DEL, a bidirectional or zero-width formatting character, or a
// line or paragraph separator. Faces that escape rather than remove (JSON
// output) use it to decide what to escape.
func Unsafe(r rune) bool {
	return r < 0x20 || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 || isInvisibleFormat(r)
}

// isClean is the fast path: printable ASCII only.
func isClean(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return false
		}
	}
	return true
}

func isInvisibleFormat(r rune) bool {
	switch {
	case r == 0x061c, r == 0x200e, r == 0x200f:
		return true
	case r >= 0x202a && r <= 0x202e:
		return true
	case r >= 0x2066 && r <= 0x2069:
		return true
	case r >= 0x200b && r <= 0x200d, r == 0x2060, r == 0xfeff:
		return true
	}
	return false
}

// skipEscape skips what follows an ESC at i and returns the index after the
// whole sequence.
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// ESC followed by intermediate bytes (0x20–0x2F) then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte of a
// control sequence. A byte outside the CSI grammar ends it (and is kept).
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		switch {
		case c >= 0x20 && c <= 0x3f: // parameters, intermediates
			i++
		case c >= 0x40 && c <= 0x7e: // final
			return i + 1
		default:
			return i
		}
	}
	return i
}

// skipString skips an OSC/DCS/SOS/PM/APC payload up to and including its
// terminator: BEL, ESC \ or the 8-bit ST (U+009C). An unterminated string
// runs to the end of s.
func skipString(s string, i int) int {
	for i < len(s) {
		if s[i] == 0x07 {
			return i + 1
		}
		if s[i] == 0x1b {
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == 0x9c {
			return i + size
		}
		i += size
	}
	return i
}
