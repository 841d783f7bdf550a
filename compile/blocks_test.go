package compile

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// bundledAgents are the example agents of the repository, largest first
// where it matters: a small agent parsed into blocks a large one left
// behind must not see any of the large one's values.
var bundledAgents = []string{"example-agent", "leaf-agent", "context-slot-agent", "gate-agent", "orchestrator-agent", "branching-agent"}

func bundledAgent(name string) string {
	return filepath.Join("..", "testdata", "agents", "oastui", name)
}

// docJSON is a document as plain JSON (values, keys in order, offsets),
// to compare two parses of the same bytes.
func docJSON(t *testing.T, d *Doc) string {
	t.Helper()
	if d == nil {
		return "<nil>"
	}
	var walk func(n *Node) any
	walk = func(n *Node) any {
		if n == nil {
			return nil
		}
		switch n.Kind {
		case Object:
			var ms []any
			for _, m := range n.Members {
				ms = append(ms, []any{m.Key, m.KeyOffset, walk(m.Value)})
			}
			return map[string]any{"o": n.Offset, "members": ms, "len": len(n.Members), "cap": cap(n.Members)}
		case Array:
			var is []any
			for _, it := range n.Items {
				is = append(is, walk(it))
			}
			return map[string]any{"o": n.Offset, "items": is, "len": len(n.Items), "cap": cap(n.Items)}
		}
		return []any{n.Offset, n.Kind, n.Text, n.Bool, len(n.Members), len(n.Items), PointerOf(n)}
	}
	b, err := json.Marshal(map[string]any{"src": string(d.Src), "err": d.Err != nil, "root": walk(d.Root)})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func agentDocs(t *testing.T, a *Agent) map[string]string {
	t.Helper()
	return map[string]string{"flow": docJSON(t, a.Flow), "package": docJSON(t, a.Package), "registry": docJSON(t, a.Registry)}
}

func loadFresh(t *testing.T, name string) map[string]string {
	t.Helper()
	a, err := Load(bundledAgent(name), LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return agentDocs(t, a)
}

// Agents loaded one after another into the same Blocks, handed back with
// Reuse in between, parse exactly as they do into fresh memory; after the
// first round no block is allocated again.
func TestBlocksReuseParsesAsFresh(t *testing.T) {
	var b Blocks
	blocksAfterFirstRound := 0
	for round := range 3 {
		for _, name := range bundledAgents {
			a, err := Load(bundledAgent(name), LoadOptions{Blocks: &b})
			if err != nil {
				t.Fatal(err)
			}
			got, want := agentDocs(t, a), loadFresh(t, name)
			for k := range want {
				if got[k] != want[k] {
					t.Errorf("round %d, %s: the %s document parsed into reused blocks differs from a fresh parse", round, name, k)
				}
			}
			b.Reuse()
		}
		n := len(b.nodes.blocks) + len(b.members.blocks) + len(b.items.blocks) + len(b.bytes.blocks)
		if round == 0 {
			blocksAfterFirstRound = n
			if n == 0 {
				t.Fatal("no document was parsed into the blocks")
			}
		} else if n != blocksAfterFirstRound {
			t.Errorf("round %d: %d blocks, %d after the first round: reused blocks were not lent again", round, n, blocksAfterFirstRound)
		}
	}
}

// A document kept (Keep) is never written over by the loads that follow.
func TestBlocksKeepLeavesDocumentsAlone(t *testing.T) {
	var b Blocks
	kept, err := Load(bundledAgent("example-agent"), LoadOptions{Blocks: &b})
	if err != nil {
		t.Fatal(err)
	}
	b.Keep()
	want := agentDocs(t, kept)
	for range 2 {
		for _, name := range bundledAgents {
			if _, err := Load(bundledAgent(name), LoadOptions{Blocks: &b}); err != nil {
				t.Fatal(err)
			}
			b.Reuse()
		}
	}
	if got := agentDocs(t, kept); got["flow"] != want["flow"] || got["package"] != want["package"] {
		t.Error("a kept agent's documents changed when later agents were parsed into the same Blocks")
	}
}

// The registry read once for many loads (RegistryCache) is never put in a
// load's blocks: a later load reusing them leaves it intact.
func TestBlocksLeaveTheSharedRegistryAlone(t *testing.T) {
	var b Blocks
	cache := NewRegistryCache()
	first, err := Load(bundledAgent("leaf-agent"), LoadOptions{Blocks: &b, Registries: cache})
	if err != nil {
		t.Fatal(err)
	}
	if first.Registry == nil {
		t.Fatal("the bundled agent has no registry: the test needs one")
	}
	want := docJSON(t, first.Registry)
	b.Reuse()
	for _, name := range bundledAgents {
		a, err := Load(bundledAgent(name), LoadOptions{Blocks: &b, Registries: cache})
		if err != nil {
			t.Fatal(err)
		}
		if a.Registry != first.Registry {
			t.Fatalf("%s: the registry was read again instead of shared", name)
		}
		b.Reuse()
	}
	if got := docJSON(t, first.Registry); got != want {
		t.Error("the shared registry changed when agents were parsed into reused blocks")
	}
}

// An append to a slice carved from a block copies it instead of writing
// over the next value in the block.
func TestBlocksSlicesHaveNoSpareCapacity(t *testing.T) {
	var b Blocks
	src, err := os.ReadFile(filepath.Join(bundledAgent("example-agent"), "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	d := parseDocInto("oas.json", src, &b)
	WalkNodes(d.Root, func(n *Node) bool {
		if cap(n.Members) != len(n.Members) || cap(n.Items) != len(n.Items) {
			t.Fatalf("%s: members %d/%d, items %d/%d (len/cap)", PointerOf(n), len(n.Members), cap(n.Members), len(n.Items), cap(n.Items))
		}
		return true
	})
}

// FuzzBlocksReuse: whatever two documents are, the second parsed into
// the blocks the first was parsed into (then handed back) is the tree a
// fresh parse gives; neither parse panics.
func FuzzBlocksReuse(f *testing.F) {
	for _, seed := range [][2]string{
		{`{"a": [1, 2, {"b": "c"}], "d": {"e": null}}`, `[true, false, "x"]`},
		{`[[[[[]]]]]`, `{"k": {"k": {"k": 1}}}`},
		{`{"x": "` + strings.Repeat("y", 40) + `"}`, `{"x": "\u0041", "x": 2}`},
		{`{"a": 1`, `"s"`},
	} {
		f.Add([]byte(seed[0]), []byte(seed[1]))
	}
	f.Fuzz(func(t *testing.T, first, second []byte) {
		var b Blocks
		parseDocInto("first.json", first, &b)
		b.Reuse()
		got := parseDocInto("second.json", second, &b)
		want := ParseDoc("second.json", second)
		if (got.Err == nil) != (want.Err == nil) || docJSON(t, got) != docJSON(t, want) {
			t.Fatalf("a parse into reused blocks differs from a fresh parse of %q (after %q)", second, first)
		}
	})
}

// A node carved again from a reused block keeps nothing of what it held:
// objects of many members (with a key index) parsed first, then objects of
// a few into the same nodes, must have no index, and a root no parent.
func TestBlocksReuseClearsNodes(t *testing.T) {
	obj := func(members int) string {
		var ms []string
		for i := range members {
			ms = append(ms, `"k`+strings.Repeat("x", i)+`":true`)
		}
		return "{" + strings.Join(ms, ",") + "}"
	}
	doc := func(members int) []byte {
		var vs []string
		for range 40 {
			vs = append(vs, obj(members))
		}
		return []byte(`{"a":[` + strings.Join(vs, ",") + `]}`)
	}
	var b Blocks
	for _, src := range [][]byte{doc(keyIndexMin + 4), doc(3)} {
		root, _, err := parseInto(src, &b)
		if err != nil {
			t.Fatal(err)
		}
		if root.parent != nil {
			t.Fatal("the root of a parse into reused blocks has a parent")
		}
		WalkNodes(root, func(n *Node) bool {
			if n.Kind == Object && (n.keys != nil) != (len(n.Members) >= keyIndexMin) {
				t.Fatalf("%s: %d members, key index %v", PointerOf(n), len(n.Members), n.keys != nil)
			}
			if n.Kind != Object && (n.keys != nil || n.Members != nil) || n.Kind != Array && n.Items != nil {
				t.Fatalf("%s: a %s node holding members or items", PointerOf(n), n.Kind)
			}
			return true
		})
		b.Reuse()
	}
}
