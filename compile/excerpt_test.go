package compile

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/oastui/oastui/internal/race"
)

// under is the text an excerpt underlines.
func under(e Excerpt) string { return e.Line().Text[e.Caret:e.CaretEnd] }

// TestExcerptShortLines: a file of short lines is shown whole, with up to
// ExcerptContext lines on each side (a final line break starts no line),
// and the finding's span underlined.
func TestExcerptShortLines(t *testing.T) {
	src := "{\n  \"a\": 1,\n  \"b\": {\"c\": true},\n  \"d\": \"x\\ty\"\n}\n"
	d := ParseDoc("x.json", []byte(src))
	f := d.At("/b", "code", Warning, "m")
	e := d.Excerpt(f, false)
	if got := under(e); got != `{"c": true}` {
		t.Errorf("underlined %q, want the one-line object", got)
	}
	var ns []int
	for _, l := range e.Lines {
		ns = append(ns, l.N)
		if l.CutLeft || l.CutRight {
			t.Errorf("line %d marked cut", l.N)
		}
	}
	if want := []int{1, 2, 3, 4, 5}; len(ns) != len(want) || e.Lines[e.At].N != 3 || e.Lines[e.At].Text != `  "b": {"c": true},` {
		t.Errorf("lines %v at %d: %+v", ns, e.At, e.Lines)
	}
	// No span at the column: the token there.
	g := Finding{Line: 2, Column: 8}
	if got := under(d.Excerpt(g, false)); got != "1" {
		t.Errorf("token under 2:8: %q", got)
	}
	if !d.Excerpt(Finding{Line: 9, Column: 1}, false).Empty() || new(Doc).Excerpt(Finding{}, false).Lines != nil {
		t.Error("an excerpt of a line the document does not have")
	}
}

// TestExcerptLongLine: on a minified line of a few MB the excerpt is a
// window of at most ExcerptWidth characters around the column, cut on both
// sides, with the span underlined; it is built once per document.
func TestExcerptLongLine(t *testing.T) {
	// Two 3.2 MB lines; under -race two 400 KB ones, still 5,000 windows
	// wide (a single-goroutine parse and cut).
	pad := strings.Repeat("ünïcode ", 400_000/race.Stride(8))
	src := `{"description":"` + pad + `","id":"the_id","tail":"` + pad + `"}`
	d := ParseDoc("x.json", []byte(src))
	f := d.At("/id", "code", Warning, "m")
	e := d.Excerpt(f, false)
	l := e.Line()
	if !l.CutLeft || !l.CutRight || utf8.RuneCountInString(l.Text) > ExcerptWidth {
		t.Fatalf("window %d characters, cut %v %v", utf8.RuneCountInString(l.Text), l.CutLeft, l.CutRight)
	}
	if got := under(e); got != `"the_id"` {
		t.Errorf("underlined %q", got)
	}
	if n := utf8.RuneCountInString(l.Text[:e.Caret]); n != ExcerptWidth/2 {
		t.Errorf("caret %d characters in, want the window's middle", n)
	}
	again := d.Excerpt(f, false)
	if &again.Lines[0] != &e.Lines[0] {
		t.Error("the excerpt was built again: not cached")
	}
	if allocs := testing.AllocsPerRun(5, func() { d.Excerpt(f, false) }); allocs > 0 {
		t.Errorf("a cached excerpt allocates %.0f times", allocs)
	}
}

// TestExcerptMasks: a credential on the line is masked (present's order),
// the caret stays on the finding's value, and maskSpan masks the value
// under the caret even where the masker would not recognise it.
func TestExcerptMasks(t *testing.T) {
	token := "ghp_" + "R8mZ2xQ7kLp4Vn9TbW3cYs6Hd1Fj5GaE0uKo"
	src := "{\"Authorization\": \"Bearer " + token + "\", \"x\": 12, \"y\": \"Bearer " + token + "x\", \"pw\": \"hunter2hunter2\"}"
	d := ParseDoc("x.json", []byte(src))
	for _, long := range []bool{false, true} {
		if long {
			d = ParseDoc("x.json", []byte(`{"pad":"`+strings.Repeat("a", 5000)+`",`+src[1:]))
		}
		e := d.Excerpt(d.At("/x", "code", Warning, "m"), false)
		if strings.Contains(e.Line().Text, token[4:20]) {
			t.Errorf("long=%v: raw credential in %q", long, e.Line().Text)
		}
		if got := under(e); got != "12" {
			t.Errorf("long=%v: underlined %q after masking", long, got)
		}
		m := d.Excerpt(d.At("/pw", "code", Blocker, "m"), true)
		if strings.Contains(m.Line().Text, "hunter2hunter2") || !strings.HasPrefix(under(m), `"`) {
			t.Errorf("long=%v: the value under a credential finding: %q", long, m.Line().Text)
		}
	}
}

// TestExcerptSanitises: control characters never reach a face; the caret
// stays under the value.
func TestExcerptSanitises(t *testing.T) {
	src := "{\"a\": \"\\u001b\", \"b\": \"\x1b[31mred\", \"c\": 3}"
	d := ParseDoc("x.json", []byte(src))
	e := d.Excerpt(Finding{Line: 1, Column: strings.LastIndex(src, "3") + 1}, false)
	if strings.ContainsRune(e.Line().Text, 0x1b) || under(e) != "3" {
		t.Errorf("%q, underlined %q", e.Line().Text, under(e))
	}
}
