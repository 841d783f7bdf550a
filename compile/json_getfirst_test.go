package compile

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/internal/race"
)

// oldGet is Node.Get as it was before the first-member look (uniq): the
// key index, else a scan from the last member. The oracle of
// TestGetFirstMemberSameAsScan.
func oldGet(n *Node, key string) *Node {
	if n == nil || n.Kind != Object {
		return nil
	}
	if n.keys != nil && n.keys.n == len(n.Members) {
		if i, ok := n.keys.last[key]; ok && i < len(n.Members) && n.Members[i].Key == key {
			return n.Members[i].Value
		}
		return nil
	}
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	return nil
}

// TestGetFirstMemberSameAsScan: Get, which takes the first member of an
// object the parser found no repeated key in, returns what the scan from
// the last member returns: random objects of seed keys (interned: the
// callers' literals) and others, repeated or not, 0 to 20 members, parsed
// by both parsers and with lent blocks, asked for every key as a literal
// and as a copy; then with a member appended, the flag stale. A mutant that sets uniq whatever the duplicates
// fails it.
func TestGetFirstMemberSameAsScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(39, 11))
	keys := []string{"component_type", "$component_ref", "id", "name", "title", "type", "x", "component_typ", "ids"}
	var blocks Blocks
	asked, first := 0, 0
	check := func(root *Node, what string) {
		var walk func(n *Node)
		walk = func(n *Node) {
			for _, it := range n.Items {
				walk(it)
			}
			for _, m := range n.Members {
				walk(m.Value)
			}
			if n.Kind != Object {
				return
			}
			for _, k := range keys {
				for _, key := range []string{k, strings.Clone(k)} {
					asked++
					if len(n.Members) > 0 && n.Members[0].Key == key && int(n.uniq) == len(n.Members) {
						first++
					}
					if got, want := n.Get(key), oldGet(n, key); got != want {
						t.Fatalf("%s: Get(%q) of %d members (uniq %d) = %p, the scan %p", what, key, len(n.Members), n.uniq, got, want)
					}
				}
			}
		}
		walk(root)
	}
	for i := 0; i < 3000/race.Stride(8); i++ {
		var b strings.Builder
		var obj func(depth int)
		obj = func(depth int) {
			b.WriteByte('{')
			n := rng.IntN(8)
			if rng.IntN(6) == 0 {
				n = rng.IntN(21)
			}
			for j := 0; j < n; j++ {
				if j > 0 {
					b.WriteByte(',')
				}
				fmt.Fprintf(&b, "%q:", keys[rng.IntN(len(keys))])
				if depth < 3 && rng.IntN(3) == 0 {
					obj(depth + 1)
				} else {
					fmt.Fprintf(&b, "%d", j)
				}
			}
			b.WriteByte('}')
		}
		obj(0)
		src := []byte(b.String())
		for _, fast := range []bool{true, false} {
			root, _, err := parseWith(src, nil, fast)
			if err != nil {
				t.Fatalf("%s: %v", src, err)
			}
			check(root, fmt.Sprintf("%s fast=%v", src, fast))
		}
		blocks.Reuse()
		d := parseDocInto("o.json", src, &blocks)
		check(d.Root, string(src)+" (blocks)")
		// an edited tree: a member appended repeats the first key (the
		// flag stale by length; a key renamed in place would not be seen:
		// Get trusts the flag, as it trusts the key index, for a tree
		// whose keys are not edited in place)
		root, _, _ := parseWith(src, nil, true)
		if len(root.Members) > 0 {
			root.Members = append(root.Members, Member{Key: root.Members[0].Key, Value: &Node{Kind: Null}})
			check(root, string(src)+" (appended)")
		}
	}
	if first < asked/50 {
		t.Errorf("only %d of %d look-ups took the first member", first, asked)
	}
	t.Logf("%d look-ups, %d by the first member", asked, first)
	// the first member's key is the caller's literal only when interned
	n, _, _ := parseWith([]byte(`{"component_type":"Flow","name":"n"}`), nil, true)
	if unsafe.StringData(n.Members[0].Key) != unsafe.StringData("component_type") || int(n.uniq) != 2 {
		t.Errorf("component_type not interned as the literal, or uniq %d", n.uniq)
	}
}
