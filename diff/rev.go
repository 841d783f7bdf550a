package diff

import (
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// OpenRev opens the git revision rev of the work tree holding path (a
// directory, or a file whose directory is used; a path gone from the disk
// is taken as a file). It is how every face names a side by revision:
// the History tab's Step and lint --new-from-rev.
func OpenRev(path, rev string) (*compile.GitRev, error) {
	dir := path
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		dir = filepath.Dir(dir)
	}
	return compile.OpenGitRev(dir, rev)
}

// AnalyzeSide analyses the agent at path as the revision rev has it (nil: the
// files on disk) with opts, its Load.Rev set to rev, and says whether that
// side holds the agent's files at all (a package directory with a flow
// file, or the file itself). It is the one place a side is analysed: Run
// reads both sides of every diff through it (with the diff's Stages), and
// lint --new-from-rev reads the old revision's findings through it (with
// lint's own options), so both see the same agents.
func AnalyzeSide(path string, rev *compile.GitRev, opts analysis.Options) (*analysis.Snapshot, bool) {
	return analyzeSide(path, rev, opts), sideHas(path, rev)
}

func analyzeSide(path string, rev *compile.GitRev, opts analysis.Options) *analysis.Snapshot {
	opts.Load.Rev = rev
	return analysis.Run(path, opts)
}

// AnalyzeSides runs AnalyzeSide over paths, two or more at a time, and hands each
// snapshot of a side holding its agent to each (with the path's index) as
// soon as it is done; each is called from one goroutine at a time. Paths
// the revision does not hold are skipped: an agent added since has no old
// findings.
func AnalyzeSides(paths []string, rev *compile.GitRev, opts analysis.Options, each func(i int, s *analysis.Snapshot)) {
	var next atomic.Int64
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), len(paths)) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := int(next.Add(1) - 1); i < len(paths); i = int(next.Add(1) - 1) {
				if !sideHas(paths[i], rev) {
					continue
				}
				s := analyzeSide(paths[i], rev, opts)
				mu.Lock()
				each(i, s)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
}
