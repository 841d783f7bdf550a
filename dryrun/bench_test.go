package dryrun_test

import (
	"path/filepath"
	"testing"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/internal/testshared"
)

// BenchmarkExploreLargest: the full exploration of the largest corpus
// agent (blog-pipeline-agent: 8 flows, 7 FlowNodes, 3 BranchingNodes),
// loaded once; target under 50 ms an exploration.
//
//	go test ./dryrun -run '^$' -bench ExploreLargest -benchmem
func BenchmarkExploreLargest(b *testing.B) {
	dir := testshared.Corpus(b)
	a, err := compile.Load(filepath.Join(dir, "agents", "cinatra-ai", "blog-pipeline-agent"), compile.LoadOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		r := dryrun.Explore(a, dryrun.Options{Children: a.FindAgent})
		if r.Explored == 0 {
			b.Fatal("nothing explored")
		}
	}
}
