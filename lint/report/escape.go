package report

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/oastui/oastui/present"
)

// jsonEscapeInvisible rewrites, in encoded JSON, every character that a
// terminal may act on or that hides or reorders text — DEL, the C1
// controls (U+0080–U+009F, e.g. U+009B CSI), bidirectional and zero-width
// formatting characters — as a \uXXXX escape. encoding/json already
// escapes C0 controls (ESC is \u001b) and U+2028/U+2029; the others are
// legal raw in JSON but not safe to print. Such characters occur only
// inside strings, so the result is valid JSON that decodes to the same
// values.
func jsonEscapeInvisible(b []byte) []byte { return EscapeInvisible(b) }

// EscapeInvisible is jsonEscapeInvisible for the other faces that hand out
// encoded JSON (the MCP server's text content).
func EscapeInvisible(b []byte) []byte {
	if !strings.ContainsFunc(string(b), jsonMustEscape) {
		return b
	}
	out := make([]byte, 0, len(b)+64)
	for i := 0; i < len(b); {
		r, size := utf8.DecodeRune(b[i:])
		if jsonMustEscape(r) {
			out = fmt.Appendf(out, `\u%04x`, r)
		} else {
			out = append(out, b[i:i+size]...)
		}
		i += size
	}
	return out
}

func jsonMustEscape(r rune) bool {
	return r >= 0x7f && present.Unsafe(r)
}

// cleanLines is present.Clean line by line: newlines are kept (a format
// may escape them, as github does) and everything else the sanitiser
// removes is removed.
func cleanLines(s string) string {
	if !strings.Contains(s, "\n") {
		return present.Clean(s)
	}
	parts := strings.Split(s, "\n")
	for i, p := range parts {
		parts[i] = present.Clean(p)
	}
	return strings.Join(parts, "\n")
}
