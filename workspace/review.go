package workspace

import (
	"os"
	"runtime"
	"sync"

	"github.com/oastui/oastui/analysis"
)

// Stages are the analysis stages a workspace row needs: the review, the
// compiled steps and the context slots (no graphs).
const Stages = analysis.StageCompile | analysis.StageSlots

// Review analyses the agent at dir (analysis.Run with Stages) and
// summarises it for the tree at root; MTime is the newest modification
// time of the files it read. Loading is the only I/O, as in analysis.
func Review(root, dir string, opts analysis.Options) Agent {
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
				out[i] = Review(root, dirs[i], opts)
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
