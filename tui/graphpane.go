package tui

import (
	"github.com/oastui/oastui/views"
)

// graphState is the graph pane: the flow being shown (a stack for
// drill-down), the selected node, the scroll position.
type graphState struct {
	good  *Analysis
	stack []string // flow pointers, root first
	w, h  int
}

func (g *graphState) init() { g.stack = []string{""} }

func (g *graphState) setAnalysis(good, cur *Analysis) { g.good = good }
func (g *graphState) setSize(w, h int)                { g.w, g.h = w, h }

func (g *graphState) view(th views.Theme) []string {
	if g.good == nil {
		return []string{th.Dim.Render("analysing…")}
	}
	var out []string
	for _, f := range g.good.Flows {
		out = append(out, views.Clean(f.Name)+"  "+th.Dim.Render(f.Err))
	}
	return out
}

func (g *graphState) breadcrumb() string {
	if g.good == nil || len(g.good.Flows) == 0 {
		return ""
	}
	return views.Clean(g.good.Flows[0].Name)
}

func (g *graphState) move(d int)                       {}
func (g *graphState) moveSide(d int)                   {}
func (g *graphState) scroll(dx, dy int)                {}
func (g *graphState) first()                           {}
func (g *graphState) last()                            {}
func (g *graphState) open()                            {}
func (g *graphState) back()                            {}
func (g *graphState) selectPointer(ptr string)         {}
func (g *graphState) selectID(id string)               {}
func (g *graphState) nodeInfo() *views.NodeInfo        { return nil }
func (g *graphState) nodePosition() (string, int, int) { return "", 0, 0 }
