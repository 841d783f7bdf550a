package lint

import (
	"math/rand"
	"regexp"
	"testing"
)

// The expressions the hand-written matchers stand in for.
var (
	cinatraBaseOracle  = regexp.MustCompile(`^\{\{\s*CINATRA_BASE_URL\s*\}\}`)
	jinjaCommentOracle = regexp.MustCompile(`(?s)\{#.*?#\}`)
)

// randomJoin is a string of n pieces drawn from pieces.
func randomJoin(rng *rand.Rand, pieces []string, n int) string {
	var b []byte
	for ; n > 0; n-- {
		b = append(b, pieces[rng.Intn(len(pieces))]...)
	}
	return string(b)
}

// TestCinatraBasePrefix holds cinatraBasePrefix to the expression on
// random joins of its pieces, spaces of every kind and near misses.
func TestCinatraBasePrefix(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	pieces := []string{"{{", "{", "}}", "}", " ", "\t", "\n", "\f", "\r", "\v", "CINATRA_BASE_URL", "CINATRA_BASE", "_URL", "/api", "x", "\u00a0", "\xff"}
	for _, s := range []string{"", "{{CINATRA_BASE_URL}}", "{{ CINATRA_BASE_URL }}/x", "{{\vCINATRA_BASE_URL}}", " {{CINATRA_BASE_URL}}", "{{CINATRA_BASE_URL}"} {
		if got, want := cinatraBasePrefix(s), cinatraBaseOracle.FindString(s); got != want {
			t.Fatalf("cinatraBasePrefix(%q) = %q, want %q", s, got, want)
		}
	}
	for i := 0; i < 50000; i++ {
		s := randomJoin(rng, pieces, rng.Intn(7))
		if rng.Intn(2) == 0 {
			s = "{{" + s
		}
		if got, want := cinatraBasePrefix(s), cinatraBaseOracle.FindString(s); got != want {
			t.Fatalf("cinatraBasePrefix(%q) = %q, want %q", s, got, want)
		}
	}
}

// TestStripJinjaComments holds stripJinjaComments to the expression's
// ReplaceAllString on random joins of braces, hashes, text, newlines and
// invalid UTF-8.
func TestStripJinjaComments(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	pieces := []string{"{#", "#}", "{", "}", "#", "{{", "}}", "a", "é", "\n", "\xff", "\xc3", " x "}
	for i := 0; i < 50000; i++ {
		s := randomJoin(rng, pieces, rng.Intn(10))
		if got, want := stripJinjaComments(s), jinjaCommentOracle.ReplaceAllString(s, ""); got != want {
			t.Fatalf("stripJinjaComments(%q) = %q, want %q", s, got, want)
		}
	}
}
