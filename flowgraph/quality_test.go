package flowgraph

import (
	"bytes"
	"fmt"
	"math"
	"math/rand"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

// Quality against Graphviz dot (issue 5 point 5): the same graphs laid out
// by dot -Tplain with the same box sizes (10 columns per inch, 2 columns
// between nodes, so widths compare in columns), crossings counted for both
// from the order of nodes and edge points on each rank. Skips when dot is
// not installed (apt-get install graphviz).

type dotResult struct {
	crossings int
	width     int // columns
	ranks     int
}

// dotLayout lays g out with dot, with each node as wide as our box.
func dotLayout(t testing.TB, g *Graph, lo *Layout) (dotResult, bool) {
	t.Helper()
	path, err := exec.LookPath("dot")
	if err != nil {
		return dotResult{}, false
	}
	idx := map[string]int{}
	for i, n := range g.Nodes {
		if _, ok := idx[n.ID]; !ok {
			idx[n.ID] = i
		}
	}
	var b strings.Builder
	b.WriteString("digraph g {\n nodesep=0.2; ranksep=0.3;\n node [shape=box, fixedsize=true, height=0.3, label=\"\"];\n")
	for i, n := range g.Nodes {
		if idx[n.ID] != i {
			continue
		}
		fmt.Fprintf(&b, " n%d [width=%.2f];\n", i, float64(lo.Box(i).W)/10)
	}
	for _, e := range g.Edges {
		f, ok1 := idx[e.From]
		to, ok2 := idx[e.To]
		if !ok1 || !ok2 || f == to {
			continue
		}
		fmt.Fprintf(&b, " n%d -> n%d;\n", f, to)
	}
	b.WriteString("}\n")
	cmd := exec.Command(path, "-Tplain")
	cmd.Stdin = strings.NewReader(b.String())
	var out bytes.Buffer
	cmd.Stdout = &out
	if err := cmd.Run(); err != nil {
		t.Fatalf("dot: %v", err)
	}
	return parsePlain(t, out.String()), true
}

// parsePlain reads dot's plain output and counts crossings between
// consecutive ranks, placing each edge on the ranks it spans by
// interpolating its control points.
func parsePlain(t testing.TB, s string) dotResult {
	type pt struct{ x, y float64 }
	nodes := map[string]pt{}
	var edges [][]pt
	var res dotResult
	for _, line := range strings.Split(s, "\n") {
		f := strings.Fields(line)
		if len(f) == 0 {
			continue
		}
		num := func(i int) float64 {
			v, err := strconv.ParseFloat(f[i], 64)
			if err != nil {
				t.Fatalf("plain: %q: %v", line, err)
			}
			return v
		}
		switch f[0] {
		case "graph":
			res.width = int(math.Round(num(2) * 10))
		case "node":
			nodes[f[1]] = pt{num(2), num(3)}
		case "edge":
			n, _ := strconv.Atoi(f[3])
			var ps []pt
			ps = append(ps, nodes[f[1]])
			for i := 0; i < n; i++ {
				ps = append(ps, pt{num(4 + 2*i), num(5 + 2*i)})
			}
			ps = append(ps, nodes[f[2]])
			edges = append(edges, ps)
		}
	}
	// Ranks: the distinct node y values, top (largest y) first.
	var ys []float64
	seen := map[int64]bool{}
	for _, p := range nodes {
		k := int64(math.Round(p.y * 100))
		if !seen[k] {
			seen[k] = true
			ys = append(ys, p.y)
		}
	}
	sort.Sort(sort.Reverse(sort.Float64Slice(ys)))
	res.ranks = len(ys)
	rankOf := func(y float64) int {
		for i, v := range ys {
			if math.Abs(v-y) < 0.01 {
				return i
			}
		}
		return -1
	}
	// x of a polyline at height y.
	xAt := func(ps []pt, y float64) float64 {
		for i := 0; i+1 < len(ps); i++ {
			a, b := ps[i], ps[i+1]
			if (a.y-y)*(b.y-y) <= 0 && a.y != b.y {
				return a.x + (b.x-a.x)*(y-a.y)/(b.y-a.y)
			}
		}
		return ps[0].x
	}
	type segm struct{ a, b float64 }
	per := make([][]segm, len(ys))
	for _, ps := range edges {
		r1, r2 := rankOf(ps[0].y), rankOf(ps[len(ps)-1].y)
		if r1 < 0 || r2 < 0 || r1 == r2 {
			continue
		}
		if r1 > r2 {
			r1, r2 = r2, r1
		}
		prev := ps[len(ps)-1].x
		if r1 == rankOf(ps[0].y) {
			prev = ps[0].x
		}
		for r := r1 + 1; r <= r2; r++ {
			x := xAt(ps, ys[r])
			if r == r2 {
				if r2 == rankOf(ps[0].y) {
					x = ps[0].x
				} else {
					x = ps[len(ps)-1].x
				}
			}
			per[r-1] = append(per[r-1], segm{prev, x})
			prev = x
		}
	}
	const eps = 1e-6
	for _, ss := range per {
		for i := range ss {
			for j := i + 1; j < len(ss); j++ {
				a, b := ss[i], ss[j]
				if (a.a < b.a-eps && a.b > b.b+eps) || (a.a > b.a+eps && a.b < b.b-eps) {
					res.crossings++
				}
			}
		}
	}
	return res
}

type qualityRow struct {
	name            string
	nodes, edges    int
	ours, dot       int // crossings
	ourW, dotW      int
	ourRank, dotRnk int
}

func qualityOf(t testing.TB, name string, g *Graph) (qualityRow, bool) {
	_, lo := Render(g, Options{})
	d, ok := dotLayout(t, g, lo)
	if !ok {
		return qualityRow{}, false
	}
	return qualityRow{name: name, nodes: len(g.Nodes), edges: len(g.Edges), ours: lo.Crossings, dot: d.crossings,
		ourW: lo.Width, dotW: d.width, ourRank: lo.Layers, dotRnk: d.ranks}, true
}

func logQuality(t testing.TB, rows []qualityRow) (ours, dot int) {
	t.Helper()
	var b strings.Builder
	fmt.Fprintf(&b, "%-62s %5s %5s | %9s %9s | %8s %8s | %6s %6s\n", "graph", "nodes", "edges", "cross-us", "cross-dot", "width-us", "width-dot", "layers", "ranks")
	var su, sd, wu, wd int
	for _, r := range rows {
		fmt.Fprintf(&b, "%-62s %5d %5d | %9d %9d | %8d %8d | %6d %6d\n", r.name, r.nodes, r.edges, r.ours, r.dot, r.ourW, r.dotW, r.ourRank, r.dotRnk)
		su, sd, wu, wd = su+r.ours, sd+r.dot, wu+r.ourW, wd+r.dotW
	}
	fmt.Fprintf(&b, "%-62s %5s %5s | %9d %9d | %8d %8d |\n", "TOTAL", "", "", su, sd, wu, wd)
	t.Log("\n" + b.String())
	return su, sd
}

// TestQualityVsDotCorpus: no more crossings than dot on any corpus graph.
func TestQualityVsDotCorpus(t *testing.T) {
	if _, err := exec.LookPath("dot"); err != nil {
		t.Skip("graphviz dot not installed")
	}
	var rows []qualityRow
	dirs := agentDirs(t, corpusAgentsDir(t))
	dirs = append(dirs, agentDirs(t, filepath.Join("..", "testdata", "agents", "oastui"))...)
	for _, dir := range dirs {
		a, err := compile.Load(dir, compile.LoadOptions{})
		if err != nil || a.Flow.Root == nil {
			continue
		}
		for _, f := range compile.Flows(a.Flow.Root) {
			g, err := Build(a, f.Pointer)
			if err != nil {
				t.Fatal(err)
			}
			r, _ := qualityOf(t, filepath.Base(dir)+" "+g.FlowID, g)
			rows = append(rows, r)
			if r.ours > r.dot {
				t.Errorf("%s: %d crossings, dot %d", r.name, r.ours, r.dot)
			}
		}
	}
	logQuality(t, rows)
}

// BenchmarkQualityVsDotSynthetic reports (does not gate) the zoo, random
// graphs and generated flows against dot: a measurement, so a benchmark
// (it was a test that only logged):
//
//	go test ./flowgraph -run '^$' -bench QualityVsDot -benchtime 1x -v
func BenchmarkQualityVsDotSynthetic(b *testing.B) {
	if _, err := exec.LookPath("dot"); err != nil {
		b.Skip("graphviz dot not installed")
	}
	var rows []qualityRow
	for b.Loop() {
		rows = syntheticQuality(b)
	}
	ours, dot := logQuality(b, rows)
	b.ReportMetric(float64(ours), "crossings")
	b.ReportMetric(float64(dot), "dot-crossings")
}

// syntheticQuality lays out the zoo, generated flows and random graphs
// with us and with dot.
func syntheticQuality(t testing.TB) []qualityRow {
	var rows []qualityRow
	names := make([]string, 0, len(zoo))
	for n := range zoo {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		if r, ok := qualityOf(t, "zoo "+n, mk(zoo[n]...)); ok && r.nodes > 0 {
			rows = append(rows, r)
		}
	}
	for _, n := range []int{10, 20, 40, 80, 160, 320} {
		r, _ := qualityOf(t, fmt.Sprintf("generated %d", n), generateGraph(n, 1))
		rows = append(rows, r)
	}
	rnd := rand.New(rand.NewSource(5))
	for _, n := range []int{8, 12, 16, 20, 25, 30, 40, 50} {
		for k := 0; k < 2; k++ {
			r, _ := qualityOf(t, fmt.Sprintf("random %d #%d", n, k), randomGraph(rnd, n))
			rows = append(rows, r)
		}
	}
	return rows
}
