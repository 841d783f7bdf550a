package present

import (
	"math/rand"
	"strings"
	"testing"
)

// TestIndexEyJSameAsIndex holds indexEyJ to strings.Index(v[off:], "eyJ")
// on random strings and start offsets.
func TestIndexEyJSameAsIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	alphabet := []byte("eeyyJJa.")
	for n := 0; n < 50000; n++ {
		b := make([]byte, rng.Intn(30))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		v := string(b)
		off := 0
		if len(v) > 0 {
			off = rng.Intn(len(v) + 1)
		}
		want := strings.Index(v[off:], "eyJ")
		if want >= 0 {
			want += off
		}
		if got := indexEyJ(v, off); got != want {
			t.Fatalf("indexEyJ(%q, %d) = %d, want %d", v, off, got, want)
		}
	}
}
