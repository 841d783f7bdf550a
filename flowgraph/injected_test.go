package flowgraph

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
)

func slimFixture(name string) string {
	return filepath.Join("..", "lint", "testdata", "rules", "ok", "context_slot_mount_refused", name)
}

// The graph holds the context steps the WayFlow loader injects at mount
// for slim slots (docker/wayflow/context_subflow_injection.py @b76ddc22):
// chained after the start in declaration order, the start's successor
// after the last, a bindings data edge into the consumer; marked Injected,
// with no place in the file.
func TestGraphShowsInjectedContextSteps(t *testing.T) {
	a, err := compile.Load(slimFixture("slim-two-slots-qualified"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	g, err := Build(a, "")
	if err != nil {
		t.Fatal(err)
	}
	if g.view != a.Model().Flows[0].View() {
		t.Error("the graph is not drawn from the flow model's view")
	}
	var edges, data []string
	for _, e := range g.Edges {
		edges = append(edges, e.From+">"+e.To)
	}
	for _, d := range g.Data {
		if strings.HasPrefix(d.From, "context_") {
			data = append(data, d.From+"."+d.Output+">"+d.To+"."+d.Input)
		}
	}
	for _, want := range []string{"start>context_draftContext", "context_draftContext>context_voiceContext", "context_voiceContext>write", "write>end"} {
		if !strings.Contains(" "+strings.Join(edges, " ")+" ", " "+want+" ") {
			t.Errorf("edges %v lack %s", edges, want)
		}
	}
	if strings.Contains(" "+strings.Join(edges, " ")+" ", " start>write ") {
		t.Errorf("the start still leads to the consumer: %v", edges)
	}
	if strings.Join(data, " ") != "context_draftContext.contextSlotBindings>write.draftContextContextSlotBindings context_voiceContext.contextSlotBindings>write.voiceContextContextSlotBindings" {
		t.Errorf("data %v", data)
	}
	for _, id := range []string{"context_draftContext", "context_voiceContext"} {
		i := g.NodeIndex(id)
		if i < 0 || !g.Nodes[i].Injected || g.Nodes[i].Pointer != "" || !strings.HasSuffix(g.Nodes[i].Name, compile.InjectedSuffix) || !g.view.Nodes[i].Injected {
			t.Errorf("%s: %+v", id, g.Nodes)
		}
	}
	if i := g.NodeIndex("write"); i < 0 || g.Nodes[i].Injected {
		t.Error("the consumer is marked injected")
	}
	// A refused mount injects nothing: the graph is the file's.
	r, err := compile.Load(filepath.Join("..", "lint", "testdata", "rules", "err", "context_slot_mount_refused", "no-consumer"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if g, _ := Build(r, ""); g == nil || g.NodeIndex("context_draftContext") >= 0 {
		t.Errorf("a refused mount shows an injected step")
	}
}
