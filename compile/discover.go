package compile

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// IsAgentDir says dir holds a flow file at one of a package's flow paths.
// Anything but a directory counts: a FIFO or a device there is the agent's
// flow file, which loading then refuses with a finding ("not a regular
// file") rather than the package being passed over.
func IsAgentDir(dir string) bool { return overlay{}.isAgentDir(dir) }

// isAgentDir is IsAgentDir on the disk or a git revision.
func (o overlay) isAgentDir(dir string) bool {
	for _, rel := range FlowCandidates {
		if o.isFile(filepath.Join(dir, filepath.FromSlash(rel))) {
			return true
		}
	}
	return false
}

// FindAgents lists the agent packages in the tree below root, sorted: every
// directory that IsAgentDir, not looking inside an agent package, _shared,
// node_modules or hidden directories. limit > 0 stops after that many.
func FindAgents(root string, limit int) ([]string, error) { return findAgents(overlay{}, root, limit) }

// findAgents is FindAgents on the disk or a git revision (FindAgentsRev).
func findAgents(ov overlay, root string, limit int) ([]string, error) {
	var out []string
	errLimit := fs.SkipAll
	err := walkDir(ov, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		name := d.Name()
		if p != root && (name == "_shared" || name == "node_modules" || strings.HasPrefix(name, ".")) {
			return filepath.SkipDir
		}
		if ov.isAgentDir(p) {
			out = append(out, p)
			if limit > 0 && len(out) >= limit {
				return errLimit
			}
			return filepath.SkipDir
		}
		return nil
	})
	if err == errLimit {
		err = nil
	}
	sort.Strings(out)
	return out, err
}

// Listing is what a discovery of agents saw of the disk
// (Listing.FindAgents): the entries of every directory it listed, as
// os.ReadDir gave them. Loading with it (LoadOptions.Listing) takes from
// it what it would otherwise ask the disk again: whether the package's
// flow file, package.json and cinatra.json are there, which of them are
// regular files (read then without a stat first), and the listings of the
// package directory and its cinatra/ for the sibling files. An entry that
// is a link, or a directory it did not list, is asked of the disk as
// before. A listing is a snapshot: a run that changes the files (lint
// --fix) loads without it, and a live face never keeps one.
type Listing struct {
	dirs map[string][]fs.DirEntry // by cleaned path; sorted by name
}

// NewListing returns an empty listing, filled by FindAgents.
func NewListing() *Listing { return &Listing{dirs: map[string][]fs.DirEntry{}} }

// listedKind is what a listing says of a path.
type listedKind uint8

const (
	listedUnknown listedKind = iota // not listed (or a link, or something special): ask the disk
	listedAbsent                    // its directory was listed without it
	listedRegular                   // a regular file
	listedDir                       // a directory
)

// dir is the listing of dir, if it was listed.
func (l *Listing) dir(dir string) ([]fs.DirEntry, bool) {
	if l == nil {
		return nil, false
	}
	ents, ok := l.dirs[filepath.Clean(dir)]
	return ents, ok
}

// kind is what the listings say of path: from its directory's listing,
// or absent when its directory's own directory was listed without it.
func (l *Listing) kind(path string) listedKind {
	if l == nil {
		return listedUnknown
	}
	path = filepath.Clean(path)
	parent := filepath.Dir(path)
	if parent == path {
		return listedUnknown
	}
	if ents, ok := l.dirs[parent]; ok {
		e := findEntry(ents, filepath.Base(path))
		switch {
		case e == nil:
			return listedAbsent
		case e.Type().IsRegular():
			return listedRegular
		case e.Type().IsDir():
			return listedDir
		}
		return listedUnknown
	}
	if grand := filepath.Dir(parent); grand != parent {
		if ents, ok := l.dirs[grand]; ok && findEntry(ents, filepath.Base(parent)) == nil {
			return listedAbsent
		}
	}
	return listedUnknown
}

// findEntry is the entry named name of a listing sorted by name, or nil.
func findEntry(ents []fs.DirEntry, name string) fs.DirEntry {
	i, ok := sort.Find(len(ents), func(i int) int { return strings.Compare(name, ents[i].Name()) })
	if !ok {
		return nil
	}
	return ents[i]
}

// FindAgents is compile.FindAgents on the disk, keeping every listing it
// makes: each directory of the walk, agent packages and their cinatra/
// included, is listed once, and whether it is an agent package is read
// from those listings instead of a stat of each of FlowCandidates.
func (l *Listing) FindAgents(root string, limit int) ([]string, error) {
	st, err := os.Lstat(root)
	if err != nil {
		return nil, err
	}
	if !st.IsDir() { // as filepath.WalkDir: a root that is a link or a file is not walked
		return nil, nil
	}
	ov := overlay{seen: l}
	var out []string
	errLimit := fs.SkipAll
	var walk func(dir string) error
	walk = func(dir string) error {
		ents, lerr := os.ReadDir(dir)
		if lerr == nil {
			l.dirs[filepath.Clean(dir)] = ents
			if e := findEntry(ents, "cinatra"); e != nil && e.Type().IsDir() {
				sub := filepath.Join(dir, "cinatra")
				if sents, err := os.ReadDir(sub); err == nil {
					l.dirs[sub] = sents
				}
			}
		}
		if ov.isAgentDir(dir) {
			out = append(out, dir)
			if limit > 0 && len(out) >= limit {
				return errLimit
			}
			return nil
		}
		if lerr != nil {
			return lerr
		}
		for _, e := range ents {
			name := e.Name()
			if !e.IsDir() || name == "_shared" || name == "node_modules" || strings.HasPrefix(name, ".") {
				continue
			}
			if err := walk(filepath.Join(dir, name)); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(root); err != nil && err != errLimit {
		sort.Strings(out)
		return out, err
	}
	sort.Strings(out)
	return out, nil
}
