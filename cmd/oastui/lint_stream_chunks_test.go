package main

import (
	"path/filepath"
	"testing"
)

// lintStream's results in chunks of 2 (not lintChunk, so that
// the bundled tree spans several chunks and ends inside one): the same
// targets and results as lintAll, whether the walk finds the targets in
// their sorted order (the tree alone: no look-up of places) or not (a
// flow file and a package named before the tree). Mutants caught: a
// result read from chunk i%chunk instead of i/chunk, and the
// sorted order's shortcut taken when the walk found another order.
func TestLintStreamChunksSameAsLintAll(t *testing.T) {
	tree := "../../testdata/agents"
	flow := filepath.Join(tree, "oastui", "gate-agent", "cinatra", "oas.json")
	pkg := filepath.Join(tree, "oastui", "leaf-agent")
	checkStreamSameChunked(t, []string{tree}, 2)
	checkStreamSameChunked(t, []string{flow, pkg, tree}, 2)
}
