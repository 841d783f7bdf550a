package compile

import (
	"bytes"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/internal/race"
)

// fuzzSeeds returns flow files to seed the fuzzers: the fixture agents,
// the invalid fixtures and, when present, the shared corpus; compacted,
// and only those of at most maxSeed bytes (the fuzzer minimises every new
// input it finds, which is slow on large ones). Run as seeds only (no
// -fuzz) under -race, every third file: each is single-goroutine engine
// work, and the pass without -race (.ci/run) runs them all.
func fuzzSeeds(f *testing.F) [][]byte {
	const maxSeed = 24 << 10
	var out [][]byte
	var globs = []string{
		filepath.Join(fixtureRoot, "oastui", "*", "cinatra", "oas.json"),
		filepath.Join(fixtureRoot, "_shared", "cinatra", "components.json"),
		filepath.Join("..", "lint", "testdata", "rules", "err", "*", "*", "cinatra", "oas.json"),
		filepath.Join("..", "lint", "testdata", "rules", "err", "*", "*.json"),
		filepath.Join("..", "..", "shared", "corpus", "cinatra", "agents", "cinatra-ai", "*", "cinatra", "oas.json"),
		filepath.Join("..", "..", "shared", "corpus", "cinatra", "docs", "*", "cinatra", "oas.json"),
		filepath.Join("..", "..", "shared", "corpus", "cinatra", "fixtures", "files", "*.json"),
	}
	for _, g := range globs {
		paths, _ := filepath.Glob(g)
		for _, p := range paths {
			src, err := os.ReadFile(p)
			if err != nil {
				continue
			}
			var b bytes.Buffer
			if json.Compact(&b, src) == nil {
				src = b.Bytes()
			}
			if len(src) <= maxSeed {
				out = append(out, src)
			}
		}
	}
	if fuzzing() {
		return out
	}
	var sample [][]byte
	for i := 0; i < len(out); i += race.Stride(3) {
		sample = append(sample, out[i])
	}
	return sample
}

// fuzzing reports whether the test binary runs with -fuzz.
func fuzzing() bool {
	f := flag.Lookup("test.fuzz")
	return f != nil && f.Value.String() != ""
}

const fuzzPackage = `{"name":"@fuzz/agent","version":"1.0.0","cinatra":{"agentDependencies":{"@a/b":"1"},"produces":[{"extension":"@cinatra-ai/blog-post-artifact"}]}}`

// FuzzCompile: Compile never panics; a compiled result marshals to JSON;
// StepOrder agrees with the compiled steps; the input tree is not modified.
func FuzzCompile(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s, []byte(fuzzPackage))
	}
	f.Add([]byte(`null`), []byte(`null`))
	f.Add([]byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[{"$component_ref":"s"}],"control_flow_connections":[],"$referenced_components":{"s":{"component_type":"StartNode","metadata":{"cinatra":{"required":"x"}}},"e":{"component_type":"EndNode"}}}`), []byte(`[]`))
	f.Fuzz(func(t *testing.T, flow, pkg []byte) {
		a := &Agent{FlowPath: "fuzz/cinatra/oas.json", Flow: ParseDoc("fuzz/cinatra/oas.json", flow), Package: ParseDoc("fuzz/package.json", pkg)}
		var before any
		if a.Flow.Root != nil {
			before = a.Flow.Root.Interface()
		}
		out, err := Compile(a)
		order := StepOrder(a)
		if a.Flow.Root != nil && !reflect.DeepEqual(a.Flow.Root.Interface(), before) {
			t.Fatalf("Compile modified the tree")
		}
		if err != nil {
			if _, ok := err.(*CompileError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		b, err := json.Marshal(out)
		if err != nil {
			t.Fatalf("marshal: %v", err)
		}
		if !json.Valid(b) {
			t.Fatalf("invalid JSON output")
		}
		byNode := map[string][]int{}
		for _, s := range out.ApprovalPolicy.Steps {
			byNode[s.NodeID] = append(byNode[s.NodeID], s.StepNumber)
		}
		got := map[string][]int{}
		for _, n := range order {
			if len(n.Steps) > 0 {
				got[n.ID] = append(got[n.ID], n.Steps...)
			}
		}
		if !reflect.DeepEqual(got, byNode) {
			t.Fatalf("StepOrder %v, compiled %v", got, byNode)
		}
	})
}

// FuzzParse: Parse never panics; what it accepts is valid JSON that
// encoding/json decodes to the same value; every pointer Walk yields is
// found again by Lookup and has a position.
func FuzzParse(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	for _, s := range []string{``, `{}`, `[]`, `"\u00e9\ud83d\ude00"`, `{"a~/b":[1,2.5e3,-0,true,false,null]}`, `{"a":1,"a":2}`, "\xef\xbb\xbf{}", `[[[[[[]]]]]]`, `1e400`, `{"x":"\u0000"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		root, err := Parse(src)
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("error of type %T", err)
			}
			d := ParseDoc("x.json", src)
			if sf := d.SyntaxFinding(); sf == nil || sf.Line < 1 || sf.Column < 1 {
				t.Fatalf("no positioned invalid_json finding")
			}
			return
		}
		if !json.Valid(src) {
			t.Fatalf("Parse accepted invalid JSON %q", src)
		}
		var want any
		if json.Unmarshal(src, &want) == nil && !reflect.DeepEqual(root.Interface(), want) {
			t.Fatalf("value differs from encoding/json")
		}
		if len(src) > 64<<10 {
			return // the pointer round trip below is quadratic-ish; keep executions fast
		}
		d := &Doc{Path: "x.json", Src: src, Root: root}
		Walk(root, "", func(ptr string, n *Node) bool {
			if d.Lookup(ptr) == nil {
				t.Fatalf("Lookup(%q) = nil", ptr)
			}
			if l, c := d.PointerPosition(ptr); l < 1 || c < 1 {
				t.Fatalf("position %d:%d", l, c)
			}
			return true
		})
	})
}

// fuzzValues are the values FuzzCompileMutations puts into a valid flow:
// every JSON type, and the strings the compiler branches on.
var fuzzValues = []string{`null`, `false`, `true`, `0`, `1`, `-1`, `1.5`, `1e400`, `""`, `"x"`, `"0"`,
	`"StartNode"`, `"EndNode"`, `"AgentNode"`, `"InputMessageNode"`, `"FlowNode"`, `"A2AAgent"`, `"Agent"`,
	`"MCPToolBox"`, `"ApiNode"`, `"Flow"`, `"OpenAiConfig"`, `"/api/llm-bridge"`, `"{{CINATRA_BASE_URL}}/api/agents/passthrough"`,
	`"artifact_materialize"`, `"@a/b:context-selector"`, `"ctx-x"`, `"x_send"`, `"wayflow"`, `[]`, `[null]`, `["x"]`, `[{}]`,
	`{}`, `{"$component_ref":"x"}`, `{"$component_ref":null}`, `{"name":"g"}`, `{"0":"a","1":null}`,
	`{"tool":"artifact_materialize","input":{"extension":"{{x}}"}}`, `{"artifact":{"extension":"@a/b","fanOut":{}}}`}

func countNodes(n *Node) int {
	c := 0
	Walk(n, "", func(string, *Node) bool { c++; return c < 5000 })
	return c
}

func deepCopy(n *Node) *Node {
	c := *n
	c.Members = append([]Member(nil), n.Members...)
	for i := range c.Members {
		c.Members[i].Value = deepCopy(c.Members[i].Value)
	}
	c.Items = append([]*Node(nil), n.Items...)
	for i := range c.Items {
		c.Items[i] = deepCopy(c.Items[i])
	}
	return &c
}

// FuzzCompileMutations takes a valid flow (a fixture or corpus agent) and
// replaces up to 16 of its values (chosen by ops: 2 bytes pick the value,
// 1 byte what to put there: a value of fuzzValues or a copy of another
// value of the document), then checks what FuzzCompile checks. It reaches
// the compiler's handling of wrongly typed values far faster than byte
// mutations of the JSON text do.
func FuzzCompileMutations(f *testing.F) {
	seeds := fuzzSeeds(f)
	if len(seeds) == 0 {
		f.Skip("no seeds")
	}
	for i := range seeds {
		f.Add(uint8(i), []byte{0, 7, 1})
	}
	f.Add(uint8(0), []byte{0, 40, 11, 0, 90, 31, 1, 3, 200})
	f.Fuzz(func(t *testing.T, which uint8, ops []byte) {
		src := seeds[int(which)%len(seeds)]
		root, err := Parse(src)
		if err != nil {
			return
		}
		for i := 0; i+2 < len(ops) && i < 3*16; i += 3 {
			var nodes []*Node
			Walk(root, "", func(_ string, n *Node) bool { nodes = append(nodes, n); return true })
			target := nodes[(int(ops[i])<<8|int(ops[i+1]))%len(nodes)]
			var repl *Node
			if k := int(ops[i+2]); k < len(fuzzValues) {
				repl, _ = Parse([]byte(fuzzValues[k]))
				if repl == nil {
					repl = &Node{Kind: Number, Text: fuzzValues[k]}
				}
			} else {
				src := nodes[(k*7919+i)%len(nodes)]
				if countNodes(src) >= 5000 {
					continue
				}
				repl = deepCopy(src)
			}
			*target = *repl
		}
		a := &Agent{FlowPath: "fuzz/cinatra/oas.json", Flow: &Doc{Path: "fuzz/cinatra/oas.json", Src: src, Root: root},
			Package: ParseDoc("fuzz/package.json", []byte(fuzzPackage))}
		before := root.Interface()
		out, err := Compile(a)
		order := StepOrder(a)
		if !reflect.DeepEqual(root.Interface(), before) {
			t.Fatalf("Compile modified the tree")
		}
		if err != nil {
			if _, ok := err.(*CompileError); !ok {
				t.Fatalf("error of type %T: %v", err, err)
			}
			return
		}
		b, err := IndentJSON(NewResult(out, nil))
		if err != nil || !json.Valid(b) {
			t.Fatalf("marshal: %v", err)
		}
		byNode := map[string][]int{}
		for _, s := range out.ApprovalPolicy.Steps {
			byNode[s.NodeID] = append(byNode[s.NodeID], s.StepNumber)
		}
		got := map[string][]int{}
		for _, n := range order {
			if len(n.Steps) > 0 {
				got[n.ID] = append(got[n.ID], n.Steps...)
			}
		}
		if !reflect.DeepEqual(got, byNode) {
			t.Fatalf("StepOrder %v, compiled %v", got, byNode)
		}
	})
}
