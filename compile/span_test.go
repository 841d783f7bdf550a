package compile

import "testing"

// A finding's span: a multi-line object or array is named by the member
// the check names components by ("name", else "id", or the other way
// round), else covered on its first line; a one-line container and a
// scalar keep their whole value; a missing member or the root gets the
// ancestor's first token; an unparsed document the token where parsing
// stopped.
func TestSpan(t *testing.T) {
	src := `{
  "node": {
    "component_type": "LlmNode",
    "id": "draft",
    "name": "Draft notes"
  },
  "anon": {   "a": 1,
    "b": 2 },
  "list": [
    1, 2
  ],
  "one": {"id": "x", "name": "y"},
  "s": "text",
  "n": 12.5
}`
	doc := ParseDoc("f.json", []byte(src))
	if doc.Root == nil {
		t.Fatal(doc.Err)
	}
	for _, c := range []struct {
		ptr  string
		keys []string
		want string
	}{
		{"/node", []string{"name", "id"}, `"Draft notes"`},
		{"/node", []string{"id", "name"}, `"draft"`},
		{"/anon", []string{"name", "id"}, `{   "a": 1,`},
		{"/list", []string{"name", "id"}, `[`},
		{"/one", []string{"name", "id"}, `{"id": "x", "name": "y"}`},
		{"/s", nil, `"text"`},
		{"/n", nil, `12.5`},
		{"/node/missing", nil, `{`},
		{"", nil, `{`},
	} {
		a, b := doc.SpanNamed(c.ptr, c.keys...)
		if got := src[a:b]; got != c.want {
			t.Errorf("%q %v: %q, want %q", c.ptr, c.keys, got, c.want)
		}
	}
	// At gives the finding its span and the span's end as EndLine and
	// EndColumn; Line and Column stay the value's position.
	f := doc.At("/node", "x", Warning, "m")
	if got := src[f.Start:f.End]; got != `"Draft notes"` || f.Line != 2 || f.Column != 11 || f.EndLine != 5 || f.EndColumn != 26 {
		t.Errorf("At: %q at %d:%d–%d:%d", got, f.Line, f.Column, f.EndLine, f.EndColumn)
	}
	f = doc.At("/s", "x", Warning, "m")
	if got := src[f.Start:f.End]; got != `"text"` || f.EndLine != f.Line || f.EndColumn != f.Column+6 {
		t.Errorf("At: %q at %d:%d–%d:%d", got, f.Line, f.Column, f.EndLine, f.EndColumn)
	}

	bad := ParseDoc("b.json", []byte(`{"id": tru }`))
	if sf := bad.SyntaxFinding(); sf == nil || sf.Start != bad.Err.Offset || sf.End != sf.Start+1 { // where parsing stopped
		t.Errorf("syntax error span: %+v", sf)
	}
	dup := ParseDoc("d.json", []byte(`{"a": 1, "a": 2}`))
	if fs := DuplicateKeyFindings(dup, ProfileCinatra); len(fs) != 1 || string(dup.Src[fs[0].Start:fs[0].End]) != `"a"` || fs[0].Start != 9 {
		t.Errorf("duplicate key span: %+v", fs)
	}
}
