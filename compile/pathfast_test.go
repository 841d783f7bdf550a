package compile

import (
	"math"
	"math/rand"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// TestPathHelpersMatchFilepath: cleanPath, joinPath and dirPath give
// filepath's Clean, Join and Dir on paths built from every kind of
// element (empty, ".", "..", dotted names, names) with and without a
// leading or trailing slash, and on a list of edge cases.
func TestPathHelpersMatchFilepath(t *testing.T) {
	cases := []string{"", ".", "..", "/", "//", "/.", "/..", "a", "a/", "a//b", "./a", "a/.", "a/..", "../a", "/a/b/c",
		"a/./b", "a/../b", ".a", "..a", "a.", "a..", "/a/.b/..c/c..", "agents/v000/cinatra-ai/x/cinatra/oas.json"}
	// every pair the word test looks for, at every offset of a long path
	for k := range 24 {
		for _, pair := range []string{"//", "/./", "/../", "/.x/", "/..x/", "/x./", "/"} {
			cases = append(cases, "/"+strings.Repeat("a", k)+pair+"bcdefghijklmnopqrstuvwxyz", strings.Repeat("ab", k)+pair+"c", strings.Repeat("a", k)+pair)
		}
	}
	r := rand.New(rand.NewSource(3))
	elems := []string{"", ".", "..", "a", "bc", ".d", "..e", "f.", "cinatra", "oas.json"}
	for range 3000 / race.Stride(4) { // a quarter under -race
		p := ""
		if r.Intn(3) == 0 {
			p = "/"
		}
		for k := r.Intn(5); k >= 0; k-- {
			p += elems[r.Intn(len(elems))]
			if k > 0 || r.Intn(4) == 0 {
				p += "/"
			}
		}
		cases = append(cases, p)
	}
	for _, p := range []string{".", "/", "a", "/tmp/oastbench-1/agents/v000/cinatra-ai/x/cinatra/oas.json", "agents/_shared/cinatra/components.json", "a/.b/c.."} {
		if !isClean(p) {
			t.Errorf("isClean(%q) = false: the fast path is not taken", p)
		}
	}
	for _, p := range cases {
		if got, want := isClean(p), p == filepath.Clean(p); got && !want {
			t.Fatalf("isClean(%q) = true, Clean gives %q", p, filepath.Clean(p))
		}
		if got, want := cleanPath(p), filepath.Clean(p); got != want {
			t.Fatalf("cleanPath(%q) = %q, want %q", p, got, want)
		}
		if got, want := dirPath(p), filepath.Dir(p); got != want {
			t.Fatalf("dirPath(%q) = %q, want %q", p, got, want)
		}
		if c := filepath.Clean(p); dirOfClean(c) != filepath.Dir(c) {
			t.Fatalf("dirOfClean(%q) = %q, want %q", c, dirOfClean(c), filepath.Dir(c))
		}
		for _, q := range cases[:40] {
			if got, want := joinPath(p, q), filepath.Join(p, q); got != want {
				t.Fatalf("joinPath(%q, %q) = %q, want %q", p, q, got, want)
			}
		}
	}
}

// TestHasPointerSpecial holds hasPointerSpecial to strings.ContainsAny.
func TestHasPointerSpecial(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	alphabet := []byte("ab~/é0")
	for n := 0; n < 20000; n++ {
		b := make([]byte, rng.Intn(20))
		for j := range b {
			b[j] = alphabet[rng.Intn(len(alphabet))]
		}
		if got, want := hasPointerSpecial(string(b)), strings.ContainsAny(string(b), "~/"); got != want {
			t.Fatalf("hasPointerSpecial(%q) = %v, want %v", b, got, want)
		}
	}
}

// TestAppendIndexSameAsConcat holds AppendIndex to the concatenation it
// replaces, for indexes of every length and sign.
func TestAppendIndexSameAsConcat(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	for _, ptr := range []string{"", "/nodes", "/a~1b/0"} {
		for _, i := range []int{0, 1, 9, 10, 99, 100, 12345, -1, -100, math.MaxInt, math.MinInt} {
			if got, want := AppendIndex(ptr, i), ptr+"/"+strconv.Itoa(i); got != want {
				t.Fatalf("AppendIndex(%q, %d) = %q, want %q", ptr, i, got, want)
			}
		}
		for n := 0; n < 2000; n++ {
			i := rng.Intn(1 << uint(rng.Intn(40)+1))
			if got, want := AppendIndex(ptr, i), ptr+"/"+strconv.Itoa(i); got != want {
				t.Fatalf("AppendIndex(%q, %d) = %q, want %q", ptr, i, got, want)
			}
		}
	}
}

// stringEndLoop is stringEnd a byte at a time (its loop before IndexByte).
func stringEndLoop(src []byte, start int) (int, bool) {
	for i := start + 1; i < len(src); i++ {
		switch src[i] {
		case '\\':
			i++
		case '"':
			return i + 1, true
		case '\n':
			return 0, false
		}
	}
	return 0, false
}

// TestStringEndSameAsLoop holds stringEnd to the loop over bytes on random
// strings of quotes, backslashes, newlines and text, from every quote.
func TestStringEndSameAsLoop(t *testing.T) {
	rng := rand.New(rand.NewSource(39))
	pieces := []string{`"`, `\`, `\\`, "\n", "a", "é", `\"`, "xyz", `\n`}
	for n := 0; n < 20000; n++ {
		var b []byte
		for k := rng.Intn(12); k >= 0; k-- {
			b = append(b, pieces[rng.Intn(len(pieces))]...)
		}
		for start := range b {
			if b[start] != '"' {
				continue
			}
			ge, gok := stringEnd(b, start)
			we, wok := stringEndLoop(b, start)
			if ge != we || gok != wok {
				t.Fatalf("stringEnd(%q, %d) = %d, %v, want %d, %v", b, start, ge, gok, we, wok)
			}
		}
	}
}

// TestIndexPointersSameAsAppendIndex: the pointers of a list made in one
// allocation are AppendIndex's, in order, across the digit widths.
func TestIndexPointersSameAsAppendIndex(t *testing.T) {
	for _, ptr := range []string{"", "/nodes", "/$referenced_components/a~1b/control_flow_connections"} {
		for _, n := range []int{0, 1, 9, 10, 11, 99, 100, 101, 1001} {
			p := newIndexPointers(ptr, n)
			for i := 0; i < n; i++ {
				if got, want := p.next(), AppendIndex(ptr, i); got != want {
					t.Fatalf("%q, %d items: item %d is %q, want %q", ptr, n, i, got, want)
				}
			}
			if p.off != len(p.all) {
				t.Errorf("%q, %d items: %d bytes made, %d used", ptr, n, len(p.all), p.off)
			}
		}
	}
}
