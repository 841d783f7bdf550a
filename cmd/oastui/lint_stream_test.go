package main

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/race"
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
	checkStreamSameChunked(t, args, lintChunk)
}

// checkStreamSameChunked is checkStreamSame with lintStream's results in
// chunks of chunk.
func checkStreamSameChunked(t *testing.T, args []string, chunk int) {
	t.Helper()
	want, err := lintTargets(args, compile.NewListing(), nil)
	if err != nil {
		t.Fatal(err)
	}
	wl := compile.NewListing()
	if _, err := lintTargets(args, wl, nil); err != nil {
		t.Fatal(err)
	}
	wantRes := lintAll(want, lintStreamOpts(wl), true, nil, func() {})
	sl := compile.NewListing()
	got, res, err := lintStreamChunked(args, sl, lintStreamOpts(sl), true, nil, chunk)
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
		targets, res, err := lintStream(args, l, lintStreamOpts(l), false, nil)
		if err == nil || err.Error() != want.Error() || targets != nil || res != nil {
			t.Errorf("%q: lintStream %q, %d results, error %v; want error %v", args, targets, len(res), err, want)
		}
	}
}

// checkRelPathsInWorkers: the workers' relPaths give every finding,
// suppressed finding and doc the path the run's tail gave them before
// (the same rel applied to the results of workers without one), over
// lintAll and lintStream both.
func checkRelPathsInWorkers(t *testing.T, tree string) {
	t.Helper()
	abs, err := filepath.Abs(tree)
	if err != nil {
		t.Fatal(err)
	}
	t.Chdir(filepath.Dir(abs)) // the tree below the working directory: rel shortens its paths
	args := []string{abs}
	rel := relPather()
	targets, err := lintTargets(args, compile.NewListing(), nil)
	if err != nil {
		t.Fatal(err)
	}
	want := lintAll(targets, lintStreamOpts(nil), true, nil, func() {})
	moved := 0
	for i := range want {
		for j := range want[i].findings {
			f := &want[i].findings[j]
			if r := rel(f.File); r != f.File {
				f.File = r
				moved++
			}
		}
		for j := range want[i].suppressed {
			want[i].suppressed[j].File = rel(want[i].suppressed[j].File)
		}
	}
	if moved == 0 {
		t.Fatal("no finding's path was made relative: the test tests nothing")
	}
	all := lintAll(targets, lintStreamOpts(nil), true, rel, func() {})
	sl := compile.NewListing()
	_, streamed, err := lintStream(args, sl, lintStreamOpts(sl), true, rel)
	if err != nil {
		t.Fatal(err)
	}
	for name, got := range map[string][]lintResult{"lintAll": all, "lintStream": streamed} {
		if len(got) != len(want) {
			t.Fatalf("%s: %d results, want %d", name, len(got), len(want))
		}
		for i := range got {
			g, w := got[i], want[i]
			if !reflect.DeepEqual(g.findings, w.findings) || !reflect.DeepEqual(g.suppressed, w.suppressed) {
				t.Errorf("%s: %s: findings differ:\n%+v\nwant\n%+v", name, targets[i], g.findings, w.findings)
			}
			if len(g.docPaths) != len(g.docs) || len(g.docs) != len(w.docs) {
				t.Fatalf("%s: %s: %d docs, %d paths; want %d", name, targets[i], len(g.docs), len(g.docPaths), len(w.docs))
			}
			for j, d := range g.docs {
				if g.docPaths[j] != rel(d.Path) || d.Path != w.docs[j].Path {
					t.Errorf("%s: %s: doc %s shown as %s, want %s", name, targets[i], d.Path, g.docPaths[j], rel(d.Path))
				}
			}
		}
	}
}

func TestRelPathsInWorkers(t *testing.T) {
	checkRelPathsInWorkers(t, "../../testdata/agents")
	t.Run("corpus", func(t *testing.T) {
		if race.Enabled {
			t.Skip("the corpus under -race: the testdata tree above covers the code")
		}
		checkRelPathsInWorkers(t, filepath.Join(testshared.Corpus(t), "agents"))
	})
}

// TestRelMemo: the memo answers what its function does, for a path
// asked again, after another, and for "" first.
func TestRelMemo(t *testing.T) {
	calls := 0
	fn := func(p string) string { calls++; return "<" + p + ">" }
	m := relMemo{fn: fn}
	for _, p := range []string{"", "", "/a/b", "/a/b", "/a/c", "/a/b", "", "x"} {
		if got := m.rel(p); got != fn(p) {
			t.Errorf("rel(%q) = %q, want %q", p, got, fn(p))
		}
	}
	if calls != 8+6 {
		t.Errorf("%d calls of fn, want 14 (8 by the test, 6 by the memo)", calls)
	}
}

// TestRelPatherFastPath: relPatherFrom gives what filepath.Rel gave (the
// function of before, relRef) for every working directory and path of a
// set built from clean, unclean, relative, prefix-sharing and equal ones.
func TestRelPatherFastPath(t *testing.T) {
	relRef := func(cwd, p string) string {
		if !filepath.IsAbs(p) {
			return p
		}
		r, err := filepath.Rel(cwd, p)
		if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return p
		}
		return r
	}
	cwds := []string{"", ".", "a", "/", "/a", "/a/b", "/a/b/", "/a//b", "/a/./b", "/a/b/..", "/ab"}
	parts := []string{"", "/", "a", "b", "ab", "bc", ".", "..", "//", "/.", "/..", "x.json", "/a", "/a/b", "/ab"}
	var paths []string
	for _, c := range cwds {
		for _, x := range parts {
			for _, y := range parts {
				paths = append(paths, c+x+y, c+"/"+x+"/"+y, x+y)
			}
		}
	}
	fast := 0
	for _, cwd := range cwds {
		rel := relPatherFrom(cwd)
		for _, p := range paths {
			got, want := rel(p), relRef(cwd, p)
			if got != want {
				t.Fatalf("cwd %q: rel(%q) = %q, want %q", cwd, p, got, want)
			}
			if got != p && !strings.HasPrefix(got, ".") && filepath.Join(cwd, got) == p {
				fast++
			}
		}
	}
	if fast == 0 {
		t.Fatal("no path was below its working directory: the test tests nothing")
	}
}
