package compile

import (
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// IsAgentDir says dir holds a flow file at one of a package's flow paths.
// Anything but a directory counts: a FIFO or a device there is the agent's
// flow file, which loading then refuses with a finding ("not a regular
// file") rather than the package being passed over.
func IsAgentDir(dir string) bool { return overlay{}.isAgentDir(dir) }

// isAgentDir is IsAgentDir on the disk or a git revision.
func (o overlay) isAgentDir(dir string) bool {
	for _, rel := range FlowCandidates {
		if o.isFile(joinPath(dir, filepath.FromSlash(rel))) {
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
//
// It keeps the listings of the agent packages and of their cinatra/ only
// (those loading asks for), each entry as a name and a type: about 200
// bytes an agent.
//
// Its methods are safe for concurrent use: the workers of a run load
// with one listing, and each gives up a package's listings once it is
// loaded (Forget).
type Listing struct {
	mu   sync.RWMutex
	dirs map[string][]listedEntry // by cleaned path; sorted by name
}

// Forget drops the listings of the package at dir (and of its
// cinatra/): a caller that has loaded it and will not load it again with
// this listing (a later load of it asks the disk).
func (l *Listing) Forget(dir string) {
	dir = cleanPath(dir)
	l.mu.Lock()
	delete(l.dirs, dir)
	delete(l.dirs, joinPath(dir, "cinatra"))
	l.mu.Unlock()
}

// NewListing returns an empty listing, filled by FindAgents.
func NewListing() *Listing { return &Listing{dirs: map[string][]listedEntry{}} }

// listedEntry is one entry of a listed directory: an fs.DirEntry of its
// name and type (Info asks the disk).
type listedEntry struct {
	parent, name string
	typ          fs.FileMode
}

func (e *listedEntry) Name() string               { return e.name }
func (e *listedEntry) IsDir() bool                { return e.typ.IsDir() }
func (e *listedEntry) Type() fs.FileMode          { return e.typ }
func (e *listedEntry) Info() (fs.FileInfo, error) { return os.Lstat(filepath.Join(e.parent, e.name)) }
func (e *listedEntry) String() string             { return fs.FormatDirEntry(e) }

// keep records the listing of dir and returns its entry named cinatra
// (nil without one).
func (l *Listing) keep(dir string, ents []fs.DirEntry) *listedEntry {
	dir = cleanPath(dir)
	out := make([]listedEntry, len(ents))
	for i, e := range ents {
		out[i] = listedEntry{parent: dir, name: e.Name(), typ: e.Type()}
	}
	l.mu.Lock()
	l.dirs[dir] = out
	l.mu.Unlock()
	return findEntry(out, "cinatra")
}

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
	l.mu.RLock()
	ents, ok := l.dirs[cleanPath(dir)]
	l.mu.RUnlock()
	if !ok {
		return nil, false
	}
	out := make([]fs.DirEntry, len(ents))
	for i := range ents {
		out[i] = &ents[i]
	}
	return out, true
}

// kind is what the listings say of path: from its directory's listing,
// or absent when its directory's own directory was listed without it.
func (l *Listing) kind(path string) listedKind {
	if l == nil {
		return listedUnknown
	}
	path = cleanPath(path)
	l.mu.RLock()
	defer l.mu.RUnlock()
	if _, ok := l.dirs[path]; ok {
		return listedDir // it was listed
	}
	parent := dirOfClean(path)
	if parent == path {
		return listedUnknown
	}
	if ents, ok := l.dirs[parent]; ok {
		e := findEntry(ents, filepath.Base(path))
		switch {
		case e == nil:
			return listedAbsent
		case e.typ.IsRegular():
			return listedRegular
		case e.typ.IsDir():
			return listedDir
		}
		return listedUnknown
	}
	if grand := dirOfClean(parent); grand != parent {
		if ents, ok := l.dirs[grand]; ok && findEntry(ents, filepath.Base(parent)) == nil {
			return listedAbsent
		}
	}
	return listedUnknown
}

// findEntry is the entry named name of a listing sorted by name, or nil.
func findEntry(ents []listedEntry, name string) *listedEntry {
	i, ok := sort.Find(len(ents), func(i int) int { return strings.Compare(name, ents[i].name) })
	if !ok {
		return nil
	}
	return &ents[i]
}

// FindAgents is compile.FindAgents on the disk, keeping every listing it
// makes: each directory of the walk, agent packages and their cinatra/
// included, is listed once, and whether it is an agent package is read
// from those listings instead of a stat of each of FlowCandidates.
//
// each, when not nil, is called with every package as the walk finds it
// (in the walk's order, its listings already kept), before FindAgents
// returns them sorted: a caller can start loading the first packages
// while the walk goes on.
func (l *Listing) FindAgents(root string, limit int, each func(dir string)) ([]string, error) {
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
		sub := joinPath(dir, "cinatra")
		if lerr == nil {
			if e := l.keep(dir, ents); e != nil && e.typ.IsDir() {
				if sents, err := os.ReadDir(sub); err == nil {
					l.keep(sub, sents)
				}
			}
		}
		if ov.isAgentDir(dir) {
			out = append(out, dir)
			if each != nil {
				each(dir)
			}
			if limit > 0 && len(out) >= limit {
				return errLimit
			}
			return nil
		}
		l.Forget(dir) // not a package: loading never asks for these listings
		if lerr != nil {
			return lerr
		}
		for _, e := range ents {
			name := e.Name()
			if !e.IsDir() || name == "_shared" || name == "node_modules" || strings.HasPrefix(name, ".") {
				continue
			}
			if err := walk(joinPath(dir, name)); err != nil {
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
