package lsp

import (
	"encoding/json"
	"io"
	"sort"
	"strings"
	"testing"
	"time"
)

// BenchmarkKeystrokeP95 drives the server as an editor does (issue 27: a
// keystroke in the largest corpus agent to its published diagnostics
// ≤ 50 ms p95, debounce included): one didChange of one character of
// blog-pipeline-agent (176 KiB) per op, each timed from the change to
// the publication of that version's diagnostics; reports p50 and p95.
//
//	go test ./lsp -run '^$' -bench KeystrokeP95 -benchtime 100x
func BenchmarkKeystrokeP95(b *testing.B) {
	path, src := corpusFlow(b)
	u := string(uriOf(path))
	out := &sink{note: make(chan string, 64)}
	s := New(out, Options{Log: io.Discard})
	defer s.stopTimer()
	s.Handle(req(0, "initialize", map[string]any{"capabilities": map[string]any{}}))
	wait := func() {
		for m := range out.note {
			if m == `"textDocument/publishDiagnostics"` {
				return
			}
		}
	}
	s.Handle(note("textDocument/didOpen", map[string]any{"textDocument": map[string]any{"uri": u, "version": 1, "text": string(src)}}))
	wait()
	at := strings.Index(string(src), `"description": "`) + len(`"description": "`)
	p := newText(src).position(at)
	var lat []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "textDocument/didChange", "params": map[string]any{
			"textDocument":   map[string]any{"uri": u, "version": i + 2},
			"contentChanges": []any{map[string]any{"range": map[string]any{"start": p, "end": map[string]any{"line": p.Line, "character": p.Character + 1}}, "text": string(rune('a' + i%26))}}}})
		t0 := time.Now()
		s.Handle(msg)
		wait()
		lat = append(lat, time.Since(t0))
	}
	b.StopTimer()
	sort.Slice(lat, func(i, j int) bool { return lat[i] < lat[j] })
	b.ReportMetric(float64(lat[len(lat)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(lat[(len(lat)*95)/100].Microseconds())/1000, "p95-ms")
	b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N), "ms/change")
}
