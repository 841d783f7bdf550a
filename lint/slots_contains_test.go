package lint

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// containsContextRefsTail is the guard before the search by the word's
// 'R': bytes.Index for its tail "xtRefs" and the five bytes before (the
// oracle of TestContainsContextRefsSameAsTail).
func containsContextRefsTail(src []byte) bool {
	const head, tail = "conte", "xtRefs"
	for off := 0; ; {
		i := bytes.Index(src[off:], []byte(tail))
		if i < 0 {
			return false
		}
		if at := off + i; at >= len(head) && string(src[at-len(head):at]) == head {
			return true
		}
		off += i + 1
	}
}

// TestContainsContextRefsSameAsTail holds the search by 'R' to the search
// by the tail it replaced: random joins of the word's pieces, stray 'R's
// and other bytes, with the word at the start, the end or cut by either,
// in buffers of every length from 0.
func TestContainsContextRefsSameAsTail(t *testing.T) {
	pieces := []string{"contextRefs", "context", "Refs", "R", "RR", "conte", "xtRefs", "ontextRefs", "contextRef", "tRefs", "x", "c", "s", " ", "Rcontext", "contextRefsR", "\n", "\u0052"}
	r := rand.New(rand.NewSource(39))
	yes := 0
	for trial := 0; trial < 100000; trial += race.Stride(8) {
		var b []byte
		for n := r.Intn(7); n > 0; n-- {
			if r.Intn(4) == 0 {
				b = append(b, byte(r.Intn(256)))
				continue
			}
			b = append(b, pieces[r.Intn(len(pieces))]...)
		}
		want := containsContextRefsTail(b)
		if want != bytes.Contains(b, []byte("contextRefs")) {
			t.Fatalf("%q: the oracle is not bytes.Contains", b)
		}
		if got := containsContextRefs(b); got != want {
			t.Fatalf("%q: %v, want %v", b, got, want)
		}
		// every prefix: the word cut at the end of the buffer
		for k := len(b) - 1; k >= 0 && k >= len(b)-12; k-- {
			if got, want := containsContextRefs(b[:k]), containsContextRefsTail(b[:k]); got != want {
				t.Fatalf("%q: %v, want %v", b[:k], got, want)
			}
		}
		if want {
			yes++
		}
	}
	if yes < 1000/race.Stride(8) {
		t.Errorf("only %d inputs hold the word", yes)
	}
}

// TestContainsContextRefs: the guard of checkContextSlots answers as
// bytes.Contains(src, "contextRefs") does, on pieces of the word placed
// around each other at random and on every corpus flow.
func TestContainsContextRefs(t *testing.T) {
	pieces := []string{"contextRefs", "conte", "xtRefs", "context", "Refs", "xt", "co", "ntextRefs", "c", " ", "xtRefsxtRefs", "contextRef"}
	r := rand.New(rand.NewSource(3))
	yes := 0
	for trial := 0; trial < 20000; trial++ {
		var b []byte
		for n := r.Intn(6); n > 0; n-- {
			b = append(b, pieces[r.Intn(len(pieces))]...)
		}
		want := bytes.Contains(b, []byte("contextRefs"))
		if got := containsContextRefs(b); got != want {
			t.Fatalf("%q: %v, want %v", b, got, want)
		}
		if want {
			yes++
		}
	}
	if yes < 1000 {
		t.Errorf("only %d inputs hold the word", yes)
	}
	t.Run("corpus", func(t *testing.T) {
		files, _ := filepath.Glob(filepath.Join(testshared.Corpus(t), "agents", "cinatra-ai", "*", "cinatra", "oas.json"))
		if len(files) < 25 {
			t.Fatalf("%d corpus flows", len(files))
		}
		for _, f := range files {
			src, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := containsContextRefs(src), bytes.Contains(src, []byte("contextRefs")); got != want {
				t.Errorf("%s: %v, want %v", f, got, want)
			}
		}
	})
}
