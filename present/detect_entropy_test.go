package present

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// The look for few distinct bytes before an entropy candidate is judged
// (detect_entropy.go): secFewDistinct against a count of the distinct
// bytes; whenever it holds, secShannon answers below the threshold; and
// secPathSegment against secPathSegmentBefore (dcdfae2, below), the token
// pass against secScanTokensRef (secAgree), on tokens built to have about
// 23 distinct characters.

// secDistinctToken is a token of n characters drawn from k distinct ones
// (every one of them used when n >= k), ASCII letters and digits, or
// two-byte runes when wide (À…Ë, Ā…ċ, ŀ…ŋ, …).
func secDistinctToken(r *rand.Rand, k, n int, wide bool) string {
	const al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
	var set []string
	for _, i := range r.Perm(len(al))[:min(k, len(al))] {
		if wide {
			// twelve runes for each lead byte, the same twelve continuation
			// bytes: more distinct characters than distinct bytes
			set = append(set, string(rune(0xC0+i%12+i/12*0x40)))
		} else {
			set = append(set, al[i:i+1])
		}
	}
	var b strings.Builder
	for i := range n {
		if i < len(set) {
			b.WriteString(set[i])
		} else {
			b.WriteString(set[r.IntN(len(set))])
		}
	}
	// shuffled, so that the first k are not in order
	rs := []rune(b.String())
	r.Shuffle(len(rs), func(i, j int) { rs[i], rs[j] = rs[j], rs[i] })
	return string(rs)
}

func TestFewDistinctSameAsCount(t *testing.T) {
	r := rand.New(rand.NewPCG(23, 39))
	check := func(tok string) {
		seen, ascii := map[byte]bool{}, true
		for i := 0; i < len(tok); i++ {
			seen[tok[i]] = true
			ascii = ascii && tok[i] < 0x80
		}
		want := ascii && len(seen) < 23
		if got := secFewDistinct(tok); got != want {
			t.Fatalf("secFewDistinct(%q) = %v, %d distinct bytes (ASCII %v)", tok, got, len(seen), ascii)
		}
		if h, _ := secShannon(tok); want && h >= secretMinEntropy {
			t.Fatalf("secFewDistinct(%q), but its entropy is %.2f", tok, h)
		}
	}
	check("")
	for range 3000 / race.Stride(8) {
		tok := secDistinctToken(r, 18+r.IntN(10), 24+r.IntN(80), r.IntN(4) == 0)
		check(tok)
		check(tok + "\x7f")
		check(tok + "\x80")
		check("/" + tok + "/")
	}
}

// secEntropyValues are values holding tokens of about 23 distinct
// characters: alone, in prose, as path segments, ASCII and wide.
func secEntropyValues(r *rand.Rand) []string {
	var vals []string
	for range 1500 / race.Stride(8) {
		tok := secDistinctToken(r, 21+r.IntN(5), 24+r.IntN(40), r.IntN(4) == 0)
		vals = append(vals, tok, "see "+tok+" here", "/x/"+tok+"/y", "https://h/a/"+tok+"?q=1", "id="+tok, "token: "+tok)
	}
	return vals
}

func TestPathSegmentSameAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(24, 39))
	vals := secEntropyValues(r)
	for range 2000 / race.Stride(8) {
		vals = append(vals, secRandomValue(r))
	}
	// shortest keys as path segments, and a key whose hex body a look
	// inside a word does not take: "/" and it is 16 bytes, a segment of 15
	keys := append(secShortestStrong(t), "xoxb-1a2b3c4d5e", "xoxp-9f8e7d6c5b")
	for i, tok := range keys {
		vals = append(vals, "/"+tok, "/a/"+tok+"/b", tok+"/x", "x?"+tok+"?y/z")
		if i%race.Stride(4) == 0 {
			secAgree(t, "/"+tok)
			secAgree(t, "see /a/"+tok+"/b")
		}
	}
	found := 0
	check := func(v string) {
		for class := KeyDescriptive; class <= KeyPassword; class++ {
			for a := 0; a < len(v); a++ {
				if a > 0 && !secTokenSep[v[a-1]] {
					continue // from every token start to the value's end
				}
				b := a
				for b < len(v) && !secTokenSep[v[b]] {
					b++
				}
				d, ok := secPathSegment(class, v, a, b)
				od, ook := secPathSegmentBefore(class, v, a, b)
				if ok != ook || d != od {
					t.Fatalf("secPathSegment(%d, %q, %d, %d) = %+v %v, before %+v %v", class, v, a, b, d, ok, od, ook)
				}
				if ok {
					found++
				}
			}
		}
	}
	for _, v := range vals {
		check(v)
	}
	if found < 100/race.Stride(8) {
		t.Fatalf("%d segments detected: the values do not reach the entropy test", found)
	}
	t.Run("corpus", func(t *testing.T) {
		secCorpusEach(t, 32, check)
	})
}

func TestFewDistinctAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(25, 39))
	for i, v := range secEntropyValues(r) {
		if i%(2*race.Stride(4)) == 0 {
			secAgree(t, v)
		}
	}
}

// FuzzFewDistinct: go test ./present -run '^$' -fuzz FuzzFewDistinct
func FuzzFewDistinct(f *testing.F) {
	r := rand.New(rand.NewPCG(26, 39))
	for _, v := range secEntropyValues(r)[:60] {
		f.Add(v)
	}
	f.Fuzz(func(t *testing.T, v string) {
		secAgree(t, v)
		lo, hi := secTrimSpaceIdx(v, 0, len(v))
		for class := KeyNeutral; class <= KeyPassword; class++ {
			d, ok := secPathSegment(class, v, lo, hi)
			od, ook := secPathSegmentBefore(class, v, lo, hi)
			if ok != ook || d != od {
				t.Fatalf("secPathSegment(%d, %q) = %+v %v, before %+v %v", class, v, d, ok, od, ook)
			}
		}
	})
}

// secPathSegmentBefore is secPathSegment at dcdfae2, without the look for
// few distinct bytes: the oracle of the tests above.
func secPathSegmentBefore(class KeyClass, value string, a, b int) (Detection, bool) {
	s := a
	for i := a; i <= b; i++ {
		if i < b {
			switch value[i] {
			case '/', '?':
			default:
				continue
			}
		}
		if i-s >= 8 && i-s < b-a {
			if d, ok := secPrefixAt(value, s, i); ok {
				return d, true
			}
			// a segment of words and numbers (a directory named after a
			// test, a package slug with a build number) is no token,
			// however many distinct characters it has
			if seg := value[s:i]; class >= KeyNeutral && len(seg) >= secretMinEntLen && secEntropyCandidate(seg) && !secIsWordsAndNumbers(seg) {
				if h, n := secShannon(seg); n >= secretMinEntLen && h >= secretMinEntropy && !secIsPlaceholderToken(seg) {
					return secDet("high-entropy-token", value, s, i, false), true
				}
			}
		}
		s = i + 1
	}
	return Detection{}, false
}
