package present

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// plainProseAgree: where plainProse says Redact has nothing to mask in s,
// Redact leaves s as it is.
func plainProseAgree(t *testing.T, s string) bool {
	t.Helper()
	if !plainProse(s) {
		return false
	}
	if r := Redact(s); r != s {
		t.Errorf("plainProse(%q) but Redact masks it: %q", s, r)
	}
	return true
}

// TestPlainProseRedactsNothing holds Text's fast path to Redact: on short
// words next to the shortest detections (an 8-byte literal after
// "Bearer", provider prefixes, PEM armour, pairs), on the detector's own
// random values cut into words, and on every string of the shared corpus.
// A bound of 9 bytes a word fails it.
func TestPlainProseRedactsNothing(t *testing.T) {
	edges := []string{
		"Renamed step 12", "Draft the reply", "", " ", "a", "ab-cd ef",
		"Bearer aB3dE6gH", "Bearer aB3dE6g", "Token x9Kq2mZ7", "Basic dXNlcjpw",
		"sk-abcd", "ghp_abc", "AKIA1234", "xoxb-12", "eyJ.a.b",
		"----- BEGIN", "-----", "----", "a-----b", "k-e-y- -----",
		"pwd: x", "a=b", "pwd = aB3dE6", "pwd: aB3dE6", "pwd:aB3dE6", "{{ x }}", "${X}", "<X>", "%X%", "***",
		"\u00e9t\u00e9 \u00e0 la", "tab\there", "line\nbreak",
	}
	taken := 0
	for _, s := range edges {
		if plainProseAgree(t, s) {
			taken++
		}
	}
	r := rand.New(rand.NewPCG(61, 2026))
	n := 20000 / race.Stride(8) // the whole table without -race (.ci/run runs both)
	for range n {
		// the detector's random values, cut into words of 1 to 10 bytes
		v := secRandomValue(r)
		var b strings.Builder
		for len(v) > 0 {
			k := min(len(v), r.IntN(10)+1)
			b.WriteString(v[:k])
			v = v[k:]
			b.WriteByte(" \t\n-"[r.IntN(4)])
		}
		if plainProseAgree(t, b.String()) {
			taken++
		}
	}
	// words of 1 to 9 bytes of letters, digits and the punctuation the
	// detector looks at, joined by spaces: most are plain prose, and the
	// 8- and 9-byte words hold the shortest literals
	const al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./+{}$<>%*'\"@#~\u00e9"
	for range n {
		var b strings.Builder
		for range r.IntN(6) + 1 {
			if r.IntN(4) == 0 { // a scheme word before a literal
				b.WriteString([]string{"Bearer ", "Basic ", "Token ", "ApiKey ", "sk-", "ghp_", "AKIA", "xoxb-", "eyJ"}[r.IntN(9)])
			}
			for range r.IntN(9) + 1 {
				b.WriteByte(al[r.IntN(len(al))])
			}
			b.WriteByte(' ')
		}
		if plainProseAgree(t, b.String()) {
			taken++
		}
	}
	if taken < n/4 {
		t.Fatalf("the fast path was taken for %d values of %d: the test does not exercise it", taken, 2*n+len(edges))
	}
	t.Run("corpus", func(t *testing.T) {
		for _, v := range secCorpusStrings(t) {
			plainProseAgree(t, Clean(v))
		}
	})
}
