package compile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"
	"sync"
)

// ErrAgentNotFound is returned by FindAgent when no agent of the tree has
// the package name.
var ErrAgentNotFound = errors.New("agent not found")

// agentIndex caches, per loaded Agent, the package names of the other
// agents of its tree and the child agents already loaded.
type agentIndex struct {
	once   sync.Once
	byName map[string]string // package.json name → package directory
	shared *PackageIndex     // LoadOptions.Packages

	mu     sync.Mutex
	loaded map[string]*Agent   // package name → loaded agent (nil: none loads)
	tried  map[string][]string // package name → the package directories tried when none loads
}

// FindAgent returns the agent of the same tree (agents/ or extensions/)
// whose package.json name is packageName (child-agent look-ups, reference
// cinatra.md §11.6). The tree (TreeRoot) is scanned once per Agent; loaded
// children are cached. When no package.json carries the name, the
// platform compiler's probe order is tried (probeDirs):
// <tree>/cinatra-ai/<slug>, then <tree>/<legacySlug> (slug = the part
// after the scope; LegacySlugs). Names with "..", NUL or more than one
// "/" are refused, as the reference's path-traversal guard does.
func (a *Agent) FindAgent(packageName string) (*Agent, error) {
	if a == nil || a.TreeRoot == "" {
		return nil, fmt.Errorf("%s: %w (no agents/ tree)", packageName, ErrAgentNotFound)
	}
	if packageName == "" || strings.Contains(packageName, "..") || strings.ContainsRune(packageName, 0) || strings.Count(packageName, "/") > 1 {
		return nil, fmt.Errorf("%q: %w (invalid package name)", packageName, ErrAgentNotFound)
	}
	idx := a.kids
	if idx == nil {
		idx = &agentIndex{}
	}
	idx.once.Do(func() {
		if s := idx.shared; s != nil && s.Root == a.TreeRoot && len(a.overlay) == 0 && a.ov.allow == nil && a.ov.rev == nil {
			idx.byName = s.ByName
			return
		}
		idx.byName = scanPackageNames(a.TreeRoot, a.ov)
	})

	idx.mu.Lock()
	if c, ok := idx.loaded[packageName]; ok {
		idx.mu.Unlock()
		if c == nil {
			return nil, fmt.Errorf("%s: %w", packageName, ErrAgentNotFound)
		}
		return c, nil
	}
	idx.mu.Unlock()

	var dirs []string
	if d, ok := idx.byName[packageName]; ok {
		dirs = append(dirs, d)
	}
	dirs = append(dirs, a.probeDirs(packageName)...)
	var child *Agent
	for _, d := range dirs {
		if c, err := Load(d, LoadOptions{RegistryPath: a.RegistryPath, NoSiblings: true, Overlay: a.overlay, Allow: a.ov.allow, Rev: a.ov.rev}); err == nil {
			child = c
			break
		}
	}
	idx.mu.Lock()
	if idx.loaded == nil {
		idx.loaded = map[string]*Agent{}
	}
	idx.loaded[packageName] = child
	if child == nil {
		if idx.tried == nil {
			idx.tried = map[string][]string{}
		}
		idx.tried[packageName] = dirs
	}
	idx.mu.Unlock()
	if child == nil {
		return nil, fmt.Errorf("%s: %w in %s", packageName, ErrAgentNotFound, a.TreeRoot)
	}
	return child, nil
}

// LegacySlugs maps the two child slugs whose older package directories
// have another name, as the compiler's child lookup does
// (OAS_COMPILER_LEGACY_SLUG_MAP in cinatra-ai/cinatra
// packages/agents/src/oas-compiler.ts @1b0975c9 and @87b9bf70).
var LegacySlugs = map[string]string{
	"drupal-agent":    "drupal-content-editor",
	"wordpress-agent": "wordpress-content-editor",
}

// probeDirs are the package directories the platform's compiler probes for
// a child package name (resolveAgentJsonPath in cinatra-ai/cinatra
// packages/agents/src/oas-compiler.ts; reference cinatra.md §17.1), in its
// order: <tree>/cinatra-ai/<slug>, then <tree>/<legacySlug> (the legacy slug
// map, else the slug itself). The compiler probes the operator's instance
// namespace before cinatra-ai; that namespace is not in the files, and the
// package-name index FindAgent tries first finds a child under any vendor.
// Each directory is loaded as a package (its flow file at FlowCandidates).
func (a *Agent) probeDirs(packageName string) []string {
	slug := packageName[strings.LastIndexByte(packageName, '/')+1:]
	if slug == "" {
		return nil
	}
	legacy := slug
	if l, ok := LegacySlugs[slug]; ok {
		legacy = l
	}
	return []string{filepath.Join(a.TreeRoot, "cinatra-ai", slug), filepath.Join(a.TreeRoot, legacy)}
}

// PackageIndex maps the package.json name of every package of an agents/
// tree to its directory, as child-agent look-ups find them (see
// LoadOptions.Packages). It is read-only once built.
type PackageIndex struct {
	Root   string            // the agents/ directory (absolute), as Agent.TreeRoot
	ByName map[string]string // package name → package directory
}

// TreeRoot is the agents/ tree an agent at path belongs to: the nearest
// enclosing directory named agents (absolute), or "".
func TreeRoot(path string) string { return findAgentsRoot(path, "") }

// ScanPackages indexes the packages of the agents/ tree at root (root as
// TreeRoot returns it): one walk, every package.json read once.
func ScanPackages(root string) *PackageIndex {
	return &PackageIndex{Root: root, ByName: scanPackageNames(root, overlay{})}
}

// scanPackageNames maps the package.json name of every package directory
// under root (at most three levels deep: agents/<vendor>/<slug>) to its
// directory. The first directory in lexical order wins a duplicate name.
func scanPackageNames(root string, ov overlay) map[string]string {
	out := map[string]string{}
	var pkgs []string
	_ = walkDir(ov, root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		depth := 0
		if rel != "." {
			depth = strings.Count(filepath.ToSlash(rel), "/") + 1
		}
		if d.IsDir() {
			name := d.Name()
			if depth > 0 && (name == "node_modules" || name == "_shared" || strings.HasPrefix(name, ".")) {
				return filepath.SkipDir
			}
			if depth > 3 {
				return filepath.SkipDir
			}
			return nil
		}
		if d.Name() == "package.json" && depth >= 2 {
			pkgs = append(pkgs, p)
		}
		return nil
	})
	sort.Strings(pkgs)
	for _, p := range pkgs {
		src, err := ov.readFile(p, MaxFileBytes)
		if err != nil {
			continue
		}
		var m struct {
			Name any `json:"name"`
		}
		if json.Unmarshal(src, &m) != nil {
			continue
		}
		if name, ok := m.Name.(string); ok && name != "" {
			if _, dup := out[name]; !dup {
				out[name] = filepath.Dir(p)
			}
		}
	}
	return out
}

// Dependency is one agent dependency declared in package.json, in either
// form: the `cinatra.agentDependencies` map (name → version range) or the
// newer `cinatra.dependencies[]` list of {packageName, edgeType,
// versionConstraint, requirement, kind}.
type Dependency struct {
	PackageName string
	// Version is the range: the map's value, or versionConstraint.range
	// (or a string versionConstraint) of the list form.
	Version     string
	EdgeType    string // list form only
	Requirement string // list form only
	Kind        string // list form only
	// Form is "agentDependencies" or "dependencies".
	Form string
	// Pointer locates the declaration in package.json.
	Pointer string
}

// Dependencies lists the package's declared agent dependencies: first the
// agentDependencies map in source order, then the dependencies list.
func (a *Agent) Dependencies() []Dependency {
	if a == nil || a.Package == nil || a.Package.Root == nil {
		return nil
	}
	cin := a.Package.Root.Get("cinatra")
	var out []Dependency
	if m := cin.Get("agentDependencies"); m.Is(Object) {
		for _, mem := range m.Members {
			out = append(out, Dependency{PackageName: mem.Key, Version: mem.Value.StringOr(""),
				Form: "agentDependencies", Pointer: Pointer("cinatra", "agentDependencies", mem.Key)})
		}
	}
	if l := cin.Get("dependencies"); l.Is(Array) {
		for i, it := range l.Items {
			name, ok := it.Get("packageName").Str()
			if !ok {
				continue
			}
			d := Dependency{PackageName: name, Form: "dependencies", Pointer: AppendIndex(Pointer("cinatra", "dependencies"), i),
				EdgeType: it.Get("edgeType").StringOr(""), Requirement: it.Get("requirement").StringOr(""), Kind: it.Get("kind").StringOr("")}
			vc := it.Get("versionConstraint")
			if s, ok := vc.Str(); ok {
				d.Version = s
			} else {
				d.Version = vc.Get("range").StringOr("")
			}
			out = append(out, d)
		}
	}
	return out
}

// HasDependency reports whether package.json declares packageName in
// either dependency form.
func (a *Agent) HasDependency(packageName string) bool {
	for _, d := range a.Dependencies() {
		if d.PackageName == packageName {
			return true
		}
	}
	return false
}

// PackageName is package.json's name, or "".
func (a *Agent) PackageName() string {
	if a == nil || a.Package == nil {
		return ""
	}
	return a.Package.Root.Get("name").StringOr("")
}
