package present

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// secNextLongToken against the token pass's loop as it was at dcdfae2
// (secNextToken below, called for every token, the short words passed
// over by the loop itself): the same tokens judged, each with the same
// offsets, flags and token before it, the same marks and the same stop.

// secTokEvent is one token the pass judges, and what it knows then.
type secTokEvent struct {
	a, b, firstEq, lastEq int
	flags                 uint8
	prevA, prevB          int
	marks                 uint8
}

// secLongTokensBefore is the loop of secScanTokens at dcdfae2 over
// s[lo:], keeping what it judged instead of judging it.
func secLongTokensBefore(s string, lo int) (ev []secTokEvent, marks uint8) {
	prevA, prevB := -1, -1
	count := 0
	for i := lo; i < len(s); {
		a, b, firstEq, lastEq, fl := secNextToken(s, i)
		i = b
		if fl&tfPEM != 0 {
			marks |= markPEM
		}
		if a == b {
			break
		}
		count++
		if count > secMaxTokensPerValue {
			break
		}
		if n := b - a; n < 8 && fl&tfColon == 0 && firstEq < 0 {
			prevA, prevB = a, b
			continue
		}
		ev = append(ev, secTokEvent{a, b, firstEq, lastEq, fl, prevA, prevB, marks})
		prevA, prevB = a, b
	}
	return ev, marks
}

// secLongTokens is the same loop as secScanTokens runs it now.
func secLongTokens(s string, lo int) (ev []secTokEvent, marks uint8) {
	st := secTokState{prevA: -1, prevB: -1}
	for i := lo; i < len(s); {
		a, b, firstEq, lastEq, fl := secNextLongToken(s, i, &st)
		i = b
		if a == b || fl&tfStop != 0 {
			break
		}
		ev = append(ev, secTokEvent{a, b, firstEq, lastEq, fl, st.prevA, st.prevB, st.marks})
		st.prevA, st.prevB = a, b
	}
	return ev, st.marks
}

func secLongTokensAgree(t testing.TB, s string) {
	t.Helper()
	secLongTokensAgreeFrom(t, s, 0, 1, len(s)/2)
}

func secLongTokensAgreeFrom(t testing.TB, s string, los ...int) {
	t.Helper()
	for _, lo := range los {
		if lo > len(s) {
			continue
		}
		got, gm := secLongTokens(s, lo)
		want, wm := secLongTokensBefore(s, lo)
		if gm != wm {
			t.Fatalf("%q from %d: marks %b, before %b", s, lo, gm, wm)
		}
		if len(got) != len(want) {
			t.Fatalf("%q from %d: %d tokens judged, before %d", s, lo, len(got), len(want))
		}
		for k := range got {
			if got[k] != want[k] {
				t.Fatalf("%q from %d: token %d %+v, before %+v", s, lo, k, got[k], want[k])
			}
		}
	}
}

// secProseValue is prose-like text: words of every length around 8,
// between separators of every kind, with the bytes the flags are about.
func secProseValue(r *rand.Rand) string {
	seps := []string{" ", " ", " ", "  ", "\n", ", ", ": ", ":", "(", ") ", "{", "{ ", "{{ ", " }}", "\"", "|", "`"}
	inner := []string{"", "", "", "", ".", "-", "=", "_", "/", "-----", "é", "..", "a=b", "://"}
	const al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var b strings.Builder
	for range r.IntN(60) + 1 {
		b.WriteString(seps[r.IntN(len(seps))])
		for range r.IntN(12) + 1 {
			b.WriteByte(al[r.IntN(len(al))])
		}
		if r.IntN(3) == 0 {
			b.WriteString(inner[r.IntN(len(inner))])
			for range r.IntN(4) {
				b.WriteByte(al[r.IntN(len(al))])
			}
		}
	}
	return b.String()
}

func TestNextLongTokenSameAsLoop(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 39))
	for range 4000 / race.Stride(32) {
		secLongTokensAgree(t, secProseValue(r))
		secLongTokensAgree(t, secRandomValue(r))
	}
	// the bound on the tokens of one value, reached by short and by long
	// words, and its edge
	for k, w := range []string{"a ", "-----x ", "abcdefgh ", "a:b "} {
		if k%race.Stride(4) != 0 {
			continue
		}
		for _, n := range []int{secMaxTokensPerValue - 1, secMaxTokensPerValue, secMaxTokensPerValue + 1} {
			secLongTokensAgreeFrom(t, strings.Repeat(w, n)+"tail0123456789", 0)
		}
	}
	// the random part first; then the corpus, which skips alone without
	// ../shared
	t.Run("corpus", func(t *testing.T) {
		secCorpusEach(t, 32, func(v string) { secLongTokensAgree(t, v) })
	})
}

// FuzzNextLongToken: go test ./present -run '^$' -fuzz FuzzNextLongToken
func FuzzNextLongToken(f *testing.F) {
	r := rand.New(rand.NewPCG(3, 18))
	for range 32 {
		f.Add(secProseValue(r))
		f.Add(secRandomValue(r))
	}
	f.Fuzz(func(t *testing.T, v string) {
		secLongTokensAgree(t, v)
	})
}

// secNextToken is the token pass's tokenizer at dcdfae2 (the oracle of
// secNextLongToken above): the next token of s at or
// after i, [a, b) (a == b == len(s) at the end), after the separators
// before it, with the offsets in the token of its first and last '='
// (-1: none) and its flags. It is a function of its own so that its two
// loops keep everything in registers: inside secScanTokens, which holds
// a dozen live values, the compiler spilled the byte loop's state to the
// stack (14 instructions a byte of a word, 6 here).
//
//go:noinline
func secNextToken(s string, i int) (a, b, firstEq, lastEq int, flags uint8) {
	i0 := i
	for uint(i) < uint(len(s)) {
		cc := secCharClass[s[i]]
		if cc < ccSep {
			break
		}
		if cc == ccColon {
			flags |= tfColon
		}
		i++
	}
	a, firstEq, lastEq = i, -1, -1
	// the separators just before the token (never bytes of the token
	// before it: '{' and ' ' are separators)
	if i > i0 && uint(i) <= uint(len(s)) {
		if c := s[i-1]; c == '{' || c == ' ' && i-2 >= i0 && s[i-2] == '{' {
			flags |= tfTemplate
		}
	}
	dots := 0
	for {
		// letters and digits: the common case, a loop of its own
		for uint(i) < uint(len(s)) && secCharClass[s[i]] == 0 {
			i++
		}
		if uint(i) >= uint(len(s)) {
			break
		}
		cc := secCharClass[s[i]]
		if cc >= ccSep {
			break
		}
		flags |= tfBoundary
		switch cc {
		case ccDot:
			dots++
		case ccDash:
			if i+5 <= len(s) && s[i:i+5] == "-----" {
				flags |= tfPEM
			}
		case ccEq:
			if firstEq < 0 {
				firstEq = i - a
			}
			lastEq = i - a
		}
		i++
	}
	if dots >= 2 {
		flags |= tfDots
	}
	return a, i, firstEq, lastEq, flags
}
