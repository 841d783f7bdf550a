package present

import (
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// The proof of nothing below KeyNeutral (detect_strong.go) against the
// detector as it was before it (secDetectBeforeStrong, below: secDetect
// at dcdfae2, without step 0): whenever secMayHoldStrong is false, the
// detector without it finds nothing under KeyDescriptive and
// KeyIdentifier at any depth; and secDetect answers as it did under every
// class.

// secStrongAgree checks both on v.
func secStrongAgree(t testing.TB, v string) {
	t.Helper()
	may := secMayHoldStrong(v)
	for class := KeyDescriptive; class <= KeyPassword; class++ {
		for depth := 0; depth <= 2; depth++ {
			if class >= KeyNeutral && depth > 0 {
				break // step 0 is not taken: one depth is enough
			}
			d, ok := secDetect(class, v, depth)
			od, ook := secDetectBeforeStrong(class, v, depth)
			if ok != ook || d != od {
				t.Fatalf("secDetect(%d, %q, %d) = %+v %v, before the proof %+v %v", class, v, depth, d, ok, od, ook)
			}
			if class < KeyNeutral && ook && !may {
				t.Fatalf("secMayHoldStrong(%q) = false, but the detector finds %+v under class %d", v, od, class)
			}
		}
	}
}

// secShortestStrong is a shortest detected token of each provider (the
// prefix and a random body of the fewest characters that are reported),
// and the shortest JWT, Slack webhook and URL credentials, each found by
// the detector on its own.
func secShortestStrong(t testing.TB) []string {
	t.Helper()
	r := rand.New(rand.NewPCG(16, 39))
	var out []string
	for i := range secProviders {
		p := &secProviders[i]
		var cs []byte
		for c := range 256 {
			if secInCharset(byte(c), p.charset) {
				cs = append(cs, byte(c))
			}
		}
		for try := 0; try < 400; try++ {
			var b strings.Builder
			b.WriteString(p.prefix)
			for range p.minBody {
				b.WriteByte(cs[r.IntN(len(cs))])
			}
			tok := b.String()
			if d, ok := secPrefixAt(tok, 0, len(tok)); ok && d.End == len(tok) {
				out = append(out, tok)
				break
			}
		}
	}
	if len(out) < len(secProviders)*9/10 {
		t.Fatalf("only %d of %d providers got a shortest token", len(out), len(secProviders))
	}
	out = append(out,
		"eyJhbGciOi.eyJzdW.",  // a JWT of 18 bytes, no signature
		"eyJhbGciOi.eyJzdW.x", // and with one
		"hooks.slack.com/triggers/T12AB34CD/B56EF78GH/aK3",
		"xhooks.slack.com/services/T12AB34CD/B56EF78GH/aK3",
		"hooks.slack.com/triggers/!a1@b2!c3@d4!e5@f6!g7@h8", // 19 key bytes from the "s" of slack
		"a://b:p4ss@d", `a:\/\/b:p4ss@d`,
		"-----BEGIN PRIVATE KEY-----\n"+strings.Repeat("Mb3x", 16)+"\n-----END PRIVATE KEY-----",
	)
	for _, v := range out[len(out)-8:] {
		if _, ok := secDetectBeforeStrong(KeyIdentifier, v, 0); !ok {
			t.Fatalf("%q is not detected", v)
		}
	}
	return out
}

// secStrongValues puts each shortest token at every offset modulo 8 (the
// words secMayHoldStrong reads), after and before every kind of byte:
// a separator, a boundary inside a word, a letter (no boundary), UTF-8.
func secStrongValues(t testing.TB) []string {
	t.Helper()
	befores := []string{"", " ", "(", "\"", "_", "-", "/", "=", ".", "+", "a", "Z9", "é", "{{ ", "Bearer ", "secret_", "id=", "/$referenced_components/"}
	afters := []string{"", " ", ".", ",", "_x", "-", "/id", "a", "9", "é", ")", "}}"}
	var vals []string
	for i, tok := range secShortestStrong(t) {
		vals = append(vals, tok[:len(tok)-1], tok[1:])
		for off := range 8 {
			for k := range 3 {
				pre := befores[(i+off*3+k)%len(befores)]
				v := strings.Repeat("w", off) + " " + pre + tok + afters[(i+off+k)%len(afters)]
				vals = append(vals, v, v[off+1:])
			}
		}
	}
	return vals
}

func TestMayHoldStrongShortest(t *testing.T) {
	vals := secStrongValues(t)
	for i, v := range vals {
		if i%race.Stride(4) == 0 {
			secStrongAgree(t, v)
		}
	}
	// every shortest token is seen by the proof at every offset
	for _, tok := range secShortestStrong(t) {
		for off := range 9 {
			if v := strings.Repeat(" ", off) + tok; !secMayHoldStrong(v) {
				t.Fatalf("secMayHoldStrong(%q) = false", v)
			}
		}
	}
	if m := secStrongMinLen[0]; m != 255 {
		t.Fatalf("secStrongMinLen[0] = %d", m)
	}
	for c, m := range secStrongMinLen {
		if m < secStrongMinRun {
			t.Fatalf("secStrongMinLen[%#x] = %d, below secStrongMinRun (%d): the aligned words can miss a span", c, m, secStrongMinRun)
		}
	}
}

func TestMayHoldStrongRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(16, 2026))
	toks := secShortestStrong(t)
	for range 6000 / race.Stride(32) {
		v := secRandomValue(r)
		if r.IntN(3) == 0 {
			// a shortest token somewhere in it, or one cut short
			k := r.IntN(len(v) + 1)
			tok := toks[r.IntN(len(toks))]
			if r.IntN(2) == 0 {
				tok = tok[:len(tok)-1-r.IntN(2)]
			}
			v = v[:k] + tok + v[k:]
		}
		secStrongAgree(t, v)
	}
	// the random part first; then the corpus, which skips alone without
	// ../shared
	t.Run("corpus", func(t *testing.T) {
		secCorpusEach(t, 32, func(v string) { secStrongAgree(t, v) })
	})
}

// secCorpusEach calls f with each distinct string (keys and values) of
// every JSON file of the shared corpus (every stride-th file under
// -race), and with each value and context of the labelled secret samples
// (every 8th under -race); t is skipped without ../shared.
func secCorpusEach(t *testing.T, stride int, f func(string)) {
	t.Helper()
	dir := testshared.Dir(t, "corpus")
	files, strs, seen := 0, 0, map[string]bool{}
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		if files++; files%race.Stride(stride) != 0 {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		secStrongJSONStrings(src, func(v string) {
			if !seen[v] {
				seen[v] = true
				strs++
				f(v)
			}
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for i, r := range testshared.SecretSamples(t) {
		if i%race.Stride(8) == 0 {
			f(r.Value)
			f(r.Context)
		}
	}
	if files < 300 || strs < 2000/race.Stride(stride) {
		t.Fatalf("%d files, %d strings: the corpus is not where the test expects it", files, strs)
	}
}

// secStrongJSONStrings calls f with every string (keys and values) of the
// JSON document src (none when it is not JSON).
func secStrongJSONStrings(src []byte, f func(string)) {
	var v any
	if json.Unmarshal(src, &v) != nil {
		return
	}
	var walk func(v any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			f(v)
		case []any:
			for _, it := range v {
				walk(it)
			}
		case map[string]any:
			for k, it := range v {
				f(k)
				walk(it)
			}
		}
	}
	walk(v)
}

// FuzzMayHoldStrong: go test ./present -run '^$' -fuzz FuzzMayHoldStrong
func FuzzMayHoldStrong(f *testing.F) {
	for _, v := range secStrongValues(f)[:400] {
		f.Add(v)
	}
	f.Add(testshared.FakeJWT + " " + testshared.FakePEM)
	f.Fuzz(func(t *testing.T, v string) {
		secStrongAgree(t, v)
	})
}

// secDetectBeforeStrong is secDetect at dcdfae2, before step 0 (the
// proof of nothing below KeyNeutral): the oracle of the tests above.
func secDetectBeforeStrong(class KeyClass, value string, depth int) (Detection, bool) {
	if len(value) > secretMaxValue {
		value = value[:secretMaxValue]
	}
	lo, hi := secTrimSpaceIdx(value, 0, len(value))
	if lo == hi {
		return Detection{}, false
	}
	// 1. A value that is nothing but a placeholder (anchored).
	if secIsWholePlaceholder(value[lo:hi]) {
		// ...but a provider key inside its name is one ({{ secret_AKIA… }})
		return secPrefixInWord(value, lo, hi)
	}
	// 2. "Bearer x" / "Basic x" / "Token x" as the whole value: judge x
	// (structural secrets first: "Bearer eyJ…" is a JWT).
	if a, b, ok := secAuthSchemeValue(value, lo, hi); ok {
		if d, ok := secStructural(class, value, depth); ok {
			return d, true
		}
		inner := value[a:b]
		if secIsPlaceholderToken(inner) {
			return Detection{}, false
		}
		if d, ok := secPrefixAt(value, a, b); ok {
			return d, true
		}
		if class >= KeyNeutral && secCredentialShaped(inner, false) {
			return secDet("bearer-token", value, a, b, false), true
		}
		if class == KeyDescriptive || class == KeyIdentifier {
			return Detection{}, false
		}
	}
	// 3. Token by token (the reference's split). The pass also notes
	// whether the value may hold a structural secret (a PEM block, a JWT,
	// a Slack webhook, a URL); only then are those searched for, and they
	// take precedence over a token-level finding.
	d, ok, marks := secScanTokens(class, value, lo, hi, depth, false)
	if ok {
		marks = markAll
	}
	if marks != 0 {
		if sd, sok := secStructuralMarked(class, value, depth, marks); sok {
			return sd, true
		}
	}
	if ok {
		return d, true
	}
	// 4. A literal under a key that names a secret.
	if class >= KeySecret {
		a, b := secUnquoteIdx(value, lo, hi)
		// "label: literal" (a YAML line pasted into the field): the
		// literal stays under the secret key unless the label says it is
		// not a secret
		if c := strings.IndexByte(value[a:b], ':'); c > 0 && c+1 < b-a && secIsSpace(value[a+c+1]) && secIsIdentRun(value[a:a+c], true) {
			if lc := ClassifyKey(value[a : a+c]); lc != KeyIdentifier && lc != KeyDescriptive {
				ia, ib := secTrimSpaceIdx(value, a+c+1, b)
				ia, ib = secUnquoteIdx(value, ia, ib)
				a, b = ia, ib
			}
		}
		if a < b && !secHasSpace(value[a:b]) && secCredentialShaped(value[a:b], class == KeyPassword) {
			fam := "secret-named-key"
			if class == KeyPassword {
				fam = "password-literal"
			}
			return secDet(fam, value, a, b, false), true
		}
	}
	return Detection{}, false
}
