package lint

import (
	"bytes"
	"math/rand"
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

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
}
