// Package layers holds the import layers of DESIGN.md ("Rooms") with a
// test: every import edge between the module's packages (test files aside)
// must be in the table below, and the terminal and protocol libraries stay
// in the faces. A new package needs a row; a new edge needs a reason.
package layers

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"testing"
)

const module = "github.com/oastui/oastui/"

// presentation is the presentation leaf (DESIGN: the one sanitiser and the
// one masker): every package may import it.
var presentation = []string{"present"}

// engine are the engine packages the faces read the snapshot's types from.
var engine = []string{"compile", "edit", "lint", "lint/fix", "lint/report",
	"flowgraph", "slots", "slots/audit", "prompts", "dryrun", "locate"}

// faces are the packages that may use terminal and protocol libraries.
var faces = []string{"cmd/oastui", "cmd/oastbench", "tui", "tui/watch", "tui/example", "views", "lsp", "mcpserver"}

// faceLibraries are those libraries (import path prefixes).
var faceLibraries = []string{"charm.land/", "github.com/charmbracelet/", "go.lsp.dev/",
	"github.com/modelcontextprotocol/", "github.com/spf13/", "github.com/fsnotify/"}

func with(base []string, more ...string) []string { return append(slices.Clone(base), more...) }

// allowed is DESIGN's table: package → the module packages it may import
// (besides the presentation leaf and the standard library).
var allowed = map[string][]string{
	// the lowest rooms
	"edit":             {},
	"present":          {},
	"internal/bpe":     {},
	"internal/bpe/gen": {}, // go generate: writes the embedded tables
	"compile":          {"edit"},

	// the engine
	"lint/fix":    {"compile", "edit"},
	"lint":        {"compile", "edit", "lint/fix", "dryrun", "prompts"}, // dryrun, prompts: their result types only (TestLintRunsNoPass)
	"lint/report": {"compile", "edit", "lint"},
	"flowgraph":   {"compile"},
	"slots":       {"compile"},
	"slots/audit": {"slots", "edit"},                        // the audit store writes through edit's atomic write
	"prompts":     {"compile", "flowgraph", "internal/bpe"}, // token counts
	"dryrun":      {"compile"},
	"locate":      {"compile", "flowgraph", "edit"}, // rename's edits

	// the pipeline, and what reads many snapshots
	"analysis":  engine,
	"workspace": with(engine, "analysis"),
	"diff":      with(engine, "analysis", "workspace"),

	// the faces
	"lsp":           with(engine, "analysis", "workspace", "diff"),
	"mcpserver":     with(engine, "analysis", "workspace", "diff"),
	"views":         with(engine, "analysis", "workspace", "diff"),
	"tui":           with(engine, "analysis", "workspace", "diff", "views", "tui/watch", "tui/example"),
	"tui/watch":     {},
	"tui/example":   {},
	"cmd/oastui":    with(engine, "analysis", "workspace", "diff", "lsp", "mcpserver", "tui", "tui/watch", "tui/example"), // everything but views
	"cmd/oastbench": with(engine, "analysis", "workspace", "internal/hostile"),

	// test helpers
	"internal/hostile":    {},
	"internal/race":       {},
	"internal/testshared": {"internal/testgit"}, // the extensions/ tree is copied with testgit.CopyTree
	"internal/testgit":    {},
}

// pending are edges outside the table that disappear when work in flight
// lands, each with the reason. None today.
var pending = map[string][]string{}

type pkg struct {
	ImportPath string
	Dir        string
	GoFiles    []string
	Imports    []string
}

// listed is go list's answer, asked once for all the tests.
var listed struct {
	once sync.Once
	pkgs []pkg
	err  error
}

func listPackages(t *testing.T) []pkg {
	t.Helper()
	listed.once.Do(func() { listed.pkgs, listed.err = goList() })
	if listed.err != nil {
		t.Fatal(listed.err)
	}
	if len(listed.pkgs) < 10 {
		t.Fatalf("go list found %d packages", len(listed.pkgs))
	}
	return listed.pkgs
}

func goList() ([]pkg, error) {
	// Only the fields pkg reads: go list then skips the rest of each
	// package's answer (0.37 → 0.19 s of CPU).
	cmd := exec.Command("go", "list", "-json=ImportPath,Dir,GoFiles,Imports", "./...")
	cmd.Dir = filepath.Join("..", "..")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("go list: %v\n%s", err, stderr.Bytes())
	}
	var pkgs []pkg
	dec := json.NewDecoder(bytes.NewReader(out))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			return nil, err
		}
		pkgs = append(pkgs, p)
	}
	return pkgs, nil
}

// Every import edge between the module's packages is in the table (or
// pending), every package has a row, and the terminal and protocol
// libraries are imported by the faces only.
func TestLayers(t *testing.T) {
	for _, p := range listPackages(t) {
		name := strings.TrimPrefix(p.ImportPath, module)
		if name == "internal/layers" {
			continue // this test
		}
		may, ok := allowed[name]
		if !ok {
			t.Errorf("package %s has no row in the layer table (internal/layers); add one as DESIGN.md's Rooms say", name)
			continue
		}
		for _, imp := range p.Imports {
			if dep, own := strings.CutPrefix(imp, module); own {
				if !slices.Contains(may, dep) && !slices.Contains(presentation, dep) && !slices.Contains(pending[name], dep) {
					t.Errorf("%s imports %s: not an edge of the layer table", name, dep)
				}
				continue
			}
			if !slices.Contains(faces, name) {
				for _, lib := range faceLibraries {
					if strings.HasPrefix(imp, lib) {
						t.Errorf("%s imports %s: terminal and protocol libraries belong to the faces", name, imp)
					}
				}
			}
		}
	}
}

// A pending edge that no longer exists must leave the list (so that the
// list only ever shrinks to nothing).
func TestPendingEdgesExist(t *testing.T) {
	imports := map[string][]string{}
	for _, p := range listPackages(t) {
		imports[strings.TrimPrefix(p.ImportPath, module)] = p.Imports
	}
	for from, tos := range pending {
		for _, to := range tos {
			if !slices.Contains(imports[from], module+to) {
				t.Errorf("pending edge %s → %s is gone: remove it from pending", from, to)
			}
		}
	}
}

// stages are the functions that load, review, compile or run a stage of
// the pipeline: package → the names (a name ending in "*" is a prefix:
// flowgraph.Build, BuildFlow and any Build… to come). Outside
// analysis, which runs the pipeline, and the package that defines them,
// nothing refers to them (a call, or a function value that becomes one),
// but for the calls of allowedCalls.
var stages = map[string][]string{
	"compile":   {"Load", "Compile"},
	"lint":      {"Run"},
	"prompts":   {"Build"},
	"dryrun":    {"Explore"},
	"flowgraph": {"Build*"},
}

// allowedCalls is the short list of files outside analysis that may call a
// stage, each with the reason: file (module-relative) → "pkg.Func" refs.
var allowedCalls = map[string][]string{
	// The entry that loads a target to hand it in: `oastui [PATH]` loads
	// PATH to decide what it is (an agent, a flow file, a tree, nothing),
	// and hands the agent it loaded to the TUI (tui.RunConfig.Agent →
	// analysis.Options.Agent), whose first analysis does not load it again.
	"cmd/oastui/tui.go": {"compile.Load"},
	// `oastui audit [PATH]` loads PATH only to find the workspace root the
	// audit store lives at; it reviews nothing.
	"cmd/oastui/audit.go": {"compile.Load"},
	// The diff loads (reads and parses) its two sides at once and hands
	// each agent to that side's analysis (analysis.Options.Agent), which
	// does not load it again; the analyses run one after the other.
	"diff/run.go": {"compile.Load"},
	// The benchmark of the prompt report times the stage on its own.
	"cmd/oastbench/prompts.go": {"compile.Load", "prompts.Build"},
	// The engine's own stages, where no analysis hands the graph in: the
	// prompt report and the locator build the graph of a flow only when
	// their caller gave no graph source (prompts.Input.Graph, locate's
	// index). (The dry run reads the flow model's view,
	// compile.FlowModel.View, and builds no graph.)
	"prompts/prompts.go": {"flowgraph.Build"},
	"locate/locate.go":   {"flowgraph.Build"},
}

// stageRef is a reference to a stage function in a file.
type stageRef struct {
	pos  token.Position
	name string // "pkg.Func"
}

// stageRefs lists every reference in f to a stage function of another
// package: a selector pkg.F on the file's name for an imported stage
// package (a local variable of that name aside: the parser resolves it), and
// every dot import of one (which would hide the package name).
func stageRefs(fset *token.FileSet, f *ast.File) []stageRef {
	local := map[string]string{} // name in the file → package
	var refs []stageRef
	for _, im := range f.Imports {
		path := strings.Trim(im.Path.Value, `"`)
		dep, own := strings.CutPrefix(path, module)
		if _, stage := stages[dep]; !own || !stage {
			continue
		}
		name := filepath.Base(dep)
		if im.Name != nil {
			name = im.Name.Name
		}
		if name == "." {
			refs = append(refs, stageRef{fset.Position(im.Pos()), dep + ".*"})
			continue
		}
		local[name] = dep
	}
	ast.Inspect(f, func(n ast.Node) bool {
		sel, ok := n.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		id, ok := sel.X.(*ast.Ident)
		if !ok || id.Obj != nil || local[id.Name] == "" {
			return true
		}
		dep := local[id.Name]
		for _, fn := range stages[dep] {
			if fn == sel.Sel.Name || strings.HasSuffix(fn, "*") && strings.HasPrefix(sel.Sel.Name, strings.TrimSuffix(fn, "*")) {
				refs = append(refs, stageRef{fset.Position(sel.Pos()), dep + "." + sel.Sel.Name})
			}
		}
		return true
	})
	return refs
}

// stageViolations are the references to stages in the non-test files of
// pkgs outside analysis, the defining package and allowedCalls; used
// reports which allowed references were seen.
func stageViolations(pkgs []pkg, used map[string]bool) ([]string, error) {
	var out []string
	for _, p := range pkgs {
		name := strings.TrimPrefix(p.ImportPath, module)
		if name == "analysis" {
			continue
		}
		files := slices.Clone(p.GoFiles)
		sort.Strings(files)
		for _, file := range files {
			fset := token.NewFileSet()
			f, err := parser.ParseFile(fset, filepath.Join(p.Dir, file), nil, 0)
			if err != nil {
				return nil, err
			}
			rel := name + "/" + file
			for _, r := range stageRefs(fset, f) {
				if slices.Contains(allowedCalls[rel], r.name) {
					used[rel+" "+r.name] = true
					continue
				}
				out = append(out, fmt.Sprintf("%s:%d: %s refers to %s: only analysis runs the pipeline (read the snapshot, or add the file to allowedCalls with the reason)", rel, r.pos.Line, name, r.name))
			}
		}
	}
	return out, nil
}

// TestNoStageOutsideAnalysis: no face, and no package but analysis, loads,
// reviews, compiles, builds a prompt report, explores or builds a graph on
// its own (the allow-list aside); every entry of the allow-list is still
// needed.
func TestNoStageOutsideAnalysis(t *testing.T) {
	used := map[string]bool{}
	bad, err := stageViolations(listPackages(t), used)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range bad {
		t.Error(b)
	}
	for file, refs := range allowedCalls {
		for _, r := range refs {
			if !used[file+" "+r] {
				t.Errorf("allowedCalls: %s no longer refers to %s; remove the entry", file, r)
			}
		}
	}
}

// TestStageRefsFindPlantedCalls: the check finds a planted call however it
// is spelled (a call, a renamed import, a function value, a dot import, a
// Build… prefix), and not a local variable that shadows a package name nor
// a function of the same name in another package.
func TestStageRefsFindPlantedCalls(t *testing.T) {
	src := `package views

import (
	"github.com/oastui/oastui/compile"
	eng "github.com/oastui/oastui/lint"
	. "github.com/oastui/oastui/dryrun"
	"github.com/oastui/oastui/flowgraph"
	"github.com/oastui/oastui/analysis"
)

func f() {
	a, _ := compile.Load("x", compile.LoadOptions{})
	_ = eng.Run(a, eng.Options{})
	run := flowgraph.BuildFlow
	_ = run
	_ = analysis.Run("x", analysis.Options{})
	_ = compile.Flows(nil)
}

func g(compile struct{ Load func() }) { compile.Load() }
`
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "planted.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range stageRefs(fset, f) {
		got = append(got, fmt.Sprintf("%d %s", r.pos.Line, r.name))
	}
	want := []string{"6 dryrun.*", "12 compile.Load", "13 lint.Run", "14 flowgraph.BuildFlow"}
	if !slices.Equal(got, want) {
		t.Errorf("found %q, want %q", got, want)
	}

	// and the whole test fails on a package that plants one
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "planted.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	bad, err := stageViolations([]pkg{{ImportPath: module + "views", Dir: dir, GoFiles: []string{"planted.go"}}}, map[string]bool{})
	if err != nil {
		t.Fatal(err)
	}
	if len(bad) != 4 || !strings.Contains(bad[1], "views/planted.go:12: views refers to compile.Load") {
		t.Errorf("violations: %q", bad)
	}
}

// lint imports dryrun and prompts for their result types only: the review
// receives the dry run and the prompt report from analysis (go/analysis's
// Requires/ResultOf) and never calls a function of those packages.
func TestLintRunsNoPass(t *testing.T) {
	var dir string
	for _, p := range listPackages(t) {
		if p.ImportPath == module+"lint" {
			dir = p.Dir
			files := p.GoFiles
			sort.Strings(files)
			for _, f := range files {
				checkNoCalls(t, filepath.Join(dir, f), "dryrun", "prompts")
			}
		}
	}
	if dir == "" {
		t.Fatal("no package lint")
	}
}

// checkNoCalls reports every call pkg.F(…) in file for the packages named.
func checkNoCalls(t *testing.T, file string, pkgs ...string) {
	t.Helper()
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	local := map[string]string{} // name in the file → package
	for _, im := range f.Imports {
		path := strings.Trim(im.Path.Value, `"`)
		for _, p := range pkgs {
			if path == module+p {
				name := p
				if im.Name != nil {
					name = im.Name.Name
				}
				local[name] = p
			}
		}
	}
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		if sel, ok := call.Fun.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok && local[id.Name] != "" {
				t.Errorf("%s: lint calls %s.%s; the review receives its results from analysis", fset.Position(call.Pos()), local[id.Name], sel.Sel.Name)
			}
		}
		return true
	})
}
