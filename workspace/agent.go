// Package workspace is the engine of the workspace view: from one summary
// per agent of a tree (Agent, extracted from an analysis.Snapshot) it builds
// the Index — the table's rows, who depends on whom (the call graph, as a
// flowgraph.Graph so the flow graph's layered layout and drawing apply),
// the reverse-dependency index a live face uses to re-review only what a
// save affects (Affected), and the findings that only a whole tree shows:
// workspace_child_missing, workspace_child_version_mismatch and
// workspace_dependency_cycle. It is pure: Summarize reads a snapshot,
// Build and the rest are plain functions over data.
package workspace

import (
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
)

// Agent is what the workspace keeps of one agent's analysis.
type Agent struct {
	Dir     string // the package directory (or flow file) as found; the agent's key
	Rel     string // Dir relative to the tree's root, with "/" ("" when outside it)
	Package string // package.json name ("" without one)
	// PackageFile is the package.json naming it, NameLine and NameColumn
	// where its name is (for workspace_duplicate_package).
	PackageFile          string
	NameLine, NameColumn int
	Version              string // package.json version
	Title                string // the root flow's name, else package.json cinatra.displayName, else the slug
	Type                 string // metadata.cinatra.type of the root flow ("" when absent)

	Parsed  bool    // the flow file parsed (Steps, Slots and the flow's child calls are meaningful)
	Problem Problem // why the agent could not be read (NotLoaded, NotParsed); Readable when it was

	Blockers, Warnings, Suggestions int // the review's findings (the workspace's are added by the Index)
	// Top are the review's worst findings (at most TopFindings: blockers,
	// then warnings, then suggestions, each in file order), for the
	// table's detail line.
	Top []compile.Finding

	Steps int // compiled approval steps; -1 when it did not compile
	Slots int // context slots

	Children []Child // child agents it calls or declares, in source order
	// Inline are the flow file's x-oastui-ignore entries of workspace
	// rules (the review leaves them to the workspace).
	Inline   lint.InlineIgnores
	Files    []string  // absolute paths of every file the analysis read (Affected)
	Registry string    // absolute path of the registry it used ("" for the built-in one)
	Config   string    // absolute path of the .oastui.yaml in force ("")
	MTime    time.Time // the newest modification time among its package files (set by the face that stats them)
	Took     time.Duration

	// Stale: the flow does not parse now, and Title, Type, Steps, Slots
	// and Children are those of the last analysis where it did (Carry).
	Stale bool
}

// Problem is why an agent could not be read: the faces switch on it (the
// table's status cell, the broken count, `lint --format summary`), and its
// String is the text they print.
type Problem uint8

const (
	Readable  Problem = iota // the agent loaded and its flow parsed
	NotLoaded                // the package could not be loaded (no flow file, an unreadable file)
	NotParsed                // the flow file does not parse
)

// String is the problem as the outputs print it: "does not load", "does
// not parse"; "" for Readable.
func (p Problem) String() string {
	switch p {
	case NotLoaded:
		return "does not load"
	case NotParsed:
		return "does not parse"
	}
	return ""
}

// Short is the problem in the table's narrow status column: "not loaded",
// "not parsed"; "" for Readable.
func (p Problem) Short() string {
	switch p {
	case NotLoaded:
		return "not loaded"
	case NotParsed:
		return "not parsed"
	}
	return ""
}

// Carry keeps, for an agent whose flow no longer parses, the columns of
// its last good summary (marked Stale), as the agent view keeps the last
// good graph on screen.
func Carry(now, last Agent) Agent {
	if now.Parsed || !last.Parsed || now.Problem == NotLoaded {
		return now
	}
	now.Title, now.Type, now.Steps, now.Slots = last.Title, last.Type, last.Steps, last.Slots
	now.Children = append(last.Children[:0:0], last.Children...)
	now.Inline = last.Inline
	now.Stale = true
	return now
}

// TopFindings is how many of its worst findings a summary keeps.
const TopFindings = 3

// Child is one reference from an agent to a child agent: a FlowNode or
// AgentNode of the flow naming a package, or a package.json dependency of
// kind agent.
type Child struct {
	Package  string // the child's package name
	Range    string // the version range the dependent accepts ("" for a flow call, which names no version)
	Optional bool   // a dependency with requirement "optional"
	Via      string // what names it: `FlowNode "x"`, `package.json cinatra.dependencies[2]`, …
	File     string // the file naming it
	Pointer  string // where in File
	Line     int
	Column   int
}

// ID is the agent's short name: the package name without its "@"
// (vendor/slug), else the path relative to the root.
func (a *Agent) ID() string {
	if a.Package != "" {
		return strings.TrimPrefix(a.Package, "@")
	}
	if a.Rel != "" {
		return a.Rel
	}
	return filepath.Base(a.Dir)
}

// Kind is the table's kind column: "orchestrator" for an agent that calls
// or depends on child agents, else the flow's metadata.cinatra.type
// (leaf, node, flow), else "leaf".
func (a *Agent) Kind() string {
	for _, c := range a.Children {
		if c.Package != a.Package {
			return "orchestrator"
		}
	}
	if a.Type != "" {
		return a.Type
	}
	return "leaf"
}

// Summarize extracts the workspace's summary of one analysis of the agent
// at dir; root is the tree's root (for Rel). The snapshot must have run
// with analysis.StageCompile and StageSlots for Steps and Slots.
func Summarize(root string, s *analysis.Snapshot) Agent { return SummarizeFrom(workDir(), root, s) }

// SummarizeFrom is Summarize with the working directory wd read once by a
// caller summarizing many agents ("": read here).
func SummarizeFrom(wd, root string, s *analysis.Snapshot) Agent {
	return SummarizeWith(wd, root, s, SummaryOptions{})
}

// SummaryOptions leave parts out of a summary, for a caller that never
// reads them: it does not pay for them (oastui lint summarizes every agent
// of a tree, and reads neither).
type SummaryOptions struct {
	NoTop   bool // Top stays nil: no finding preview
	NoFiles bool // Files stays nil: the files the analysis read are not listed
}

// SummarizeWith is SummarizeFrom with the parts o leaves out nil.
func SummarizeWith(wd, root string, s *analysis.Snapshot, o SummaryOptions) Agent {
	a := Agent{Dir: s.Path, Steps: -1, Took: s.Took}
	if s.Agent != nil && s.Agent.Dir != "" {
		a.Dir = s.Agent.Dir
	}
	if wd == "" {
		wd = workDir()
	}
	absPath := func(p string) string { return absFrom(wd, p) }
	a.Rel = relTo(wd, root, a.Dir)
	a.Blockers, a.Warnings, a.Suggestions = len(s.Review.Blockers), len(s.Review.Warnings), len(s.Review.Suggestions)
	for _, fs := range [][]compile.Finding{s.Review.Blockers, s.Review.Warnings, s.Review.Suggestions} {
		if o.NoTop {
			break
		}
		for _, f := range compile.SortFindings(slices.Clone(fs)) { // the snapshot is not ours to reorder
			if len(a.Top) < TopFindings {
				f.Fixes = nil
				a.Top = append(a.Top, f)
			}
		}
	}
	if s.Config.Path != "" {
		a.Config = absPath(s.Config.Path)
	}
	if s.Agent == nil {
		a.Problem = NotLoaded
		a.Title = filepath.Base(a.Dir)
		if !o.NoFiles {
			a.Files = []string{absPath(s.Path)}
		}
		return a
	}
	ag := s.Agent
	if !o.NoFiles {
		for _, f := range ag.Files() {
			a.Files = append(a.Files, absPath(f))
		}
		sort.Strings(a.Files)
	}
	if ag.Registry != nil && ag.RegistryPath != "" {
		a.Registry = absPath(ag.RegistryPath)
	}
	a.Package = ag.PackageName()
	if a.Package != "" && ag.Package != nil {
		a.PackageFile = ag.Package.Path
		a.NameLine, a.NameColumn = ag.Package.PointerPosition("/name")
	}
	if ag.Package != nil && ag.Package.Root != nil {
		a.Version = ag.Package.Root.Get("version").StringOr("")
	}
	a.Parsed = s.Parsed()
	if !a.Parsed {
		a.Problem = NotParsed
	}
	if s.Compiled != nil {
		a.Steps = len(s.Compiled.ApprovalPolicy.Steps)
	}
	a.Slots = len(s.Slots)
	if a.Parsed {
		root := ag.Flow.Root
		a.Title = root.Get("name").StringOr("")
		a.Type = root.Path("metadata", "cinatra").Get("type").StringOr("")
		a.Children = flowCalls(ag, a.Package)
		a.Inline = s.Review.Inline
	}
	if a.Title == "" && ag.Package != nil && ag.Package.Root != nil {
		a.Title = ag.Package.Root.Path("cinatra", "displayName").StringOr("")
	}
	if a.Title == "" {
		a.Title = filepath.Base(a.Dir)
	}
	a.Children = append(a.Children, declared(ag)...)
	return a
}

// flowCalls lists the nodes of the document that run a child agent
// (compile.Agent.ChildCalls: the compiler's childAgent, reference
// cinatra.md §11.6) naming another package. A FlowNode naming the agent's
// own package runs an inlined subflow, not a child.
func flowCalls(ag *compile.Agent, self string) []Child {
	var out []Child
	doc := ag.Flow
	for _, c := range ag.ChildCalls() {
		if c.Package == self {
			continue
		}
		id := c.ID
		if id == "" {
			id = lastToken(c.Node)
		}
		line, col := doc.PointerPosition(c.At)
		out = append(out, Child{Package: c.Package, Via: c.Type + ` "` + id + `"`, File: doc.Path, Pointer: c.At, Line: line, Column: col})
	}
	return out
}

// declared lists package.json's agent dependencies (compile.Agent.Dependencies)
// of kind agent, or of no kind (the agentDependencies map).
func declared(ag *compile.Agent) []Child {
	if ag.Package == nil || ag.Package.Root == nil {
		return nil
	}
	doc := ag.Package
	var out []Child
	for _, d := range ag.Dependencies() {
		if d.Kind != "" && d.Kind != "agent" {
			continue // connectors, artifacts: not agents of the tree
		}
		c := Child{Package: d.PackageName, Range: d.Version, Optional: d.Requirement == "optional", File: doc.Path, Pointer: d.Pointer}
		if d.Form == "dependencies" {
			c.Via = "package.json cinatra.dependencies[" + lastToken(d.Pointer) + "]"
			vc := doc.Lookup(compile.Append(d.Pointer, "versionConstraint"))
			if v, ok := vc.Get("version").Str(); ok && c.Range == "" && vc.Get("kind").StringOr("") == "exact" {
				c.Range = v // {"kind": "exact", "version": "0.1.2"}
			}
			if vc != nil {
				c.Pointer = compile.Append(d.Pointer, "versionConstraint")
			}
		} else {
			c.Via = "package.json cinatra.agentDependencies"
		}
		c.Line, c.Column = doc.PointerPosition(c.Pointer)
		out = append(out, c)
	}
	return out
}

func lastToken(ptr string) string {
	t := compile.SplitPointer(ptr)
	if len(t) == 0 {
		return ""
	}
	return t[len(t)-1]
}

// absPath is filepath.Abs without its error: p cleaned when it is absolute
// or the working directory is unknown.
func absPath(p string) string { return absFrom(workDir(), p) }

// workDir is the working directory, "" when it cannot be read. Callers
// that make many paths absolute read it once (os.Getwd stats "." and $PWD
// on every call: a tenth of linting a tree went there).
func workDir() string {
	wd, err := os.Getwd()
	if err != nil {
		return ""
	}
	return wd
}

// absFrom is p made absolute against the working directory wd
// (filepath.Clean or filepath.Join, without their rebuild of paths that
// are already clean: compile.CleanPath, compile.JoinPath).
func absFrom(wd, p string) string {
	if filepath.IsAbs(p) || wd == "" {
		return compile.CleanPath(p)
	}
	return compile.JoinPath(wd, p)
}

func relTo(wd, root, p string) string {
	if root == "" {
		return ""
	}
	r, err := filepath.Rel(absFrom(wd, root), absFrom(wd, p))
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return ""
	}
	return filepath.ToSlash(r)
}
