package compile

import (
	"math/rand"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// strRunByByte is the loop strRun replaced: one byte at a time.
func strRunByByte(src []byte, i int) int {
	for i < len(src) && !strStop[src[i]] {
		i++
	}
	return i
}

// TestStrRunSameAsByByte holds strRun to the byte loop it replaced on
// random buffers of plain bytes with a few stop bytes (quote, escape,
// control, multi-byte lead) at every offset, from every start.
func TestStrRunSameAsByByte(t *testing.T) {
	r := rand.New(rand.NewSource(12))
	stops := []byte{'"', '\\', 0, '\n', 0x1f, 0x80, 0xc3, 0xff}
	for n := 0; n < 20000/race.Stride(8); n++ {
		src := make([]byte, r.Intn(70))
		for k := range src {
			src[k] = byte(0x20 + r.Intn(0x5f))
			if src[k] == '"' || src[k] == '\\' {
				src[k] = 'a'
			}
		}
		for s := r.Intn(4); s > 0 && len(src) > 0; s-- {
			src[r.Intn(len(src))] = stops[r.Intn(len(stops))]
		}
		for i := 0; i <= len(src); i++ {
			if got, want := strRun(src, i), strRunByByte(src, i); got != want {
				t.Fatalf("strRun(%q, %d) = %d, want %d", src, i, got, want)
			}
		}
	}
	for c := 0; c < 256; c++ { // every byte at every position of a round
		for at := 0; at < 40; at++ {
			src := make([]byte, 40)
			for k := range src {
				src[k] = 'x'
			}
			src[at] = byte(c)
			for i := 0; i <= at; i++ {
				if got, want := strRun(src, i), strRunByByte(src, i); got != want {
					t.Fatalf("byte %#x at %d from %d: %d, want %d", c, at, i, got, want)
				}
			}
		}
	}
}
