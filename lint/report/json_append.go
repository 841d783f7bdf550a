package report

import (
	"bytes"
	"encoding/json"
	"strconv"
	"unicode/utf8"

	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
)

// appendFinding appends f as encoding/json writes a lint.Finding with
// SetIndent(prefix, "  ") and SetEscapeHTML(false), after
// jsonEscapeInvisible: the same members in the same order, the same
// omitempty rules (Location, EndLine, EndColumn, ValueHash, Fixes; a fix's
// Tier, Edits, Moves), the same string escapes. It is the report's hot
// path (a tree's report holds thousands of findings): no reflection, no
// indenting pass over the encoded text, no second pass for invisible
// characters. TestAppendFindingIdentical holds it to the encoder.
func (p *jsonPart) appendFinding(dst []byte, f *lint.Finding, prefix string) []byte {
	in := prefix + "  "
	dst = append(dst, '{')
	dst = p.member(dst, in, "code")
	dst = p.appendString(dst, f.Code)
	dst = p.member(dst, in, "severity")
	dst = p.appendString(dst, string(f.Severity))
	dst = p.member(dst, in, "message")
	dst = p.appendString(dst, f.Message)
	if f.Location != "" {
		dst = p.member(dst, in, "location")
		dst = p.appendString(dst, f.Location)
	}
	dst = p.member(dst, in, "source")
	dst = p.appendString(dst, f.Source)
	dst = p.member(dst, in, "file")
	dst = p.appendString(dst, f.File)
	dst = p.member(dst, in, "line")
	dst = strconv.AppendInt(dst, int64(f.Line), 10)
	dst = p.member(dst, in, "column")
	dst = strconv.AppendInt(dst, int64(f.Column), 10)
	if f.EndLine != 0 {
		dst = p.member(dst, in, "endLine")
		dst = strconv.AppendInt(dst, int64(f.EndLine), 10)
	}
	if f.EndColumn != 0 {
		dst = p.member(dst, in, "endColumn")
		dst = strconv.AppendInt(dst, int64(f.EndColumn), 10)
	}
	if f.ValueHash != "" {
		dst = p.member(dst, in, "valueHash")
		dst = p.appendString(dst, f.ValueHash)
	}
	if len(f.Fixes) > 0 {
		dst = p.member(dst, in, "fixes")
		dst = append(dst, '[')
		in2 := in + "  "
		for i := range f.Fixes {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, in2)
			dst = p.appendFix(dst, &f.Fixes[i], in2)
		}
		dst = newline(dst, in)
		dst = append(dst, ']')
	}
	dst = newline(dst, prefix)
	return append(dst, '}')
}

func (p *jsonPart) appendFix(dst []byte, x *edit.Fix, prefix string) []byte {
	in := prefix + "  "
	dst = append(dst, '{')
	dst = p.member(dst, in, "title")
	dst = p.appendString(dst, x.Title)
	if x.Tier != "" {
		dst = p.member(dst, in, "tier")
		dst = p.appendString(dst, string(x.Tier))
	}
	in2 := in + "  "
	in3 := in2 + "  "
	if len(x.Edits) > 0 {
		dst = p.member(dst, in, "edits")
		dst = append(dst, '[')
		for i := range x.Edits {
			e := &x.Edits[i]
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, in2)
			dst = append(dst, '{')
			dst = p.member(dst, in3, "path")
			dst = p.appendString(dst, e.Path)
			dst = p.member(dst, in3, "start")
			dst = strconv.AppendInt(dst, int64(e.Start), 10)
			dst = p.member(dst, in3, "end")
			dst = strconv.AppendInt(dst, int64(e.End), 10)
			dst = p.member(dst, in3, "new")
			dst = p.appendString(dst, e.New)
			dst = newline(dst, in2)
			dst = append(dst, '}')
		}
		dst = newline(dst, in)
		dst = append(dst, ']')
	}
	if len(x.Moves) > 0 {
		dst = p.member(dst, in, "moves")
		dst = append(dst, '[')
		for i := range x.Moves {
			m := &x.Moves[i]
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = newline(dst, in2)
			dst = append(dst, '{')
			dst = p.member(dst, in3, "from")
			dst = p.appendString(dst, m.From)
			dst = p.member(dst, in3, "to")
			dst = p.appendString(dst, m.To)
			dst = newline(dst, in2)
			dst = append(dst, '}')
		}
		dst = newline(dst, in)
		dst = append(dst, ']')
	}
	dst = newline(dst, prefix)
	return append(dst, '}')
}

// member starts a member: a comma unless it is the object's first (the
// byte before is its '{'), a line break, the indent, the name, ": ".
func (p *jsonPart) member(dst []byte, indent, name string) []byte {
	if dst[len(dst)-1] != '{' {
		dst = append(dst, ',')
	}
	dst = newline(dst, indent)
	dst = append(dst, '"')
	dst = append(dst, name...)
	return append(dst, '"', ':', ' ')
}

func newline(dst []byte, indent string) []byte {
	dst = append(dst, '\n')
	return append(dst, indent...)
}

// jsonPlain marks the ASCII bytes a JSON string holds as they are: not a
// control, DEL, '"' or '\\' (one look-up per byte in appendString's loop).
var jsonPlain = func() (t [256]bool) {
	for c := 0x20; c < utf8.RuneSelf; c++ {
		t[c] = c != '"' && c != '\\' && c != 0x7f
	}
	return t
}()

// appendString appends s quoted. The fast path covers what findings hold:
// printable ASCII (with '"' and '\' escaped, as encoding/json does) and
// valid UTF-8 characters that are neither U+2028/U+2029 (which
// encoding/json escapes) nor characters a terminal may act on (which
// jsonEscapeInvisible escapes). Anything else — a control character, DEL,
// invalid UTF-8, one of those characters — sends the whole string through
// the encoder and jsonEscapeInvisible, as before.
func (p *jsonPart) appendString(dst []byte, s string) []byte {
	start := len(dst)
	dst = append(dst, '"')
	done := 0
	for i := 0; i < len(s); {
		c := s[i]
		if jsonPlain[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			if c == '"' || c == '\\' {
				dst = append(dst, s[done:i]...)
				dst = append(dst, '\\', c)
				i++
				done = i
				continue
			}
			return p.appendStringSlow(dst[:start], s)
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 || present.Unsafe(r) { // Unsafe: U+2028 and U+2029 too
			return p.appendStringSlow(dst[:start], s)
		}
		i += size
	}
	dst = append(dst, s[done:]...)
	return append(dst, '"')
}

// appendStringSlow is the encoder's own string, escaped by
// jsonEscapeInvisible.
func (p *jsonPart) appendStringSlow(dst []byte, s string) []byte {
	if p.enc == nil {
		p.enc = json.NewEncoder(&p.buf)
		p.enc.SetEscapeHTML(false)
	}
	p.buf.Reset()
	p.enc.SetIndent("", "")
	if err := p.enc.Encode(s); err != nil { // a string always encodes
		panic(err)
	}
	return append(dst, jsonEscapeInvisible(bytes.TrimSuffix(p.buf.Bytes(), []byte("\n")))...)
}
