package flowgraph

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// edgeEndsSame checks, for every Flow of a, that the view's edge ends
// viewEdgeEnds gives are what the graph's index finds for the edges' ids
// (edgesBySource as it was), and returns how many Flows it answered for
// and how many it left to the look-ups.
func edgeEndsSame(t *testing.T, a *compile.Agent) (answered, left int) {
	t.Helper()
	for _, f := range a.Flows() {
		g := BuildFlow(a, f)
		from, to, ok := viewEdgeEnds(g.view)
		if !ok {
			left++
			continue
		}
		answered++
		for i, e := range g.Edges {
			if want := [2]int32{int32(g.index[e.From]), int32(g.index[e.To])}; [2]int32{from[i], to[i]} != want {
				t.Fatalf("flow %q, edge %d (%s → %s): ends %d %d, the index finds %v", f.Pointer, i, e.From, e.To, from[i], to[i], want)
			}
		}
		if got, want := g.edgesBySourceOf(from, to), g.edgesBySource(); !reflect.DeepEqual(got, want) {
			t.Fatalf("flow %q: %+v, by look-ups %+v", f.Pointer, got, want)
		}
	}
	return answered, left
}

// TestViewEdgeEndsAsIndex: the edges' ends BuildFlow takes from the view
// are those the graph's index finds, over the test agent, the corpus and
// the slim-slot fixture; and a Flow whose injected step takes a node's id
// (a file node named as the step) is left to the look-ups, whose ends
// differ from the view's there.
func TestViewEdgeEndsAsIndex(t *testing.T) {
	if n, _ := edgeEndsSame(t, testAgent(t)); n == 0 {
		t.Fatal("no flow answered")
	}
	// the end node renamed as the first injected step is shown (a control
	// character dropped from its id): its key's place in the index is
	// the step's
	dir := t.TempDir()
	src := slimFixture("slim-two-slots-qualified")
	for _, rel := range []string{"package.json", filepath.Join("cinatra", "oas.json")} {
		b, err := os.ReadFile(filepath.Join(src, rel))
		if err != nil {
			t.Fatal(err)
		}
		b = []byte(strings.ReplaceAll(string(b), `"end"`, `"context_draftContext\u0007"`))
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	a, err := compile.Load(dir, compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, left := edgeEndsSame(t, a); left == 0 {
		t.Fatal("the flow whose injected step took a node's id was answered from the view")
	}
	g := BuildFlow(a, a.Flows()[0])
	differ := false
	for i, e := range g.view.Edges {
		differ = differ || g.index[g.Edges[i].From] != e.From || g.index[g.Edges[i].To] != e.To
	}
	if !differ {
		t.Fatal("the collision moved no edge's end in the index")
	}
	a, err = compile.Load(slimFixture("slim-two-slots-qualified"), compile.LoadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, left := edgeEndsSame(t, a); left == 0 {
		t.Fatal("the flow with injected steps was answered from the view")
	}
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for _, slug := range slugs {
			a, err := compile.Load(filepath.Join(dir, "agents", "cinatra-ai", slug), compile.LoadOptions{})
			if err != nil {
				t.Fatal(err)
			}
			edgeEndsSame(t, a)
		}
	})
}
