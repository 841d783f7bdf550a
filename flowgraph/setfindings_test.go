package flowgraph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// under is SetFindings' rule stated plainly: a finding at ptr counts for a
// pointer parent when it is parent or inside it.
func under(ptr, parent string) bool {
	return parent != "" && (ptr == parent || strings.HasPrefix(ptr, parent+"/"))
}

// naiveCounts is SetFindings as it was (each finding against every node's
// pointers and every edge), the oracle the indexed version must equal.
func naiveCounts(g *Graph, fs []compile.Finding) map[string][3]int {
	g.relate()
	edgeFrom := map[string]int{}
	for _, e := range g.Edges {
		edgeFrom[e.Pointer] = g.index[e.From]
	}
	counts := make([][3]int, len(g.Nodes))
	for _, f := range fs {
		if (f.File != "" && g.File != "" && f.File != g.File) || f.Location == "" {
			continue
		}
		hit := map[int]bool{}
		for i, n := range g.Nodes {
			for _, p := range n.related {
				if under(f.Location, p) {
					hit[i] = true
				}
			}
		}
		for p, i := range edgeFrom {
			if under(f.Location, p) {
				hit[i] = true
			}
		}
		for i := range hit {
			switch f.Severity {
			case compile.Blocker:
				counts[i][0]++
			case compile.Warning:
				counts[i][1]++
			default:
				counts[i][2]++
			}
		}
	}
	out := map[string][3]int{}
	for i, n := range g.Nodes {
		if counts[i] != ([3]int{}) {
			out[fmt.Sprint(i, n.ID)] = counts[i]
		}
	}
	return out
}

// findingsAround makes findings at every pointer that counts for a node
// or an edge of g, inside it, beside it ("/a" and "/ab") and above it, in
// each severity.
func findingsAround(g *Graph) []compile.Finding {
	g.relate()
	var ptrs []string
	for _, n := range g.Nodes {
		ptrs = append(ptrs, n.related...)
	}
	for _, e := range g.Edges {
		ptrs = append(ptrs, e.Pointer)
	}
	var fs []compile.Finding
	sev := []compile.Severity{compile.Blocker, compile.Warning, compile.Suggestion}
	for i, p := range ptrs {
		up := p
		if j := strings.LastIndexByte(p, '/'); j > 0 {
			up = p[:j]
		}
		for k, loc := range []string{p, p + "/x/y", p + "x", up, p + "/"} {
			fs = append(fs, compile.Finding{File: g.File, Location: loc, Severity: sev[(i+k)%3]})
		}
	}
	return append(fs, compile.Finding{File: "other.json", Location: ptrs[0], Severity: compile.Blocker},
		compile.Finding{Location: "/", Severity: compile.Warning})
}

// TestSetFindingsMatchesNaive holds the indexed SetFindings to the plain
// rule on the test flow and every corpus agent's flows, findings placed
// on, inside, beside and above every pointer that counts.
func TestSetFindingsMatchesNaive(t *testing.T) {
	check := func(name string, g *Graph) {
		fs := findingsAround(g)
		want := naiveCounts(g, fs)
		g.SetFindings(fs)
		got := map[string][3]int{}
		for i, n := range g.Nodes {
			if c := [3]int{n.Blockers, n.Warnings, n.Suggestions}; c != ([3]int{}) {
				got[fmt.Sprint(i, n.ID)] = c
			}
		}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: counts\n%v\nwant\n%v", name, got, want)
		}
	}
	g, err := Build(testAgent(t), "")
	if err != nil {
		t.Fatal(err)
	}
	check("test flow", g)
	t.Run("corpus", func(t *testing.T) {
		dirs := agentDirs(t, corpusAgentsDir(t))
		for i := 0; i < len(dirs); i += race.Stride(len(dirs)) {
			a, err := compile.Load(dirs[i], compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			for _, f := range a.Flows() {
				check(dirs[i]+" "+f.Pointer, BuildFlow(a, f))
			}
		}
	})
}
