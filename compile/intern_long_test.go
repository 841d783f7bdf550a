package compile

import (
	"encoding/json"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/internal/testshared"
)

// A string value of up to internMax bytes (2,048 since issue 39's round
// twenty-two; 32 before), escaped or not, is interned: the same value in
// the next file parsed with the scratch is the string the first interned
// (a tree of versioned agents repeats its prompts and descriptions file
// after file), and that file's tree is the one a fresh scratch gives.
// Mutants caught: internMax back at 32 (the long values copied again),
// an escaped value returned as string(p.unq) (copied, not interned).
func TestInternLongValuesKeptAcrossParses(t *testing.T) {
	plain := strings.Repeat("a prompt of many words, ", 40)
	escaped := strings.Repeat("line\\n\\u00e9\\\"q\\\" ", 30)
	long := strings.Repeat("z", internMax+1) // past internMax: copied
	first := []byte(`{"a":"` + plain + `","b":"` + escaped + `","c":"` + long + `"}`)
	second := []byte(`["` + escaped + `","` + plain + `","` + long + `"]`)
	sc := newScratch()
	a, _, err := parseScratch(first, nil, true, sc)
	if err != nil {
		t.Fatal(err)
	}
	b, _, err := parseScratch(second, nil, true, sc)
	if err != nil {
		t.Fatal(err)
	}
	if unsafe.StringData(b.Items[1].Text) != unsafe.StringData(a.Members[0].Value.Text) {
		t.Error("a long plain value was copied again, not found interned")
	}
	if unsafe.StringData(b.Items[0].Text) != unsafe.StringData(a.Members[1].Value.Text) {
		t.Error("a long escaped value was copied again, not found interned")
	}
	if unsafe.StringData(b.Items[2].Text) == unsafe.StringData(a.Members[2].Value.Text) {
		t.Error("a value past internMax was interned")
	}
	fresh, _, _ := parseScratch(second, nil, true, newScratch())
	if got, want := docJSON(t, &Doc{Src: second, Root: b}), docJSON(t, &Doc{Src: second, Root: fresh}); got != want {
		t.Errorf("tree after a kept scratch\n%s\nwant\n%s", got, want)
	}
}

// randomLongValue is a string value of 1 to internMax+100 bytes as JSON
// source: many share their first and last 8 bytes (the words of a slot of
// parser.recent) and differ in the middle; some have escapes (of one
// character, \u of the BMP, a surrogate pair).
func randomLongValue(r *rand.Rand) string {
	n := 1 + r.IntN(internMax+100)
	if r.IntN(2) == 0 {
		n = 17 + r.IntN(200)
	}
	var b strings.Builder
	b.WriteString("headhead")
	for b.Len() < n {
		switch r.IntN(12) {
		case 0:
			b.WriteString(`\n`)
		case 1:
			b.WriteString(`\u00e9`)
		case 2:
			b.WriteString(`\ud83d\ude00`)
		case 3:
			b.WriteString("é")
		default:
			b.WriteByte("abcXY "[r.IntN(6)])
		}
	}
	b.WriteString("tailtail")
	return b.String()
}

// Random documents of long values (a few dozen distinct ones, repeated
// across documents and within one) parsed one after another with one
// scratch, on both paths, give the trees a fresh scratch gives, and the
// values encoding/json reads; overwriting the source after a parse
// changes no value (an interned string is a copy, never the source's or
// the unquoting buffer's bytes). Mutant caught: parser.str's recent slot
// taken on its words alone for strings past 16 bytes (slot.s ==
// string(raw) dropped: another value of the same ends returned).
func TestInternLongValuesRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(22, 39))
	pool := make([]string, 40)
	for i := range pool {
		pool[i] = randomLongValue(r)
	}
	for _, fast := range []bool{true, false} {
		sc := newScratch()
		for doc := range 30 {
			var vals []string
			for range 1 + r.IntN(12) {
				vals = append(vals, pool[r.IntN(len(pool))])
			}
			src := []byte(`["` + strings.Join(vals, `","`) + `"]`)
			var want []string
			if err := json.Unmarshal(src, &want); err != nil {
				t.Fatal(err)
			}
			root, _, err := parseScratch(src, nil, fast, sc)
			if err != nil {
				t.Fatalf("fast=%v doc %d: %v", fast, doc, err)
			}
			fresh, _, _ := parseScratch(src, nil, fast, newScratch())
			if got, w := docJSON(t, &Doc{Src: src, Root: root}), docJSON(t, &Doc{Src: src, Root: fresh}); got != w {
				t.Fatalf("fast=%v doc %d: tree after a kept scratch differs from a fresh one", fast, doc)
			}
			for i := range src {
				src[i] = 'x'
			}
			for i, it := range root.Items {
				if it.Text != want[i] {
					t.Fatalf("fast=%v doc %d: value %d is %q, want %q", fast, doc, i, it.Text, want[i])
				}
			}
		}
	}
}

// The corpus's and the history's flow files parsed one after another
// with one scratch (their long values interned and found again) give the
// trees a fresh scratch gives.
func TestInternLongValuesSharedAgents(t *testing.T) {
	sc := newScratch()
	testshared.RunSharedAgents(t, 8, 78, func(t *testing.T, dir string) {
		src, err := os.ReadFile(filepath.Join(dir, "cinatra", "oas.json"))
		if err != nil {
			t.Skip(err)
		}
		root, _, perr := parseScratch(src, nil, true, sc)
		fresh, _, ferr := parseScratch(src, nil, true, newScratch())
		if (perr == nil) != (ferr == nil) {
			t.Fatalf("%s: errors %v and %v", dir, perr, ferr)
		}
		if got, want := docJSON(t, &Doc{Src: src, Root: root}), docJSON(t, &Doc{Src: src, Root: fresh}); got != want {
			t.Errorf("%s: the tree parsed with a kept scratch differs from a fresh one", dir)
		}
	})
}
