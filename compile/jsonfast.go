package compile

import (
	"encoding/binary"
	"math/bits"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/go-json-experiment/json/jsontext"
)

// The parser's own scanner: the common case of a valid document, read
// straight from the bytes into the same tree the decoder path builds
// (the same nodes, offsets, strings, interning and duplicate keys).
// jsontext's decoder validates a state machine per token and copies every
// string through its token; the scanner reads each byte once and copies a
// string without escapes straight from the source. It accepts exactly
// what the decoder accepts (RFC 8259, strict UTF-8, duplicate names
// allowed) and gives up at the first byte it does not expect; the decoder
// then parses the document again and reports the error, so every error
// (message, offset, refusal) is the decoder's. FuzzFastParse holds the two
// to the same trees and the same verdicts.

// strStop marks the bytes that end the fast loop over a string's bytes: the
// closing quote, an escape, a control character (an error) and the first
// byte of a multi-byte character (whose string is then checked as UTF-8).
var strStop = func() (t [256]bool) {
	for c := 0; c < 256; c++ {
		t[c] = c < 0x20 || c == '"' || c == '\\' || c >= utf8.RuneSelf
	}
	return t
}()

// strRun returns the index of the first byte at or after i that strStop
// marks, or len(src) if there is none. Sixteen bytes a round: one test of
// the index per sixteen bytes and no bounds check per byte (the loop of one
// byte at a time spent ten instructions a byte under callgrind). A string's
// closing quote is followed by more of the document, so its bytes are
// nearly always read in the rounds; the byte loop is for a document's end.
func strRun(src []byte, i int) int {
	for ; i >= 0 && i+16 <= len(src); i += 16 {
		b := src[i : i+16 : i+16]
		if strStop[b[0]] {
			return i
		}
		if strStop[b[1]] {
			return i + 1
		}
		if strStop[b[2]] {
			return i + 2
		}
		if strStop[b[3]] {
			return i + 3
		}
		if strStop[b[4]] {
			return i + 4
		}
		if strStop[b[5]] {
			return i + 5
		}
		if strStop[b[6]] {
			return i + 6
		}
		if strStop[b[7]] {
			return i + 7
		}
		if strStop[b[8]] {
			return i + 8
		}
		if strStop[b[9]] {
			return i + 9
		}
		if strStop[b[10]] {
			return i + 10
		}
		if strStop[b[11]] {
			return i + 11
		}
		if strStop[b[12]] {
			return i + 12
		}
		if strStop[b[13]] {
			return i + 13
		}
		if strStop[b[14]] {
			return i + 14
		}
		if strStop[b[15]] {
			return i + 15
		}
	}
	for ; i < len(src); i++ {
		if strStop[src[i]] {
			return i
		}
	}
	return i
}

// wsByte marks the four bytes of JSON whitespace.
var wsByte = [' ' + 1]bool{' ': true, '\n': true, '\t': true, '\r': true}

// fast parses the whole document; false: it is not one the scanner
// accepts (the decoder will say why).
func (p *parser) fast() (*Node, bool) {
	p.ws()
	n, ok := p.fvalue(0)
	if !ok {
		return nil, false
	}
	p.ws()
	return n, p.pos == len(p.src)
}

// ws skips JSON whitespace. Most calls find none, or one space, or a
// newline and an indentation: the first test sends every byte above ' '
// out of the loop at once, and after a newline the spaces of the
// indentation are counted eight bytes at a time (the corpus's files
// indent a line by nine spaces on average).
func (p *parser) ws() {
	src, i := p.src, p.pos
	for i < len(src) {
		c := src[i]
		if c > ' ' || !wsByte[c] {
			break
		}
		i++
		if c == '\n' { // the spaces of the indentation, eight bytes at a time
			for i+8 <= len(src) {
				if x := binary.LittleEndian.Uint64(src[i:]) ^ 0x2020202020202020; x != 0 {
					i += bits.TrailingZeros64(x) >> 3
					break
				}
				i += 8
			}
		}
	}
	p.pos = i
}

// fvalue reads the value at p.pos (no whitespace before it).
func (p *parser) fvalue(depth int) (*Node, bool) {
	if depth > MaxDepth || p.pos >= len(p.src) {
		return nil, false
	}
	src, off := p.src, p.pos
	switch c := src[off]; {
	case c == '"':
		s, ok := p.fstring(false)
		if !ok {
			return nil, false
		}
		n := p.newNode()
		n.Offset, n.Kind, n.Text = off, String, s
		return n, true
	case c == '{':
		p.pos++
		n := p.newNode()
		n.Offset, n.Kind = off, Object
		p.ws()
		if p.pos < len(src) && src[p.pos] == '}' {
			p.pos++
			return n, true
		}
		base := len(p.members)
		for {
			keyOff := p.pos
			if keyOff >= len(src) || src[keyOff] != '"' {
				return nil, false
			}
			key, ok := p.fstring(true)
			if !ok {
				return nil, false
			}
			// `": "` and a value's first byte, as a pretty-printed
			// document writes them, in one step: what the two ws calls
			// and the colon test below would do there
			if i := p.pos; i+2 < len(src) && src[i] == ':' && src[i+1] == ' ' && src[i+2] > ' ' {
				p.pos = i + 2
			} else {
				p.ws()
				if p.pos >= len(src) || src[p.pos] != ':' {
					return nil, false
				}
				p.pos++
				p.ws()
			}
			v, ok := p.fvalue(depth + 1)
			if !ok {
				return nil, false
			}
			v.parent, v.slot = n, int32(len(p.members)-base)
			p.members = append(p.members, Member{Key: key, KeyOffset: keyOff, Value: v})
			if p.pos < len(src) && src[p.pos] <= ' ' {
				p.ws()
			}
			if p.pos < len(src) && src[p.pos] == '}' {
				p.pos++
				break
			}
			if p.pos >= len(src) || src[p.pos] != ',' {
				return nil, false
			}
			p.pos++
			p.ws()
		}
		// the stack is not cleared above base: what it held is in the
		// tree, and the release clears the stack to its capacity
		n.Members = p.keepMembers(p.members[base:])
		p.members = p.members[:base]
		p.dups = indexKeys(n, p.dups)
		return n, true
	case c == '[':
		p.pos++
		n := p.newNode()
		n.Offset, n.Kind = off, Array
		p.ws()
		if p.pos < len(src) && src[p.pos] == ']' {
			p.pos++
			return n, true
		}
		base := len(p.items)
		for {
			v, ok := p.fvalue(depth + 1)
			if !ok {
				return nil, false
			}
			v.parent, v.slot = n, int32(len(p.items)-base)
			p.items = append(p.items, v)
			if p.pos < len(src) && src[p.pos] <= ' ' {
				p.ws()
			}
			if p.pos < len(src) && src[p.pos] == ']' {
				p.pos++
				break
			}
			if p.pos >= len(src) || src[p.pos] != ',' {
				return nil, false
			}
			p.pos++
			p.ws()
		}
		n.Items = p.keepItems(p.items[base:]) // not cleared either
		p.items = p.items[:base]
		return n, true
	case c == '-' || c >= '0' && c <= '9':
		if !p.fnumber() {
			return nil, false
		}
		n := p.newNode()
		n.Offset, n.Kind, n.Text = off, Number, string(src[off:p.pos]) // the literal as written
		return n, true
	case c == 't':
		return p.fliteral("true", Bool, true)
	case c == 'f':
		return p.fliteral("false", Bool, false)
	case c == 'n':
		return p.fliteral("null", Null, false)
	}
	return nil, false
}

func (p *parser) fliteral(lit string, k Kind, b bool) (*Node, bool) {
	off := p.pos
	if len(p.src)-off < len(lit) || string(p.src[off:off+len(lit)]) != lit {
		return nil, false
	}
	p.pos += len(lit)
	n := p.newNode()
	n.Offset, n.Kind, n.Bool = off, k, b
	return n, true
}

// fnumber reads a number (RFC 8259's grammar); what follows it is the
// caller's to check (a delimiter, whitespace or the end).
func (p *parser) fnumber() bool {
	src, i := p.src, p.pos
	if i < len(src) && src[i] == '-' {
		i++
	}
	switch {
	case i >= len(src):
		return false
	case src[i] == '0':
		i++
	case src[i] >= '1' && src[i] <= '9':
		i = digits(src, i+1)
	default:
		return false
	}
	if i < len(src) && src[i] == '.' {
		j := digits(src, i+1)
		if j == i+1 {
			return false
		}
		i = j
	}
	if i < len(src) && (src[i] == 'e' || src[i] == 'E') {
		i++
		if i < len(src) && (src[i] == '+' || src[i] == '-') {
			i++
		}
		j := digits(src, i)
		if j == i {
			return false
		}
		i = j
	}
	p.pos = i
	return true
}

func digits(src []byte, i int) int {
	for i < len(src) && src[i] >= '0' && src[i] <= '9' {
		i++
	}
	return i
}

// hex4 is the value of the four hexadecimal digits b begins with (either
// case, as jsontext reads a \u escape); false when b has fewer or another
// byte among them.
func hex4(b []byte) (rune, bool) {
	if len(b) < 4 {
		return 0, false
	}
	var r rune
	for _, c := range b[:4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c -= 'a' - 10
		case 'A' <= c && c <= 'F':
			c -= 'A' - 10
		default:
			return 0, false
		}
		r = r<<4 | rune(c)
	}
	return r, true
}

// fstring reads the string token at p.pos (its opening quote): a key
// (interned, as the decoder path interns keys) or a value (interned when
// short). A string without escapes is copied from the source. One whose
// escapes are of one character (\" \\ \/ \b \f \n \r \t) or \u escapes of
// characters that are not surrogates is unquoted here, in the pass that
// finds its end, into the parse's buffer: the bytes jsontext.AppendUnquote
// gives, without a second scan of the string. One with a surrogate escape
// (half or pair) or an escape JSON does not have is unquoted by jsontext,
// which reads or refuses it as the decoder would.
func (p *parser) fstring(key bool) (string, bool) {
	src, off := p.src, p.pos
	i := strRun(src, off+1)
	if i < len(src) && src[i] == '"' { // ASCII without escapes: the common case
		p.pos = i + 1
		return p.str(src[off+1:i], key || i+1-off <= internMax+2), true
	}
	// u holds the unquoted bytes before from once an escape was seen
	// (escaped); viaUnquote: an escape left to jsontext.
	u, from := p.unq[:0], off+1
	escaped, viaUnquote, multi := false, false, false
	for {
		i = strRun(src, i)
		if i >= len(src) {
			return "", false
		}
		switch c := src[i]; {
		case c == '"':
			p.pos = i + 1
			raw := src[off:p.pos]
			// An escape is ASCII, so the string's bytes are valid UTF-8 if
			// and only if the bytes between its escapes are (what
			// AppendUnquote checks).
			if multi && !utf8.Valid(raw) {
				return "", false
			}
			if viaUnquote {
				var err error
				if p.unq, err = jsontext.AppendUnquote(p.unq[:0], raw); err != nil {
					return "", false
				}
				return string(p.unq), true
			}
			if escaped {
				p.unq = append(u, src[from:i]...)
				return string(p.unq), true
			}
			return p.str(raw[1:len(raw)-1], key || len(raw) <= internMax+2), true
		case c == '\\':
			if i+1 >= len(src) {
				return "", false
			}
			escaped = true
			if !viaUnquote {
				var b byte
				switch src[i+1] {
				case '"', '\\', '/':
					b = src[i+1]
				case 'b':
					b = '\b'
				case 'f':
					b = '\f'
				case 'n':
					b = '\n'
				case 'r':
					b = '\r'
				case 't':
					b = '\t'
				case 'u': // a character of the Basic Multilingual Plane; a surrogate (half or pair) is jsontext's
					if r, ok := hex4(src[i+2:]); ok && !utf16.IsSurrogate(r) {
						u = utf8.AppendRune(append(u, src[from:i]...), r)
						i += 6
						from = i
						continue
					}
					viaUnquote = true
				default: // no escape at all: jsontext's to refuse
					viaUnquote = true
				}
				if !viaUnquote {
					u = append(append(u, src[from:i]...), b)
				}
			}
			i += 2 // the escaped byte (AppendUnquote checks the escape)
			from = i
		case c < 0x20:
			return "", false
		default: // the first byte of a multi-byte character
			multi = true
			i++
		}
	}
}
