package compile

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"
)

// oldResolve is Doc.resolve as it was, over SplitPointer's slice: the
// oracle of TestResolveSameAsSplit.
func oldResolve(d *Doc, ptr string) (*Node, bool) {
	n := d.Root
	if ptr == "" || n == nil {
		return n, n != nil
	}
	if ptr[0] != '/' {
		return nil, false
	}
	for _, tok := range SplitPointer(ptr) {
		var next *Node
		switch n.Kind {
		case Object:
			next = n.Get(tok)
		case Array:
			if i, err := strconv.Atoi(tok); err == nil && i >= 0 && i < len(n.Items) {
				next = n.Items[i]
			}
		}
		if next == nil {
			return n, false
		}
		n = next
	}
	return n, true
}

// TestResolveSameAsSplit: resolve, reading a pointer's tokens in place,
// reaches the node and says whether it is the whole pointer as the walk
// over SplitPointer did: every node's own pointer, and random pointers of
// keys with "/" and "~", escaped and not, empty tokens, a trailing "/",
// indexes out of range, "-1", "01" and no leading "/".
func TestResolveSameAsSplit(t *testing.T) {
	src := `{"a":{"b/c":[1,{"~x":2,"":{"":3}},[4]],"m~1n":{"0":5}},"":[6],"~":{"/":7},"k":[[8,9],{"a":null}]}`
	d := ParseDoc("r.json", []byte(src))
	if d.Root == nil {
		t.Fatal("no tree")
	}
	var ptrs []string
	Walk(d.Root, "", func(ptr string, _ *Node) bool { ptrs = append(ptrs, ptr); return true })
	toks := []string{"a", "b~1c", "b/c", "~0x", "~x", "", "m~01n", "m~1n", "0", "1", "2", "-1", "01", "k", "~0", "~1", "~", "/", "~2", "x"}
	rng := rand.New(rand.NewPCG(39, 6901))
	for range 20000 {
		var b strings.Builder
		for n := rng.IntN(6); n > 0; n-- {
			b.WriteByte('/')
			b.WriteString(toks[rng.IntN(len(toks))])
		}
		p := b.String()
		if rng.IntN(20) == 0 && len(p) > 0 {
			p = p[1:]
		}
		ptrs = append(ptrs, p)
	}
	whole := 0
	for _, p := range ptrs {
		gn, gok := d.resolve(p)
		wn, wok := oldResolve(d, p)
		if gn != wn || gok != wok {
			t.Fatalf("resolve(%q) = %p %v, over SplitPointer %p %v", p, gn, gok, wn, wok)
		}
		if gok {
			whole++
		}
	}
	if whole < 100 {
		t.Errorf("only %d pointers resolved whole", whole)
	}
}
