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

// TestIndexSUnderscoreSameAsIndex holds indexSUnderscore to
// strings.Index(text[i:], "s_") on random strings and start offsets.
func TestIndexSUnderscoreSameAsIndex(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	alphabet := []byte("ss__a ")
	for n := 0; n < 50000; n++ {
		b := make([]byte, rng.Intn(30))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		s := string(b)
		i := 0
		if len(s) > 0 {
			i = rng.Intn(len(s) + 1)
		}
		want := strings.Index(s[i:], "s_")
		if want >= 0 {
			want += i
		}
		if got := indexSUnderscore(s, i); got != want {
			t.Fatalf("indexSUnderscore(%q, %d) = %d, want %d", s, i, got, want)
		}
	}
}
