package compile

import "bytes"

// Spans: the exact text a finding is about, as byte offsets into the bytes
// the analysis read (Doc.Src). A finding gets its span when it is made, by
// whoever knows the node (Doc.At, the parsers' syntax errors, the duplicate
// keys); the faces only convert it (the language server's ranges, SARIF's
// region ends, the TUI's excerpt) and guess nothing.

// SetSpan records [start, end) of d as f's span (clamped to Src) and its
// end as EndLine and EndColumn (Position's units). Line and Column stay
// what they are: the position of the value f.Location names.
func (d *Doc) SetSpan(f *Finding, start, end int) {
	start = min(max(start, 0), len(d.Src))
	end = min(max(end, start), len(d.Src))
	f.Start, f.End = start, end
	f.EndLine, f.EndColumn = d.Position(end)
}

// Span is the text a finding at the value ptr names is about:
//   - a scalar, or a container on one line: the whole value (a string
//     with its quotes);
//   - a container over several lines (a whole component): the token that
//     names it, its "name" string, else its "id" (SpanNamed picks), else
//     its first line;
//   - a pointer naming a missing member (the finding sits on the nearest
//     ancestor that exists) or the document root: the ancestor's first
//     token;
//   - a document that did not parse: the token where parsing stopped.
func (d *Doc) Span(ptr string) (start, end int) { return d.SpanNamed(ptr, "name", "id") }

// SpanNamed is Span with the members that name a multi-line container
// tried in the order keys gives (a rule about a node's id squiggles
// the id that the message names, not the name).
func (d *Doc) SpanNamed(ptr string, keys ...string) (start, end int) {
	if d.Root == nil {
		if d.Err == nil {
			return 0, 0
		}
		start = min(max(d.Err.Offset, 0), len(d.Src))
		return start, d.TokenEnd(start)
	}
	n, exact := d.resolve(ptr)
	if n == nil || n.Offset < 0 || n.Offset >= len(d.Src) {
		return 0, 0
	}
	start = n.Offset
	container := n.Kind == Object || n.Kind == Array
	if n == d.Root || (!exact && container) {
		return start, d.TokenEnd(start)
	}
	end = d.ValueEnd(n)
	if !container || bytes.IndexByte(d.Src[start:end], '\n') < 0 {
		return start, end
	}
	for _, k := range keys {
		if v := n.Get(k); v != nil && v.Kind == String && v.Text != "" && v.Offset >= 0 {
			return v.Offset, d.ValueEnd(v)
		}
	}
	end = d.lineEndAt(start)
	for end > start+1 && (d.Src[end-1] == ' ' || d.Src[end-1] == '\t') {
		end--
	}
	return start, end
}

// TokenEnd is the end of the JSON token at start: a string (to its closing
// quote, or the line's end), one bracket, else a literal up to the next
// delimiter (at least one byte, never past Src).
func (d *Doc) TokenEnd(start int) int {
	src := d.Src
	if start >= len(src) {
		return len(src)
	}
	switch c := src[start]; {
	case c == '"':
		for i := start + 1; i < len(src); i++ {
			switch src[i] {
			case '\\':
				i++
			case '"':
				return min(i+1, len(src))
			case '\n':
				return i
			}
		}
		return len(src)
	case c == '{' || c == '[' || c == '}' || c == ']':
		return start + 1
	}
	i := start
	for i < len(src) && src[i] != '\n' && src[i] != '\r' && src[i] != ',' && src[i] != '}' && src[i] != ']' {
		i++
	}
	return max(i, start+1)
}
