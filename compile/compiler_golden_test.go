package compile

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"github.com/oastui/oastui/internal/race"
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
// Regenerate with: go test ./compile -run TestCompiledBytes -update

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
	if *update {
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
		t.Fatalf("%v (regenerate with -update)", err)
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
		// the lint rules' fixture agents (lint/testdata/rules): the err
		// cases that are packages in a rule's folder, and the valid
		// packages the ok folders hold copies of
		filepath.Join("..", "lint", "testdata", "rules", "err", "*", "*"),
		filepath.Join("..", "lint", "testdata", "rules", "ok", "untrusted_external_url", "*"),
	} {
		m, _ := filepath.Glob(g)
		for _, d := range m {
			if fi, err := os.Stat(filepath.Join(d, "package.json")); err == nil && !fi.IsDir() {
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

// mutate replaces the member or item at p of root by v (removes it when v
// is nil), calls fn, and puts it back; it returns the member's path.
func mutate(root *Node, p []int, v *Node, fn func()) string {
	n := root
	var label []string
	for depth, i := range p {
		last := depth == len(p)-1
		switch n.Kind {
		case Object:
			label = append(label, n.Members[i].Key)
			if !last {
				n = n.Members[i].Value
				continue
			}
			saved := n.Members
			if v == nil {
				n.Members = append(saved[:i:i], saved[i+1:]...)
			} else {
				n.Members = append([]Member(nil), saved...)
				n.Members[i].Value = v
			}
			fn()
			n.Members = saved
		case Array:
			label = append(label, fmt.Sprint(i))
			if !last {
				n = n.Items[i]
				continue
			}
			saved := n.Items
			if v == nil {
				n.Items = append(saved[:i:i], saved[i+1:]...)
			} else {
				n.Items = append([]*Node(nil), saved...)
				n.Items[i] = v
			}
			fn()
			n.Items = saved
		}
	}
	return "/" + strings.Join(label, "/")
}

// mutationAdds lists the objects a member is added to: every
// metadata.cinatra object and every gate step.
func mutationAdds(root *Node) [][]int {
	var out [][]int
	var walk func(n *Node, at []int, parentKey, grandKey string)
	walk = func(n *Node, at []int, parentKey, grandKey string) {
		if n == nil {
			return
		}
		switch n.Kind {
		case Object:
			for i, m := range n.Members {
				p := append(append([]int(nil), at...), i)
				if m.Value != nil && m.Value.Kind == Object && m.Key == "cinatra" && parentKey == "metadata" {
					out = append(out, p)
				}
				walk(m.Value, p, m.Key, parentKey)
			}
		case Array:
			for i, it := range n.Items {
				p := append(append([]int(nil), at...), i)
				if parentKey == "gateSteps" && it.Kind == Object {
					out = append(out, p)
				}
				walk(it, p, parentKey, grandKey)
			}
		}
	}
	walk(root, nil, "", "")
	return out
}

// addedKeys are the members the compiler's steps read, added one at a time.
var addedKeys = []string{"name", "description", "renderer", "requiresApproval", "riskClass", "hitlOwnedBy",
	"gateCount", "a2uiSurfaceId", "a2uiSurfaceIdOverride", "packageName"}

// addMember adds the member key: v to the object at p of root, calls fn,
// and removes it again; it returns a label.
func addMember(root *Node, p []int, key string, v *Node, fn func()) string {
	n := root
	var label []string
	for _, i := range p {
		if n.Kind == Object {
			label = append(label, n.Members[i].Key)
			n = n.Members[i].Value
		} else {
			label = append(label, fmt.Sprint(i))
			n = n.Items[i]
		}
	}
	saved := n.Members
	n.Members = append(saved[:len(saved):len(saved)], Member{Key: key, Value: v})
	fn()
	n.Members = saved
	return "/" + strings.Join(label, "/") + "+" + key
}

// mutationBases are the agents mutated: the fixture agents and two flows
// held in memory (an AgentNode backed by an A2AAgent, a FlowNode with
// gate steps) that the fixtures lack.
func mutationBases(t *testing.T) map[string]*Agent {
	bases := map[string]*Agent{}
	for _, dir := range fixtureAgents(t) {
		a, err := Load(dir, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		bases[filepath.Base(dir)] = a
	}
	bases["mem-a2a"] = memAgent(t, flowJSON(`{"type":"flow"}`, []string{"s", "prep", "a", "e"}, []string{"s>prep", "prep>a", "a>e"},
		[]string{"s.q>a.question", "prep.x>a.px", "s.q>prep.q"}, map[string]string{"s": startC, "e": endC,
			"prep": `{"component_type":"ApiNode","id":"prep","name":"Prep","url":"/api/x"}`,
			"a": `{"component_type":"AgentNode","id":"a","name":"Ask","agent":{"$component_ref":"remote"},
				"metadata":{"cinatra":{"riskClass":"read_only","renderer":"@p/r:own","hitlOwnedBy":"childAgent","description":"Ask the remote"}}}`,
			"remote": `{"component_type":"A2AAgent","id":"remote","name":"R","agent_url":"/api/a2a/r","connection_config":{"$component_ref":"a2a-default-connection"},
				"metadata":{"cinatra":{"packageName":"@p/remote","requiresApproval":true,"a2uiSurfaceId":"leaf-surface"}}}`}), "")
	bases["mem-gates"] = memAgent(t, flowJSON(`{"type":"flow"}`, []string{"s", "f", "g", "e"}, []string{"s>f", "f>g", "g>e"},
		[]string{"s.q>f.q", "f.o>g.i"}, map[string]string{"s": startC, "e": endC,
			"f": `{"component_type":"FlowNode","id":"f","name":"F","subflow":{"$component_ref":"sub"},"metadata":{"cinatra":{"packageName":"@p/f",
				"gateSteps":[{"name":"One","renderer":"@p/f:one","gateCount":1},{"riskClass":"x_publish"}]}}}`,
			"sub": `{"component_type":"Flow","$referenced_components":{"ctx":{"component_type":"InputMessageNode","id":"ctx-1","metadata":{"cinatra":{"requiresApproval":true}}}}}`,
			"g":   `{"component_type":"FlowNode","id":"g","name":"G","subflow":{"$component_ref":"nowhere"},"metadata":{"cinatra":{"packageName":"@p/g"}}}`}), "")
	return bases
}

// TestCompiledBytesMutations: the mutation bases, each with one authored
// value replaced by a value of another type (or removed), or with one
// member added, compile to exactly the bytes recorded in
// testdata/compiled/mutations.txt (a hash per case; the cases reach the
// compiler's paths for unexpected types, undefined members, the members
// each kind of step can have, and keys set by later passes).
//
// Under -short or the race detector one case in 16 runs, each checked
// against its line of the golden.
func TestCompiledBytesMutations(t *testing.T) {
	stride := 1
	if (testing.Short() || race.Enabled) && !*update {
		stride = 16
	}
	var lines []string
	n := 0
	for name, a := range mutationBases(t) {
		src := a.Flow.Src
		root, err := Parse(src)
		if err != nil {
			t.Fatal(err)
		}
		due := func() bool { n++; return n%stride == 0 }
		var sum [sha256.Size]byte
		compile := func() {
			a.Flow = &Doc{Path: a.FlowPath, Src: src, Root: root}
			sum = sha256.Sum256(compiledBytes(t, a))
		}
		record := func(label string, vi int) {
			lines = append(lines, fmt.Sprintf("%s %s#%d %s", name, label, vi, hex.EncodeToString(sum[:8])))
		}
		for _, p := range mutationTargets(root) {
			for vi, v := range mutationValues {
				if due() {
					record(mutate(root, p, v, compile), vi)
				}
			}
		}
		for _, p := range mutationAdds(root) {
			for _, k := range addedKeys {
				for vi, v := range mutationValues[1:] {
					if due() {
						record(addMember(root, p, k, v, compile), vi+1)
					}
				}
			}
		}
	}
	if n < 8000 {
		t.Fatalf("only %d mutation cases", n)
	}
	sort.Strings(lines)
	if stride == 1 {
		checkGolden(t, "mutations.txt", []byte(strings.Join(lines, "\n")+"\n"))
		return
	}
	want, err := os.ReadFile(filepath.Join(compiledGoldenDir, "mutations.txt"))
	if err != nil {
		t.Fatal(err)
	}
	have := map[string]bool{}
	for _, l := range strings.Split(string(want), "\n") {
		have[l] = true
	}
	for _, l := range lines {
		if !have[l] {
			t.Errorf("not in mutations.txt: %s", l)
		}
	}
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
			for i := range w {
				w[i] = pinnedKeyOrder(w[i])
			}
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
