package compile

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/oastui/oastui/edit"
)

// Profile selects which rules apply to a file (SPEC §1).
type Profile string

const (
	ProfileAuto      Profile = ""
	ProfileCinatra   Profile = "cinatra"
	ProfileAgentSpec Profile = "agentspec"
)

// FlowCandidates are the places of a package's flow file, in lookup order.
// Every one after the first raises legacy_agent_filename.
var FlowCandidates = []string{"cinatra/oas.json", "cinatra/agent.json", "agent.json"}

// LoadOptions tune Load.
type LoadOptions struct {
	RegistryPath string  // --registry; empty: the tree root's _shared/cinatra/components.json (agents/ or extensions/), then built-in
	Profile      Profile // --profile; empty: detect
	// NoSiblings skips listing and reading the package's other files
	// (Agent.Siblings stays nil): for child agents loaded only to be looked
	// up, never reviewed.
	NoSiblings bool
	// Overlay maps file paths (relative or absolute) to contents used
	// instead of the disk by every read of loading: the flow file,
	// package.json, cinatra.json, the registry, sibling files and child
	// agents. An overlaid file need not exist on disk; it counts as a
	// regular file there, with its package context found around it as for
	// a file on disk (an unsaved buffer, `oastui lint - --stdin-filename`).
	// An overlaid file that is not on disk is not listed among the siblings.
	Overlay map[string][]byte
	// Bare loads the flow file on its own: no package directory, agents/
	// tree or registry is looked for around its path (RegistryPath still
	// applies). For a flow with no place, e.g. stdin without a name.
	Bare bool
	// Packages, when it indexes the agent's tree (Packages.Root equals the
	// agent's TreeRoot), replaces the scan of the tree that child-agent
	// look-ups make once per loaded agent (FindAgent): a face reviewing
	// every agent of a tree scans it once and shares the index
	// (ScanPackages), instead of reading every package.json of the tree
	// once per orchestrator.
	Packages *PackageIndex
	// Allow, when set, is asked before every file loading reads from the
	// disk (the flow file, package.json, cinatra.json, the registry, the
	// sibling files, child agents and the package.json files of the tree),
	// with the file's real path (absolute, symlinks resolved); a refused
	// file is not read, and is reported as a file that cannot be read. A
	// server confines its reads with it (the MCP server: the workspace roots).
	Allow func(path string) error
	// Rev, when set, is the git revision every read of loading takes its
	// files from instead of the disk (Overlay still comes first): the old
	// side of `oastui diff`, loaded exactly as the new one.
	Rev *GitRev
	// Registries, when set, shares the registry between the agents loaded
	// in one run: looked for, read and parsed once (RegistryCache).
	Registries *RegistryCache

	// Blocks, when set, is the memory the JSON documents of this load are
	// read and parsed into, lent again by the caller (Blocks.Reuse) once
	// it keeps nothing of them: a worker of `oastui lint` that loads many
	// agents in turn. The registry of Registries never goes into it.
	Blocks *Blocks

	// Listing, when set, is what the discovery of the agents saw of the
	// disk (Listing.FindAgents): loading takes from it whether the
	// package's files are there and the listings of its directories,
	// instead of a stat or a listing of its own (the disk only; a run that
	// changes the files must not pass one).
	Listing *Listing
	// WorkDir, when set, is the working directory relative paths are made
	// absolute against (the tree root above an agent), read once by a
	// caller loading many agents instead of once per agent.
	WorkDir string

	// siblingMaxFiles, when above 0, is the sibling file limit instead of
	// SiblingMaxFiles: a test under -race truncates a package of 201
	// files rather than one of 2,001, by the same path.
	siblingMaxFiles int
}

// Agent is everything read for one agent: the flow file and the files beside it.
type Agent struct {
	Dir          string  // package directory; "" when a flow file was given directly with no package around it
	FlowPath     string  // path of the flow file on disk
	Flow         *Doc    // the flow file (Root nil when it did not parse)
	Package      *Doc    // package.json, or nil
	CinatraJSON  *Doc    // sibling cinatra.json, or nil
	Registry     *Doc    // global component registry file, or nil (then BuiltinRegistry applies)
	RegistryPath string  // where Registry came from
	TreeRoot     string  // the nearest enclosing agents/ or extensions/ directory, or ""
	Profile      Profile // the profile in force for Flow
	// Siblings are the package directory's other files, read for the
	// review's credential scan; nil without a package directory (or with
	// LoadOptions.NoSiblings).
	Siblings *Siblings
	// Findings raised while loading: agent_read_failed, invalid_json,
	// legacy_agent_filename, duplicate_key, package_json_invalid.
	Findings []Finding

	kids *agentIndex // child agents of the same tree, found by package name (children.go)

	overlay map[string][]byte // LoadOptions.Overlay, handed on to child agents
	ov      overlay           // the same, keyed by absolute path, with LoadOptions.Allow

	model *modelCache // the flow model (Model), built on first use
}

// ErrNotAnAgent is returned by Load for a path that holds no agent; the CLI
// maps it to exit code 2.
var ErrNotAnAgent = errors.New("not an agent")

// Load reads the agent at path: a package directory or a flow file.
func Load(path string, opts LoadOptions) (*Agent, error) {
	a := &Agent{kids: &agentIndex{shared: opts.Packages}, overlay: opts.Overlay, ov: newOverlay(opts.Overlay, opts.Allow, opts.Rev)}
	a.ov.blocks, a.ov.seen = opts.Blocks, opts.Listing
	isDir := false
	if _, ok := a.ov.get(path); !ok {
		var err error
		if isDir, err = a.ov.isDir(path); err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	if isDir {
		a.Dir = cleanPath(path)
		for i, rel := range FlowCandidates {
			p := joinPath(a.Dir, rel)
			if a.ov.isFile(p) {
				a.FlowPath = p
				if i > 0 {
					a.Findings = append(a.Findings, Finding{Code: "legacy_agent_filename", Severity: Warning,
						Message: fmt.Sprintf("flow file found at legacy path %s; move it to %s", rel, FlowCandidates[0]),
						Source:  SourceDeterministic, File: p, Line: 1, Column: 1})
				}
				break
			}
		}
		if a.FlowPath == "" {
			return nil, fmt.Errorf("%s: %w: no %s (nor the legacy %s)", path, ErrNotAnAgent,
				FlowCandidates[0], strings.Join(FlowCandidates[1:], ", "))
		}
	} else {
		a.FlowPath = cleanPath(path)
		if !opts.Bare {
			a.Dir = packageDirOf(a.ov, a.FlowPath)
		}
	}

	a.Flow = readDoc(a.ov, a.FlowPath, &a.Findings)
	addLegacyMoveFix(a)
	if a.Dir != "" {
		a.Package = readOptionalDoc(a.ov, joinPath(a.Dir, "package.json"), &a.Findings)
		a.CinatraJSON = readOptionalDoc(a.ov, joinPath(a.Dir, "cinatra.json"), &a.Findings)
		a.TreeRoot = findAgentsRoot(a.Dir, opts.WorkDir)
	}
	if a.Dir != "" && !opts.NoSiblings {
		a.Siblings = loadSiblings(a, cmp.Or(opts.siblingMaxFiles, SiblingMaxFiles))
	}
	a.RegistryPath = opts.RegistryPath
	shared := opts.Registries.usable(a.ov)
	if a.RegistryPath == "" && a.TreeRoot != "" {
		p := filepath.Join(a.TreeRoot, "_shared", "cinatra", "components.json")
		if shared && opts.Registries.exists(a.ov, p) || !shared && a.ov.exists(p) {
			a.RegistryPath = p
		}
	}
	if a.RegistryPath != "" {
		if shared {
			a.Registry = opts.Registries.readDoc(a.ov, a.RegistryPath, &a.Findings)
		} else {
			a.Registry = readDoc(a.ov, a.RegistryPath, &a.Findings)
		}
	}
	a.Profile = opts.Profile
	if a.Profile == ProfileAuto {
		a.Profile = DetectProfile(a)
	}
	a.Findings = append(a.Findings, PackageJSONFindings(a.Package)...)
	for _, d := range []*Doc{a.Flow, a.Package, a.CinatraJSON, a.Registry} {
		a.Findings = append(a.Findings, DuplicateKeyFindings(d, a.Profile)...)
	}
	a.model = &modelCache{flow: a.Flow, registry: a.Registry}
	return a, nil
}

// DetectProfile: the cinatra profile for a package's flow file or a file
// with metadata.cinatra at the root; agentspec otherwise (SPEC §1).
func DetectProfile(a *Agent) Profile {
	if a.Dir != "" && a.Package != nil {
		return ProfileCinatra
	}
	if a.Flow != nil && a.Flow.Root != nil && a.Flow.Root.Path("metadata", "cinatra") != nil {
		return ProfileCinatra
	}
	if a.Flow != nil && a.Flow.Root == nil && strings.HasSuffix(filepath.ToSlash(a.FlowPath), "cinatra/oas.json") {
		return ProfileCinatra
	}
	return ProfileAgentSpec
}

// packageDirOf returns the package directory of a flow file given directly
// (…/pkg/cinatra/oas.json → …/pkg, …/pkg/agent.json → …/pkg) when a
// package.json stands there, else "".
func packageDirOf(ov overlay, flowPath string) string {
	dir := dirPath(flowPath)
	if filepath.Base(dir) == "cinatra" {
		dir = dirPath(dir)
	}
	if ov.exists(joinPath(dir, "package.json")) {
		return dir
	}
	return ""
}

// TreeDirNames are the names of an agent tree's root directory: agents/
// (the layout of the pin) and extensions/ (today's platform: the dev and
// authoring root is <cwd>/extensions, every kind of extension beside the
// agents; cinatra-ai/cinatra packages/agents/src/agent-runtime-mount.ts
// @40d7f06a). Both are read the same way: agent packages at
// <tree>/<vendor>/<slug>, the shared registry at
// <tree>/_shared/cinatra/components.json, child agents by the compiler's
// probe order (FindAgent).
var TreeDirNames = []string{"agents", "extensions"}

// IsTreeDir says a directory of that base name is an agent tree's root.
func IsTreeDir(name string) bool { return name == "agents" || name == "extensions" }

// findAgentsRoot walks up from dir to the nearest directory named agents
// or extensions (TreeDirNames); wd, when set, is the working directory
// (else it is read).
func findAgentsRoot(dir, wd string) string {
	abs := joinPath(wd, dir)
	if wd == "" || filepath.IsAbs(dir) {
		var err error
		if abs, err = filepath.Abs(dir); err != nil {
			return ""
		}
	}
	for d := abs; ; d = dirPath(d) {
		if IsTreeDir(filepath.Base(d)) {
			return d
		}
		if dirPath(d) == d {
			return ""
		}
	}
}

// readDoc reads and parses a file that must exist; failures become
// findings: agent_read_failed for a file that cannot be read or is not a
// regular file, and the invalid_json "not read, beyond oastui's limits"
// blocker for one over MaxFileBytes, refused without reading it.
func readDoc(ov overlay, path string, findings *[]Finding) *Doc {
	src, err := ov.readFile(path, MaxFileBytes)
	if err != nil {
		var tl *TooLargeError
		if errors.As(err, &tl) {
			d := &Doc{Path: path, Err: tooLarge(int(tl.Size))}
			*findings = append(*findings, *d.FileSyntaxFinding())
			return d
		}
		msg := err.Error()
		var pe *fs.PathError
		if errors.Is(err, ErrNotRegular) && errors.As(err, &pe) {
			msg = pe.Err.Error()
		}
		*findings = append(*findings, Finding{Code: "agent_read_failed", Severity: Blocker,
			Message: fmt.Sprintf("cannot read %s: %s", path, msg), Source: SourceDeterministic, File: path, Line: 1, Column: 1})
		return &Doc{Path: path, Err: &SyntaxError{Msg: msg}}
	}
	var d *Doc
	if IsYAMLPath(path) { // Agent Spec
		d = ParseYAMLDoc(path, src)
	} else {
		d = parseDocInto(path, src, ov.blocks)
	}
	if f := d.FileSyntaxFinding(); f != nil {
		*findings = append(*findings, *f)
	}
	return d
}

// readOptionalDoc is readDoc for a file that may be absent (nil then).
func readOptionalDoc(ov overlay, path string, findings *[]Finding) *Doc {
	if _, ok := ov.get(path); ok {
		return readDoc(ov, path, findings)
	}
	switch ov.listed(path) {
	case listedAbsent:
		return nil
	case listedRegular:
		return readDoc(ov, path, findings)
	}
	if _, err := ov.stat(path); errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return readDoc(ov, path, findings)
}

// addLegacyMoveFix gives the legacy_agent_filename finding its fix: move
// the flow file, bytes unchanged, to cinatra/oas.json (edit.MoveFile
// creates cinatra/ when needed). None when the flow file was not read or
// something already holds the target's place.
func addLegacyMoveFix(a *Agent) {
	if a.Dir == "" || a.Flow == nil || a.Flow.Src == nil || a.ov.rev != nil {
		return
	}
	if !slices.ContainsFunc(a.Findings, func(f Finding) bool { return f.Code == "legacy_agent_filename" }) {
		return // no stat of the target for the agents at their place
	}
	to := filepath.Join(a.Dir, FlowCandidates[0])
	if _, err := os.Lstat(to); err == nil || a.ov.exists(to) {
		return
	}
	for i := range a.Findings {
		f := &a.Findings[i]
		if f.Code == "legacy_agent_filename" && f.File == a.FlowPath {
			f.Fixes = append(f.Fixes, edit.Fix{Title: "move the flow file to " + FlowCandidates[0], Tier: edit.Safe,
				Moves: []edit.Move{{From: a.FlowPath, To: to}}})
		}
	}
}
