package workspace

import (
	"path/filepath"
	"sort"
	"strings"
)

// Change is what a set of changed files asks a live face to do.
type Change struct {
	// All: a file every agent reads changed (the _shared registry, an
	// .oastui.yaml): re-review every agent.
	All bool
	// Agents are the directories of the agents to re-review: each agent
	// holding a changed file, and every agent that depends on one of them,
	// transitively (its orchestrators, theirs, …), sorted.
	Agents []string
	// Rescan: a changed path lies in no known package (a package may have
	// appeared); list the tree's packages again and review the new ones.
	Rescan bool
}

// Affected maps changed paths (as the watcher reports them) to the agents
// whose review they can change.
func (ix *Index) Affected(paths []string) Change {
	var ch Change
	hit := map[int]bool{}
	var queue []int
	for _, p := range paths {
		p = absPath(p)
		base := filepath.Base(p)
		if base == ".oastui.yaml" || ix.isShared(p) {
			ch.All = true
			continue
		}
		if i, ok := ix.owner(p); ok {
			if !hit[i] {
				hit[i] = true
				queue = append(queue, i)
			}
			continue
		}
		if ix.registryOf(p) {
			ch.All = true
			continue
		}
		ch.Rescan = true
	}
	if ch.All {
		ch.Agents = make([]string, len(ix.Agents))
		for i := range ix.Agents {
			ch.Agents[i] = ix.Agents[i].Dir
		}
		sort.Strings(ch.Agents)
		return ch
	}
	for h := 0; h < len(queue); h++ {
		for _, d := range ix.Dependents(queue[h]) {
			if !hit[d] {
				hit[d] = true
				queue = append(queue, d)
			}
		}
	}
	for i := range hit {
		ch.Agents = append(ch.Agents, ix.Agents[i].Dir)
	}
	sort.Strings(ch.Agents)
	return ch
}

// owner is the agent whose package directory holds p (the deepest one).
func (ix *Index) owner(p string) (int, bool) {
	for d := p; ; {
		if i, ok := ix.byDir[d]; ok {
			return i, true
		}
		parent := filepath.Dir(d)
		if parent == d {
			return 0, false
		}
		d = parent
	}
}

// isShared says p lies in a _shared directory of the tree (the global
// registry's agents/_shared/cinatra/components.json).
func (ix *Index) isShared(p string) bool {
	for _, part := range strings.Split(filepath.ToSlash(p), "/") {
		if part == "_shared" {
			return true
		}
	}
	return false
}

// registryOf says p is the registry some agent read (a --registry outside
// the tree).
func (ix *Index) registryOf(p string) bool {
	for i := range ix.Agents {
		if ix.Agents[i].Registry == p || ix.Agents[i].Config == p {
			return true
		}
	}
	return false
}
