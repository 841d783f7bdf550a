package lint

import (
	"math/rand"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/compile"
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

// TestKeyClassesAddressPerWalk: a key found again by its address within a
// walk is the same key; the next walk compares the bytes again. A hand-made
// document whose key aliases a buffer is walked, the buffer is written over
// with a key of the same length and slot, and the document is walked again
// with the same table: the second walk must classify the new bytes (a table
// that trusted the address across walks answers api_key's class).
func TestKeyClassesAddressPerWalk(t *testing.T) {
	buf := []byte("api_key")
	key := unsafe.String(&buf[0], len(buf))
	doc := &compile.Node{Kind: compile.Object, Members: []compile.Member{
		{Key: key, Value: &compile.Node{Kind: compile.String, Text: "[REDACTED]-but-long-enough-to-scan"}},
		{Key: key, Value: &compile.Node{Kind: compile.Array}}, // classed again in the same walk: by its address
	}}
	table := new(keyClasses)
	w := secretWalker{classes: table}
	w.walk(doc, "", present.KeyNeutral)
	slot := func(k string) int {
		for i := range table.slots {
			if table.slots[i].ok && table.slots[i].key == k {
				return i
			}
		}
		return -1
	}
	i := slot("api_key")
	if i < 0 || table.slots[i].class != present.ClassifyKey("api_key") || table.slots[i].at != uintptr(unsafe.Pointer(&buf[0])) {
		t.Fatalf("api_key not in the table at its address after the walk")
	}
	copy(buf, "aXX_XXy") // same length, same first, middle and last bytes: the same slot
	w.walk(doc, "", present.KeyNeutral)
	if got, want := w.class(key), present.ClassifyKey("aXX_XXy"); got != want || want == present.ClassifyKey("api_key") {
		t.Fatalf("after the buffer was written over: class %v, want %v (api_key's %v)", got, want, present.ClassifyKey("api_key"))
	}
}
