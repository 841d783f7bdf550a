package analysis

import (
	"path/filepath"
	"sort"

	"github.com/oastui/oastui/compile"
)

// WatchSet is what a live face watches to see every change that can alter
// an analysis: exactly the files the analysis read (and the ones whose
// appearance would change it), the directories holding them, and the
// package directories whose new entries the sibling scan would read.
type WatchSet struct {
	Files []string // a change to any of these re-runs the analysis
	Dirs  []string // directories to watch (each file's directory)
	Trees []string // directories whose new or removed files matter (the sibling scan's)
}

// WatchSet of the snapshot: what its agent read, plus the config in force.
// A snapshot that did not load watches the path itself.
func (s *Snapshot) WatchSet() WatchSet {
	if s.Agent == nil {
		p, _ := filepath.Abs(s.Path)
		return WatchSet{Files: []string{p}, Dirs: []string{filepath.Dir(p)}}
	}
	return WatchSetOf(s.Agent, s.Config.Path)
}

// WatchSetOf is the watch set of a loaded agent and its config file ("" for
// none): Agent.Files, the legacy flow paths of the package (a flow moved
// there changes what loads), and the config.
func WatchSetOf(a *compile.Agent, configPath string) WatchSet {
	files := map[string]bool{}
	dirs := map[string]bool{}
	trees := map[string]bool{}
	if a.Siblings != nil {
		for _, d := range a.Siblings.Dirs {
			trees[abs(d)] = true
			dirs[abs(d)] = true
		}
	}
	addFile := func(p string) {
		if p == "" {
			return
		}
		p = abs(p)
		if trees[p] {
			return // a directory of the sibling scan, listed by Agent.Files
		}
		files[p] = true
		dirs[filepath.Dir(p)] = true
	}
	for _, p := range a.Files() {
		addFile(p)
	}
	if a.Dir != "" {
		for _, c := range compile.FlowCandidates {
			addFile(filepath.Join(a.Dir, filepath.FromSlash(c)))
		}
	}
	addFile(configPath)
	return WatchSet{Files: sorted(files), Dirs: sorted(dirs), Trees: sorted(trees)}
}

func abs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return filepath.Clean(p)
}

func sorted(m map[string]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
