package lint

import (
	"math/rand"
	"strings"
	"testing"
)

// TestIndexBracesSameAsIndex holds indexBraces to strings.Index(s, "{{")
// on random strings of braces and other bytes, every length to 40.
func TestIndexBracesSameAsIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	alphabet := []byte("{{{}a? :é")
	for _, s := range []string{"", "{", "{{", "a{", "a{{", "{a{{", "{{{", "}{{}}", "x{y{z{"} {
		if got, want := indexBraces(s), strings.Index(s, "{{"); got != want {
			t.Fatalf("indexBraces(%q) = %d, want %d", s, got, want)
		}
	}
	for i := 0; i < 50000; i++ {
		b := make([]byte, rng.Intn(41))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		s := string(b)
		if got, want := indexBraces(s), strings.Index(s, "{{"); got != want {
			t.Fatalf("indexBraces(%q) = %d, want %d", s, got, want)
		}
	}
}
