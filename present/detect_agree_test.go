package present

import (
	"encoding/json"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// The fast path (secDetect and secScanTokens as they are) and the full
// path (detect_ref_test.go: the same top level before its cuts) agree on
// every string: the detection, whether there is one, and the marks the
// token pass leaves for the structural finders.

// secAgree compares both paths on v under every class and at both
// recursion depths the detector uses, and reports a difference.
func secAgree(t testing.TB, v string) {
	t.Helper()
	secEntropyCandidateAgree(t, v)
	for class := KeyDescriptive; class <= KeyPassword; class++ {
		for depth := 0; depth <= 2; depth++ {
			d, ok := secDetect(class, v, depth)
			rd, rok := secDetectRef(class, v, depth)
			if ok != rok || d != rd {
				t.Fatalf("secDetect(%d, %q, %d) = %+v %v, the full path %+v %v", class, v, depth, d, ok, rd, rok)
			}
			lo, hi := secTrimSpaceIdx(v, 0, len(v))
			d, ok, m := secScanTokens(class, v, lo, hi, depth, false)
			pd, pok, pm := secScanTokens(class, v, lo, hi, depth, true)
			if ok != pok || d != pd || m != pm {
				t.Fatalf("secScanTokens(%d, %q, %d) = %+v %v marks %b, plain %+v %v marks %b", class, v, depth, d, ok, m, pd, pok, pm)
			}
			if ClassifyKey(v) >= KeySecret && !secMayNameSecret(v) {
				t.Fatalf("ClassifyKey(%q) = %d but secMayNameSecret is false", v, ClassifyKey(v))
			}
			rd, rok, rm := secScanTokensRef(class, v, lo, hi, depth)
			if ok != rok || d != rd || m != rm {
				t.Fatalf("secScanTokens(%d, %q, %d) = %+v %v marks %b, the full path %+v %v marks %b", class, v, depth, d, ok, m, rd, rok, rm)
			}
		}
	}
}

// secAgreePieces are what random values are made of: the detector's
// markers, separators, provider prefixes, template braces, and fake
// tokens of every family, so that random strings reach every branch.
var secAgreePieces = []string{
	" ", "  ", "\t", "\n", ",", ";", ":", ": ", "|", "(", ")", "[", "]", "<", ">", "{", "}", "{{", "}}", "{{ ", " }}", "${", "$",
	"\"", "'", "`", ".", "..", "-", "--", "-----", "_", "=", "==", "&", "?", "/", "//", "://", `:\/\/`, "\\", "@", "+", "~", "%", "*", "#",
	"é", "•", "\x00", "\xff", "…",
	"a", "Z", "0", "9", "x", "X", "the", "agent", "information", "Authorization", "password", "api_key", "token", "secret",
	"Bearer ", "Basic ", "Token ", "ApiKey ", "bearer", "password: ", "api_key=", "token=", "client_secret=", "user:",
	"a=", "q=", "id=", "x=y&k=", "?",
	"https://", "http://u:p@h/", "https://admin:", "@db.example/x?access_token=", "hooks.slack.com/services/",
	"-----BEGIN PRIVATE KEY-----\n", "-----END PRIVATE KEY-----", "eyJ", "eyJhbGciOiJIUzI1NiJ9.", "sk-", "sk-proj-", "ghp_", "AKIA",
	"xoxb-", "glpat-", "AIza", "hf_", "key-", "dapi", "SG.", "example", "EXAMPLE", "xxxx", "REDACTED", "changeme",
	testshared.FakeGitHub, testshared.FakeOpenAI, testshared.FakeAnthropic, testshared.FakeJWT, testshared.FakeAWS, testshared.FakeRandom,
	"Zq8xPw3rTk7", "4b1dY8I8i4Lm2Nq7", "550e8400-e29b-41d4-a716-446655440000", "aGVsbG8gd29ybGQgaGVsbG8gd29ybGQ=",
	"abcdefghijklmnopqrstuvwxyz", "0123456789", "QWxhZGRpbjpvcGVuIHNlc2FtZQ", "Zm9vYmFyYmF6cXV4cXV1eA",
}

// secRandomValue builds a value of up to about 40 pieces, some of them
// random bytes and random letter-digit runs.
func secRandomValue(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(40) + 1 {
		switch r.IntN(8) {
		case 0: // a random letter-and-digit run (an entropy candidate when long)
			const al = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
			for range r.IntN(48) + 1 {
				b.WriteByte(al[r.IntN(len(al))])
			}
		case 1: // random bytes
			for range r.IntN(6) + 1 {
				b.WriteByte(byte(r.IntN(256)))
			}
		default:
			b.WriteString(secAgreePieces[r.IntN(len(secAgreePieces))])
		}
	}
	return b.String()
}

func TestScanTokensAgreeRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(39, 2026))
	n := 6000 / race.Stride(32)
	for range n {
		secAgree(t, secRandomValue(r))
	}
}

// Every string (keys and values) of every JSON file of the shared corpus
// — the agents, the reference's fixtures and artifacts, the history of
// revisions — and every value and context line of the labelled samples.
func TestScanTokensAgreeCorpus(t *testing.T) {
	vals := secCorpusStrings(t)
	for i, v := range vals {
		if i%race.Stride(4) == 0 {
			secAgree(t, v)
		}
	}
}

// FuzzScanTokensAgree: go test ./present -run '^$' -fuzz FuzzScanTokensAgree
func FuzzScanTokensAgree(f *testing.F) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 64 {
		f.Add(secRandomValue(r))
	}
	for _, p := range secAgreePieces {
		f.Add(p)
		f.Add("note: " + p + " and " + p)
	}
	f.Fuzz(func(t *testing.T, v string) {
		secAgree(t, v)
	})
}

// The look for a key inside a word agrees with the full path at every
// span of random values and corpus-like identifiers.
func TestPrefixInWordAgree(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 39))
	vals := []string{"start_organizationDomains_to_prospect_organizationDomains", "/$referenced_components/" + testshared.FakeGitHub + "/id",
		"secret_" + testshared.FakeAWS, "node." + testshared.FakeGitHub + ".out", "a+" + testshared.FakeGitHub, "sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-sk-" + testshared.FakeOpenAI}
	for range 3000 / race.Stride(32) {
		vals = append(vals, secRandomValue(r))
	}
	for _, v := range vals {
		for a := 0; a <= len(v); a++ {
			for _, b := range []int{a, a + 8, a + 9, a + 20, len(v)} {
				if b > len(v) {
					continue
				}
				d, ok := secPrefixInWord(v, a, b)
				rd, rok := secPrefixInWordRef(v, a, b)
				if ok != rok || d != rd {
					t.Fatalf("secPrefixInWord(%q, %d, %d) = %+v %v, the full path %+v %v", v, a, b, d, ok, rd, rok)
				}
			}
		}
	}
}

// secEntropyCandidateRef is secEntropyCandidate with its cases in the order
// before the path look went first (h-detect): the cases are pure and each
// answers "no", so any order gives the same answer.
func secEntropyCandidateRef(t string) bool {
	switch {
	case secIsIdentifierish(t) && !secLooksRandom(t):
		return false
	case t[0] == '/', strings.HasPrefix(t, "./"), strings.HasPrefix(t, "../"), strings.HasPrefix(t, "~/"):
		return false
	case strings.HasPrefix(t, "sha1-"), strings.HasPrefix(t, "sha256-"), strings.HasPrefix(t, "sha384-"), strings.HasPrefix(t, "sha512-"):
		return false
	case strings.Contains(t, "://"):
		return false
	}
	return true
}

// secEntropyCandidateAgree compares both orders on v, on each of its
// tokens and on each of their '/'-separated segments.
func secEntropyCandidateAgree(t testing.TB, v string) {
	t.Helper()
	check := func(s string) {
		if s != "" && secEntropyCandidate(s) != secEntropyCandidateRef(s) {
			t.Fatalf("secEntropyCandidate(%q) = %v, the order before %v", s, secEntropyCandidate(s), !secEntropyCandidate(s))
		}
	}
	check(v)
	for _, f := range strings.FieldsFunc(v, func(r rune) bool { return r < 128 && secTokenSep[r] }) {
		check(f)
		for _, seg := range strings.FieldsFunc(f, func(r rune) bool { return r == '/' || r == '?' }) {
			check(seg)
		}
	}
}

// secMayNameSecret is never false for a key ClassifyKey calls a secret's:
// every head word of the sets, alone, cased and joined as keys are, with a
// modifier and trailing digits, and random keys of their pieces.
func TestMayNameSecret(t *testing.T) {
	var heads []string
	for _, m := range []map[string]bool{secPasswordHeads, secSecretHeads, {"key": true, "token": true}} {
		for h := range m {
			heads = append(heads, h)
		}
	}
	sort.Strings(heads)
	check := func(k string) {
		if ClassifyKey(k) >= KeySecret && !secMayNameSecret(k) {
			t.Fatalf("ClassifyKey(%q) = %d but secMayNameSecret is false", k, ClassifyKey(k))
		}
	}
	up := func(s string) string { return strings.ToUpper(s) }
	title := func(s string) string { return strings.ToUpper(s[:1]) + s[1:] }
	for _, h := range heads {
		if !secMayNameSecret(h) {
			t.Fatalf("secMayNameSecret(%q) is false", h)
		}
		for _, w := range []string{h, up(h), title(h)} {
			for _, k := range []string{w, "api_" + w, "x" + title(w), "my-" + w + "2", w + "_1", "a." + w, "Client" + w, "clientSecret " + w + " 7", "\u212a" + w} {
				check(k)
			}
		}
	}
	r := rand.New(rand.NewPCG(5, 39))
	pieces := append(append([]string{}, heads...), "_", "-", ".", " ", "2", "id", "Public", "csrf", "x", "K", "EY", "Tok", "en", "PASS", "wd", "\xff")
	for range 20000 / race.Stride(8) {
		var b strings.Builder
		for range r.IntN(5) + 1 {
			p := pieces[r.IntN(len(pieces))]
			switch r.IntN(3) {
			case 0:
				p = up(p)
			case 1:
				p = title(p)
			}
			b.WriteString(p)
		}
		check(b.String())
	}
}

// secCorpusStrings is every distinct string (keys and values) of every
// JSON file of the shared corpus (every 8th file under -race), and every
// value, context line and candidate of the labelled secret samples,
// sorted; the test is skipped without ../shared.
func secCorpusStrings(t *testing.T) []string {
	t.Helper()
	dir := testshared.Dir(t, "corpus")
	seen := map[string]bool{}
	var add func(v any)
	add = func(v any) {
		switch v := v.(type) {
		case string:
			seen[v] = true
		case []any:
			for _, it := range v {
				add(it)
			}
		case map[string]any:
			for k, it := range v {
				seen[k] = true
				add(it)
			}
		}
	}
	files := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil || e.IsDir() || !strings.HasSuffix(p, ".json") {
			return err
		}
		if files++; files%race.Stride(8) != 0 {
			return nil
		}
		src, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		var v any
		if json.Unmarshal(src, &v) == nil {
			add(v)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range testshared.SecretSamples(t) {
		seen[r.Value] = true
		seen[r.Context] = true
		seen[r.Candidate] = true
	}
	vals := make([]string, 0, len(seen))
	for v := range seen {
		vals = append(vals, v)
	}
	sort.Strings(vals)
	if files < 300 || len(vals) < 5000/race.Stride(8) {
		t.Fatalf("%d files, %d strings: the corpus is not where the test expects it", files, len(vals))
	}
	return vals
}
