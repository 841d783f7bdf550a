package lsp

import (
	"bytes"
	"io"
	"runtime"
	"strings"
	"testing"
)

// repeatReader is n bytes of c, made as they are read.
type repeatReader struct {
	c byte
	n int
}

func (r *repeatReader) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	k := min(len(p), r.n)
	if k == 0 {
		return 0, nil
	}
	p[0] = r.c
	for i := 1; i < k; i *= 2 { // doubling copies: a byte loop is slow under -race
		copy(p[i:k], p[:i])
	}
	r.n -= k
	return k, nil
}

// A header line without a newline is capped like a body: 64 MB of it
// cost a framing error, not 64 MB of memory, and the message after it is
// answered.
func TestHeaderLineCapped(t *testing.T) {
	out := &sink{}
	s := New(out, Options{Debounce: -1})
	var tail bytes.Buffer
	frame := func(b []byte) { tail.WriteString("Content-Length: " + itoa(len(b)) + "\r\n\r\n"); tail.Write(b) }
	tail.WriteString("\r\n\r\n")
	frame(req(1, "initialize", map[string]any{"capabilities": map[string]any{}}))
	frame(req(2, "shutdown", nil))
	frame(note("exit", nil))
	in := io.MultiReader(strings.NewReader("X-Long: "), &repeatReader{c: 'a', n: 64 << 20}, &tail)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	err := s.Serve(t.Context(), in)
	runtime.ReadMemStats(&after)
	if err != nil {
		t.Fatalf("Serve: %v", err)
	}
	if out.response("1") == nil || out.response("2") == nil {
		t.Errorf("the messages after the long header are not answered: %v", out.all())
	}
	if r := out.response("null"); r == nil || !strings.Contains(string(r["error"]), "-32700") {
		t.Errorf("no parse error for the long header line: %v", r)
	}
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 8<<20 {
		t.Errorf("a 64 MB header line allocated %d bytes", alloc)
	}
}
