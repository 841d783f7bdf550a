package compile

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/oastui/oastui/internal/testshared"
)

// sharedArtifactsSame loads the agent at dir twice and checks that the
// artifact checks made once in the model cache are the ones the compiler
// and the linter made each on its own: Compile reading them (after
// ArtifactRefusals made them, or first) compiles as the compiler running
// them itself (ownArtifacts), and ArtifactRefusals returns what the two
// checks return run directly. It returns how many refusals the agent has.
func sharedArtifactsSame(t *testing.T, dir string, opts LoadOptions, lintFirst bool) int {
	t.Helper()
	a, err := Load(dir, opts)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	b, err := Load(dir, opts)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	own := &compiler{a: a, pkg: compilePackageName(a), shareOrder: true, ownArtifacts: true}
	want := compiledJSON(own.run())
	direct := directRefusals(a)
	var refusals []ArtifactRefusal
	if lintFirst {
		refusals = ArtifactRefusals(b)
	}
	got := compiledJSON(Compile(b))
	if !lintFirst {
		refusals = ArtifactRefusals(b)
	}
	if got != want {
		t.Errorf("%s: Compile reading the shared artifact checks differs from the compiler running them\n got %.400s\nwant %.400s", dir, got, want)
	}
	if len(refusals) != len(direct) || len(direct) > 0 && !reflect.DeepEqual(refusalLines(refusals), refusalLines(direct)) {
		t.Errorf("%s: shared refusals %q, direct %q", dir, refusalLines(refusals), refusalLines(direct))
	}
	for i := range refusals {
		if refusals[i].Materialize != direct[i].Materialize || refusals[i].At != nil && PointerOf(refusals[i].At) != PointerOf(direct[i].At) {
			t.Errorf("%s: refusal %d: %+v, direct %+v", dir, i, refusals[i], direct[i])
		}
	}
	if b.Flow != nil && b.Flow.Root != nil && b.sharedCache() != nil && b.sharedArtifactChecks() == nil {
		t.Errorf("%s: the agent's own cache holds no artifact checks", dir)
	}
	return len(direct)
}

// directRefusals is ArtifactRefusals as it was before the model cache
// held the checks: both run over the agent's flow file.
func directRefusals(a *Agent) []ArtifactRefusal {
	if a == nil || a.Flow == nil || a.Flow.Root == nil {
		return nil
	}
	root := a.Flow.Root
	sib := readSibling(a.Package)
	var produces []string
	var refs []producesRef
	if sib != nil {
		produces, refs = sib.produces, sib.producesRefs
	}
	out := collectArtifactBindings(root, sib != nil, produces, refs)
	for _, r := range collectMaterializeNodes(root, sib != nil, produces, refs, bridgeDataOf(root)) {
		r.Materialize = true
		out = append(out, r)
	}
	return out
}

// TestSharedArtifactChecksSame: the artifact checks the compiler and the
// linter share through the agent's model cache are those each made on its
// own, on the fixtures that refuse bindings and materialize nodes and those
// that do not, whichever of the two asks first, and on the corpus; a copy
// of the agent with another package.json does not read them.
func TestSharedArtifactChecksSame(t *testing.T) {
	var dirs []string
	for _, code := range []string{"artifact_binding_refused", "oas_runtime_009", "produces_without_road"} {
		for _, kind := range []string{"ok", "err"} {
			cases, _ := filepath.Glob(filepath.Join("..", "lint", "testdata", "rules", kind, code, "*"))
			dirs = append(dirs, cases...)
		}
	}
	agents, _ := filepath.Glob(filepath.Join(fixtureRoot, "oastui", "*"))
	dirs = append(dirs, agents...)
	refusing := 0
	for _, d := range dirs {
		if fi, err := os.Stat(d); err != nil || !fi.IsDir() {
			continue
		}
		for _, lintFirst := range []bool{false, true} {
			if sharedArtifactsSame(t, d, LoadOptions{}, lintFirst) > 0 && lintFirst {
				refusing++
			}
		}
	}
	if refusing < 2 {
		t.Fatalf("only %d fixtures refuse: the test proves nothing", refusing)
	}
	t.Run("another package.json", func(t *testing.T) {
		d := filepath.Join("..", "lint", "testdata", "rules", "err", "artifact_binding_refused", "binding-outside-produces")
		a, err := Load(d, LoadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(ArtifactRefusals(a)) == 0 {
			t.Fatal("the fixture refuses nothing")
		}
		cp := *a
		cp.Package = nil // the copy keeps the cache (same flow file and registry), not its package.json
		if cp.sharedCache() == nil {
			t.Fatal("the copy has no shared cache: the case proves nothing")
		}
		if cp.sharedArtifactChecks() != nil {
			t.Fatal("the copy without package.json reads checks made against the agent's")
		}
		if got, want := ArtifactRefusals(&cp), directRefusals(&cp); !reflect.DeepEqual(refusalLines(got), refusalLines(want)) {
			t.Fatalf("the copy's refusals %q, want %q", refusalLines(got), refusalLines(want))
		}
	})
	// the corpus needs ../shared (skipped without it)
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := testshared.CorpusAgents(t)
		for i, slug := range slugs {
			sharedArtifactsSame(t, filepath.Join(dir, "agents", "cinatra-ai", slug), LoadOptions{}, i%2 == 0)
		}
	})
}
