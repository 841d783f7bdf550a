package compile

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/internal/hostile"
)

func corpusAgentDirs(b *testing.B) []string {
	dirs, _ := filepath.Glob(filepath.Join(corpusDir(b), "agents", "cinatra-ai", "*"))
	if len(dirs) == 0 {
		b.Skip("no corpus agents")
	}
	return dirs
}

// BenchmarkCompileCorpus compiles the 25 corpus agents (already loaded)
// once per iteration.
func BenchmarkCompileCorpus(b *testing.B) {
	var agents []*Agent
	for _, d := range corpusAgentDirs(b) {
		a, err := Load(d, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Compile(a); err != nil { // warms each agent's child cache
			b.Fatal(err)
		}
		agents = append(agents, a)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range agents {
			if _, err := Compile(a); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkCompileCorpusJSON compiles the 25 corpus agents and renders
// each result as `oastui compile` prints it.
func BenchmarkCompileCorpusJSON(b *testing.B) {
	var agents []*Agent
	for _, d := range corpusAgentDirs(b) {
		a, err := Load(d, LoadOptions{})
		if err != nil {
			b.Fatal(err)
		}
		agents = append(agents, a)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, a := range agents {
			if _, err := IndentJSON(NewResult(Compile(a))); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkParseCorpus parses the 25 corpus flow files once per iteration.
func BenchmarkParseCorpus(b *testing.B) {
	var srcs [][]byte
	var n int64
	for _, d := range corpusAgentDirs(b) {
		src, err := os.ReadFile(filepath.Join(d, "cinatra", "oas.json"))
		if err != nil {
			b.Fatal(err)
		}
		srcs = append(srcs, src)
		n += int64(len(src))
	}
	b.SetBytes(n)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, s := range srcs {
			if _, err := Parse(s); err != nil {
				b.Fatal(err)
			}
		}
	}
}

// largeFlow generates a flow of n FlowNodes in a chain, each fed by a data
// edge and expanded by one gateStep, with n StartNode inputs all hidden.
func largeFlow(n int) []byte {
	var nodes, edges, data, comps, inputs, hidden []string
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("n%d", i)
		nodes = append(nodes, `{"$component_ref":"`+id+`"}`)
		if i > 0 {
			edges = append(edges, fmt.Sprintf(`{"component_type":"ControlFlowEdge","name":"e","from_node":{"$component_ref":"n%d"},"to_node":{"$component_ref":"%s"}}`, i-1, id))
			data = append(data, fmt.Sprintf(`{"component_type":"DataFlowEdge","name":"d","source_node":{"$component_ref":"n%d"},"source_output":"o","destination_node":{"$component_ref":"%s"},"destination_input":"i%d"}`, i-1, id, i))
		}
		typ := "FlowNode"
		if i == n-1 {
			typ = "EndNode"
		}
		if i > 0 {
			comps = append(comps, fmt.Sprintf(`"%s":{"component_type":"%s","metadata":{"cinatra":{"gateSteps":[{"name":"g"}]}},"subflow":{"$component_ref":"sub"}}`, id, typ))
		}
		inputs = append(inputs, fmt.Sprintf(`{"title":"in%d","type":"string"}`, i))
		hidden = append(hidden, fmt.Sprintf(`"in%d"`, i))
	}
	comps = append(comps, `"n0":{"component_type":"StartNode","metadata":{"cinatra":{"required":[`+strings.Join(hidden, ",")+`],"hidden":[`+strings.Join(hidden, ",")+`]}},"inputs":[`+strings.Join(inputs, ",")+`]}`,
		`"sub":{"component_type":"Flow","$referenced_components":{}}`)
	return []byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],` +
		`"start_node":{"$component_ref":"n0"},"nodes":[` + strings.Join(nodes, ",") + `],"control_flow_connections":[` + strings.Join(edges, ",") +
		`],"data_flow_connections":[` + strings.Join(data, ",") + `],"$referenced_components":{` + strings.Join(comps, ",") + `}}`)
}

// BenchmarkCompileLarge compiles a generated 10,000-node flow (about 4 MB):
// compile time should grow linearly with the flow.
func BenchmarkCompileLarge(b *testing.B) {
	src := largeFlow(10000)
	a := &Agent{FlowPath: "large/cinatra/oas.json", Flow: ParseDoc("large/cinatra/oas.json", src)}
	if a.Flow.Root == nil {
		b.Fatal(a.Flow.Err)
	}
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		out, err := Compile(a)
		if err != nil || len(out.ApprovalPolicy.Steps) != 9998 {
			b.Fatal(err)
		}
	}
}

// BenchmarkValidateStructuralLarge is the compiler's structural validation
// of a valid 33,000-node flow (the diff's hostile input of issue 35 §12,
// where it runs once a side).
func BenchmarkValidateStructuralLarge(b *testing.B) {
	doc := ParseDoc("large/cinatra/oas.json", hostile.Flow(33000, true))
	if doc.Root == nil {
		b.Fatal(doc.Err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if issues := ValidateFlowStructural(doc.Root); len(issues) != 0 {
			b.Fatal(issues)
		}
	}
}

// BenchmarkCompileHostileLarge compiles the valid 33,000-node flow of the
// diff's hostile input (issue 35 §12: the diff compiles each side).
func BenchmarkCompileHostileLarge(b *testing.B) {
	a := &Agent{FlowPath: "large/cinatra/oas.json", Flow: ParseDoc("large/cinatra/oas.json", hostile.Flow(33000, true))}
	if a.Flow.Root == nil {
		b.Fatal(a.Flow.Err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Compile(a); err != nil {
			b.Fatal(err)
		}
	}
}
