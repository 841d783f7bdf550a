package compile

import (
	"io/fs"
	"math/rand"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// sameParse fails t unless the scanner path (parseWith fast) and the
// decoder path give src the same tree (values, kinds, offsets, key
// offsets, pointers, slice lengths and capacities), the same duplicate
// keys and the same error; it returns whether src is valid.
func sameParse(t *testing.T, name string, src []byte) bool {
	t.Helper()
	fr, fd, fe := parseWith(src, nil, true)
	sr, sd, se := parseWith(src, nil, false)
	if !reflect.DeepEqual(fe, se) {
		t.Fatalf("%s: scanner error %+v, decoder error %+v", name, fe, se)
	}
	if got, want := docJSON(t, &Doc{Src: src, Root: fr}), docJSON(t, &Doc{Src: src, Root: sr}); got != want {
		t.Fatalf("%s: trees differ\nscanner %s\ndecoder %s", name, got, want)
	}
	if len(fd) != len(sd) {
		t.Fatalf("%s: %d duplicate keys, decoder %d", name, len(fd), len(sd))
	}
	for i := range fd {
		f, s := fd[i], sd[i]
		if f.Key != s.Key || f.Offset != s.Offset || f.First != s.First || f.Pointer() != s.Pointer() {
			t.Fatalf("%s: duplicate %d: %+v, decoder %+v", name, i, f, s)
		}
	}
	return se == nil
}

// scannerAccepts reports whether the scanner alone reads src (no fallback).
func scannerAccepts(src []byte) bool {
	p := parser{src: src}
	_, ok := p.fast()
	return ok
}

var fastParseCases = []string{
	``, ` `, `{}`, `[]`, ` {} `, "\t\r\n[\n]\n", `{"a":1}`, `{"a" : 1 , "b" :[ 1 , 2 ] }`,
	`null`, `true`, `false`, `nul`, `tru`, `truex`, `[true,false,null]`, `[truefalse]`, `nullx`, `[nan]`,
	`0`, `-0`, `01`, `-`, `-01`, `1.`, `.5`, `1.5`, `1e`, `1e+`, `1E-7`, `1e400`, `-1.25e+10`, `1x`, `[1 2]`, `[1,]`, `[,1]`, `{,}`,
	`{"a":1,}`, `{"a"}`, `{"a":}`, `{"a" 1}`, `{1:2}`, `{"a":1 "b":2}`, `{"a":1,"a":2,"b":3,"a":4}`, `{} {}`, `{} x`, `[`, `]`, `{`, `}`, `"`,
	`""`, `"abc"`, `"é"`, `"\u00e9"`, `"\ud83d\ude00"`, `"\ud83d"`, `"\ude00"`, `"\ud83dx"`, `"\u12"`, `"\x"`, `"a\"b"`, `"\\"`, `"\/"`,
	"\"\x00\"", "\"a\tb\"", "\"\x7f\"", "\"\xff\"", "\"\xc3\"", "\"\xc3\xa9\"", "\"\xed\xa0\x80\"", "\xef\xbb\xbf{}", "{\"\xff\":1}",
	`{"\u0041":1,"A":2}`, `{"":1,"":2}`, `"\b\f\n\r\t"`, `"\`, `"\"`, `"abc`, "[1,\n2,\n3]\n\n",
	`{"k":{"k":{"k":[{"k":"v"}]}}}`, `[[],[[]],{}]`, `{"a":[],"b":{}}`,
	strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth),
	strings.Repeat("[", MaxDepth+1) + strings.Repeat("]", MaxDepth+1),
	strings.Repeat("[", MaxDepth+2) + strings.Repeat("]", MaxDepth+2),
	`{"x":"` + strings.Repeat("y", 40) + `"}`, `{"` + strings.Repeat("k", 40) + `":"` + strings.Repeat("é", 20) + `"}`,
}

func TestFastParseCases(t *testing.T) {
	for _, c := range fastParseCases {
		sameParse(t, c, []byte(c))
	}
	// Objects large enough for a key index, with repeated keys.
	var b strings.Builder
	b.WriteString("{")
	for i := 0; i < 40; i++ {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`"k` + string(rune('a'+i%7)) + `":[` + strings.Repeat(`{"z":1},`, i%3) + `0]`)
	}
	b.WriteString("}")
	sameParse(t, "indexed", []byte(b.String()))
}

// Every valid JSON file of the bundled agents and fixtures, and of the
// shared corpus and its history, is read by the scanner alone, into the
// tree the decoder builds; every prefix and a sample of one-byte changes
// of a corpus agent parse (or fail) as the decoder says.
func TestFastParseFiles(t *testing.T) {
	check := func(t *testing.T, root string) int {
		n, seen := 0, 0
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			if seen++; seen%race.Stride(40) != 0 {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if sameParse(t, path, src) {
				n++
				if !scannerAccepts(src) {
					t.Errorf("%s: valid JSON the scanner left to the decoder", path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		return n
	}
	if n := check(t, filepath.Join("..", "testdata")); n < 15/race.Stride(40) {
		t.Errorf("%d valid JSON files under testdata", n)
	}
	t.Run("shared", func(t *testing.T) {
		dir := testshared.Dir(t, "corpus")
		if n := check(t, dir); n < 200/race.Stride(40) {
			t.Errorf("%d valid JSON files in the shared corpus", n)
		}
		src, err := os.ReadFile(smallestFlow(t, dir))
		if err != nil {
			t.Fatal(err)
		}
		// about 1,000 offsets (50 under -race)
		stride := max(len(src)/1000, 1) * race.Stride(20)
		for i := 0; i < len(src); i += stride {
			sameParse(t, "prefix", src[:i])
			mut := append([]byte(nil), src...)
			mut[i] = "\"{}[],:\\ 0a\x00\xff"[i%13]
			sameParse(t, "mutation", mut)
		}
	})
}

// smallestFlow is the path of the smallest corpus flow file.
func smallestFlow(t *testing.T, corpus string) string {
	files, _ := filepath.Glob(filepath.Join(corpus, "cinatra", "agents", "cinatra-ai", "*", "cinatra", "oas.json"))
	best, size := "", int64(-1)
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil && (size < 0 || fi.Size() < size) {
			best, size = f, fi.Size()
		}
	}
	if best == "" {
		t.Fatal("no corpus flows")
	}
	return best
}

// FuzzFastParse: the scanner and the decoder agree on every input.
func FuzzFastParse(f *testing.F) {
	for _, c := range fastParseCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		sameParse(t, "fuzz", src)
	})
}

// TestFastParseIndentation: indentation of every length after a newline
// (the scanner skips it eight spaces at a time), followed by a value, a
// tab, another newline, a stray byte or the end, gives the decoder's tree
// or error, and the scanner alone reads every valid one.
func TestFastParseIndentation(t *testing.T) {
	for n := 0; n <= 26; n++ {
		ind := "\n" + strings.Repeat(" ", n)
		for _, after := range []string{`"a"`, `1`, "\t2", "\n3", "\r\n 4", `x`, ``, "\x00", "  \t" + strings.Repeat(" ", 9) + "5"} {
			for _, src := range []string{"[" + ind + after + ind + "]", "{" + ind + `"k":` + ind + after + "}", "[]" + ind + after, ind + after} {
				if sameParse(t, src, []byte(src)) && !scannerAccepts([]byte(src)) {
					t.Errorf("%q: valid JSON the scanner left to the decoder", src)
				}
			}
		}
	}
}

// TestFastParseColonAndAfterValue: every run of whitespace (none, one
// space, two, a tab, a newline, a space and a tab or a newline) before and
// after a colon and after a value, then a value of every kind, a stray
// byte or the end, gives the decoder's tree or error, and the scanner
// alone reads every valid one (the colon's `": "` taken in one step and
// the whitespace after a value looked for only at a byte <= ' ').
func TestFastParseColonAndAfterValue(t *testing.T) {
	gaps := []string{``, ` `, `  `, "\t", "\n", " \t", " \n", "\r", " \r\n  "}
	values := []string{`"v"`, `1`, `-2`, `true`, `null`, `{}`, `[]`, `{"k":1}`, `[1]`, `x`, ``, "\x00", `:`, `,`, `}`}
	n := 0
	for _, b := range gaps {
		for _, a := range gaps {
			for _, v := range values {
				for _, c := range gaps {
					for _, src := range []string{
						`{"k"` + b + `:` + a + v + c + `}`,
						`{"k"` + b + `:` + a + v + c + `,"j": 2}`,
						`{"k"` + b + `:` + a + v,
						`[` + v + c + `]`,
						`[` + v + c + `,` + a + `3]`,
					} {
						if n++; n%race.Stride(8) != 0 { // one in eight under -race
							continue
						}
						if sameParse(t, src, []byte(src)) && !scannerAccepts([]byte(src)) {
							t.Errorf("%q: valid JSON the scanner left to the decoder", src)
						}
					}
				}
			}
		}
	}
}

// TestFastParseEscapes: strings of random escapes (every one-character
// escape, \u escapes and surrogate pairs, broken ones), multi-byte,
// invalid and control bytes, as keys and as values, give the decoder's
// tree or error; the scanner alone reads every valid one.
func TestFastParseEscapes(t *testing.T) {
	pieces := []string{`a`, `bc`, `é`, `€`, `\n`, `\"`, `\\`, `\/`, `\b`, `\f`, `\r`, `\t`,
		`\u00e9`, `\u00E9`, `\u0041`, `\u2014`, `\u0000`, `\uFFFF`, `\uD83D\uDE00`, `\uzzzz`, `\u00g0`, `\ud83d\ude00`, `\ud83d`, `\ude00`, `\u12`, `\x`, `\é`, "\xff", "\xc3", "\xed\xa0\x80", "\x01", "\t",
		strings.Repeat("y", 20), `\` + "\n"}
	rng := rand.New(rand.NewSource(39))
	for i := 0; i < 20000; i += race.Stride(8) { // a sample under -race
		var b strings.Builder
		for n := rng.Intn(8); n > 0; n-- {
			b.WriteString(pieces[rng.Intn(len(pieces))])
		}
		s := b.String()
		for _, src := range []string{`"` + s + `"`, `{"` + s + `":"` + s + `x","k":["` + s + `"]}`, `["` + s} {
			if sameParse(t, src, []byte(src)) && !scannerAccepts([]byte(src)) {
				t.Errorf("%q: valid JSON the scanner left to the decoder", src)
			}
		}
	}
}

// TestIndexKeysSmallSameAsPairs holds the repeated keys of small objects
// (compared only on a shared signature) to a comparison of every pair:
// random objects of up to 15 members over a few short keys, so that keys
// repeat and signatures collide.
func TestIndexKeysSmallSameAsPairs(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	keys := []string{"", "a", "b", "ab", "ba", "id", "di", "aa", "k", "x\u00e9", "name", "nbme", "type"}
	for n := 0; n < 20000; n++ {
		obj := &Node{Kind: Object}
		for i := rng.Intn(keyIndexMin); i > 0; i-- {
			obj.Members = append(obj.Members, Member{Key: keys[rng.Intn(len(keys))], KeyOffset: len(obj.Members) * 10})
		}
		var want []DuplicateKey
		ms := obj.Members
		for i := 1; i < len(ms); i++ {
			for j := 0; j < i; j++ {
				if ms[j].Key == ms[i].Key {
					want = append(want, DuplicateKey{Key: ms[i].Key, Offset: ms[i].KeyOffset, First: ms[j].KeyOffset, obj: obj})
					break
				}
			}
		}
		if got := indexKeys(obj, nil); !reflect.DeepEqual(got, want) {
			t.Fatalf("members %+v: %+v, want %+v", ms, got, want)
		}
	}
}
