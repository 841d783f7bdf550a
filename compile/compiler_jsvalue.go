package compile

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
)

// JavaScript value semantics the reference compiler relies on, over *Node.
// A nil *Node is JavaScript's undefined; a Null node is null.

// nullish: undefined or null (the operand `??` skips).
func nullish(n *Node) bool { return n == nil || n.Kind == Null }

// coalesce is a ?? b ?? c: the first operand that is not nullish, else the last.
func coalesce(ns ...*Node) *Node {
	for _, n := range ns {
		if !nullish(n) {
			return n
		}
	}
	if len(ns) == 0 {
		return nil
	}
	return ns[len(ns)-1]
}

// truthy is JavaScript's ToBoolean.
func truthy(n *Node) bool {
	if n == nil {
		return false
	}
	switch n.Kind {
	case Null:
		return false
	case Bool:
		return n.Bool
	case Number:
		f, ok := n.Float()
		return ok && f != 0 && !math.IsNaN(f)
	case String:
		return n.Text != ""
	}
	return true
}

// isObj is `v && typeof v === "object"` (arrays included).
func isObj(n *Node) bool { return n != nil && (n.Kind == Object || n.Kind == Array) }

// get is property access v?.key on a JSON value: object members, array
// indexes; nothing on primitives (their prototype properties are not data).
func get(n *Node, key string) *Node {
	if n == nil {
		return nil
	}
	switch n.Kind {
	case Object:
		return n.Get(key)
	case Array:
		if i, err := strconv.Atoi(key); err == nil && i >= 0 && i < len(n.Items) && strconv.Itoa(i) == key {
			return n.Items[i]
		}
	}
	return nil
}

// path is a?.b?.c.
func path(n *Node, keys ...string) *Node {
	for _, k := range keys {
		n = get(n, k)
	}
	return n
}

// jsString is String(v) for a JSON value (undefined → "undefined").
func jsString(n *Node) string {
	if n == nil {
		return "undefined"
	}
	switch n.Kind {
	case Null:
		return "null"
	case Bool:
		return strconv.FormatBool(n.Bool)
	case Number:
		f, _ := n.Float()
		return jsNumber(f)
	case String:
		return n.Text
	case Array:
		parts := make([]string, len(n.Items))
		for i, it := range n.Items {
			if !nullish(it) {
				parts[i] = jsString(it)
			}
		}
		return strings.Join(parts, ",")
	}
	return "[object Object]"
}

// jsNumber formats a number as JavaScript's Number#toString does for the
// common cases (integers without a fraction, shortest round-trip otherwise).
func jsNumber(f float64) string {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	case f == math.Trunc(f) && math.Abs(f) < 1e21:
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	a := math.Abs(f)
	if a >= 1e-6 && a < 1e21 {
		return strconv.FormatFloat(f, 'f', -1, 64)
	}
	s := strconv.FormatFloat(f, 'e', -1, 64)
	// Go writes e+07 / e-07; JavaScript e+7 / e-7.
	if i := strings.IndexByte(s, 'e'); i >= 0 && i+2 < len(s) {
		exp := strings.TrimLeft(s[i+2:], "0")
		if exp == "" {
			exp = "0"
		}
		s = s[:i+2] + exp
	}
	return s
}

// sameValueZero compares two JSON values as Array#includes does: primitives
// by value, objects and arrays by identity.
func sameValueZero(a, b *Node) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if a.Kind != b.Kind {
		return false
	}
	switch a.Kind {
	case Null:
		return true
	case Bool:
		return a.Bool == b.Bool
	case Number:
		x, _ := a.Float()
		y, _ := b.Float()
		return x == y || (math.IsNaN(x) && math.IsNaN(y))
	case String:
		return a.Text == b.Text
	}
	return a == b
}

// typeErr is a TypeError the reference would throw out of the compiler.
func typeErr(format string, args ...any) error {
	return &CompileError{Msg: "TypeError: " + sprintf(format, args...), Thrown: true}
}

// includes is v.includes(x) for an array or a string receiver; other
// receivers throw a TypeError (what is not a function).
func includes(recv, x *Node, what string) (bool, error) {
	switch {
	case recv != nil && recv.Kind == Array:
		for _, it := range recv.Items {
			if sameValueZero(it, x) {
				return true, nil
			}
		}
		return false, nil
	case recv != nil && recv.Kind == String:
		return strings.Contains(recv.Text, jsString(x)), nil
	}
	return false, typeErr("%s.includes is not a function", what)
}

// includer is includes with the receiver fixed; for an array it indexes
// the string members once, so that n look-ups cost O(n).
func includer(recv *Node, what string) func(x *Node) (bool, error) {
	if recv == nil || recv.Kind != Array {
		return func(x *Node) (bool, error) { return includes(recv, x, what) }
	}
	set := map[string]bool{}
	for _, it := range recv.Items {
		if it.Kind == String {
			set[it.Text] = true
		}
	}
	return func(x *Node) (bool, error) {
		if x != nil && x.Kind == String {
			return set[x.Text], nil
		}
		return includes(recv, x, what)
	}
}

// iterate is `for (const x of v)`: array items, or one string node per
// UTF-16 unit of a string; anything else is not iterable.
func iterate(n *Node, what string) ([]*Node, error) {
	switch {
	case n != nil && n.Kind == Array:
		return n.Items, nil
	case n != nil && n.Kind == String:
		units := utf16.Encode([]rune(n.Text))
		out := make([]*Node, len(units))
		for i, u := range units {
			out[i] = &Node{Kind: String, Text: string(utf16.Decode([]uint16{u})), Offset: n.Offset}
		}
		return out, nil
	}
	return nil, typeErr("%s is not iterable", what)
}

// length is v.length for strings (UTF-16 units) and arrays; -1 otherwise.
func length(n *Node) int {
	switch {
	case n != nil && n.Kind == Array:
		return len(n.Items)
	case n != nil && n.Kind == String:
		return len(utf16.Encode([]rune(n.Text)))
	}
	return -1
}

// objectKeysLen is Object.keys(v).length for a JSON value.
func objectKeysLen(n *Node) int {
	if n == nil {
		return 0
	}
	switch n.Kind {
	case Object:
		seen := map[string]bool{}
		for _, m := range n.Members {
			seen[m.Key] = true
		}
		return len(seen)
	case Array, String:
		return length(n)
	}
	return 0
}

// val is a node as a member value of the compiled output: undefined stays
// undefined (the member is not emitted), everything else as written.
func val(n *Node) any {
	if n == nil {
		return undef
	}
	return jsonValue(n)
}

// str returns the node's string value when it is a string.
func str(n *Node) string {
	s, _ := n.Str()
	return s
}

// strNode builds a string node (for values the compiler synthesises).
func strNode(s string) *Node { return &Node{Kind: String, Text: s} }
