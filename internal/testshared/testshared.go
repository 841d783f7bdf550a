// Package testshared finds the project's shared test data, ../shared beside
// the repository (the corpus of real agents, the reference's fixtures, the
// labelled secrets). On a user's machine it is absent, and every test that
// needs it skips with a message saying so.
package testshared

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// root is ../shared beside the module root, found from this file's own
// location so that it is right for a test in any package directory. It is
// unexported on purpose: a path is always returned, present or not, so a
// test asks Dir, which skips when the data is absent.
func root() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("..", "shared")
	}
	// file is <module>/internal/testshared/testshared.go
	return filepath.Join(filepath.Dir(file), "..", "..", "..", "shared")
}

// Dir returns ../shared/rel..., or skips t (t.Skip, naming the missing
// path) when it does not exist: the one way a test asks for shared data.
// A test that only adds shared cases to bundled ones runs them as a
// subtest that calls Dir, so the bundled cases still run without it.
func Dir(t testing.TB, rel ...string) string {
	t.Helper()
	dir := filepath.Join(append([]string{root()}, rel...)...)
	if _, err := os.Stat(dir); err != nil {
		t.Skipf("shared test data not found at %s: skipping (it sits beside the repository in development and CI)", dir)
	}
	return dir
}

// Seeds returns ../shared/rel... and whether it exists, for a fuzz
// target's seed corpus: a fuzz target cannot run shared seeds as a
// subtest, and its bundled seeds must run without the shared data.
func Seeds(rel ...string) (dir string, ok bool) {
	dir = filepath.Join(append([]string{root()}, rel...)...)
	_, err := os.Stat(dir)
	return dir, err == nil
}

// Corpus is Dir(t, "corpus", "cinatra"): the 25 real agents, what the
// reference returns for each, and its scan fixtures.
func Corpus(t testing.TB) string { return Dir(t, "corpus", "cinatra") }

// CorpusAgentCount is how many real agent packages the corpus holds.
const CorpusAgentCount = 25

// CorpusAgents returns the corpus directory and the slugs of its agents
// (agents/cinatra-ai/<slug>), sorted, or skips t. It fails t when the corpus
// does not hold the 25 agents the conformance tests are written for.
func CorpusAgents(t testing.TB) (dir string, slugs []string) {
	t.Helper()
	dir = Corpus(t)
	ents, err := os.ReadDir(filepath.Join(dir, "agents", "cinatra-ai"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			slugs = append(slugs, e.Name())
		}
	}
	if len(slugs) != CorpusAgentCount {
		t.Fatalf("found %d corpus agents, want %d", len(slugs), CorpusAgentCount)
	}
	return dir, slugs
}

// HistoryRevisionCount is how many real revisions the shared history holds
// (history/<agent>/<revision>/cinatra/oas.json).
const HistoryRevisionCount = 156

// HistoryFlows returns the flow file of every revision of the shared
// history, sorted, or skips t. It fails t when fewer than 150 of the
// revisions are found (a history cut short would test too little).
func HistoryFlows(t testing.TB) []string {
	t.Helper()
	revs, err := filepath.Glob(filepath.Join(Dir(t, "corpus", "history"), "*", "*", "cinatra", "oas.json"))
	if err != nil {
		t.Fatal(err)
	}
	if len(revs) < 150 {
		t.Fatalf("%d history revisions, want the %d", len(revs), HistoryRevisionCount)
	}
	return revs
}

// RunSharedAgents runs f on the directory of every corpusStride-th agent
// of the corpus and of every historyStride-th revision of the history,
// as the subtests "corpus" and "history", each skipping alone without
// ../shared: the bundled cases of the test around it still run.
func RunSharedAgents(t *testing.T, corpusStride, historyStride int, f func(t *testing.T, dir string)) {
	t.Helper()
	t.Run("corpus", func(t *testing.T) {
		dir, slugs := CorpusAgents(t)
		for k := 0; k < len(slugs); k += corpusStride {
			f(t, filepath.Join(dir, "agents", "cinatra-ai", slugs[k]))
		}
	})
	t.Run("history", func(t *testing.T) {
		revs := HistoryFlows(t)
		for i := 0; i < len(revs); i += historyStride {
			f(t, filepath.Dir(filepath.Dir(revs[i])))
		}
	})
}
