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
	"dryrun":      {"compile", "flowgraph"},
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
	"internal/testshared": {},
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
	cmd := exec.Command("go", "list", "-json", "./...")
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
