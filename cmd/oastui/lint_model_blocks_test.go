package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/internal/testshared"
)

// resultText is what a lint result says, comparable with another run's:
// its findings, suppressed findings, the agent's summary (without the
// time it took) and its kept documents (path, bytes and every node).
func resultText(r lintResult) string {
	a := r.agent
	a.Took = 0
	var b strings.Builder
	fmt.Fprintf(&b, "%#v\n%#v\n%#v\n%v\n%q\n", r.findings, r.suppressed, a, r.err, r.docPaths)
	for _, d := range r.docs {
		fmt.Fprintf(&b, "%s %q\n", d.Path, d.Src)
		compile.WalkNodes(d.Root, func(n *compile.Node) bool {
			fmt.Fprintf(&b, "%d %d %q %s|", n.Offset, n.Kind, n.Text, compile.PointerOf(n))
			return true
		})
	}
	return b.String()
}

// checkWorkerResultsKept lints dirs twice with one worker (its documents
// and flow models in the same blocks, lent again from one agent to the
// next), then each with no blocks at all: every result the worker handed
// back, read once the blocks served every later agent, is the one lint
// gives without them. Nothing lint keeps (findings, summaries, the
// documents kept for excerpts) aliases the reused memory.
func checkWorkerResultsKept(t *testing.T, dirs []string, keepDocs bool) {
	t.Helper()
	opts := lintStreamOpts(nil)
	w := newLintWorker(opts, keepDocs, nil)
	var got []lintResult
	for range 2 {
		for _, d := range dirs {
			got = append(got, w.lint(d))
		}
	}
	for i, r := range got {
		d := dirs[i%len(dirs)]
		if want := lintOne(d, opts, keepDocs); resultText(r) != resultText(want) {
			t.Fatalf("%s (keepDocs %v): the result kept from the worker changed once later agents reused its blocks", d, keepDocs)
		}
	}
}

func TestLintWorkerResultsOutliveReusedBlocks(t *testing.T) {
	var dirs []string
	root := filepath.Join("..", "..", "testdata", "agents", "oastui")
	ents, err := os.ReadDir(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		if e.IsDir() {
			dirs = append(dirs, filepath.Join(root, e.Name()))
		}
	}
	for _, keep := range []bool{false, true} {
		checkWorkerResultsKept(t, dirs, keep)
	}
	t.Run("corpus", func(t *testing.T) { // needs ../shared (skipped without it)
		dir, slugs := testshared.CorpusAgents(t)
		var corpus []string
		for k := 0; k < len(slugs); k += 6 {
			corpus = append(corpus, filepath.Join(dir, "agents", "cinatra-ai", slugs[k]))
		}
		checkWorkerResultsKept(t, corpus, false)
	})
}
