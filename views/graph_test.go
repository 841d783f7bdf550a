package views

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/internal/testshared"
)

func snapshot(t *testing.T, name string) *analysis.Snapshot {
	t.Helper()
	s := analysis.Run(filepath.Join("..", "testdata", "tui", "agents", "oastui-tui", name), analysis.Options{Stages: analysis.Everything})
	if !s.Parsed() {
		t.Fatalf("%s does not load: %+v", name, s.Review.Findings)
	}
	return s
}

func selected(g *Graph) string {
	if _, n := g.SelectedNode(); n != nil {
		return n.ID
	}
	return ""
}

// TestGraphPane drives the graph component without the root model: reading
// order, drill-down into a subflow and back, and a drawing that fits.
func TestGraphPane(t *testing.T) {
	g := NewGraph()
	if got := ansi.Strip(strings.Join(g.Lines(th), "\n")); !strings.Contains(got, "analysing") {
		t.Errorf("empty pane shows %q", got)
	}
	g.SetSize(50, 16)
	g.SetSnapshot(snapshot(t, "subflow-agent"))
	if selected(g) != "start" {
		t.Fatalf("first selection %q", selected(g))
	}
	g.Move(2)
	if selected(g) != "review" {
		t.Fatalf("two down: %q", selected(g))
	}
	if !g.Open() || g.Depth() != 2 || g.Breadcrumb() != "Subflow Agent › Review subflow" {
		t.Fatalf("open: depth %d breadcrumb %q", g.Depth(), g.Breadcrumb())
	}
	lines := g.Lines(th)
	if len(lines) > 16 || !strings.Contains(ansi.Strip(strings.Join(lines, "\n")), "Check draft") {
		t.Errorf("subflow drawing (%d lines):\n%s", len(lines), ansi.Strip(strings.Join(lines, "\n")))
	}
	for i, l := range lines {
		if w := ansi.StringWidth(l); w > 50 {
			t.Errorf("line %d is %d wide", i, w)
		}
	}
	if !g.Back() || g.Depth() != 1 || selected(g) != "review" {
		t.Errorf("back: depth %d selected %q", g.Depth(), selected(g))
	}
	// A pointer inside the subflow selects the FlowNode in the flow shown.
	g.First()
	g.SelectPointer("/$referenced_components/review/subflow/$referenced_components/r_check/agent")
	if selected(g) != "review" {
		t.Errorf("pointer in the subflow selects %q", selected(g))
	}
	if info := g.NodeInfo(); info == nil || info.Name != "Review" {
		t.Errorf("node info %+v", info)
	}
}

// TestPanesWithoutGoodSnapshot: before any analysis parses, the tabs that
// need one say so.
func TestPanesWithoutGoodSnapshot(t *testing.T) {
	cur := analysis.Run(t.TempDir(), analysis.Options{Stages: analysis.Everything})
	sh := Shown{Cur: cur, Theme: th}
	steps, comp, f := &Steps{}, NewCompiledText(), &Findings{}
	for _, p := range []Pane{steps, comp, f} {
		p.SetSize(60, 8)
		p.Show(sh)
	}
	if s := ansi.Strip(steps.View(th)); !strings.Contains(s, "not compiled") {
		t.Errorf("steps:\n%s", s)
	}
	if s := ansi.Strip(comp.View(th)); !strings.Contains(s, "no graph yet") {
		t.Errorf("compiled:\n%s", s)
	}
	if f.Badge() != "1" || f.Len() != 1 {
		t.Errorf("findings badge %q len %d, want the load failure", f.Badge(), f.Len())
	}
}

// TestGraphBoxesFitThePane: in a pane narrower than the widest box the
// flow is drawn again with names cut inside whole boxes: every box fits,
// so scrolling to any node shows it whole (issue 28).
func TestGraphBoxesFitThePane(t *testing.T) {
	for _, slug := range []string{"blog-pipeline-agent", "email-outreach-agent"} {
		dir := testshared.Dir(t, "corpus", "cinatra", "agents", "cinatra-ai", slug)
		s := analysis.Run(dir, analysis.Options{Stages: analysis.Everything})
		for _, w := range []int{30, 40, 57, 80} {
			g := NewGraph()
			g.SetSize(w, 20)
			g.SetSnapshot(s)
			for _, fl := range s.Flows {
				fg := fl.Drawn()
				if fg == nil || fg.Canvas == nil {
					continue
				}
				_, l := g.drawing(fg)
				for i, n := range fg.Graph.Nodes {
					if b := l.Box(i); b.W > w {
						t.Errorf("%s, %d columns: the box of %q is %d wide", slug, w, n.Name, b.W)
					}
				}
			}
		}
	}
}

// TestGraphDrawingFitsThePane: a drawing wider than the pane (a branch
// side by side) is drawn again with narrower boxes until the whole of it
// fits, so no box is cut at the pane's edge (issue 28: at 80×24 the
// example's boxes lost their right border); only a pane too narrow for
// boxes of minFitBox cells scrolls.
func TestGraphDrawingFitsThePane(t *testing.T) {
	s := analysis.Run(filepath.Join("..", "testdata", "agents", "oastui", "example-agent"), analysis.Options{Stages: analysis.Everything})
	fg := s.Flow("")
	if fg == nil || fg.Canvas == nil {
		t.Fatal("the example's root flow is not drawn")
	}
	wide := fg.Canvas.W
	for _, w := range []int{wide - 1, wide - 10, 42, 36} {
		g := NewGraph()
		g.SetSize(w, 20)
		g.SetSnapshot(s)
		c, l := g.drawing(fg)
		if c.W > w {
			t.Errorf("%d columns: the drawing is %d wide (%d before fitting)", w, c.W, wide)
		}
		for i, n := range fg.Graph.Nodes {
			if b := l.Box(i); b.X+b.W > c.W {
				t.Errorf("%d columns: the box of %q ends at %d, past the drawing's %d", w, n.Name, b.X+b.W, c.W)
			}
		}
	}
	// too narrow for whole boxes side by side: the pane scrolls instead
	g := NewGraph()
	g.SetSize(minFitBox+2, 20)
	g.SetSnapshot(s)
	if c, _ := g.drawing(fg); c.W <= minFitBox+2 {
		t.Errorf("%d columns: a drawing of %d fits, want it to scroll", minFitBox+2, c.W)
	}
}
