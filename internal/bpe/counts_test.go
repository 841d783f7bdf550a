package bpe

import (
	"bufio"
	"fmt"
	"github.com/oastui/oastui/internal/race"
	"math/rand"
	"os"
	"strings"
	"testing"
)

// alphabet is what conformanceTexts are made of: letters of every case
// class the o200k pattern distinguishes (Lu, Ll, Lt ǅ, Lm ʰ, Lo 漢),
// combining marks, numbers (Nd, Nl Ⅻ, No ½, Arabic-Indic), every kind of
// white space (ASCII, NBSP, U+0085, U+2028, U+3000), contractions in both
// cases, punctuation, '/', emoji, special-token text and control bytes.
var alphabet = []string{"a", "b", "Z", "Q", "s", "S", "t", "re", "RE", "ll", "ve", "m", "d", "'", "'", " ", " ", "  ", "\t", "\n", "\r", "\r\n", "/", ".", ",", "!", "?", "-", "_", "(", ")", "{{", "}}", "\"", "0", "1", "42", "12345", "é", "É", "ß", "\u0301", "\u0308", "ǅ", "ʰ", "漢", "字", "お", "ア", "ー", "Ⅻ", "½", "٣", "\u00a0", "\u2028", "\u3000", "\u0085", "😀", "👍🏽", "—", "…", "ñ", "İ", "ı", "\u200b", "\v", "\f", "x\u0301y", "Ab", "aB", "ABC", "abc", "<|endoftext|>", "https://", "a/b", "\x1c", "\x7f"}

// conformanceTexts are the texts whose tiktoken counts
// testdata/tiktoken_counts.txt pins: random strings of the alphabet, short
// and long, runs of each element (long enough for the heap merge), and
// long words.
func conformanceTexts() []string {
	var texts []string
	rng := rand.New(rand.NewSource(1))
	for i := 0; i < 5000; i++ {
		var b strings.Builder
		for k := rng.Intn(24); k >= 0; k-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for i := 0; i < 500; i++ {
		var b strings.Builder
		for k := 100 + rng.Intn(200); k >= 0; k-- {
			b.WriteString(alphabet[rng.Intn(len(alphabet))])
		}
		texts = append(texts, b.String())
	}
	for _, a := range alphabet {
		for _, n := range []int{2, 3, 17, 70, 300} {
			texts = append(texts, strings.Repeat(a, n), "x"+strings.Repeat(a, n)+"y", strings.Repeat(a+"b", n))
		}
	}
	for _, w := range []string{"antidisestablishmentarianism", "supercalifragilistic", "Pneumonoultramicroscopicsilicovolcanoconiosis", "https://example.com/a/very/long/path?with=query&and=more"} {
		texts = append(texts, strings.Repeat(w, 5), strings.ToUpper(strings.Repeat(w, 4)))
	}
	// long runs of one character (issue 26 item 13), each a long piece
	for _, a := range []string{"a", "A", " ", "\n", "!", "1", "é", "漢", "ab", " a", "\u0301", "😀"} {
		texts = append(texts, strings.Repeat(a, 5000))
	}
	return texts
}

const countsFile = "testdata/tiktoken_counts.txt"

// TestTiktokenCounts: every conformance text counts as tiktoken counted it
// (the file was written by tiktoken-go v0.1.8's EncodeOrdinary, which
// agreed with OpenAI's published examples, before this package replaced
// it; line i is text i's o200k_base and cl100k_base counts).
func TestTiktokenCounts(t *testing.T) {
	if race.Enabled {
		t.Skip("tokenizes megabytes: runs without -race (CI's second run)")
	}
	f, err := os.Open(countsFile)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	texts := conformanceTexts()
	sc := bufio.NewScanner(f)
	i, bad := 0, 0
	for ; sc.Scan(); i++ {
		var o, c int
		if _, err := fmt.Sscan(sc.Text(), &o, &c); err != nil || i >= len(texts) {
			t.Fatalf("line %d: %q (%v)", i+1, sc.Text(), err)
		}
		if go_, gc := O200K.Count(texts[i]), CL100K.Count(texts[i]); go_ != o || gc != c {
			if bad++; bad < 10 {
				t.Errorf("text %d %q: o200k %d cl100k %d, tiktoken %d %d", i, texts[i], go_, gc, o, c)
			}
		}
	}
	if i != len(texts) {
		t.Errorf("%d counts for %d texts", i, len(texts))
	}
}

// TestKnownCounts: OpenAI's cookbook ("How to count tokens with
// tiktoken", compare_encodings): "antidisestablishmentarianism" 6 tokens
// in both, "2 + 2 = 4" 7 in both, "お誕生日おめでとう" 9 in cl100k_base and
// 8 in o200k_base, "tiktoken is great!" 6.
func TestKnownCounts(t *testing.T) {
	for _, c := range []struct {
		text         string
		o200k, cl100 int
	}{
		{"hello world", 2, 2},
		{"tiktoken is great!", 6, 6},
		{"antidisestablishmentarianism", 6, 6},
		{"2 + 2 = 4", 7, 7},
		{"お誕生日おめでとう", 8, 9},
		{"", 0, 0},
	} {
		if g := O200K.Count(c.text); g != c.o200k {
			t.Errorf("o200k %q = %d, want %d", c.text, g, c.o200k)
		}
		if g := CL100K.Count(c.text); g != c.cl100 {
			t.Errorf("cl100k %q = %d, want %d", c.text, g, c.cl100)
		}
	}
	if _, err := Get("p50k_base"); err == nil {
		t.Error("an encoding not offered should be an error")
	}
}

// TestTable: every token's bytes look up to its rank.
func TestTable(t *testing.T) {
	if race.Enabled {
		t.Skip("tokenizes megabytes: runs without -race (CI's second run)")
	}
	for _, e := range []*Encoding{O200K, CL100K} {
		for r := 0; r < e.Tokens(); r++ {
			if got, ok := e.Rank(e.Token(r)); !ok || got != r {
				t.Fatalf("%s: token %d %q looks up as %d %v", e.Name, r, e.Token(r), got, ok)
			}
		}
		if _, ok := e.Rank("\xff\xfe not a token at all, surely"); ok {
			t.Errorf("%s: a non-token found", e.Name)
		}
	}
	if O200K.Tokens() != 199998 || CL100K.Tokens() != 100256 {
		t.Errorf("tokens %d %d", O200K.Tokens(), CL100K.Tokens())
	}
}
