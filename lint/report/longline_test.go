package report

import (
	"bytes"
	"fmt"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/lint"
)

// longLineDoc is a minified flow on one line of n nodes, about 350 bytes
// each with a non-ASCII name (1.4 MB for 4,000), and a finding at every
// node's id.
func longLineDoc(tb testing.TB, n int) (*compile.Doc, []lint.Finding) {
	tb.Helper()
	var b strings.Builder
	var fs []lint.Finding
	runes := 0 // characters written so far: the column of what follows is runes+1
	w := func(s string) {
		b.WriteString(s)
		runes += utf8.RuneCountInString(s)
	}
	w(`{"component_type":"Flow","id":"f","nodes":[`)
	for i := range n {
		if i > 0 {
			w(",")
		}
		w(`{"component_type":"LlmNode","id":`)
		fs = append(fs, lint.Finding{Code: "oas_structural", Severity: compile.Warning, Message: "m", Source: compile.SourceDeterministic,
			File: "big/oas.json", Location: fmt.Sprintf("/nodes/%d/id", i), Line: 1, Column: runes + 1})
		w(fmt.Sprintf(`"node_%05d","name":"Knoten Prüfung %d","prompt_template":"%s"}`, i, i, strings.Repeat("lorem ipsum ", 25)))
	}
	w(`]}`)
	doc := compile.ParseDoc("big/oas.json", []byte(b.String()))
	if doc.Root == nil || strings.Count(string(doc.Src), "\n") != 0 || len(doc.Src) < n*325 {
		tb.Fatalf("fixture: %d bytes", len(doc.Src))
	}
	return doc, fs
}

// TestWriteTextLongLine: on a 1.4 MB one-line file with 4,000 findings the
// text format shows a window of at most txtMaxSnippet characters around
// each column (with … marks) and never copies or scans the whole line per
// finding: allocation stays far below one line copy per finding (which
// is 5.6 GB here), and the caret sits under the finding's value.
//
// Under -race a third of the nodes (the writer is one goroutine's work):
// a line of 530 kB, whose copy per finding would still allocate three
// times the bound; the pass without -race writes the 1.4 MB line.
func TestWriteTextLongLine(t *testing.T) {
	doc, fs := longLineDoc(t, 4000/race.Stride(3))
	var ms0, ms1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&ms0)
	start := time.Now()
	var out bytes.Buffer
	if err := Write(&out, Formats["text"], Report{Findings: fs, Docs: Docs{doc.Path: doc}, Files: 1}); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	runtime.ReadMemStats(&ms1)
	alloc := ms1.TotalAlloc - ms0.TotalAlloc
	t.Logf("%d findings on a %d-byte line: %v, %d MB allocated, %d bytes written", len(fs), len(doc.Src), took, alloc>>20, out.Len())
	if alloc > 200<<20 {
		t.Errorf("%d MB allocated: the line is copied per finding", alloc>>20)
	}
	lines := strings.Split(out.String(), "\n")
	shown := 0
	for i, l := range lines {
		if !strings.HasPrefix(l, "1 | ") {
			continue
		}
		shown++
		ex := strings.TrimPrefix(l, "1 | ")
		if n := utf8.RuneCountInString(ex); n > txtMaxSnippet+2 {
			t.Fatalf("excerpt of %d characters: %.200s", n, ex)
		}
		if !strings.HasPrefix(ex, "…") || !strings.HasSuffix(ex, "…") {
			t.Fatalf("a cut excerpt lacks its … marks: %.200s", ex)
		}
		caret := []rune(strings.TrimPrefix(lines[i+1], "  | "))
		at := strings.IndexRune(string(caret), '^')
		if r := []rune(ex); at < 0 || at >= len(r) || !strings.HasPrefix(string(r[at:]), `"node_`) {
			t.Fatalf("caret not under the id:\n%s\n%s", ex, lines[i+1])
		}
	}
	if shown != len(fs) {
		t.Errorf("%d excerpts for %d findings", shown, len(fs))
	}
}

func BenchmarkWriteTextLongLine(b *testing.B) {
	doc, fs := longLineDoc(b, 4000)
	for b.Loop() {
		var out bytes.Buffer
		if err := Write(&out, Formats["text"], Report{Findings: fs, Docs: Docs{doc.Path: doc}, Files: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
