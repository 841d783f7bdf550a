package lint

import (
	"math/rand"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/present"
)

// TestKeyClassesLent: a key-class table lent from one document to the next
// answers every key as present.ClassifyKey does, whatever keys the
// documents before left in it (colliding slots included), and keeps its
// own copy of each key: a key whose bytes are written over after it was
// classified (a buffer reused by the next load) is not found again.
func TestKeyClassesLent(t *testing.T) {
	keys := []string{"component_type", "name", "api_key", "apiKey", "password", "description", "x-api-token", "token", "inputs",
		"title", "secret", "Authorization", "value", "client_secret", "prompt", "url", "private_key", "default", "id", ""}
	r := rand.New(rand.NewSource(4))
	for i := 0; i < 3000; i++ { // keys of random shapes, many colliding in a 512-slot table
		b := make([]byte, r.Intn(24))
		for j := range b {
			b[j] = "abcdeKkpstTo_-y"[r.Intn(15)]
		}
		keys = append(keys, string(b))
	}
	classes := new(keyClasses)
	for doc := 0; doc < 6; doc++ {
		w := secretWalker{classes: classes}
		for _, i := range r.Perm(len(keys)) {
			if got, want := w.class(keys[i]), present.ClassifyKey(keys[i]); got != want {
				t.Fatalf("document %d: class(%q) = %v, want %v", doc, keys[i], got, want)
			}
		}
	}
	// A key aliasing a buffer that is then written over with a key of the
	// same length and the same first, middle and last bytes (the same slot).
	buf := []byte("api_key")
	w := secretWalker{classes: new(keyClasses)}
	if w.class(unsafe.String(&buf[0], len(buf))) != present.ClassifyKey("api_key") {
		t.Fatal("api_key misclassified")
	}
	copy(buf, "aXX_XXy")
	if got, want := w.class("aXX_XXy"), present.ClassifyKey("aXX_XXy"); got != want || want == present.ClassifyKey("api_key") {
		t.Fatalf("class(aXX_XXy) = %v, want %v (api_key's: %v)", got, want, present.ClassifyKey("api_key"))
	}
}
