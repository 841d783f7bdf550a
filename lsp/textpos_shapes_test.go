package lsp

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestPositionSameAsCounting: position answers as counting each line's
// characters (a text's counting, the old way) at every offset of random texts
// of ASCII, multi-byte and astral characters, invalid bytes and \n, \r\n
// and \r breaks.
func TestPositionSameAsCounting(t *testing.T) {
	r := rand.New(rand.NewPCG(8, 16))
	parts := []string{"a", "b", "{", `"`, " ", "\n", "\r\n", "\r", "é", "€", "😀", "\xff", "\xe2\x82"}
	for range 300 {
		var b strings.Builder
		for range r.IntN(40) {
			if r.IntN(3) == 0 {
				b.WriteString(parts[r.IntN(len(parts))])
			} else {
				b.WriteString("x")
			}
		}
		tx := newText([]byte(b.String()))
		for off := -1; off <= len(tx.src)+1; off++ {
			got := tx.position(off)
			tx.counting = true
			want := tx.position(off)
			tx.counting = false
			if got != want {
				t.Fatalf("position(%d) of %q: %+v, counting %+v", off, tx.src, got, want)
			}
		}
	}
}

// BenchmarkPositionsOneLine: the ranges of n diagnostics spread over a
// one-line (minified) flow of about 60n bytes. Per diagnostic it should stay
// flat as n grows: each position counted the line's characters up to it.
func BenchmarkPositionsOneLine(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		var s strings.Builder
		for i := 0; i < n; i++ {
			fmt.Fprintf(&s, `{"component_type":"ControlFlowEdge","name":"e%d"},`, i)
		}
		tx := newText([]byte(s.String()))
		step := len(tx.src) / n
		b.Run(fmt.Sprintf("diagnostics=%d", n), func(b *testing.B) {
			for b.Loop() {
				for i := 0; i < n; i++ {
					tx.rangeOf(i*step, i*step+10)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/diagnostic")
		})
	}
}
