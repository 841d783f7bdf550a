package compile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// scanGet is Get without the filter or the index: the last member of key.
func scanGet(n *Node, key string) *Node {
	for i := len(n.Members) - 1; i >= 0; i-- {
		if n.Members[i].Key == key {
			return n.Members[i].Value
		}
	}
	return nil
}

// checkGet fails t unless Get answers as scanGet in every object of root,
// for each of its keys, the keys of every other object (absent ones,
// mostly) and variants of them, and returns how many absent keys the
// filter answered without the scan.
func checkGet(t *testing.T, name string, root *Node) (filtered int) {
	t.Helper()
	var keys []string
	seen := map[string]bool{"": true}
	WalkNodes(root, func(n *Node) bool {
		for _, m := range n.Members {
			for _, k := range []string{m.Key, m.Key + "x", "x" + m.Key, strings.ToUpper(m.Key)} {
				if !seen[k] {
					seen[k] = true
					keys = append(keys, k)
				}
			}
		}
		return true
	})
	keys = append(keys, "")
	WalkNodes(root, func(n *Node) bool {
		if n.Kind != Object {
			return true
		}
		for _, k := range keys {
			if got, want := n.Get(k), scanGet(n, k); got != want {
				t.Fatalf("%s: %s Get(%q) = %v, want %v", name, PointerOf(n), k, got, want)
			}
			if n.keyBits != 0 && n.keyBits&keyBit(k) == 0 {
				filtered++
			}
		}
		return true
	})
	return filtered
}

func TestGetFilter(t *testing.T) {
	if s := unsafe.Sizeof(Node{}); s != 96 {
		t.Errorf("Node is %d bytes, want 96 (keyBits fits the padding)", s)
	}
	if keyIndexMin > 16 {
		t.Errorf("keyIndexMin %d: keyBits counts at most 15 members", keyIndexMin)
	}
	for _, c := range fastParseCases {
		if root, err := Parse([]byte(c)); err == nil {
			checkGet(t, c, root)
		}
	}
	t.Run("edited", func(t *testing.T) {
		root, err := Parse([]byte(`{"a":1,"b":2}`))
		if err != nil {
			t.Fatal(err)
		}
		if root.keyBits == 0 {
			t.Fatal("no filter on a parsed object")
		}
		// a member appended by hand is found: the count no longer matches
		root.Members = append(root.Members, Member{Key: "zzzzzzzzzzzq", Value: &Node{Kind: Null}})
		if root.Get("zzzzzzzzzzzq") == nil {
			t.Error("Get misses a member appended after the parse")
		}
		root.Members = root.Members[:1]
		if root.Get("b") != nil || root.Get("a") == nil {
			t.Error("Get after the members were cut")
		}
		hand := &Node{Kind: Object, Members: []Member{{Key: "k", Value: &Node{Kind: Null}}}}
		if hand.Get("k") == nil {
			t.Error("Get misses the member of an object built by hand")
		}
	})
	t.Run("shared", func(t *testing.T) {
		dir := testshared.Dir(t, "corpus")
		files, filtered := 0, 0
		err := filepath.WalkDir(dir, func(path string, e fs.DirEntry, err error) error {
			if err != nil || e.IsDir() || !strings.HasSuffix(path, ".json") {
				return err
			}
			if files++; files%race.Stride(40) != 0 {
				return nil
			}
			src, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if root, err := Parse(src); err == nil {
				filtered += checkGet(t, path, root)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if filtered == 0 {
			t.Error("the filter answered no look-up of an absent key")
		}
	})
}
