// Package fix builds byte-span edits (package edit) of a parsed JSON
// document for the checks' fixes: replace a value, insert a member into an
// object, append items to an array, remove a member or an item, rename a
// key. Each edit touches only the bytes of what it changes; inserted JSON
// follows the file's own style (newline, indentation unit, the container's
// indentation, ": " or ":" after keys, a minified file stays minified).
//
// It is pure: offsets come from compile.Doc (the bytes the analysis read
// and each node's offset), nothing is read or written here.
package fix

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
)

// Raw is JSON text inserted as it is (it must be one valid JSON value).
type Raw string

// ErrNotJSON is returned for a document that is not a parsed JSON file (a
// YAML Agent Spec, a file that did not parse): no fix is offered then.
var ErrNotJSON = errors.New("not a parsed JSON document")

func check(d *compile.Doc) error {
	if d == nil || d.Root == nil || compile.IsYAMLPath(d.Path) {
		return ErrNotJSON
	}
	return nil
}

func lookup(d *compile.Doc, ptr string) (*compile.Node, error) {
	if err := check(d); err != nil {
		return nil, err
	}
	n := d.Lookup(ptr)
	if n == nil {
		return nil, fmt.Errorf("%s: nothing at %q", d.Path, ptr)
	}
	return n, nil
}

// Replace replaces the value at ptr with v (a Go value encoded as JSON, or
// Raw). An object or array value is indented like the line it starts on.
func Replace(d *compile.Doc, ptr string, v any) (edit.Edit, error) {
	n, err := lookup(d, ptr)
	if err != nil {
		return edit.Edit{}, err
	}
	st := styleOf(d)
	text, err := st.render(v, lineIndent(d.Src, n.Offset), !st.oneLine)
	if err != nil {
		return edit.Edit{}, err
	}
	return edit.Edit{Path: d.Path, Start: n.Offset, End: valueEnd(d.Src, n.Offset), New: text}, nil
}

// RenameKey renames the member ptr names (its key only; the value and the
// bytes around stay).
func RenameKey(d *compile.Doc, ptr, key string) (edit.Edit, error) {
	n, err := lookup(d, ptr)
	if err != nil {
		return edit.Edit{}, err
	}
	p := n.Parent()
	i := memberIndex(p, n)
	if i < 0 {
		return edit.Edit{}, fmt.Errorf("%s: %q is not an object member", d.Path, ptr)
	}
	off := p.Members[i].KeyOffset
	return edit.Edit{Path: d.Path, Start: off, End: valueEnd(d.Src, off), New: quote(key)}, nil
}

// Remove removes the member or array item ptr names, with its comma and
// the whitespace that belongs to it: the next sibling takes its place (or,
// for the last one, the previous sibling's end is kept). The only member
// leaves "{}" ("[]").
func Remove(d *compile.Doc, ptr string) (edit.Edit, error) {
	n, err := lookup(d, ptr)
	if err != nil {
		return edit.Edit{}, err
	}
	p := n.Parent()
	if p == nil {
		return edit.Edit{}, fmt.Errorf("%s: cannot remove the document's root", d.Path)
	}
	c := children(d.Src, p)
	i := -1
	for j, ch := range c.kids {
		if ch.value == n {
			i = j
		}
	}
	if i < 0 {
		return edit.Edit{}, fmt.Errorf("%s: %q not found in its parent", d.Path, ptr)
	}
	e := edit.Edit{Path: d.Path}
	switch {
	case len(c.kids) == 1:
		e.Start, e.End = c.open+1, c.close
	case i < len(c.kids)-1:
		e.Start, e.End = c.kids[i].start, c.kids[i+1].start
	default:
		e.Start, e.End = c.kids[i-1].end, c.kids[i].end
	}
	return e, nil
}

// Insert adds the member key: v at the end of the object at objPtr.
func Insert(d *compile.Doc, objPtr, key string, v any) (edit.Edit, error) {
	n, err := lookup(d, objPtr)
	if err != nil {
		return edit.Edit{}, err
	}
	if n.Kind != compile.Object {
		return edit.Edit{}, fmt.Errorf("%s: %q is not an object", d.Path, objPtr)
	}
	return insert(d, n, []string{key}, []any{v})
}

// Append adds vs, in order, at the end of the array at arrPtr (one edit).
func Append(d *compile.Doc, arrPtr string, vs ...any) (edit.Edit, error) {
	n, err := lookup(d, arrPtr)
	if err != nil {
		return edit.Edit{}, err
	}
	if n.Kind != compile.Array {
		return edit.Edit{}, fmt.Errorf("%s: %q is not an array", d.Path, arrPtr)
	}
	return insert(d, n, nil, vs)
}

// insert appends members (keys != nil) or items to container n.
func insert(d *compile.Doc, n *compile.Node, keys []string, vs []any) (edit.Edit, error) {
	if len(vs) == 0 {
		return edit.Edit{}, errors.New("nothing to insert")
	}
	st := styleOf(d)
	c := children(d.Src, n)
	multi := !st.oneLine && c.multiline(d.Src)
	indent := ""
	if multi {
		indent = c.childIndent(d.Src, st)
	}
	colon := c.colon(d.Src, st)
	var parts []string
	for i, v := range vs {
		text, err := st.render(v, indent, multi)
		if err != nil {
			return edit.Edit{}, err
		}
		if keys != nil {
			text = quote(keys[i]) + colon + text
		}
		parts = append(parts, text)
	}
	e := edit.Edit{Path: d.Path}
	if len(c.kids) == 0 {
		e.Start, e.End = c.open+1, c.close
		if !st.oneLine {
			if !multi { // "{}" in a multi-line file opens on its own lines
				indent = lineIndent(d.Src, c.open) + st.unit
				for i, v := range vs { // render again at the new depth
					text, _ := st.render(v, indent, true)
					if keys != nil {
						text = quote(keys[i]) + colon + text
					}
					parts[i] = text
				}
			}
			e.New = st.nl + indent + strings.Join(parts, ","+st.nl+indent) + st.nl + lineIndent(d.Src, c.open)
		} else {
			e.New = strings.Join(parts, c.comma(d.Src, st))
		}
		return e, nil
	}
	last := c.kids[len(c.kids)-1].end
	e.Start, e.End = last, last
	if multi {
		e.New = "," + st.nl + indent + strings.Join(parts, ","+st.nl+indent)
	} else {
		sep := c.comma(d.Src, st)
		e.New = sep + strings.Join(parts, sep)
	}
	return e, nil
}

// style is how a document is written.
type style struct {
	nl      string // "\n" or "\r\n"
	unit    string // one level of indentation
	oneLine bool   // the document has no newline inside its root value
}

func styleOf(d *compile.Doc) style {
	st := style{nl: "\n", unit: "  "}
	src := d.Src
	i := bytes.IndexByte(src, '\n')
	// One line: no newline, or only whitespace after the first one (a
	// minified file with a final newline). Both tests stop early.
	if i < 0 || len(bytes.TrimLeft(src[i:], " \t\r\n")) == 0 {
		st.oneLine = true
	} else if i > 0 && src[i-1] == '\r' {
		st.nl = "\r\n"
	}
	// The unit: the indentation of the first indented line (line 2 in
	// practice: the scan stops there).
	for off := 0; off < len(src); {
		end := bytes.IndexByte(src[off:], '\n')
		if end < 0 {
			end = len(src) - off
		}
		line := src[off : off+end]
		ws := line[:len(line)-len(bytes.TrimLeft(line, " \t"))]
		if len(ws) > 0 && len(ws) < len(bytes.TrimRight(line, "\r")) {
			st.unit = string(ws)
			break
		}
		off += end + 1
	}
	return st
}

// render encodes v; multi-line containers get indent as the prefix of each
// continuation line, in the document's newline.
func (st style) render(v any, indent string, multi bool) (string, error) {
	if r, ok := v.(Raw); ok {
		if !json.Valid([]byte(r)) {
			return "", fmt.Errorf("invalid JSON to insert: %.40q", string(r))
		}
		if !multi {
			var b bytes.Buffer
			if err := json.Compact(&b, []byte(r)); err != nil {
				return "", err
			}
			return b.String(), nil
		}
		var b bytes.Buffer
		if err := json.Indent(&b, []byte(r), indent, st.unit); err != nil {
			return "", err
		}
		return strings.ReplaceAll(b.String(), "\n", st.nl), nil
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if multi {
		enc.SetIndent(indent, st.unit)
	}
	if err := enc.Encode(v); err != nil {
		return "", err
	}
	s := strings.TrimSuffix(b.String(), "\n")
	return strings.ReplaceAll(s, "\n", st.nl), nil
}

func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// child is one member (start at its key) or item of a container.
type child struct {
	start, end int // first byte, one past the value's last byte
	keyEnd     int // one past the key's closing quote (members only)
	value      *compile.Node
}

type container struct {
	open, close int // offsets of the brackets
	kids        []child
	object      bool
}

func children(src []byte, n *compile.Node) container {
	c := container{open: n.Offset, close: valueEnd(src, n.Offset) - 1, object: n.Kind == compile.Object}
	for _, m := range n.Members {
		c.kids = append(c.kids, child{start: m.KeyOffset, keyEnd: valueEnd(src, m.KeyOffset), end: valueEnd(src, m.Value.Offset), value: m.Value})
	}
	for _, it := range n.Items {
		c.kids = append(c.kids, child{start: it.Offset, end: valueEnd(src, it.Offset), value: it})
	}
	return c
}

// multiline: the container's content starts on a new line.
func (c container) multiline(src []byte) bool {
	to := c.close
	if len(c.kids) > 0 {
		to = c.kids[0].start
	}
	return bytes.IndexByte(src[c.open+1:to], '\n') >= 0
}

// childIndent is the indentation of the container's members: that of the
// last one, or one unit more than the line of the opening bracket.
func (c container) childIndent(src []byte, st style) string {
	if len(c.kids) > 0 {
		return lineIndent(src, c.kids[len(c.kids)-1].start)
	}
	return lineIndent(src, c.open) + st.unit
}

// colon is what separates a key from its value: as in this object, or the
// first member of the document, or ": " (":" in a minified file).
func (c container) colon(src []byte, st style) string {
	for _, k := range c.kids {
		if k.keyEnd > 0 {
			if s := string(src[k.keyEnd:k.value.Offset]); strings.Trim(s, " \t") == ":" {
				return s
			}
		}
	}
	if st.oneLine {
		return ":"
	}
	return ": "
}

// comma is what separates items written on one line.
func (c container) comma(src []byte, st style) string {
	if len(c.kids) > 1 {
		if s := string(src[c.kids[0].end:c.kids[1].start]); strings.Trim(s, " \t") == "," {
			return s
		}
	}
	if st.oneLine {
		return ","
	}
	return ", "
}

func memberIndex(p, n *compile.Node) int {
	if p == nil || p.Kind != compile.Object {
		return -1
	}
	for i, m := range p.Members {
		if m.Value == n {
			return i
		}
	}
	return -1
}

// lineIndent is the leading whitespace of the line holding off.
func lineIndent(src []byte, off int) string {
	start := bytes.LastIndexByte(src[:off], '\n') + 1
	end := start
	for end < len(src) && (src[end] == ' ' || src[end] == '\t') {
		end++
	}
	return string(src[start:end])
}

// valueEnd returns one past the last byte of the JSON value (or key
// string) starting at off in valid JSON.
func valueEnd(src []byte, off int) int {
	if off >= len(src) {
		return len(src)
	}
	switch src[off] {
	case '"':
		return stringEnd(src, off)
	case '{', '[':
		depth := 0
		for i := off; i < len(src); i++ {
			switch src[i] {
			case '"':
				i = stringEnd(src, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
		return len(src)
	}
	i := off
	for i < len(src) && strings.IndexByte("+-.0123456789eEtruefalsn", src[i]) >= 0 {
		i++
	}
	return i
}

func stringEnd(src []byte, off int) int {
	for i := off + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(src)
}

// InsertMembers adds the members keys[i]: vs[i], in order, at the end of
// the object at objPtr (one edit, so several new members never clash).
func InsertMembers(d *compile.Doc, objPtr string, keys []string, vs []any) (edit.Edit, error) {
	n, err := lookup(d, objPtr)
	if err != nil {
		return edit.Edit{}, err
	}
	if n.Kind != compile.Object {
		return edit.Edit{}, fmt.Errorf("%s: %q is not an object", d.Path, objPtr)
	}
	if len(keys) != len(vs) {
		return edit.Edit{}, errors.New("keys and values differ in number")
	}
	return insert(d, n, keys, vs)
}

// InsertBefore inserts v into an array just before the item at itemPtr,
// indented like that item (a minified array stays on one line).
func InsertBefore(d *compile.Doc, itemPtr string, v any) (edit.Edit, error) {
	n, err := lookup(d, itemPtr)
	if err != nil {
		return edit.Edit{}, err
	}
	p := n.Parent()
	if p == nil || p.Kind != compile.Array {
		return edit.Edit{}, fmt.Errorf("%s: %q is not an array item", d.Path, itemPtr)
	}
	st := styleOf(d)
	c := children(d.Src, p)
	i := -1
	for j, ch := range c.kids {
		if ch.value == n {
			i = j
		}
	}
	if i < 0 {
		return edit.Edit{}, fmt.Errorf("%s: %q not found in its parent", d.Path, itemPtr)
	}
	multi := !st.oneLine && c.multiline(d.Src)
	indent := ""
	if multi {
		indent = lineIndent(d.Src, c.kids[i].start)
	}
	text, err := st.render(v, indent, multi)
	if err != nil {
		return edit.Edit{}, err
	}
	start := c.kids[i].start
	if multi {
		text += "," + st.nl + indent
	} else {
		text += c.comma(d.Src, st)
	}
	return edit.Edit{Path: d.Path, Start: start, End: start, New: text}, nil
}
