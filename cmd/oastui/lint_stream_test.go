package main

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
	"github.com/oastui/oastui/lint"
)

// lintStreamOpts are the options runLint lints with (no config).
func lintStreamOpts(listing *compile.Listing) analysis.Options {
	wd, _ := os.Getwd()
	return analysis.Options{Mode: lint.ModeDeterministic, Stages: analysis.ReviewOnly,
		Load: compile.LoadOptions{Registries: compile.NewRegistryCache(), Listing: listing, WorkDir: wd}}
}

// checkStreamSame: linting the agents as the walk finds them gives the
// targets, in the same order, and the same results as finding them all
// first and linting them then.
func checkStreamSame(t *testing.T, args []string) {
	t.Helper()
	want, err := lintTargets(args, compile.NewListing(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wl := compile.NewListing()
	if _, err := lintTargets(args, wl, nil); err != nil {
		t.Fatal(err)
	}
	wantRes := lintAll(want, lintStreamOpts(wl), true, func() {})
	sl := compile.NewListing()
	got, res, err := lintStream(args, sl, lintStreamOpts(sl), true)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("targets %q, want %q", got, want)
	}
	if len(res) != len(wantRes) {
		t.Fatalf("%d results, want %d", len(res), len(wantRes))
	}
	for i := range res {
		g, w := res[i], wantRes[i]
		g.agent.Took, w.agent.Took = 0, 0 // how long it took (the TUI's rows): never printed by lint
		if !reflect.DeepEqual(g.findings, w.findings) || !reflect.DeepEqual(g.suppressed, w.suppressed) ||
			!reflect.DeepEqual(g.agent, w.agent) || (g.err == nil) != (w.err == nil) || len(g.docs) != len(w.docs) {
			t.Errorf("%s: streamed result differs:\n%+v\nwant\n%+v", got[i], g, w)
		}
		for j := range g.docs {
			if g.docs[j].Path != w.docs[j].Path || string(g.docs[j].Src) != string(w.docs[j].Src) {
				t.Errorf("%s: doc %d %s, want %s", got[i], j, g.docs[j].Path, w.docs[j].Path)
			}
		}
	}
}

func TestLintStreamSameAsLintAll(t *testing.T) {
	tree := "../../testdata/agents"
	pkg := filepath.Join(tree, "oastui", "leaf-agent")
	flow := filepath.Join(tree, "oastui", "gate-agent", "cinatra", "oas.json")
	// repeats: a package inside the tree, the tree twice, a flow file
	checkStreamSame(t, []string{pkg, tree, flow, tree + "/"})
}

// TestLintStreamCorpus: the same over the shared corpus, whose agents
// have findings of every kind.
func TestLintStreamCorpus(t *testing.T) {
	checkStreamSame(t, []string{filepath.Join(testshared.Corpus(t), "agents")})
}

// TestLintStreamUsageErrors: a PATH found bad after the workers started
// is the usage error lintTargets gives, once they have stopped.
func TestLintStreamUsageErrors(t *testing.T) {
	tree := "../../testdata/agents"
	empty := t.TempDir()
	for _, args := range [][]string{
		{tree, filepath.Join(tree, "missing")},
		{tree, empty},
		{tree, "../../go.mod"},
	} {
		_, want := lintTargets(args, compile.NewListing(), nil)
		if want == nil {
			t.Fatalf("%q: lintTargets gave no error", args)
		}
		l := compile.NewListing()
		targets, res, err := lintStream(args, l, lintStreamOpts(l), false)
		if err == nil || err.Error() != want.Error() || targets != nil || res != nil {
			t.Errorf("%q: lintStream %q, %d results, error %v; want error %v", args, targets, len(res), err, want)
		}
	}
}
