package flowgraph

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/hostile"
)

// largestCorpusAgent loads the corpus agent with the largest flow file.
func largestCorpusAgent(b *testing.B) *compile.Agent {
	b.Helper()
	var best string
	var size int64
	for _, dir := range agentDirs(b, corpusAgentsDir(b)) {
		st, err := os.Stat(filepath.Join(dir, "cinatra", "oas.json"))
		if err == nil && st.Size() > size {
			best, size = dir, st.Size()
		}
	}
	a, err := compile.Load(best, compile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	return a
}

// BenchmarkCorpusLargest: layout + drawing of the top-level flow of the
// largest corpus agent (blog-pipeline-agent), graph already built.
func BenchmarkCorpusLargest(b *testing.B) {
	a := largestCorpusAgent(b)
	g, err := Build(a, "")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		Render(g, Options{})
	}
}

// BenchmarkCorpusLargestAllFlows: Build + layout + drawing of every Flow of
// the largest corpus agent (what drilling through all of it costs).
func BenchmarkCorpusLargestAllFlows(b *testing.B) {
	a := largestCorpusAgent(b)
	flows := compile.Flows(a.Flow.Root)
	b.ReportAllocs()
	for b.Loop() {
		for _, f := range flows {
			g, err := Build(a, f.Pointer)
			if err != nil {
				b.Fatal(err)
			}
			Render(g, Options{})
		}
	}
}

// BenchmarkGenerated: layout + drawing of generated flows from 10 to
// 10,240 nodes, doubling; reports ns/node (wall) and, on unix, cpu-ns/node
// (the process's CPU time, which a shared machine does not inflate): the
// growth table of the layout (it was TestGrowthReport).
func BenchmarkGenerated(b *testing.B) {
	for n := 10; n <= 10240; n *= 2 {
		g := generateGraph(n, 7)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			c0 := processCPU()
			for b.Loop() {
				Render(g, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(g.Nodes)), "ns/node")
			if c0 >= 0 {
				b.ReportMetric(float64((processCPU()-c0).Nanoseconds())/float64(b.N)/float64(len(g.Nodes)), "cpu-ns/node")
			}
			b.ReportMetric(float64(len(g.Nodes)), "nodes")
		})
	}
}

// BenchmarkBuildGenerated: building the graph model from the parsed file.
func BenchmarkBuildGenerated(b *testing.B) {
	for _, n := range []int{100, 10240} {
		a := generatedAgent(n, 7)
		b.Run(fmt.Sprintf("n=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(a, ""); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkBuildHostileLarge: the graph model of the valid 33,000-node
// flow of the diff's hostile input (issue 35 §12: the diff builds one a
// side), the flow model under it included.
func BenchmarkBuildHostileLarge(b *testing.B) {
	doc := compile.ParseDoc("large/cinatra/oas.json", hostile.Flow(33000, true))
	if doc.Root == nil {
		b.Fatal(doc.Err)
	}
	b.ReportAllocs()
	for b.Loop() {
		a := &compile.Agent{FlowPath: doc.Path, Flow: doc}
		if _, err := Build(a, ""); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuildStar: the graph model of a flow whose start node has one
// edge to each of n end nodes (a hostile fan-out). Per edge it should stay
// flat as n grows: the successors were once deduplicated by a scan of the
// source's list, quadratic in its out-degree (40,000 edges: 0.92 s).
func BenchmarkBuildStar(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		doc := compile.ParseDoc("star/cinatra/oas.json", starFlow(n))
		if doc.Root == nil {
			b.Fatal(doc.Err)
		}
		b.Run(fmt.Sprintf("edges=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Build(&compile.Agent{FlowPath: doc.Path, Flow: doc}, ""); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/edge")
		})
	}
}

// starFlow is a Flow whose start node has an edge to each of n end nodes.
func starFlow(n int) []byte {
	var nodes, edges, comps []string
	nodes = append(nodes, `{"$component_ref":"s"}`)
	comps = append(comps, `"s":{"component_type":"StartNode","name":"s"}`)
	for i := 0; i < n; i++ {
		id := fmt.Sprintf("n%d", i)
		nodes = append(nodes, `{"$component_ref":"`+id+`"}`)
		comps = append(comps, `"`+id+`":{"component_type":"EndNode","name":"`+id+`"}`)
		edges = append(edges, `{"component_type":"ControlFlowEdge","name":"e`+id+`","from_node":{"$component_ref":"s"},"to_node":{"$component_ref":"`+id+`"}}`)
	}
	return []byte(`{"agentspec_version":"26.1.0","component_type":"Flow","id":"f","name":"F","metadata":{"cinatra":{"type":"flow"}},"inputs":[],"outputs":[],"start_node":{"$component_ref":"s"},"nodes":[` +
		strings.Join(nodes, ",") + `],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(comps, ",") + `}}`)
}

// BenchmarkSetFindingsStar: the findings of a star flow counted onto its
// nodes, one finding per node. Per finding it should stay flat as the flow
// grows: each finding was once matched against every node's pointers
// (oastui graph of a 10,000-node star took 8 s, of 40,000 minutes).
func BenchmarkSetFindingsStar(b *testing.B) {
	for _, n := range []int{10000, 40000} {
		doc := compile.ParseDoc("star/cinatra/oas.json", starFlow(n))
		g, err := Build(&compile.Agent{FlowPath: doc.Path, Flow: doc}, "")
		if err != nil {
			b.Fatal(err)
		}
		fs := make([]compile.Finding, 0, n)
		for i := 0; i < n; i++ {
			fs = append(fs, compile.Finding{Location: fmt.Sprintf("/$referenced_components/n%d/name", i), Severity: compile.Warning})
		}
		b.Run(fmt.Sprintf("findings=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				g.SetFindings(fs)
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/finding")
		})
	}
}
