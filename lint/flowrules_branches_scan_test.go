package lint

import (
	"fmt"
	"math/rand"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// checkBranchesRef, checkDeclaredBranchesRef and nextOnlyNodesRef are
// checkBranches as it was, with a set of each node's branches and a map of
// the branches its edges take, a fresh list for a next-only node and the
// next-only types in a map: the oracles of TestCheckBranchesSameAsMaps.
func checkBranchesRef(fc *flowCheck) {
	m := fc.m
	for i := range m.Nodes {
		n := &m.Nodes[i]
		bs, known := branches(fc.dm, m, n)
		if !known {
			continue
		}
		if nextOnlyNodesRef[n.Type] {
			bs = []string{"next"}
		}
		set := map[string]bool{}
		for _, b := range bs {
			set[b] = true
		}
		used := map[string]*compile.ControlEdge{}
		for _, e := range n.Out {
			branch := branchOf(e)
			if !set[branch] && n.Type != "EndNode" {
				ptr := e.Pointer
				if e.BranchGiven {
					ptr = compile.Append(e.Pointer, "from_branch")
				}
				fc.report(ptr, RuleBranchUnknown, fmt.Sprintf("control edge %q leaves %q on branch %q, which is not one of its branches %s",
					e.Name, n.Label(), branch, quoteList(bs)))
			}
			if first := used[branch]; first != nil {
				fc.report(e.Pointer, RuleBranchMultipleEdges, fmt.Sprintf("control edges %q and %q both leave %q on branch %q; a branch has one edge",
					first.Name, e.Name, n.Label(), branch))
			} else {
				used[branch] = e
			}
		}
		if len(n.Out) > 0 {
			for _, b := range bs {
				if used[b] == nil {
					fc.p.ReportFix(fc.doc, n.Pointer, RuleBranchUnconnected, fmt.Sprintf("branch %q of %q in flow %q has no control edge; the flow ends there at run time", b, n.Label(), fc.fl),
						branchEdgeFix(fc, n, b))
				}
			}
		}
		checkDeclaredBranchesRef(fc, n, bs, set)
	}
}

func checkDeclaredBranchesRef(fc *flowCheck, n *compile.FlowNode, bs []string, set map[string]bool) {
	decl := n.Comp.Get("branches")
	if !decl.Is(compile.Array) || n.Type == "AgentNode" || isPluginOrUnknown(n.Type) {
		return
	}
	var ds []string
	dup := false
	seen := map[string]bool{}
	for _, b := range decl.Items {
		s := b.StringOr("")
		if seen[s] {
			dup = true
		}
		seen[s] = true
		ds = append(ds, s)
	}
	if dup || len(setDiff(seen, set))+len(setDiff(set, seen)) > 0 {
		sort.Strings(ds)
		fc.report(compile.Append(n.Pointer, "branches"), RuleNodeBranchesMismatch, fmt.Sprintf(
			"%s %q declares branches %s but its configuration gives %s", n.Type, n.Label(), quoteList(ds), quoteList(bs)))
	}
}

var nextOnlyNodesRef = map[string]bool{
	"StartNode": true, "LlmNode": true, "ToolNode": true, "ApiNode": true,
	"InputMessageNode": true, "OutputMessageNode": true, "MapNode": true,
	"ParallelMapNode": true, "ParallelFlowNode": true,
}

// branchFlow is a random Flow of up to 10 nodes of every kind branches
// knows (next-only, End, Branching with up to 20 cases, Agent and plugin
// nodes with declared branches, repeated or not), and control edges on
// given, absent, unknown, repeated and non-string branches, sometimes 20
// from one node (past branchScanMax: the sets' side).
func branchFlow(r *rand.Rand) string {
	n := 1 + r.Intn(10)
	types := []string{"StartNode", "LlmNode", "ToolNode", "EndNode", "BranchingNode", "BranchingNode", "AgentNode", "acme.PluginNode", "MapNode", "ApiNode", "FooNode"}
	pool := []string{`"next"`, `"default"`, `"a"`, `"b"`, `"c"`, `"a"`, `7`, `""`}
	var nodes, edges, defs []string
	for i := 0; i < n; i++ {
		nodes = append(nodes, fmt.Sprintf(`{"$component_ref":"n%d"}`, i))
		ct := types[r.Intn(len(types))]
		if i == 0 {
			ct = "StartNode"
		}
		extra := ""
		if ct == "BranchingNode" && r.Intn(6) != 0 {
			var cases []string
			k := r.Intn(5)
			if r.Intn(5) == 0 {
				k = 17 + r.Intn(4)
			}
			for j := 0; j < k; j++ {
				v := pool[r.Intn(len(pool))]
				if k > 16 {
					v = fmt.Sprintf(`"c%d"`, j)
				}
				cases = append(cases, fmt.Sprintf(`"k%d":%s`, j, v))
			}
			extra += `,"mapping":{` + strings.Join(cases, ",") + `}`
		}
		if r.Intn(3) == 0 {
			var bs []string
			for j := r.Intn(4); j > 0; j-- {
				bs = append(bs, pool[r.Intn(len(pool))])
			}
			extra += `,"branches":[` + strings.Join(bs, ",") + `]`
		}
		defs = append(defs, fmt.Sprintf(`"n%d":{"component_type":%q,"id":"n%d","name":"n%d"%s}`, i, ct, i, i, extra))
	}
	edge := func(i, from int) {
		branch := ""
		if r.Intn(3) != 0 {
			branch = `,"from_branch":` + pool[r.Intn(len(pool))]
		}
		edges = append(edges, fmt.Sprintf(`{"component_type":"ControlFlowEdge","name":"e%d","from_node":{"$component_ref":"n%d"},"to_node":{"$component_ref":"n%d"}%s}`, i, from, r.Intn(n), branch))
	}
	k := r.Intn(3*n + 1)
	for i := 0; i < k; i++ {
		edge(i, r.Intn(n))
	}
	if r.Intn(6) == 0 {
		from := r.Intn(n)
		for i := 0; i < 20; i++ {
			edge(k+i, from)
		}
	}
	return `{"component_type":"Flow","id":"f","name":"f","start_node":{"$component_ref":"n0"},"nodes":[` + strings.Join(nodes, ",") +
		`],"control_flow_connections":[` + strings.Join(edges, ",") + `],"$referenced_components":{` + strings.Join(defs, ",") + `}}`
}

// TestCheckBranchesSameAsMaps: checkBranches, which scans a node's few
// branches and edges in arrays (the sets past branchScanMax), reports what
// the version with sets did — the same findings, messages, pointers and
// fixes in the same order — on 3,000 random Flows; nextOnlyNode is the
// map it replaced on every type and near misses.
func TestCheckBranchesSameAsMaps(t *testing.T) {
	r := rand.New(rand.NewSource(39))
	scanned, mapped, reported := 0, 0, 0
	for i := 0; i < 3000; i += race.Stride(8) {
		src := branchFlow(r)
		a := &compile.Agent{FlowPath: "oas.json", Flow: compile.ParseDoc("oas.json", []byte(src)), Profile: compile.ProfileCinatra}
		if a.Flow.Root == nil {
			t.Fatalf("flow %d does not parse: %v", i, a.Flow.Err)
		}
		dm := a.Model()
		for _, m := range dm.Flows {
			got, want := &Pass{Agent: a, Config: &Config{}}, &Pass{Agent: a, Config: &Config{}}
			checkBranches(newFlowCheck(got, dm, m, true))
			checkBranchesRef(newFlowCheck(want, dm, m, true))
			if !reflect.DeepEqual(got.found, want.found) {
				t.Fatalf("flow %d:\n got %+v\nwant %+v\n%s", i, got.found, want.found, src)
			}
			reported += len(want.found)
			for k := range m.Nodes {
				if bs, known := branches(dm, m, &m.Nodes[k]); known {
					if len(bs) > branchScanMax || len(m.Nodes[k].Out) > branchScanMax {
						mapped++
					} else {
						scanned++
					}
				}
			}
		}
	}
	t.Logf("scanned %d nodes, %d by the sets, %d findings", scanned, mapped, reported)
	if scanned < 1000/race.Stride(8) || mapped < 20/race.Stride(8) || reported < 1000/race.Stride(8) {
		t.Errorf("scanned %d nodes, %d by the sets, %d findings", scanned, mapped, reported)
	}
	for _, ty := range []string{"StartNode", "LlmNode", "ToolNode", "ApiNode", "InputMessageNode", "OutputMessageNode", "MapNode", "ParallelMapNode", "ParallelFlowNode",
		"EndNode", "BranchingNode", "AgentNode", "FlowNode", "", "startnode", "StartNode ", "LlmNodes", "Map"} {
		if nextOnlyNode(ty) != nextOnlyNodesRef[ty] {
			t.Errorf("nextOnlyNode(%q) = %v", ty, nextOnlyNode(ty))
		}
	}
}
