package flowgraph

import (
	"fmt"
	"math/rand"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
)

// branchFan is a start node, a BranchingNode with n labelled branches and
// an end node per branch: every bending group of the channel under the
// BranchingNode overlaps about a quarter of the others.
func branchFan(n int) *Graph {
	spec := []string{"start>?g"}
	for i := 0; i < n; i++ {
		spec = append(spec, fmt.Sprintf("?g>end%d:b%d", i, i))
	}
	return mk(spec...)
}

// sameAsAssignFirst renders g with opts and with opts.assignFirst (every
// channel's tracks assigned before the size is measured: the path before
// the bound) and fails unless both drew the same canvas and layout, or
// both refused; a refusal on the bound ("at least W×H") must be one the
// oracle makes too, as wide and no less tall. It returns which of drawn,
// refused alike and refused on the bound happened.
func sameAsAssignFirst(t *testing.T, name string, g *Graph, opts Options) string {
	t.Helper()
	old := opts
	old.assignFirst = true
	wc, wl := Render(g, old)
	gc, gl := Render(g, opts)
	got, want := gc.String(), wc.String()
	if strings.Contains(got, "at least") {
		var n1, e1, w1, h1, n2, e2, w2, h2 int
		if _, err := fmt.Sscanf(got, "(flow too large to draw: %d nodes, %d control edges, at least %dx%d cells", &n1, &e1, &w1, &h1); err != nil {
			t.Fatalf("%s: %q: %v", name, got, err)
		}
		if _, err := fmt.Sscanf(want, "(flow too large to draw: %d nodes, %d control edges, %dx%d cells", &n2, &e2, &w2, &h2); err != nil {
			t.Fatalf("%s: refused on the bound (%q), the oracle drew it or said %q", name, got, want)
		}
		if n1 != n2 || e1 != e2 || w1 != w2 || h1 > h2 || h1 < 1 {
			t.Fatalf("%s: bound %q, oracle %q", name, got, want)
		}
		if gl.Width != gc.W || gl.Height != 1 || gl.Box(0) != (Rect{}) {
			t.Fatalf("%s: the refusal's layout: %+v", name, gl)
		}
		return "bound"
	}
	if got != want || !reflect.DeepEqual(gc, wc) {
		t.Fatalf("%s: the drawing differs from the oracle's:\n%.2000s\n---\n%.2000s", name, got, want)
	}
	gl.parts, wl.parts = nil, nil // a refused drawing's parts are not read
	if !reflect.DeepEqual(gl, wl) {
		t.Fatalf("%s: the layout differs from the oracle's: %+v %+v", name, gl, wl)
	}
	if strings.HasPrefix(got, "(flow too large") {
		return "refused"
	}
	return "drawn"
}

// TestTrackBoundSameAsAssignFirst: measuring a drawing first on the fewest
// tracks its channels need (and refusing it there when already too large)
// draws every drawable graph as assigning every track first did, byte for
// byte, and refuses every graph that path refused: random and generated
// graphs, branch fans, stars and fan-ins against cell limits from drawn to
// refused, and (with ../shared) every Flow of every corpus agent (box
// drawing and ASCII).
func TestTrackBoundSameAsAssignFirst(t *testing.T) {
	seen := map[string]int{}
	// Under -race (the drawing starts no goroutines: the detector adds
	// nothing here but time) a share of the same cases runs.
	short := testing.Short() || race.Enabled
	// the corpus needs ../shared (skipped without it); the graphs below
	// are made here and run everywhere
	t.Run("corpus", func(t *testing.T) {
		drawn := 0
		for _, dir := range agentDirs(t, corpusAgentsDir(t)) {
			a, err := compile.Load(dir, compile.LoadOptions{})
			if err != nil || a.Flow.Root == nil {
				continue
			}
			for _, f := range compile.Flows(a.Flow.Root) {
				g, err := Build(a, f.Pointer)
				if err != nil {
					continue
				}
				if sameAsAssignFirst(t, dir+f.Pointer, g, Options{}) == "drawn" {
					drawn++
				}
				if !short {
					sameAsAssignFirst(t, dir+f.Pointer+" ascii", g, Options{ASCII: true, ShowData: true})
				}
			}
		}
		if drawn < 25 {
			t.Fatalf("%d corpus flows drawn", drawn)
		}
	})
	r := rand.New(rand.NewSource(9))
	count, sizes, limits, generated := 120, []int{3, 20, 120, 400}, []int{1 << 8, 1 << 11, 1 << 14, 1 << 17, 1 << 20}, []int{10, 50, 200}
	if short {
		count, sizes, limits, generated = 3, sizes[:3], []int{1 << 8, 1 << 14}, generated[:1]
	}
	for i := 0; i < count; i++ {
		g := randomGraph(r, 2+r.Intn(30))
		seen[sameAsAssignFirst(t, fmt.Sprint("random ", i), g, Options{})]++
		seen[sameAsAssignFirst(t, fmt.Sprint("random small ", i), g, Options{maxCells: 400 + r.Intn(4000), sparse: true})]++
	}
	for _, n := range generated {
		seen[sameAsAssignFirst(t, fmt.Sprint("generated ", n), generateGraph(n, int64(n)), Options{})]++
	}
	for _, n := range sizes {
		star, fanIn := []string{"start>?s"}, []string{"start>?s"}
		for i := 0; i < n; i++ {
			star = append(star, fmt.Sprintf("?s>end%d", i))
			fanIn = append(fanIn, fmt.Sprintf("?s>m%d:x%d", i, i), fmt.Sprintf("m%d>end", i))
		}
		for _, limit := range limits {
			opts := Options{maxCells: limit, sparse: true}
			for shape, g := range map[string]*Graph{"branches": branchFan(n), "star": mk(star...), "fan-in": mk(fanIn...)} {
				seen[sameAsAssignFirst(t, fmt.Sprintf("%s %d, limit %d", shape, n, limit), g, opts)]++
			}
		}
	}
	if seen["drawn"] == 0 || seen["refused"] == 0 || seen["bound"] == 0 {
		t.Fatalf("the cases checked nothing of one kind: %v", seen)
	}
	t.Logf("%v", seen)
}

// TestTrackBoundBelowAssign: the bound is never above the tracks
// assignTracks gives, and equals them when it says so, on random groups
// (ports and targets on a few columns, fan-outs, straight lines).
func TestTrackBoundBelowAssign(t *testing.T) {
	r := rand.New(rand.NewSource(3))
	exact := 0
	for i := 0; i < 3000; i++ {
		var gs []group
		cols := 2 + r.Intn(30)
		for j := r.Intn(12); j >= 0; j-- {
			x1 := r.Intn(cols)
			g := group{x1s: []int{x1}, track: -1}
			for k := r.Intn(3); k >= 0; k-- {
				g.x2s = append(g.x2s, r.Intn(cols))
			}
			g.x2s = sortedSet(g.x2s)
			g.l, g.r = min(x1, g.x2s[0]), max(x1, g.x2s[len(g.x2s)-1])
			if g.l != g.r {
				g.track = 0
			}
			gs = append(gs, g)
		}
		gs = bundle(gs)
		lb, ok := trackBound(gs)
		n := assignTracks(gs)
		if lb > n || ok && lb != n {
			t.Fatalf("groups %+v: bound %d (exact %v), assigned %d", gs, lb, ok, n)
		}
		if ok {
			exact++
		}
	}
	if exact == 0 || exact == 3000 {
		t.Fatalf("%d of 3000 bounds exact: the test checks one case only", exact)
	}
}

func sortedSet(xs []int) []int {
	out := []int{}
	for _, x := range xs {
		i := 0
		for i < len(out) && out[i] < x {
			i++
		}
		if i == len(out) || out[i] != x {
			out = append(out[:i], append([]int{x}, out[i:]...)...)
		}
	}
	return out
}

// TestBranchFanRefusedEarly: a BranchingNode of 3,000 branches (its
// tracks alone are a few seconds under -race) is refused on the bound,
// and says how large the drawing would at least be.
func TestBranchFanRefusedEarly(t *testing.T) {
	c, lo := Render(branchFan(3000), Options{})
	s := c.String()
	if !strings.HasPrefix(s, "(flow too large to draw: 3002 nodes, 3001 control edges, at least ") || !strings.HasSuffix(s, " cells; use --format dot)\n") || lo.Box(1) != (Rect{}) {
		t.Fatalf("%q", s)
	}
}

// BenchmarkRenderBranchFan: the drawing of a BranchingNode of n branches,
// refused as too large: before (the oracle, tracks assigned first: Θ(n²)
// pairs of overlapping groups) and after (refused on the bound).
func BenchmarkRenderBranchFan(b *testing.B) {
	for _, n := range []int{2000, 8000} {
		g := branchFan(n)
		for _, old := range []bool{true, false} {
			name := "bound"
			if old {
				name = "assignFirst"
			}
			b.Run(fmt.Sprintf("branches=%d/%s", n, name), func(b *testing.B) {
				b.ReportAllocs()
				c0 := processCPU()
				for b.Loop() {
					Render(g, Options{assignFirst: old})
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/branch")
				if c0 >= 0 {
					b.ReportMetric(float64((processCPU()-c0).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/branch")
				}
			})
		}
	}
}
