package slots

import (
	"strings"
	"unicode/utf8"
)

// Printable returns s made safe to draw on a terminal: escape sequences
// (CSI, OSC, DCS, APC, PM, SOS and two-byte ESC sequences, in their 7-bit
// and 8-bit forms) are removed, newlines, carriage returns and tabs become a
// space, every other control character (C0, DEL, C1) and the bidirectional
// override/isolate characters are dropped, and invalid UTF-8 becomes U+FFFD.
// Text read from a catalog or an agent goes through it before it is shown.
func Printable(s string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c == 0x7f || c >= 0x80 {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size <= 1 {
			b.WriteRune(utf8.RuneError)
			i++
			continue
		}
		switch {
		case r == 0x1b: // ESC
			i = skipEscape(s, i+size)
			continue
		case r == 0x9b: // C1 CSI
			i = skipCSI(s, i+size)
			continue
		case r == 0x9d || r == 0x90 || r == 0x98 || r == 0x9e || r == 0x9f: // C1 OSC, DCS, SOS, PM, APC
			i = skipString(s, i+size)
			continue
		case r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0):
			// other control characters: dropped
		case (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069) || r == 0x200e || r == 0x200f:
			// bidi overrides, isolates and marks: dropped (they reorder what is drawn)
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// skipEscape skips the sequence that starts after an ESC at s[i:].
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
	// intermediate bytes then one final byte (e.g. ESC ( B)
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips parameter and intermediate bytes and the final byte.
func skipCSI(s string, i int) int {
	for i < len(s) {
		c := s[i]
		i++
		if c >= 0x40 && c <= 0x7e {
			return i
		}
		if c < 0x20 || c > 0x7e {
			return i - 1 // malformed: stop before the odd byte
		}
	}
	return i
}

// skipString skips a control string up to and including its terminator
// (BEL, ESC \ or the 8-bit ST), or to the end of s.
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
