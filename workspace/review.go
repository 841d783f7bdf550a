package workspace

import (
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"sync"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
)

// Stages are the analysis stages a workspace row needs: the review, the
// compiled steps and the context slots (no graphs).
const Stages = analysis.StageCompile | analysis.StageSlots

// ReviewAgent analyses the agent at dir (analysis.Run with Stages) and
// summarises it for the tree at root; MTime is the newest modification
// time of the files it read. Loading is the only I/O, as in analysis.
func ReviewAgent(root, dir string, opts analysis.Options) Agent {
	opts.Stages = Stages
	a := Summarize(root, analysis.Run(dir, opts))
	for _, f := range a.Files {
		if f == a.Registry || f == a.Config {
			continue
		}
		if st, err := os.Stat(f); err == nil && st.ModTime().After(a.MTime) {
			a.MTime = st.ModTime()
		}
	}
	return a
}

// ReviewAll reviews dirs with a bounded pool of workers (0: GOMAXPROCS)
// and returns the summaries in dirs' order; done, when set, is called
// after each one (from the worker's goroutine).
func ReviewAll(root string, dirs []string, opts analysis.Options, workers int, done func(i int, a Agent)) []Agent {
	out := make([]Agent, len(dirs))
	if opts.Load.Packages == nil && len(dirs) > 1 {
		opts.Load.Packages = ScanPackages(root) // one walk for all, not one per orchestrator
	}
	if workers <= 0 {
		workers = runtime.GOMAXPROCS(0)
	}
	workers = max(1, min(workers, len(dirs)))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				out[i] = ReviewAgent(root, dirs[i], opts)
				if done != nil {
					done(i, out[i])
				}
			}
		}()
	}
	for i := range dirs {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	return out
}

// ScanPackages indexes the packages of the agents/ tree holding root
// (compile.TreeRoot) for child-agent look-ups, once for every review of a
// tree (analysis.Options.Load.Packages); nil outside an agents/ tree.
func ScanPackages(root string) *compile.PackageIndex {
	tr := compile.TreeRoot(root)
	if tr == "" {
		return nil
	}
	return compile.ScanPackages(tr)
}

// Packages is the package index of the agents of ix for child-agent
// look-ups, without walking the tree again: valid when the workspace is
// the whole agents/ tree (root is its compile.TreeRoot), else nil (the
// caller scans, ScanPackages). A name given twice goes to the first
// package directory in lexical order, as compile's own scan does.
func (ix *Index) Packages(root string) *compile.PackageIndex {
	abs := absPath(root)
	if compile.TreeRoot(abs) != abs {
		return nil
	}
	type pd struct{ name, dir string }
	var list []pd
	for i := range ix.Agents {
		if a := &ix.Agents[i]; a.Package != "" {
			list = append(list, pd{a.Package, absPath(a.Dir)})
		}
	}
	sort.Slice(list, func(i, j int) bool {
		return filepath.Join(list[i].dir, "package.json") < filepath.Join(list[j].dir, "package.json")
	})
	out := &compile.PackageIndex{Root: abs, ByName: map[string]string{}}
	for _, x := range list {
		if _, dup := out.ByName[x.name]; !dup {
			out.ByName[x.name] = x.dir
		}
	}
	return out
}
