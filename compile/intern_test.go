package compile

import (
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// TestInternKeptAcrossParses: a scratch keeps the strings it interned for
// the next parse, on both paths, so a key every file repeats is the same
// string in the second file; and the second file's tree is the one a
// fresh scratch gives.
func TestInternKeptAcrossParses(t *testing.T) {
	for _, fast := range []bool{true, false} {
		sc := newScratch()
		a, _, err := parseScratch([]byte(`{"component_type":"Flow","name":"first"}`), nil, fast, sc)
		if err != nil {
			t.Fatal(err)
		}
		src := []byte(`{"name":"second","component_type":"Agent"}`)
		b, _, err := parseScratch(src, nil, fast, sc)
		if err != nil {
			t.Fatal(err)
		}
		if unsafe.StringData(b.Members[1].Key) != unsafe.StringData(a.Members[0].Key) ||
			unsafe.StringData(b.Members[0].Key) != unsafe.StringData(a.Members[1].Key) {
			t.Errorf("fast=%v: the second parse copied keys the first interned", fast)
		}
		fresh, _, _ := parseScratch(src, nil, fast, newScratch())
		if got, want := docJSON(t, &Doc{Src: src, Root: b}), docJSON(t, &Doc{Src: src, Root: fresh}); got != want {
			t.Errorf("fast=%v: tree after a kept scratch\n%s\nwant\n%s", fast, got, want)
		}
	}
}

// TestInternDroppedPastBounds: a parse that leaves more than internKeep
// strings, or more than internKeepBytes of them, leaves its scratch
// empty of strings (a file of distinct ids is not kept alive by the
// pool); one under both keeps them.
func TestInternDroppedPastBounds(t *testing.T) {
	var many, long strings.Builder
	many.WriteString("[")
	for i := 0; i <= internKeep; i++ {
		fmt.Fprintf(&many, "%q,", fmt.Sprintf("id-%d", i))
	}
	many.WriteString(`"x"]`)
	long.WriteString("{")
	for i := 0; i <= internKeepBytes/1000; i++ {
		fmt.Fprintf(&long, "%q:1,", fmt.Sprintf("%d%s", i, strings.Repeat("k", 1000)))
	}
	long.WriteString(`"x":1}`)
	for _, fast := range []bool{true, false} {
		for name, src := range map[string]string{"many": many.String(), "long": long.String()} {
			sc := newScratch()
			if _, _, err := parseScratch([]byte(`{"kept":"v"}`), nil, fast, sc); err != nil {
				t.Fatal(err)
			}
			if len(sc.strs) != len(seedKeys)+2 || sc.internBytes != 5 {
				t.Fatalf("fast=%v: a small file left %d strings (%d bytes), want %d (5)", fast, len(sc.strs), sc.internBytes, len(seedKeys)+2)
			}
			if _, _, err := parseScratch([]byte(src), nil, fast, sc); err != nil {
				t.Fatal(err)
			}
			if len(sc.strs) != len(seedKeys) || sc.internBytes != 0 || sc.recent != [recentSlots]recentEntry{} {
				t.Errorf("fast=%v %s: %d strings (%d bytes) kept past the bounds", fast, name, len(sc.strs), sc.internBytes)
			}
		}
	}
}

// TestInternKeptSameTrees: every JSON file of testdata and the shared
// corpus, parsed one after another with one scratch (the strings of the
// files before kept), gives the tree a fresh scratch gives.
func TestInternKeptSameTrees(t *testing.T) {
	check := func(t *testing.T, root string) {
		sc, n, seen := newScratch(), 0, 0
		err := filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			if seen++; (seen-1)%race.Stride(60) != 0 { // the first file, and every 60th under -race
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			kept, _, kerr := parseScratch(src, nil, true, sc)
			fresh, _, ferr := parseScratch(src, nil, true, newScratch())
			if (kerr == nil) != (ferr == nil) {
				t.Fatalf("%s: error %v with a kept scratch, %v with a fresh one", path, kerr, ferr)
			}
			if kerr == nil {
				n++
				if got, want := docJSON(t, &Doc{Src: src, Root: kept}), docJSON(t, &Doc{Src: src, Root: fresh}); got != want {
					t.Fatalf("%s: trees differ with a kept scratch", path)
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if n == 0 {
			t.Errorf("no valid JSON file under %s", root)
		}
	}
	check(t, filepath.Join("..", "testdata"))
	t.Run("shared", func(t *testing.T) { check(t, testshared.Dir(t, "corpus")) })
}

// TestSeedKeysInterned: a key of seedKeys is parsed (on both paths, in a
// fresh scratch and after one dropped its strings) into the literal
// itself, which Get finds by its pointer; a key given with an escape is
// a copy, found by its bytes.
func TestSeedKeysInterned(t *testing.T) {
	for _, fast := range []bool{true, false} {
		sc := newScratch()
		for round := range 2 {
			root, _, err := parseScratch([]byte(`{"component_type":"Flow","n\u0061me":"x"}`), nil, fast, sc)
			if err != nil {
				t.Fatal(err)
			}
			if unsafe.StringData(root.Members[0].Key) != unsafe.StringData("component_type") {
				t.Errorf("fast=%v round %d: component_type is not the literal", fast, round)
			}
			if unsafe.StringData(root.Members[1].Key) == unsafe.StringData("name") {
				t.Errorf("fast=%v round %d: an escaped key is the literal", fast, round)
			}
			if root.Get("component_type").Text != "Flow" || root.Get("name").Text != "x" || root.Get("nam") != nil {
				t.Errorf("fast=%v round %d: Get is wrong", fast, round)
			}
			sc.internBytes = internKeepBytes + 1 // the next release drops the strings
			if _, _, err := parseScratch([]byte(`{}`), nil, fast, sc); err != nil || len(sc.strs) != len(seedKeys) {
				t.Fatalf("fast=%v: %d strings after the drop, want the %d seeds (%v)", fast, len(sc.strs), len(seedKeys), err)
			}
		}
	}
}

// TestRecentWordsSameAsBytes: the recent slots take two strings of one
// length up to 16 bytes with equal words (recentWords) for equal strings;
// held to the byte compare the slots made before (strings of two or three
// letters, so that near misses are common), and str returns the bytes it
// was given whatever the slots hold. Mutants that pack fewer bytes (the
// last 8 shifted by a byte; the middle byte of a short string left out)
// fail it.
func TestRecentWordsSameAsBytes(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 13))
	gen := func() []byte {
		b := make([]byte, 1+rng.IntN(24))
		for i := range b {
			b[i] = "ab\x00"[rng.IntN(3)]
		}
		return b
	}
	for range 200000 {
		a, b := gen(), gen()
		if rng.IntN(4) == 0 {
			b = append([]byte(nil), a...)
			b[rng.IntN(len(b))] ^= byte(1 << rng.IntN(8))
		}
		if len(a) != len(b) || len(a) > 16 {
			continue
		}
		a0, a1 := recentWords(a)
		b0, b1 := recentWords(b)
		if same := a0 == b0 && a1 == b1; same != (string(a) == string(b)) {
			t.Fatalf("%q and %q: equal words %v, equal bytes %v", a, b, same, string(a) == string(b))
		}
	}
	p := parser{strs: map[string]string{}, recent: &[recentSlots]recentEntry{}}
	for range 100000 {
		raw := gen()
		if got := p.str(raw, true); got != string(raw) {
			t.Fatalf("str(%q) = %q", raw, got)
		}
	}
}
