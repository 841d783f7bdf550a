package lint

import (
	"slices"
	"strconv"
	"strings"

	"github.com/oastui/oastui/compile"
)

// valPath is the path from the document root to the value a validator walk
// is looking at, kept as tokens so that the JSON Pointer and the
// reference's dotted forms are only built when a finding needs them.
type valPath []valTok

type valTok struct {
	key string
	idx int // >= 0: an array index (key unused); -1: an object key
}

func (p valPath) key(k string) valPath { return append(p, valTok{key: k, idx: -1}) }
func (p valPath) index(i int) valPath  { return append(p, valTok{idx: i}) }

// valPathOf is the path from the document root to n, read from the
// parser's parent links: the validator's walk keeps no path of its own and
// builds one only for a finding (n must be a node of a parsed document).
func valPathOf(n *compile.Node) valPath {
	depth := 0
	for c := n; c.Parent() != nil; c = c.Parent() {
		depth++
	}
	p := make(valPath, depth)
	for c := n; c.Parent() != nil; c = c.Parent() {
		depth--
		if par := c.Parent(); par.Kind == compile.Object {
			p[depth] = valTok{key: c.Key(), idx: -1}
		} else {
			p[depth] = valTok{idx: slices.Index(par.Items, c)}
		}
	}
	return p
}

// pointer is the RFC 6901 JSON Pointer.
func (p valPath) pointer() string {
	var b strings.Builder
	for _, t := range p {
		b.WriteByte('/')
		if t.idx >= 0 {
			b.WriteString(strconv.Itoa(t.idx))
		} else {
			b.WriteString(compile.EscapePointerToken(t.key))
		}
	}
	return b.String()
}

// dotted is the zod / case-38 form: keys and indices joined by ".".
func (p valPath) dotted() string {
	var b strings.Builder
	for i, t := range p {
		if i > 0 {
			b.WriteByte('.')
		}
		if t.idx >= 0 {
			b.WriteString(strconv.Itoa(t.idx))
		} else {
			b.WriteString(t.key)
		}
	}
	return b.String()
}

// dollar is the runtime-invariant form: "$.inputs[0].title".
func (p valPath) dollar() string {
	var b strings.Builder
	b.WriteByte('$')
	for _, t := range p {
		if t.idx >= 0 {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(t.idx))
			b.WriteByte(']')
		} else {
			b.WriteByte('.')
			b.WriteString(t.key)
		}
	}
	return b.String()
}

// valTypeName is the type name zod and JavaScript print for a value:
// undefined (absent), null, array, object, number, string, boolean.
func valTypeName(n *compile.Node) string {
	if n == nil {
		return "undefined"
	}
	switch n.Kind {
	case compile.Null:
		return "null"
	case compile.Bool:
		return "boolean"
	case compile.Number:
		return "number"
	case compile.String:
		return "string"
	case compile.Object:
		return "object"
	case compile.Array:
		return "array"
	}
	return "undefined"
}

// valEntries returns an object's members as JavaScript's Object.entries
// sees them: one per key, at the key's first position, with the last
// value (JSON.parse semantics for duplicate keys).
func valEntries(n *compile.Node) []compile.Member {
	if n == nil || n.Kind != compile.Object {
		return nil
	}
	ms := n.Members
	dup := false
	if len(ms) <= valEntriesScanMax {
		// a key is compared with the keys before it only when one of them
		// has its signature (equal keys have equal signatures): no map for
		// the root's $referenced_components and the like
		var seen uint64
	outer:
		for i := range ms {
			sig := valKeySig(ms[i].Key)
			if seen&sig != 0 {
				for j := 0; j < i; j++ {
					if ms[j].Key == ms[i].Key {
						dup = true
						break outer
					}
				}
			}
			seen |= sig
		}
	} else {
		seen := make(map[string]struct{}, len(ms))
		for _, m := range ms {
			if _, ok := seen[m.Key]; ok {
				dup = true
				break
			}
			seen[m.Key] = struct{}{}
		}
	}
	if !dup {
		return ms
	}
	pos := make(map[string]int, len(ms))
	out := make([]compile.Member, 0, len(ms))
	for _, m := range ms {
		if i, ok := pos[m.Key]; ok {
			out[i].Value = m.Value
			continue
		}
		pos[m.Key] = len(out)
		out = append(out, m)
	}
	return out
}

// valEntriesScanMax is the member count up to which valEntries looks for a
// repeated key without a map (a scan quadratic at worst).
const valEntriesScanMax = 64

// valKeySig is one of 64 bits, from k's length and its first and last bytes.
func valKeySig(k string) uint64 {
	h := uint(len(k))
	if len(k) > 0 {
		h ^= uint(k[0])<<1 ^ uint(k[len(k)-1])<<3
	}
	return 1 << (h & 63)
}

// valJSONString quotes s as JavaScript's JSON.stringify does.
func valJSONString(b *strings.Builder, s string) {
	const hex = "0123456789abcdef"
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"':
			b.WriteString(`\"`)
		case c == '\\':
			b.WriteString(`\\`)
		case c == '\b':
			b.WriteString(`\b`)
		case c == '\f':
			b.WriteString(`\f`)
		case c == '\n':
			b.WriteString(`\n`)
		case c == '\r':
			b.WriteString(`\r`)
		case c == '\t':
			b.WriteString(`\t`)
		case c < 0x20:
			b.WriteString(`\u00`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
}

// valStringify writes n as JavaScript's JSON.stringify would (key order
// kept, duplicate keys collapsed, numbers as written).
func valStringify(b *strings.Builder, n *compile.Node) {
	if n == nil {
		b.WriteString("null")
		return
	}
	switch n.Kind {
	case compile.Null:
		b.WriteString("null")
	case compile.Bool:
		b.WriteString(strconv.FormatBool(n.Bool))
	case compile.Number:
		b.WriteString(valJSNumber(n))
	case compile.String:
		valJSONString(b, n.Text)
	case compile.Array:
		b.WriteByte('[')
		for i, it := range n.Items {
			if i > 0 {
				b.WriteByte(',')
			}
			valStringify(b, it)
		}
		b.WriteByte(']')
	case compile.Object:
		b.WriteByte('{')
		for i, m := range valEntries(n) {
			if i > 0 {
				b.WriteByte(',')
			}
			valJSONString(b, m.Key)
			b.WriteByte(':')
			valStringify(b, m.Value)
		}
		b.WriteByte('}')
	}
}

// valJSNumber prints a number node as JavaScript's String(number) would.
func valJSNumber(n *compile.Node) string {
	f, ok := n.Float()
	if !ok {
		return n.Text
	}
	if f == 0 {
		return "0"
	}
	a := f
	if a < 0 {
		a = -a
	}
	if a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// valJSON renders a value as JSON.stringify would, "undefined" for an
// absent one (the reference prints that for a missing field).
func valJSON(n *compile.Node) string {
	if n == nil {
		return "undefined"
	}
	var b strings.Builder
	valStringify(&b, n)
	return b.String()
}
