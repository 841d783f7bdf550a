package lsp

import (
	"bytes"
	"fmt"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/oastui/oastui/internal/race"
	"go.lsp.dev/protocol"
)

// replaceAll is the didChange an editor's "replace all" sends: one
// ranged edit per occurrence of "value" in a buffer of n lines, each
// range in the text after the edits before it (top to bottom, every edit
// lengthening its line).
func replaceAll(lines, every int) (src string, changes []any, want string) {
	var b, w strings.Builder
	for i := 0; i < lines; i++ {
		line := fmt.Sprintf("  \"name_%07d\": \"value é😀 %07d\",\n", i, i)
		b.WriteString(line)
		if i%every == 0 {
			col := strings.Index(line, "value")
			changes = append(changes, map[string]any{"range": map[string]any{
				"start": map[string]int{"line": i, "character": col}, "end": map[string]int{"line": i, "character": col + len("value")}},
				"text": "renamed_value"})
			line = strings.Replace(line, "value", "renamed_value", 1)
		}
		w.WriteString(line)
	}
	return b.String(), changes, w.String()
}

func openBuffer(s *Server, path, text string) string {
	u := string(uriOf(path))
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "languageId": "json", "text": text}}))
	return u
}

// Many ranged edits in one didChange (a "replace all" on a large
// buffer) are applied in one pass: the memory allocated while applying
// them is a few times the buffer, not one copy of it (and one line table)
// per edit; the text is the one the edits make.
func TestBatchedEdits(t *testing.T) {
	s, _, _ := newTestServer(t, time.Hour)
	// 2 MB, 500 edits; under -race 400 KB and 100 edits (a copy per edit
	// would still allocate 10 times the limit).
	src, changes, want := replaceAll(50_000/race.Stride(5), 100)
	path := filepath.Join(t.TempDir(), "big.json")
	u := openBuffer(s, path, src)
	body := note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": changes})
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s.Handle(body)
	runtime.ReadMemStats(&after)
	s.mu.Lock()
	got := string(s.docs[path].src)
	s.mu.Unlock()
	if got != want {
		t.Fatalf("the buffer after the edits differs from the text they make (len %d, want %d)", len(got), len(want))
	}
	if alloc, limit := after.TotalAlloc-before.TotalAlloc, uint64(10*len(src)+len(body)); alloc > limit {
		t.Errorf("applying %d edits to a %d-byte buffer allocated %d bytes (limit %d): a copy per edit", len(changes), len(src), alloc, limit)
	}
}

// BenchmarkBatchedEdits: one didChange of 500 ranged edits on a 10 MB
// buffer, then a request answered.
func BenchmarkBatchedEdits(b *testing.B) {
	src, changes, _ := replaceAll(250_000, 500) // 10 MB, 500 edits
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		s, out, _ := newTestServer(b, time.Hour)
		u := openBuffer(s, filepath.Join(b.TempDir(), "big.json"), src)
		body := note("textDocument/didChange", map[string]any{"textDocument": map[string]any{"uri": u, "version": 2}, "contentChanges": changes})
		b.StartTimer()
		s.Handle(body)
		s.Handle(req(1, "shutdown", nil))
		if out.response("1") == nil {
			b.Fatal("no answer")
		}
	}
}

// naiveChanges is the flat application of each change in turn (the
// definition applyContentChanges must agree with).
func naiveChanges(src []byte, changes []contentChange) []byte {
	for _, c := range changes {
		if c.Range == nil {
			src = []byte(c.Text)
			continue
		}
		t := newText(src)
		start, end := t.offset(c.Range.Start), t.offset(c.Range.End)
		if end < start {
			start, end = end, start
		}
		next := make([]byte, 0, len(src)-(end-start)+len(c.Text))
		src = append(append(append(next, src[:start]...), c.Text...), src[end:]...)
	}
	return src
}

// FuzzBatchedEdits: the one-pass application of a batch of ranged edits
// makes the text the edits applied one after the other make, across
// chunk boundaries, CRLF, lone CRs and astral characters. The buffer and
// the texts are valid UTF-8, as every text decoded from JSON is.
func FuzzBatchedEdits(f *testing.F) {
	f.Add("{\r\n  \"a😀\": \"é\"\r\n}\r\n", []byte{1, 6, 1, 6, 0, 1, 11, 1, 12, 1, 0, 1, 1, 0, 2}, "b\nü\r")
	f.Add(strings.Repeat("ab\r\ncd\re😀f\n", 3000), []byte{200, 3, 200, 1, 1, 0, 0, 255, 255, 0, 7, 2, 7, 2, 2}, "\r|\n|x")
	f.Add(strings.Repeat("x", 40000)+"\r", []byte{0, 200, 0, 100, 0, 1, 0, 0, 0, 1}, "\n")
	f.Fuzz(func(t *testing.T, src string, ops []byte, texts string) {
		src = strings.ToValidUTF8(src, "?")
		// a larger buffer now and then: many chunks
		if len(src) > 0 && len(src) < 200 && len(ops) > 0 && ops[0]%4 == 0 {
			src = strings.Repeat(src, 40000/len(src)+1)
		}
		pieces := strings.Split(strings.ToValidUTF8(texts, "?"), "|")
		var changes []contentChange
		for i := 0; i+4 < len(ops) && len(changes) < 64; i += 5 {
			scale := func(b byte) uint32 { return uint32(b) * uint32(b) / 8 } // reaches lines and columns far out
			r := &protocol.Range{Start: protocol.Position{Line: scale(ops[i]), Character: scale(ops[i+1])},
				End: protocol.Position{Line: scale(ops[i+2]), Character: scale(ops[i+3])}}
			c := contentChange{Range: r, Text: pieces[int(ops[i+4])%len(pieces)]}
			if ops[i+4] == 255 {
				c.Range = nil
			}
			changes = append(changes, c)
		}
		want := naiveChanges([]byte(src), changes)
		got, edits, full := applyContentChanges([]byte(src), changes)
		if !bytes.Equal(got, want) {
			t.Fatalf("one pass %q\nnaive    %q", trunc(got), trunc(want))
		}
		// the edits logged, replayed on the text after the last whole-text
		// change, make the same text (the log carries findings)
		base, ranged := []byte(src), changes
		for i, c := range changes {
			if c.Range == nil {
				base, ranged = []byte(c.Text), changes[i+1:]
			}
		}
		if full != (len(ranged) < len(changes) && slices.ContainsFunc(changes, func(c contentChange) bool { return c.Range == nil })) || len(edits) != len(ranged) {
			t.Fatalf("full %v, %d edits logged for %d ranged changes after the last whole text", full, len(edits), len(ranged))
		}
		for i, e := range edits {
			if e.n != len(ranged[i].Text) {
				t.Fatalf("edit %d: %d bytes logged, the text has %d", i, e.n, len(ranged[i].Text))
			}
			base = slices.Concat(base[:e.start:e.start], []byte(ranged[i].Text), base[e.end:])
		}
		if !bytes.Equal(base, got) {
			t.Fatalf("the edits logged make %q\nthe changes make %q", trunc(base), trunc(got))
		}
	})
}

func trunc(b []byte) string {
	if len(b) > 300 {
		return string(b[:300]) + "…"
	}
	return string(b)
}

// BenchmarkManyEdits: 100,000 one-character edits scattered over a 10 MB
// buffer in one didChange (a hostile client: the message is ~10 MB).
func BenchmarkManyEdits(b *testing.B) {
	src, _, _ := replaceAll(250_000, 1)
	var changes []contentChange
	for i := 0; i < 100_000; i++ {
		line := uint32(i * 7919 % 250_000)
		changes = append(changes, contentChange{Range: &protocol.Range{Start: protocol.Position{Line: line, Character: 3}, End: protocol.Position{Line: line, Character: 4}}, Text: "x"})
	}
	for b.Loop() {
		applyContentChanges([]byte(src), changes)
	}
}
