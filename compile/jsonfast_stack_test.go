package compile

import (
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// stackDoc is a random document of nested objects and arrays of random
// widths (up to 40 members or items, so the stacks grow and shrink), cut
// short or spoilt now and then so the scanner stops in the middle of an
// object or an array and the decoder reads it after.
func stackDoc(r *rand.Rand, depth int) string {
	if depth > 6 || r.Intn(4) == 0 {
		return []string{`1`, `"s"`, `true`, `null`, `"é\u00e9"`}[r.Intn(5)]
	}
	k := r.Intn(6)
	if depth < 2 && r.Intn(5) == 0 {
		k = 20 + r.Intn(20)
	}
	var parts []string
	if r.Intn(2) == 0 {
		for i := 0; i < k; i++ {
			parts = append(parts, fmt.Sprintf(`"k%d":%s`, r.Intn(k+1), stackDoc(r, depth+1)))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	for i := 0; i < k; i++ {
		parts = append(parts, stackDoc(r, depth+1))
	}
	return "[" + strings.Join(parts, ", ") + "]"
}

// TestScannerStacksNotHeld: the scanner no longer clears its members and
// items stacks as each object and array closes (what they held is in the
// tree); the release clears them to their capacity, so a scratch going
// back to the pool holds no node, after a valid document, after one the
// scanner stopped in (the decoder then read it, or refused it), and after
// the corpus flows parsed in turn with one scratch; and each tree is the
// decoder's (sameParse).
func TestScannerStacksNotHeld(t *testing.T) {
	held := func(sc *scratch) string {
		for i, m := range sc.members[:cap(sc.members)] {
			if m != (Member{}) {
				return fmt.Sprintf("members[%d] = %+v", i, m)
			}
		}
		for i, n := range sc.items[:cap(sc.items)] {
			if n != nil {
				return fmt.Sprintf("items[%d] = %p", i, n)
			}
		}
		return ""
	}
	var docs [][]byte
	for _, c := range fastParseCases {
		docs = append(docs, []byte(c))
	}
	var wide []string // 100 members, each an object of three: the stacks past their first capacity
	for i := range 100 {
		wide = append(wide, fmt.Sprintf(`"w%d":{"a":[1,2,{"b":3}],"c":"d","e":{}}`, i))
	}
	docs = append(docs, []byte(`{"x":[`+strings.Repeat(`[`, 70)+`{`+strings.Join(wide, ",")+`}`+strings.Repeat(`]`, 70)+`]}`))
	r := rand.New(rand.NewSource(39))
	for i := 0; i < 150; i += race.Stride(8) {
		d := stackDoc(r, 0)
		if len(d) > 32<<10 {
			continue // a few documents run to megabytes: the stacks grow as far in a smaller one
		}
		switch r.Intn(4) {
		case 0:
			d = d[:r.Intn(len(d)+1)] // cut short
		case 1:
			if at := r.Intn(len(d) + 1); at < len(d) {
				d = d[:at] + "\\u00e9" + d[at:] // a stray escape the scanner and the decoder refuse
			}
		}
		docs = append(docs, []byte(d))
	}
	sc := newScratch()
	grown := 0
	parse := func(t *testing.T, name string, src []byte, compare bool) {
		t.Helper()
		if compare {
			sameParse(t, name, src)
		}
		parseScratch(src, nil, true, sc)
		grown = max(grown, cap(sc.members))
		if h := held(sc); h != "" {
			t.Fatalf("%s: the scratch holds %s after the parse\n%s", name, h, src)
		}
	}
	for i, src := range docs {
		parse(t, fmt.Sprint("doc ", i), src, true)
	}
	if grown <= 64 {
		t.Errorf("the members stack never grew (capacity %d)", grown)
	}
	// the corpus needs ../shared (skipped without it); the two parsers'
	// agreement on it is TestFastParseFiles'
	t.Run("corpus", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(testshared.Corpus(t), "agents", "cinatra-ai", "*", "cinatra", "oas.json"))
		if len(files) < testshared.CorpusAgentCount {
			t.Fatalf("%d corpus flows", len(files))
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			parse(t, f, src, false)
		}
	})
}
