package present

import (
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// The look for a key inside a word stops secProviderMinSpan bytes before
// the token's end, and the token pass asks it only for tokens longer than
// that: secPrefixInWord against secPrefixInWordBefore (dcdfae2, below) at
// every span of random identifiers that end in a shortest key, of random
// values and of the corpus; the token pass is held to secScanTokensRef by
// secAgree.

// secShortestInWord is a shortest key of each provider that secPrefix
// finds inside a word (a body with a digit and a letter, not hex).
func secShortestInWord(t testing.TB) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(17, 39))
	var out []string
	for i := range secProviders {
		p := &secProviders[i]
		var cs []byte
		for c := range 256 {
			if secInCharset(byte(c), p.charset) {
				cs = append(cs, byte(c))
			}
		}
		for range 400 {
			var b strings.Builder
			b.WriteString(p.prefix)
			for range p.minBody {
				b.WriteByte(cs[r.IntN(len(cs))])
			}
			tok := b.String()
			if d, ok := secPrefix(tok, 0, len(tok), true); ok && d.End == len(tok) {
				out = append(out, tok)
				break
			}
		}
	}
	if len(out) < len(secProviders)*3/4 {
		t.Fatalf("only %d of %d providers got a shortest key inside a word", len(out), len(secProviders))
	}
	return out
}

func secPrefixInWordAgreeAll(t testing.TB, v string) {
	t.Helper()
	for a := 0; a <= len(v); a++ {
		if a > 2 && !secTokenSep[v[a-1]] {
			continue // from the first bytes and every token's start
		}
		te := a // the token's end
		for te < len(v) && !secTokenSep[v[te]] {
			te++
		}
		bs := []int{a + 8, a + 15, a + 16, a + 17, te, te - 1}
		if a <= 2 {
			bs = append(bs, len(v)-1, len(v))
		}
		for _, b := range bs {
			if b < a || b > len(v) {
				continue
			}
			d, ok := secPrefixInWord(v, a, b)
			od, ook := secPrefixInWordBefore(v, a, b)
			if ok != ook || d != od {
				t.Fatalf("secPrefixInWord(%q, %d, %d) = %+v %v, before %+v %v", v, a, b, d, ok, od, ook)
			}
		}
	}
}

func TestPrefixInWordSameAsBefore(t *testing.T) {
	r := rand.New(rand.NewPCG(18, 17))
	found := 0
	for i, tok := range secShortestInWord(t) {
		if i%race.Stride(3) != 0 {
			continue
		}
		// a token of one boundary byte and a shortest key: the token
		// pass asks for the look from 16 bytes on
		secAgree(t, "_"+tok)
		secAgree(t, "see -"+tok+" here")
		for _, pre := range []string{"_", "a_", "x.", "id-", "/$referenced_components/", "{{ secret_", "Ab9_"} {
			for _, v := range []string{pre + tok, pre + tok + "_out", pre + tok[:len(tok)-1], pre + tok + "9", strings.Repeat("w_", i%4) + pre + tok + "."} {
				secPrefixInWordAgreeAll(t, v)
				if _, ok := secPrefixInWordBefore(v, 0, len(v)); ok {
					found++
				}
			}
		}
	}
	if found < 100/race.Stride(3) {
		t.Fatalf("%d keys found inside words: the values do not reach the look", found)
	}
	for range 2000 / race.Stride(16) {
		secPrefixInWordAgreeAll(t, secRandomValue(r))
	}
	// the random part first; then the corpus, which skips alone without
	// ../shared
	t.Run("corpus", func(t *testing.T) {
		secCorpusEach(t, 64, func(v string) {
			secPrefixInWordAgreeAll(t, v)
		})
	})
}

// FuzzPrefixInWord: go test ./present -run '^$' -fuzz FuzzPrefixInWord
func FuzzPrefixInWord(f *testing.F) {
	for _, tok := range secShortestInWord(f)[:40] {
		f.Add("a_" + tok)
	}
	f.Fuzz(func(t *testing.T, v string) {
		secPrefixInWordAgreeAll(t, v)
		secAgree(t, v)
	})
}

// secPrefixInWordBefore is secPrefixInWord at dcdfae2, looking up to 8
// bytes before the end: the oracle of the tests above.
func secPrefixInWordBefore(value string, a, b int) (Detection, bool) {
	if b-a < 9 {
		return Detection{}, false // no room for a boundary and a key
	}
	tries := 0
	// q is the boundary byte, p = q+1 where a key would start (p+8 <= b);
	// the runs of letters and digits between boundaries are skipped in a
	// loop of their own (secCharClass is 0 for exactly those bytes)
	s := value[:b-8]
	for q := a; q < len(s); q++ {
		for q < len(s) && secCharClass[s[q]] == 0 {
			q++
		}
		if q >= len(s) {
			break
		}
		// '+' is no boundary: base64 text is full of them
		if c := value[q+1]; s[q] == '+' || secCharClass[c] != 0 {
			continue
		}
		p := q + 1
		if secProviderSecond[value[p]][value[p+1]>>6]&(1<<(value[p+1]&63)) == 0 {
			continue
		}
		if tries++; tries > secMaxWordTries {
			break
		}
		if d, ok := secPrefix(value, p, b, true); ok {
			return d, true
		}
	}
	return Detection{}, false
}
