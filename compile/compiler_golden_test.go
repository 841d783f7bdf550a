package compile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// The byte goldens pin the compiler's exact output (key order, number
// text, escaping), which TestCompileConformance, comparing decoded JSON,
// does not see. They were generated from the compiler as it was before the
// Step refactor (issue 10 item 6) and must not change without a reason.
// Regenerate with: go test ./compile -run TestCompiledBytes -update-compiled
var updateCompiled = flag.Bool("update-compiled", false, "rewrite compile/testdata/compiled")

const compiledGoldenDir = "testdata/compiled"

// compiledBytes is what `oastui compile` prints for a: the indented
// {"ok":…} result.
func compiledBytes(t testing.TB, a *Agent) []byte {
	t.Helper()
	b, err := IndentJSON(NewResult(Compile(a)))
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return b
}

func checkGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	path := filepath.Join(compiledGoldenDir, name)
	if *updateCompiled {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (regenerate with -update-compiled)", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s: compiled bytes differ from the golden:\n%s", name, firstDiff(got, want))
	}
}

// firstDiff shows the first differing line of two texts.
func firstDiff(got, want []byte) string {
	g, w := strings.Split(string(got), "\n"), strings.Split(string(want), "\n")
	for i := 0; i < len(g) || i < len(w); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d:\n  - want %s\n  + got  %s", i+1, wl, gl)
		}
	}
	return "(equal lines, different bytes)"
}

// TestCompiledBytesFixtures: the fixture agents of testdata (valid and
// invalid ones alike) compile to exactly the golden bytes.
func TestCompiledBytesFixtures(t *testing.T) {
	var dirs []string
	for _, g := range []string{
		filepath.Join(fixtureRoot, "oastui", "*"),
		filepath.Join("..", "testdata", "invalid", "*", "*"),
	} {
		m, _ := filepath.Glob(g)
		for _, d := range m {
			if fi, err := os.Stat(d); err == nil && fi.IsDir() {
				dirs = append(dirs, d)
			}
		}
	}
	if len(dirs) < 20 {
		t.Fatalf("found %d fixture agents, want at least 20", len(dirs))
	}
	for _, d := range dirs {
		rel, _ := filepath.Rel("..", d)
		name := "fixtures/" + strings.ReplaceAll(filepath.ToSlash(rel), "/", "__") + ".json"
		t.Run(rel, func(t *testing.T) {
			a, err := Load(d, LoadOptions{})
			if err != nil {
				checkGolden(t, name, []byte("load error: "+err.Error()+"\n"))
				return
			}
			checkGolden(t, name, compiledBytes(t, a))
		})
	}
}

// TestCompiledBytesCorpus: the 25 corpus agents and the docs' golden leaf
// compile to exactly the golden bytes.
func TestCompiledBytesCorpus(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	for _, slug := range slugs {
		t.Run(slug, func(t *testing.T) {
			a, err := Load(filepath.Join(dir, "agents", "cinatra-ai", slug), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			checkGolden(t, "corpus/"+slug+".json", compiledBytes(t, a))
		})
	}
	t.Run("golden-leaf", func(t *testing.T) {
		a, err := Load(filepath.Join(dir, "docs", "golden-leaf", "cinatra", "oas.json"),
			LoadOptions{RegistryPath: filepath.Join(dir, "agents", "_shared", "cinatra", "components.json")})
		if err != nil {
			t.Fatal(err)
		}
		checkGolden(t, "corpus/docs__golden-leaf.json", compiledBytes(t, a))
	})
}

// mutationValues replace one authored value at a time: wrong JSON types,
// null, empty, negative zero, and (nil) removal.
var mutationValues = []*Node{
	nil,
	{Kind: Number, Text: "7"},
	{Kind: Number, Text: "-0"},
	{Kind: Null},
	{Kind: String, Text: ""},
	{Kind: String, Text: "x_send"},
	{Kind: Bool, Bool: false},
	{Kind: Object},
}

// mutationTargets lists the members of a flow worth mutating: every member
// inside a metadata.cinatra object (gate steps included) and every name,
// title and description; each as the chain of member indexes from the root.
func mutationTargets(root *Node) [][]int {
	var out [][]int
	// cin is the depth below a metadata.cinatra object (0: outside one);
	// members down to cinatra.gateSteps[i].x are mutated.
	var walk func(n *Node, at []int, cin int, parentKey string)
	walk = func(n *Node, at []int, cin int, parentKey string) {
		if n == nil {
			return
		}
		switch n.Kind {
		case Object:
			for i, m := range n.Members {
				p := append(append([]int(nil), at...), i)
				inner := cin
				switch {
				case cin > 0:
					inner = cin + 1
				case m.Key == "cinatra" && parentKey == "metadata":
					inner = 1
				}
				if (cin > 0 && cin <= 3) || m.Key == "name" || m.Key == "title" || m.Key == "description" {
					out = append(out, p)
				}
				walk(m.Value, p, inner, m.Key)
			}
		case Array:
			for i, it := range n.Items {
				inner := cin
				if cin > 0 {
					inner = cin + 1
				}
				walk(it, append(append([]int(nil), at...), i), inner, parentKey)
			}
		}
	}
	walk(root, nil, 0, "")
	return out
}

// mutate returns the source of root with the member at p replaced by v
// (removed when v is nil), and the member's path; root is left as it was.
func mutate(root *Node, p []int, v *Node) ([]byte, string) {
	n := root
	var label []string
	var undo func()
	for depth, i := range p {
		last := depth == len(p)-1
		switch n.Kind {
		case Object:
			label = append(label, n.Members[i].Key)
			if last {
				saved := n.Members
				if v == nil {
					n.Members = append(saved[:i:i], saved[i+1:]...)
				} else {
					n.Members = append([]Member(nil), saved...)
					n.Members[i].Value = v
				}
				obj := n
				undo = func() { obj.Members = saved }
			} else {
				n = n.Members[i].Value
			}
		case Array:
			label = append(label, fmt.Sprint(i))
			if last {
				saved := n.Items
				if v == nil {
					n.Items = append(saved[:i:i], saved[i+1:]...)
				} else {
					n.Items = append([]*Node(nil), saved...)
					n.Items[i] = v
				}
				arr := n
				undo = func() { arr.Items = saved }
			} else {
				n = n.Items[i]
			}
		}
	}
	var b bytes.Buffer
	if err := writeNode(&b, root); err != nil {
		panic(err)
	}
	undo()
	return b.Bytes(), "/" + strings.Join(label, "/")
}

// TestCompiledBytesMutations: the fixture agents, each with one authored
// value replaced by a value of another type (or removed), compile to
// exactly the bytes recorded in testdata/compiled/mutations.txt (a hash
// per case; the cases reach the compiler's paths for unexpected types,
// undefined members and keys set by later passes).
func TestCompiledBytesMutations(t *testing.T) {
	var lines []string
	for _, dir := range fixtureAgents(t) {
		a, err := Load(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		src, err := os.ReadFile(a.FlowPath)
		if err != nil {
			t.Fatal(err)
		}
		root, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		for _, p := range mutationTargets(root) {
			for vi, v := range mutationValues {
				mut, label := mutate(root, p, v)
				a.Flow = ParseDoc(a.FlowPath, mut)
				sum := sha256.Sum256(compiledBytes(t, a))
				lines = append(lines, fmt.Sprintf("%s %s#%d %s", filepath.Base(dir), label, vi, hex.EncodeToString(sum[:8])))
			}
		}
	}
	sort.Strings(lines)
	got := []byte(strings.Join(lines, "\n") + "\n")
	if len(lines) < 1000 {
		t.Fatalf("only %d mutation cases", len(lines))
	}
	checkGolden(t, "mutations.txt", got)
}

// keyOrder lists, for every object in n, its path and its keys in order.
func keyOrder(n *Node, at string, out *[]string) {
	if n == nil {
		return
	}
	switch n.Kind {
	case Object:
		keys := make([]string, len(n.Members))
		for i, m := range n.Members {
			keys[i] = m.Key
		}
		*out = append(*out, at+" {"+strings.Join(keys, ",")+"}")
		for _, m := range n.Members {
			keyOrder(m.Value, at+"."+m.Key, out)
		}
	case Array:
		for i, it := range n.Items {
			keyOrder(it, fmt.Sprintf("%s[%d]", at, i), out)
		}
	}
}

// TestCompileKeyOrderConformance: every object of Compile's output, each
// step of approvalPolicy.steps included, has its keys in the order of the
// reference's output (TestCompileConformance compares decoded JSON, blind
// to order).
func TestCompileKeyOrderConformance(t *testing.T) {
	dir, slugs := testshared.CorpusAgents(t)
	steps := 0
	for _, slug := range slugs {
		t.Run(slug, func(t *testing.T) {
			src, err := os.ReadFile(filepath.Join(dir, "expected", slug+".json"))
			if err != nil {
				t.Fatal(err)
			}
			exp, err := Parse(src)
			if err != nil {
				t.Fatal(err)
			}
			a, err := Load(filepath.Join(dir, "agents", "cinatra-ai", slug), LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			got, err := Parse(compiledBytes(t, a))
			if err != nil {
				t.Fatal(err)
			}
			var w, g []string
			keyOrder(exp.Get("compile"), "$", &w)
			keyOrder(got, "$", &g)
			for _, l := range g {
				if strings.HasPrefix(l, "$.value.approvalPolicy.steps[") && strings.Count(l, ".") == 3 {
					steps++
				}
			}
			if len(g) != len(w) {
				t.Fatalf("%d objects, the reference has %d", len(g), len(w))
			}
			for i := range w {
				if g[i] != w[i] {
					t.Errorf("key order differs:\n  - want %s\n  + got  %s", w[i], g[i])
				}
			}
		})
	}
	if steps == 0 {
		t.Errorf("no steps compared")
	}
	t.Logf("%d steps compared", steps)
}
