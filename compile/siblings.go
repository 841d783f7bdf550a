package compile

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// The package's sibling files (reference cinatra.md §2, last paragraph):
// loading lists and reads the text files of the package directory, within
// these limits, so that the review's credential scan (lint/sibling_scan.go)
// works on loaded data and never touches the file system.
const (
	SiblingMaxFileBytes  = 1 << 20  // reference: files over 1,048,576 bytes are not scanned
	SiblingMaxFiles      = 2000     // files looked at per package
	SiblingMaxTotalBytes = 32 << 20 // bytes read per package
	SiblingMaxDepth      = 16       // directory levels below the package
)

// Why a listed sibling file was not read (SiblingFile.Skipped).
const (
	SiblingBinaryExt  = "binary extension" // an image, archive, font, library… by its extension
	SiblingNotRegular = "not a regular file"
	SiblingTooLarge   = "too large" // over SiblingMaxFileBytes
	SiblingUnreadable = "unreadable"
)

var siblingSkipDirs = stringSet("node_modules", ".git", ".hg", ".svn", "dist", "build", "out", ".next", ".turbo",
	".cache", ".pnpm", "coverage", "__pycache__", ".pytest_cache", ".mypy_cache", ".venv", "venv")

var siblingBinaryExt = stringSet(".png", ".jpg", ".jpeg", ".gif", ".webp", ".ico", ".bmp", ".tif", ".tiff", ".pdf",
	".zip", ".gz", ".tgz", ".tar", ".bz2", ".xz", ".7z", ".rar", ".jar", ".war", ".woff", ".woff2", ".ttf",
	".otf", ".eot", ".mp3", ".mp4", ".mov", ".avi", ".wav", ".ogg", ".webm", ".flac", ".so", ".dylib", ".dll",
	".exe", ".bin", ".class", ".o", ".a", ".wasm", ".pyc", ".sqlite", ".db", ".lockb", ".p12", ".pfx", ".der",
	".dat") // .dat: the platform's sibling scan skips it too (reference cinatra.md §17.3)

// siblingLockfiles: npm's, yarn's, pnpm's and bun's, and the ones the
// platform's sibling scan (packages/agents/src/scan-package-siblings.ts,
// known through reference cinatra.md §17.3 only) added: composer, bundler,
// cargo, poetry and uv.
var siblingLockfiles = stringSet("package-lock.json", "npm-shrinkwrap.json", "yarn.lock", "pnpm-lock.yaml", "bun.lock",
	"composer.lock", "Gemfile.lock", "Cargo.lock", "poetry.lock", "uv.lock")

func stringSet(xs ...string) map[string]bool {
	m := make(map[string]bool, len(xs))
	for _, x := range xs {
		m[x] = true
	}
	return m
}

// SiblingFile is one file of the package directory other than the flow file.
type SiblingFile struct {
	Rel      string // slash-separated path relative to the package directory
	Path     string // path on disk
	Size     int64  // size from lstat (0 when not stat'ed: binary extension)
	Data     []byte // the bytes read; nil when Skipped is set
	Skipped  string // why the file was not read: one of the Sibling* reasons, or ""
	Lockfile bool   // a package manager's lockfile (its integrity hashes are not credentials)
}

// Siblings is what loading read of the package directory.
type Siblings struct {
	Files []SiblingFile // in alphabetical order of Rel
	// Truncated: the package has more than SiblingMaxFiles files or
	// SiblingMaxTotalBytes bytes; the files past the limit are not listed.
	Truncated bool
	Dirs      []string // the directories listed (the package directory first)
}

// loadSiblings walks the package directory (symlinks and the skipped
// directories are not followed; the flow file, cinatra/oas.json and
// cinatra/agent.json are left out) and reads each text file, reusing the
// bytes of package.json and cinatra.json already loaded; at most maxFiles
// files (SiblingMaxFiles).
func loadSiblings(a *Agent, maxFiles int) *Siblings {
	s := &Siblings{}
	var rels []string
	tooMany := false
	var walk func(dir, rel string, depth int)
	walk = func(dir, rel string, depth int) {
		if depth > SiblingMaxDepth || tooMany {
			return
		}
		ents, err := a.ov.readDir(dir)
		if err != nil {
			return
		}
		s.Dirs = append(s.Dirs, dir)
		for _, e := range ents { // ReadDir sorts by name
			name := e.Name()
			r := name
			if rel != "" {
				r = rel + "/" + name
			}
			if e.Type()&fs.ModeSymlink != 0 {
				continue
			}
			if e.IsDir() {
				if !siblingSkipDirs[name] {
					walk(joinPath(dir, name), r, depth+1)
				}
				continue
			}
			if !e.Type().IsRegular() {
				continue
			}
			if r == "cinatra/oas.json" || r == "cinatra/agent.json" {
				continue
			}
			if len(rels) >= maxFiles {
				tooMany = true
				return
			}
			rels = append(rels, r)
		}
	}
	walk(a.Dir, "", 0)
	sort.Strings(rels)

	flowPath := cleanPath(a.FlowPath)
	var total int64
	for _, rel := range rels {
		path := joinPath(a.Dir, filepath.FromSlash(rel))
		if path == flowPath || (a.ov.rev == nil && sameFile(path, a.FlowPath)) {
			continue
		}
		base := filepath.Base(rel)
		f := SiblingFile{Rel: rel, Path: path, Lockfile: siblingLockfiles[base]}
		if siblingBinaryExt[strings.ToLower(filepath.Ext(base))] {
			f.Skipped = SiblingBinaryExt
			s.Files = append(s.Files, f)
			continue
		}
		// A file the listing showed regular is not stat'ed: its size is
		// that of its read (refused over the limit by the read itself).
		listed := a.ov.listed(path) == listedRegular
		if b, ok := a.ov.get(path); ok {
			f.Size = int64(len(b))
		} else if listed {
			f.Size = -1
		} else if st, err := a.ov.lstat(path); err != nil || !st.Mode().IsRegular() {
			f.Skipped = SiblingNotRegular
			s.Files = append(s.Files, f)
			continue
		} else {
			f.Size = st.Size()
		}
		if f.Size > SiblingMaxFileBytes {
			f.Skipped = SiblingTooLarge
			s.Files = append(s.Files, f)
			continue
		}
		if total+f.Size > SiblingMaxTotalBytes {
			tooMany = true
			break
		}
		var err error
		switch {
		case rel == "package.json" && a.Package != nil && a.Package.Src != nil:
			f.Data = a.Package.Src
		case rel == "cinatra.json" && a.CinatraJSON != nil && a.CinatraJSON.Src != nil:
			f.Data = a.CinatraJSON.Src
		default:
			f.Data, err = a.ov.readFile(path, SiblingMaxFileBytes)
		}
		var tl *TooLargeError
		if f.Size < 0 && errors.As(err, &tl) {
			f.Data, f.Size, f.Skipped = nil, tl.Size, SiblingTooLarge
			s.Files = append(s.Files, f)
			continue
		}
		if err != nil {
			f.Data, f.Skipped = nil, SiblingUnreadable
			s.Files = append(s.Files, f)
			continue
		}
		if f.Size < 0 {
			if f.Size = int64(len(f.Data)); total+f.Size > SiblingMaxTotalBytes {
				f.Data = nil
				tooMany = true
				break
			}
		}
		total += int64(len(f.Data))
		s.Files = append(s.Files, f)
	}
	s.Truncated = tooMany
	return s
}

// sameFile: the flow file given with a different spelling of its path
// (relative vs absolute); only stat'ed when the base names agree.
func sameFile(path, flow string) bool {
	if filepath.Base(path) != filepath.Base(flow) {
		return false
	}
	a, err1 := os.Stat(path)
	b, err2 := os.Stat(flow)
	return err1 == nil && err2 == nil && os.SameFile(a, b)
}

// SiblingEnvForbidden reports whether a file name is an environment file
// a package must not ship: .env, .env.local, .env.production … but not the
// documented templates (.env.example, .env.sample, .env.template).
func SiblingEnvForbidden(base string) bool {
	if base != ".env" && !strings.HasPrefix(base, ".env.") {
		return false
	}
	for _, ok := range []string{".example", ".sample", ".template"} {
		if strings.HasSuffix(base, ok) {
			return false
		}
	}
	return true
}

// Files lists every path loading read or looked at, for a watcher: the
// flow file, package.json and cinatra.json (also when absent, as their
// appearance changes the analysis), the registry file, the sibling files
// and the directories listed, and the files of the child agents loaded so
// far through FindAgent (the compiler's and the dry run's look-ups). For a
// look-up that found no loadable package, the files whose appearance or
// repair would change that in the directories it tried (package.json,
// cinatra.json, the flow candidates). Sorted, without duplicates. The
// one-off scan of the agents/ tree for package names is not included (a
// package elsewhere renamed to the child's name is not seen).
func (a *Agent) Files() []string {
	seen := map[*Agent]bool{}
	set := map[string]bool{}
	a.addFiles(set, seen)
	out := make([]string, 0, len(set))
	for p := range set {
		out = append(out, p)
	}
	sort.Strings(out)
	return out
}

func (a *Agent) addFiles(set map[string]bool, seen map[*Agent]bool) {
	if a == nil || seen[a] {
		return
	}
	seen[a] = true
	add := func(p string) {
		if p != "" {
			set[p] = true
		}
	}
	add(a.FlowPath)
	if a.Dir != "" {
		add(joinPath(a.Dir, "package.json"))
		add(joinPath(a.Dir, "cinatra.json"))
	}
	add(a.RegistryPath)
	if a.Siblings != nil {
		for _, d := range a.Siblings.Dirs {
			add(d)
		}
		for _, f := range a.Siblings.Files {
			add(f.Path)
		}
	}
	if a.kids != nil {
		a.kids.mu.Lock()
		kids := make([]*Agent, 0, len(a.kids.loaded))
		for _, c := range a.kids.loaded {
			kids = append(kids, c)
		}
		for _, dirs := range a.kids.tried {
			for _, d := range dirs {
				add(filepath.Join(d, "package.json"))
				add(filepath.Join(d, "cinatra.json"))
				for _, f := range FlowCandidates {
					add(filepath.Join(d, filepath.FromSlash(f)))
				}
			}
		}
		a.kids.mu.Unlock()
		for _, c := range kids {
			c.addFiles(set, seen)
		}
	}
}
