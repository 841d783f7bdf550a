// Package tui is the root Bubble Tea model of oastui: layout, focus, keys,
// the file watcher, the analysis pipeline run off the UI goroutine, and the
// editor hand-off. Views (package views) render the immutable Analysis
// snapshot this package builds.
package tui

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"time"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/slots"
	"github.com/oastui/oastui/views"
)

// Options of an analysis.
type Options struct {
	Mode   lint.Mode
	Load   compile.LoadOptions
	Config *lint.Config
}

// Analysis is one immutable snapshot of the pipeline over an agent: what
// was loaded, the review, the compiled output (or why it failed), the
// graphs of its flows, the steps and slots. Views render it and nothing
// else; nothing mutates it after Analyze returns.
type Analysis struct {
	Seq     uint64 // order of the request; a higher one always wins
	Path    string // the path as given
	Mode    lint.Mode
	Agent   *compile.Agent // nil when the path could not be loaded
	LoadErr error
	Review  lint.Review
	Docs    map[string]*compile.Doc // finding File → document, for excerpts

	ConfigPath string // the .oastui.yaml in force ("" for defaults)
	ConfigErr  string // why it could not be used (the defaults apply then)

	CompiledJSON []string // the CompiledAgentOas, indented, one entry per line
	CompileErr   string   // why compiling failed ("" when it did not)
	Steps        []views.StepRow

	Flows    []*FlowGraph          // every Flow of the document, root first
	ByPtr    map[string]*FlowGraph // flow pointer → graph
	Slots    []views.SlotRow
	SlotList []slots.Slot
	SlotNote string

	Started time.Time     // when the analysis started
	Took    time.Duration // how long it took
	Trigger time.Time     // first file event that caused it (zero for a manual reload)
}

// Good says the flow file parsed: the graph, steps and compiled output of
// this snapshot are meaningful. A snapshot that is not good still carries
// findings (the parse error as a blocker).
func (a *Analysis) Good() bool {
	return a != nil && a.LoadErr == nil && a.Agent != nil && a.Agent.Flow != nil && a.Agent.Flow.Root != nil
}

// FlowFile is the path of the flow file, or the given path.
func (a *Analysis) FlowFile() string {
	if a.Agent != nil {
		return a.Agent.FlowPath
	}
	return a.Path
}

// AgentName is the root flow's name (or id), or the directory name.
func (a *Analysis) AgentName() string {
	if a.Good() {
		r := a.Agent.Flow.Root
		if n := r.Get("name").StringOr(""); n != "" {
			return n
		}
		if n := r.Get("id").StringOr(""); n != "" {
			return n
		}
	}
	return filepath.Base(strings.TrimSuffix(a.Path, string(filepath.Separator)))
}

// PackageVersion is "name@version" from package.json, or "".
func (a *Analysis) PackageVersion() string {
	if a.Agent == nil || a.Agent.Package == nil || a.Agent.Package.Root == nil {
		return ""
	}
	p := a.Agent.Package.Root
	name := p.Get("name").StringOr("")
	if v := p.Get("version").StringOr(""); v != "" {
		return name + "@" + v
	}
	return name
}

// Analyze runs the whole pipeline over path. It never panics: an internal
// failure becomes an internal_error blocker so the UI keeps running.
func Analyze(path string, opts Options, seq uint64) (an *Analysis) {
	start := time.Now()
	an = &Analysis{Seq: seq, Path: path, Mode: opts.Mode, Started: start, ByPtr: map[string]*FlowGraph{}}
	if an.Mode == "" {
		an.Mode = lint.ModeDeterministic
	}
	defer func() {
		if r := recover(); r != nil {
			f := compile.Finding{Code: "internal_error", Severity: compile.Blocker,
				Message: fmt.Sprintf("internal error while analysing: %v", r), Source: compile.SourceDeterministic,
				File: an.FlowFile(), Line: 1, Column: 1}
			if os.Getenv("OASTUI_DEBUG") != "" {
				f.Message += "\n" + string(debug.Stack())
			}
			an.Review = lint.Review{Findings: []compile.Finding{f}, Blockers: []compile.Finding{f}}
			an.LoadErr = errors.New(f.Message)
		}
		an.Took = time.Since(start)
	}()

	a, err := compile.Load(path, opts.Load)
	if err != nil {
		an.LoadErr = err
		f := compile.Finding{Code: "agent_read_failed", Severity: compile.Blocker,
			Message: err.Error(), Source: compile.SourceDeterministic, File: path, Line: 1, Column: 1}
		an.Review = lint.Review{Findings: []compile.Finding{f}, Blockers: []compile.Finding{f}}
		return an
	}
	an.Agent = a
	an.Docs = map[string]*compile.Doc{}
	for _, d := range []*compile.Doc{a.Flow, a.Package, a.CinatraJSON, a.Registry} {
		if d != nil {
			an.Docs[d.Path] = d
		}
	}
	cfg := opts.Config
	if cfg == nil {
		// The .oastui.yaml found upward from the agent, read afresh on every
		// analysis so that editing it applies on the next save.
		if p, ok := lint.FindConfig(path); ok {
			an.ConfigPath = p
			c, err := lint.LoadConfig(p)
			if err != nil {
				an.ConfigErr = err.Error()
			} else {
				cfg = c
			}
		}
	}
	an.Review = lint.Run(a, lint.Options{Mode: an.Mode, Config: cfg})
	if !an.Good() {
		return an
	}
	analyzeCompiled(an)
	analyzeGraphs(an)
	analyzeSlots(an)
	return an
}
