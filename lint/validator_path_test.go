package lint

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// walkPaths visits every value under n with the path a walk keeps (the
// validator's walk kept one before it read paths from the parent links).
func walkPaths(n *compile.Node, path valPath, fn func(n *compile.Node, path valPath)) {
	fn(n, path)
	for _, m := range n.Members {
		walkPaths(m.Value, path.key(m.Key), fn)
	}
	for i, it := range n.Items {
		walkPaths(it, path.index(i), fn)
	}
}

// wantLastKey is the key of the nearest member a path goes through (array
// items take their array's key), "$" at the root.
func wantLastKey(p valPath) string {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i].idx < 0 {
			return p[i].key
		}
	}
	return "$"
}

// TestValPathOfIsTheWalksPath: the path valPathOf reads from the parent
// links of a parsed document, and valLastKey, are those of a walk that
// keeps its path, in every form a finding prints (pointer, dotted, dollar),
// for every value of a document with awkward keys (escapes, dots,
// duplicates, nested arrays, an empty key) in JSON and YAML and of every
// corpus agent's flow file.
func TestValPathOfIsTheWalksPath(t *testing.T) {
	docs := []*compile.Doc{
		compile.ParseDoc("t.json", []byte(`{"a/b": {"c~d": [[1, {"e.f": "x"}], "y"]}, "": {"k": ["z"]}, "dup": 1, "dup": {"in": [true, null]}}`)),
		compile.ParseYAMLDoc("t.yaml", []byte("a/b:\n  c~d:\n    - [1, {e.f: x}]\n    - y\nlist:\n  - k: [z]\n")),
	}
	corpus, slugs := testshared.CorpusAgents(t)
	for _, slug := range slugs {
		p := filepath.Join(corpus, "agents", "cinatra-ai", slug, "cinatra", "oas.json")
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, compile.ParseDoc(p, src))
	}
	for _, d := range docs {
		if d.Root == nil {
			t.Fatalf("%s did not parse", d.Path)
		}
		values := 0
		walkPaths(d.Root, nil, func(n *compile.Node, want valPath) {
			values++
			got := valPathOf(n)
			if got.pointer() != want.pointer() || got.dotted() != want.dotted() || got.dollar() != want.dollar() {
				t.Errorf("%s: valPathOf gives %q / %q / %q, the walk %q / %q / %q", d.Path,
					got.pointer(), got.dotted(), got.dollar(), want.pointer(), want.dotted(), want.dollar())
			}
			if got.pointer() != compile.PointerOf(n) {
				t.Errorf("%s: valPathOf gives %q, PointerOf %q", d.Path, got.pointer(), compile.PointerOf(n))
			}
			if k := valLastKey(n); k != wantLastKey(want) {
				t.Errorf("%s %s: valLastKey %q, want %q", d.Path, want.pointer(), k, wantLastKey(want))
			}
		})
		if values < 10 {
			t.Errorf("%s: %d values walked", d.Path, values)
		}
	}
}
