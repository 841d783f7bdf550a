package diff

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// TestMembersOfIsGet: membersOf reads each member the node checks compare
// as Get reads it (the last of a repeated key), in objects small and large
// (past the parser's key index), with keys repeated and absent, and reads
// nothing of what is no object.
func TestMembersOfIsGet(t *testing.T) {
	r := rand.New(rand.NewSource(6))
	keys := []string{"data", "url", "http_method", "method", "description", "metadata", "inputs", "outputs", "name", "id"}
	found := 0
	for c := 0; c < 300; c++ {
		var b strings.Builder
		b.WriteString("{")
		n := r.Intn(12)
		if c%10 == 0 {
			n = 200 + r.Intn(100) // a large object: Get reads the parser's index
		}
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			k := keys[r.Intn(len(keys))]
			if r.Intn(3) == 0 {
				k = fmt.Sprintf("x%d", i)
			}
			fmt.Fprintf(&b, "%q:%d", k, i) // the value names the member: a repeated key's last wins
		}
		b.WriteString("}")
		d := compile.ParseDoc("f.json", []byte(b.String()))
		if d.Root == nil {
			t.Fatalf("%s: %v", b.String(), d.Err)
		}
		f := membersOf(d.Root)
		for _, x := range []struct {
			key string
			got *compile.Node
		}{{"data", f.data}, {"url", f.url}, {"http_method", f.httpMethod}, {"method", f.method}, {"description", f.description},
			{"metadata", f.metadata}, {"inputs", f.inputs}, {"outputs", f.outputs}} {
			if want := d.Root.Get(x.key); x.got != want {
				t.Fatalf("case %d: %s is %v, Get's %v (%s)", c, x.key, x.got, want, b.String())
			} else if want != nil {
				found++
			}
		}
	}
	if found < 500 {
		t.Fatalf("only %d members found", found)
	}
	for _, src := range []string{`[1, 2]`, `"data"`, `null`, `3`} {
		if f := membersOf(compile.ParseDoc("f.json", []byte(src)).Root); f != (nodeFields{}) {
			t.Errorf("%s: %+v, want nothing", src, f)
		}
	}
	if f := membersOf(nil); f != (nodeFields{}) {
		t.Errorf("nil: %+v, want nothing", f)
	}
}
