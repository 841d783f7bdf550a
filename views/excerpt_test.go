package views

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// TestExcerptIsTheEngines (issue 37): the Findings tab shows the engine's
// excerpt (lint.Excerpt, which the CLI's text format shows too): on a
// minified line, its window with … on both sides and a caret line that
// underlines exactly the span; on short lines, the lines around it.
func TestExcerptIsTheEngines(t *testing.T) {
	pad := strings.Repeat("lorem ipsum ", 200_000)
	src := `{"description":"` + pad + `","nodes":{"a":1},"id":"the_id"}`
	doc := compile.ParseDoc("oas.json", []byte(src))
	f := doc.At("/nodes", "oas_structural", compile.Blocker, "m")
	ex := lint.Excerpt(doc, f)
	for _, w := range []int{60, 100, 160} {
		out := ExcerptAround(Theme{}, doc, f, w, 3, 3)
		if len(out) != 2 {
			t.Fatalf("w=%d: %d lines: %q", w, len(out), out)
		}
		line, caret := ansi.Strip(out[0]), ansi.Strip(out[1])
		if Width(line) > w || Width(caret) > w || !strings.Contains(line, "…") {
			t.Errorf("w=%d: %q", w, line)
		}
		// The caret line underlines the span, where the span is shown.
		at := strings.Index(caret, "^")
		under := strings.TrimRight(caret[at:], " ")
		if want := `{"a":1}`; utf8.RuneCountInString(under) != len(want) || !strings.HasPrefix(string([]rune(line)[utf8.RuneCountInString(caret[:at]):]), want) {
			t.Errorf("w=%d: caret %q under %q", w, under, line)
		}
		if w >= 160 && !strings.Contains(line, ex.Line().Text) {
			t.Errorf("w=%d: the engine's window %q is not shown whole: %q", w, ex.Line().Text, line)
		}
	}
	short := compile.ParseDoc("oas.json", []byte("{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4,\n  \"e\": 5\n}\n"))
	out := ExcerptAround(Theme{}, short, short.At("/c", "code", compile.Warning, "m"), 40, 1, 2)
	want := []string{`3 │   "b": 2,`, `4 │   "c": 3,`, `  │        ^`, `5 │   "d": 4,`, `6 │   "e": 5`}
	if got := ansi.Strip(strings.Join(out, "\n")); got != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", got, strings.Join(want, "\n"))
	}
}
