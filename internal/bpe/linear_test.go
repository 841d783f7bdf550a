package bpe

import (
	"fmt"
	"github.com/oastui/oastui/internal/race"
	"strings"
	"testing"
)

// TestLongRunLinear (issue 26 item 13: a prompt of one repeated character
// was quadratic, 100k characters 14.6 s): the merge of a long piece makes
// at most three rank look-ups per byte (one per part at the start, two per
// merge), and the pre-tokenizer cuts a long run into pieces that cover it.
func TestLongRunLinear(t *testing.T) {
	if race.Enabled {
		t.Skip("tokenizes megabytes: runs without -race (CI's second run)")
	}
	const n = 100000
	for _, c := range []string{"a", "A", " ", "\n", "!", "1", "é", "漢", "ab", "\u0301"} {
		text := strings.Repeat(c, n/len(c))
		for _, e := range []*Encoding{O200K, CL100K} {
			total := 0
			for _, p := range e.Pieces(text) {
				total += len(p)
				if len(p) > simpleMax {
					var sc scratch
					k := e.mergeHeap(p, &sc)
					if sc.lookups > 3*len(p) {
						t.Errorf("%s %q×%d: %d look-ups for a %d-byte piece", e.Name, c, n, sc.lookups, len(p))
					}
					if k < 1 || k > len(p) {
						t.Errorf("%s %q: %d tokens for %d bytes", e.Name, c, k, len(p))
					}
				}
			}
			if total != len(text) {
				t.Errorf("%s %q: pieces cover %d of %d bytes", e.Name, c, total, len(text))
			}
		}
	}
}

// BenchmarkLongRun is the figure of issue 26 item 13: counting a run of
// one character, 10k and 100k long (linear: ×10 the time for ×10 the text).
func BenchmarkLongRun(b *testing.B) {
	for _, c := range []string{"a", " ", "!"} {
		for _, n := range []int{10000, 100000} {
			text := strings.Repeat(c, n)
			b.Run(fmt.Sprintf("%q/%d", c, n), func(b *testing.B) {
				b.SetBytes(int64(n))
				for b.Loop() {
					O200K.Count(text)
					CL100K.Count(text)
				}
			})
		}
	}
}

// BenchmarkProse counts ordinary English prose (the shape of a system
// prompt) in both encodings.
func BenchmarkProse(b *testing.B) {
	text := strings.Repeat("You are a careful writer. Keep the user's tone; cite 3 sources, at most 12 words each.\n\n", 200)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		O200K.Count(text)
		CL100K.Count(text)
	}
}

// TestLongPieceAllocations (issue 26 item 14: `prompts` on a template of
// 200,000 "{{" then as many "}}" peaked at 135 MB): the merge of a long
// piece sizes its parts and heap once for the piece, not by doubling.
func TestLongPieceAllocations(t *testing.T) {
	if race.Enabled {
		// the race runtime's instrumentation allocates on its own; CI's
		// run without -race checks this package in full
		t.Skip("allocation counts differ under -race")
	}
	p := strings.Repeat("{", 50000)
	if n := testing.AllocsPerRun(3, func() {
		var sc scratch
		O200K.mergeHeap(p, &sc)
	}); n > 3 {
		t.Errorf("%v allocations merging a %d-byte piece", n, len(p))
	}
}
