package flowgraph

import (
	"path/filepath"
	"strings"
	"testing"
)

// mk builds a graph from "a>b" edge specs ("a>b:label" for a branch); the
// first node named is the start, nodes named "end…" are EndNodes, names
// starting with "?" are branching nodes.
func mk(spec ...string) *Graph {
	g := &Graph{FlowID: "zoo"}
	add := func(id string) {
		if g.NodeIndex(id) >= 0 {
			return
		}
		if g.index == nil {
			g.index = map[string]int{}
		}
		n := &Node{ID: id, Name: id, Kind: KindAPI}
		switch {
		case len(g.Nodes) == 0:
			n.Kind = KindStart
			g.Start = id
		case strings.HasPrefix(id, "end"):
			n.Kind = KindEnd
		case strings.HasPrefix(id, "?"):
			n.Kind = KindBranch
		}
		g.index[id] = len(g.Nodes)
		g.Nodes = append(g.Nodes, n)
	}
	for _, s := range spec {
		label := ""
		if i := strings.IndexByte(s, ':'); i >= 0 {
			s, label = s[:i], s[i+1:]
		}
		if !strings.Contains(s, ">") {
			add(s)
			continue
		}
		ab := strings.SplitN(s, ">", 2)
		add(ab[0])
		add(ab[1])
		g.Edges = append(g.Edges, Edge{From: ab[0], To: ab[1], Branch: label})
		if ab[0] == ab[1] {
			g.Nodes[g.NodeIndex(ab[0])].SelfLoop = true
		}
	}
	idx := map[string]int{}
	for i, n := range g.Nodes {
		idx[n.ID] = i
	}
	back := backEdges(g, idx)
	for i := range g.Edges {
		g.Edges[i].Back = back[i]
	}
	for i, r := range reachable(g, idx) {
		g.Nodes[i].Reachable = r
	}
	return g
}

var zoo = map[string][]string{
	"chain":      {"start>plan", "plan>act", "act>end"},
	"diamond":    {"start>?check", "?check>fast:yes", "?check>slow:no", "fast>join", "slow>join", "join>end"},
	"loop":       {"start>plan", "plan>tool_call", "tool_call>observe", "observe>plan", "observe>?reflect", "?reflect>answer:done", "?reflect>plan:retry", "answer>end"},
	"self-loop":  {"start>poll", "poll>poll", "poll>end"},
	"two-loops":  {"start>a", "a>b", "b>c", "c>a", "c>d", "d>e", "e>d", "e>end"},
	"long-skip":  {"start>a", "start>end", "a>b", "b>c", "c>end"},
	"fan-out":    {"start>?route", "?route>one:a", "?route>two:b", "?route>three:c", "?route>four:d", "one>end", "two>end", "three>end", "four>end"},
	"crossing":   {"start>a", "start>b", "a>c", "a>d", "b>c", "b>d", "c>end", "d>end"},
	"orphans":    {"start>a", "a>end", "lost", "island>island2", "island2>end"},
	"no-start":   {},
	"same-twice": {"start>?gate", "?gate>end:ok", "?gate>end:skip", "start>end"},
	"labels":     {"start>?g", "?g>a:this branch label is far too long to draw", "?g>b:短い", "a>end", "b>end", "b>?g:再試行"},
}

func TestGoldenZoo(t *testing.T) {
	for name, spec := range zoo {
		t.Run(name, func(t *testing.T) {
			g := mk(spec...)
			if name == "no-start" {
				g = &Graph{FlowID: "zoo", Nodes: []*Node{{ID: "a", Name: "a", Kind: KindAPI}, {ID: "b", Name: "b", Kind: KindAPI}},
					Edges: []Edge{{From: "a", To: "b"}}}
			}
			var b strings.Builder
			c, _ := Render(g, Options{})
			b.WriteString(c.String())
			b.WriteString("\n")
			c, _ = Render(g, Options{ASCII: true})
			b.WriteString(c.String())
			checkGolden(t, filepath.Join("testdata", "zoo", name+".txt"), b.String())
			checkInvariants(t, g, Options{})
		})
	}
}
