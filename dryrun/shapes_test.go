package dryrun

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
	"github.com/oastui/oastui/internal/testshared"
)

// flowNodeChain is a flow start → m0 → … → m(n-1) → end of FlowNodes whose
// subflow (one Flow, referenced) ends at one EndNode or, with fork, branches to two (every
// FlowNode then doubles the paths).
func flowNodeChain(n int, fork bool) map[string]any {
	sub := flowSpec{nodes: map[string]map[string]any{
		"s0": {"component_type": "StartNode"},
		"s1": {"component_type": "EndNode"},
	}, order: []string{"s0", "s1"}, edges: []string{"s0>s1"}}
	if fork {
		sub = flowSpec{nodes: map[string]map[string]any{
			"s0": {"component_type": "StartNode", "inputs": props("k"), "outputs": props("k")},
			"g":  {"component_type": "BranchingNode", "inputs": props("k"), "outputs": []any{}, "branches": []any{"default", "x"}, "mapping": map[string]any{"v": "x"}},
			"e1": {"component_type": "EndNode"},
			"e2": {"component_type": "EndNode"},
		}, order: []string{"s0", "g", "e1", "e2"}, edges: []string{"s0>g", "g>e1:default", "g>e2:x"}}
	}
	sd := sub.doc()
	sd["id"], sd["name"] = "sub", "sub"
	spec := flowSpec{nodes: map[string]map[string]any{
		"s": {"component_type": "StartNode"},
		"e": {"component_type": "EndNode"},
	}, order: []string{"s"}}
	prev := "s"
	for i := 0; i < n; i++ {
		m := fmt.Sprintf("m%d", i)
		spec.nodes[m] = map[string]any{"component_type": "FlowNode", "subflow": map[string]any{"$component_ref": "sub"}}
		spec.order = append(spec.order, m)
		spec.edges = append(spec.edges, prev+">"+m)
		prev = m
	}
	spec.order = append(spec.order, "e")
	spec.edges = append(spec.edges, prev+">e")
	doc := spec.doc()
	doc["$referenced_components"].(map[string]any)["sub"] = sd // one Flow all call
	return doc
}

// TestSubOutcomesSameAsCopies: a nested flow's last outcome taking the
// path's own steps explores the same paths as copying it for every
// outcome (Options.copyEverySubOutcome, the old way), on chains of FlowNodes whose
// subflows end once or fork, and on every corpus agent.
func TestSubOutcomesSameAsCopies(t *testing.T) {
	same := func(name string, a *compile.Agent, opts Options) {
		t.Helper()
		old := opts
		old.copyEverySubOutcome = true
		want := Explore(a, old)
		got := Explore(a, opts)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("%s: the paths differ from the copying walk's:\n%+v\n%+v", name, got.Paths, want.Paths)
		}
	}
	for _, n := range []int{1, 2, 5} {
		for _, fork := range []bool{false, true} {
			same(fmt.Sprintf("chain %d fork %v", n, fork), agentOf(t, flowNodeChain(n, fork)), Options{})
		}
	}
	same("fork chain under the state cap", agentOf(t, flowNodeChain(6, true)), Options{MaxStates: 40})
	dir := testshared.Corpus(t)
	agents, err := filepath.Glob(filepath.Join(dir, "agents", "*", "*"))
	if err != nil || len(agents) == 0 {
		t.Fatalf("no corpus agents: %v", err)
	}
	explored := 0
	for i := 0; i < len(agents); i += race.Stride(5) {
		a, err := compile.Load(agents[i], compile.LoadOptions{})
		if err != nil || a.Flow == nil {
			continue
		}
		same(agents[i], a, Options{Children: a.FindAgent})
		explored++
	}
	if explored == 0 {
		t.Fatal("no corpus agent explored")
	}
}

// BenchmarkExploreFlowNodeChain: the dry run of a chain of n FlowNodes.
// Per node it should stay flat as the chain grows: the path was copied at
// every FlowNode (5,000: 19 s and 9 GB).
func BenchmarkExploreFlowNodeChain(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		a := agentOf(b, flowNodeChain(n, false))
		b.Run(fmt.Sprintf("nodes=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Explore(a, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/node")
		})
	}
}

// branchFan is a flow start → BranchingNode of n branches (and default),
// branch i to end node t(i mod ends); with dup, every third branch has a
// second edge and the last branch none.
func branchFan(n, ends int, dup bool) map[string]any {
	spec := flowSpec{nodes: map[string]map[string]any{
		"s": {"component_type": "StartNode", "inputs": props("k"), "outputs": props("k")},
		"e": {"component_type": "EndNode"},
	}, order: []string{"s", "g", "e"}, edges: []string{"s>g", "g>e:default"}, data: []string{"s.k>g.k"}}
	branches, mapping := []any{"default"}, map[string]any{}
	for i := 0; i < ends; i++ {
		t := fmt.Sprintf("t%d", i)
		spec.nodes[t] = map[string]any{"component_type": "EndNode"}
		spec.order = append(spec.order, t)
	}
	for i := 0; i < n; i++ {
		b := fmt.Sprintf("b%d", i)
		branches = append(branches, b)
		mapping[fmt.Sprintf("v%d", i)] = b
		if dup && i == n-1 {
			continue
		}
		spec.edges = append(spec.edges, fmt.Sprintf("g>t%d:%s", i%ends, b))
		if dup && i%3 == 0 {
			spec.edges = append(spec.edges, fmt.Sprintf("g>t%d:%s", (i+1)%ends, b))
		}
	}
	spec.nodes["g"] = map[string]any{"component_type": "BranchingNode", "inputs": props("k"), "outputs": []any{}, "branches": branches, "mapping": mapping}
	return spec.doc()
}

// TestBranchEdgesSameAsScan: grouping a node's edges by branch explores the
// same paths as scanning them per branch (Options.scanEdgesPerBranch, the old way),
// on BranchingNodes of few and many branches, repeated edges of a branch
// and a branch without an edge.
func TestBranchEdgesSameAsScan(t *testing.T) {
	for _, n := range []int{2, 9, 40} {
		for _, dup := range []bool{false, true} {
			for _, opts := range []Options{{}, {MaxStates: 12}} {
				a := agentOf(t, branchFan(n, 1+n/3, dup))
				old := opts
				old.scanEdgesPerBranch = true
				want := Explore(a, old)
				got := Explore(a, opts)
				if len(want.Paths) < 2 {
					t.Fatalf("%d branches: %d paths: the test checks nothing", n, len(want.Paths))
				}
				if !reflect.DeepEqual(got, want) {
					t.Fatalf("%d branches (dup %v, %+v): the paths differ from the scan's:\n%+v\n%+v", n, dup, opts, got.Paths, want.Paths)
				}
			}
		}
	}
}

// BenchmarkExploreBranchFan: the dry run of a BranchingNode of n branches,
// each to its own EndNode. Per branch it should stay flat as n grows: each
// branch scanned all the node's edges (20,000 branches: 1.5 s).
func BenchmarkExploreBranchFan(b *testing.B) {
	for _, n := range []int{1000, 4000} {
		a := agentOf(b, branchFan(n, n, false))
		b.Run(fmt.Sprintf("branches=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Explore(a, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/branch")
		})
	}
}

// dataHub is a flow start → h → end where h takes n inputs, each fed by a
// data edge from start, and gives n outputs, each read by end through a
// data edge: one node with n data edges in and n out. With flow, h is a
// FlowNode whose subflow (referenced) takes the n inputs and gives the n
// outputs.
func dataHub(n int, flow bool) map[string]any {
	ins, outs := make([]string, n), make([]string, n)
	for i := range n {
		ins[i], outs[i] = fmt.Sprintf("i%d", i), fmt.Sprintf("o%d", i)
	}
	spec := flowSpec{nodes: map[string]map[string]any{
		"s": {"component_type": "StartNode", "inputs": props(ins...), "outputs": props(ins...)},
		"h": {"component_type": "ApiNode", "url": "https://example.com", "http_method": "GET", "inputs": props(ins...), "outputs": props(outs...)},
		"e": {"component_type": "EndNode", "inputs": props(outs...), "outputs": props(outs...)},
	}, order: []string{"s", "h", "e"}, edges: []string{"s>h", "h>e"}}
	for i := range n {
		spec.data = append(spec.data, "s."+ins[i]+">h."+ins[i], "h."+outs[i]+">e."+outs[i])
	}
	if !flow {
		return spec.doc()
	}
	spec.nodes["h"] = map[string]any{"component_type": "FlowNode", "subflow": map[string]any{"$component_ref": "hub"}, "inputs": props(ins...), "outputs": props(outs...)}
	sub := flowSpec{nodes: map[string]map[string]any{
		"hs": {"component_type": "StartNode", "inputs": props(ins...), "outputs": props(ins...)},
		"he": {"component_type": "EndNode", "inputs": props(outs...), "outputs": props(outs...)},
	}, order: []string{"hs", "he"}, edges: []string{"hs>he"}}
	sd := sub.doc()
	sd["id"], sd["name"], sd["inputs"], sd["outputs"] = "hub", "hub", props(ins...), props(outs...)
	doc := spec.doc()
	doc["$referenced_components"].(map[string]any)["hub"] = sd
	return doc
}

// BenchmarkExploreDataHub: the dry run of one node with n data edges in
// and n out. Per edge it should stay flat as n grows.
func BenchmarkExploreDataHub(b *testing.B) {
	for _, c := range []struct {
		n    int
		flow bool
	}{{5000, false}, {20000, false}, {5000, true}, {20000, true}} {
		n := c.n
		a := agentOf(b, dataHub(n, c.flow))
		b.Run(fmt.Sprintf("flownode=%v/edges=%d", c.flow, 2*n), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Explore(a, Options{})
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(2*n), "ns/edge")
		})
	}
}
