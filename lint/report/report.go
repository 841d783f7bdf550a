// Package report renders lint findings for the faces outside the TUI: the
// output formats of `oastui lint --format` (text, json, sarif, github),
// each a Formatter, chosen by name in Formats. A new format is one file
// with its Formatter plus one entry in Formats; the CLI lists and picks
// formats from that map.
//
// Every format goes through Write, which passes each finding's message
// through present.Lines (the one presentation function: sanitise, then
// mask), and then makes what it writes safe for the place it lands: text
// and github (terminals, CI logs) through present.Clean; json and sarif
// escape every
// control, C1, bidirectional and zero-width character as \uXXXX (valid
// JSON, the same decoded string).
package report

import (
	"io"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
)

// Report is what a format renders: the findings and what some formats
// need besides them.
type Report struct {
	Findings    []lint.Finding
	Files       int                      // agent files linted, for summaries
	Docs        Docs                     // parsed files by Finding.File: source excerpts (text), value hashes (sarif)
	Agents      []*compile.Agent         // sarif: the agents the findings come from (parsed files for fingerprints)
	Color       bool                     // text: ANSI colours (the CLI sets it only for a terminal without NO_COLOR)
	ToolVersion string                   // sarif: driver version; "" writes "dev"
	BaseDir     string                   // sarif, github: the repository root; file paths are made relative to it; "" = the working directory
	Suppressed  []lint.SuppressedFinding // sarif: ignored findings, written with a suppression (other formats leave them out)
	Baselined   int                      // findings left out because a baseline holds them (text summary)
	// Policies are the team's policies as rules (lint.Policy.Rule): SARIF
	// describes them among the rules, from their message and doc.
	Policies []lint.Rule
	// Targets are the agents linted, in order, each with its findings
	// counted (summary: one line per agent); the CLI fills it.
	Targets []Target
	// Owned is what MaskOwned did to Findings, when it presented them
	// (nil: it did not): Write then presents again only the findings it
	// changed, not every one.
	Owned *Owned
}

// Target is one agent of a lint run and its findings (after ignores,
// overrides and the baseline; the workspace's findings included).
type Target struct {
	Path                            string // as shown (relative to the working directory when below it)
	Problem                         string // "does not parse", "does not load"; "" when it was read
	Blockers, Warnings, Suggestions int
	// NotAgent: a file of the run that belongs to no agent linted (the
	// .oastui.yaml, for an unused ignore): its findings get a line of
	// their own after the agents', so that the summary loses none.
	NotAgent bool
}

// Formatter writes a report in one output format. Format gets the report
// already masked (see Write); it must make every string from the agent
// safe for where its output lands.
type Formatter interface {
	Format(w io.Writer, r Report) error
}

// SourceUser is implemented by a Formatter that reads the parsed files of
// the findings (Report.Docs / Agents); the CLI keeps them only then.
type SourceUser interface {
	UsesSource() bool
}

// TargetsUser is implemented by a Formatter that reads Report.Targets
// (the agents linted, with their counts); the CLI counts them only then.
type TargetsUser interface {
	UsesTargets() bool
}

// Formats are the output formats by name. Add a format here.
var Formats = map[string]Formatter{
	"text":    textFormat{},
	"json":    jsonFormat{},
	"sarif":   sarifFormat{},
	"github":  githubFormat{},
	"summary": summaryFormat{},
}

// Lookup returns the format called name.
func Lookup(name string) (Formatter, bool) {
	f, ok := Formats[name]
	return f, ok
}

// Names lists the format names, sorted, with "text" (the default) first.
func Names() []string {
	var out []string
	for n := range Formats {
		out = append(out, n)
	}
	sort.Slice(out, func(i, j int) bool {
		if (out[i] == "text") != (out[j] == "text") {
			return out[i] == "text"
		}
		return out[i] < out[j]
	})
	return out
}

// UsesSource reports whether f reads the parsed files of the findings.
func UsesSource(f Formatter) bool {
	s, ok := f.(SourceUser)
	return ok && s.UsesSource()
}

// UsesTargets reports whether f reads Report.Targets.
func UsesTargets(f Formatter) bool {
	s, ok := f.(TargetsUser)
	return ok && s.UsesTargets()
}

// Write masks the report (Mask) and renders it with f: the one way a
// report leaves the engine.
func Write(w io.Writer, f Formatter, r Report) error {
	if r.Owned.of(r.Findings) {
		r.Findings = maskChanged(r.Findings, r.Owned.changed)
	} else {
		r.Findings = Mask(r.Findings)
	}
	return f.Format(w, r)
}

// Mask returns the findings with their message sanitised and masked line
// by line (present.Lines) and their JSON Pointer through present.Text: a
// token used as a component key or id is part of every pointer into the
// component (issue 26 item 10). The rules mask what they quote already;
// this is the net under every face. Fingerprint hashes the presented
// pointer, so it is the same before and after. fs is not modified.
func Mask(fs []lint.Finding) []lint.Finding {
	shown := presentAll(fs)
	var out []lint.Finding
	for i, f := range fs {
		if shown[i].msg == f.Message && shown[i].loc == f.Location {
			continue
		}
		if out == nil {
			out = slices.Clone(fs)
		}
		out[i].Message, out[i].Location = shown[i].msg, shown[i].loc
	}
	if out == nil {
		return fs
	}
	return out
}

// MaskOwned is Mask for findings the caller owns: it presents them in
// place (a tree's report holds tens of thousands: Mask's copy of all of
// them for one that changes would double them). Write then finds nothing
// left to present; given the Owned it returns (Report.Owned), it looks
// only at the findings MaskOwned changed. fs must not be changed or
// reordered in between.
func MaskOwned(fs []lint.Finding) *Owned {
	o := &Owned{n: len(fs)}
	if len(fs) > 0 {
		o.first = &fs[0]
	}
	for i, sh := range presentAll(fs) {
		if sh.msg != fs[i].Message || sh.loc != fs[i].Location {
			o.changed = append(o.changed, i)
		}
		fs[i].Message, fs[i].Location = sh.msg, sh.loc
	}
	return o
}

// Owned is what MaskOwned did to a slice of findings: which ones it
// changed. Presenting is a function of the text, so a finding it left as
// it was is its own presentation and Mask would leave it so again; only
// the changed ones need presenting again to give what Mask gives.
type Owned struct {
	first   *lint.Finding // the slice's first finding, to know it again
	n       int
	changed []int // in order
}

// of reports whether fs is the slice MaskOwned returned o for.
func (o *Owned) of(fs []lint.Finding) bool {
	if o == nil || len(fs) != o.n {
		return false
	}
	return len(fs) == 0 || &fs[0] == o.first
}

// maskChanged is Mask(fs) when only the findings at changed (in order) can
// present differently: it presents those, and copies fs as Mask does,
// only when one of them changes.
func maskChanged(fs []lint.Finding, changed []int) []lint.Finding {
	var out []lint.Finding
	for _, i := range changed {
		msg, loc := present.Lines(fs[i].Message), present.Text(fs[i].Location)
		if msg == fs[i].Message && loc == fs[i].Location {
			continue
		}
		if out == nil {
			out = slices.Clone(fs)
		}
		out[i].Message, out[i].Location = msg, loc
	}
	if out == nil {
		return fs
	}
	return out
}

// presented is a finding's message and pointer as they leave the engine.
type presented struct{ msg, loc string }

// presentAll presents every finding's message (present.Lines) and pointer
// (present.Text), one part per core at once.
func presentAll(fs []lint.Finding) []presented {
	shown := make([]presented, len(fs))
	parts := max(1, runtime.GOMAXPROCS(0))
	per := (len(fs) + parts - 1) / parts
	var wg sync.WaitGroup
	for k := range parts {
		lo, hi := min(k*per, len(fs)), min((k+1)*per, len(fs))
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := lo; i < hi; i++ {
				shown[i] = presented{present.Lines(fs[i].Message), present.Text(fs[i].Location)}
			}
		}()
	}
	wg.Wait()
	return shown
}

// Docs maps a finding's File to the parsed file, so that renderers can show
// the source line of a finding.
type Docs map[string]*compile.Doc

// AddAgent adds every file of a loaded agent under its Path.
func (d Docs) AddAgent(a *compile.Agent) {
	for _, doc := range []*compile.Doc{a.Flow, a.Package, a.CinatraJSON, a.Registry} {
		if doc != nil && doc.Path != "" {
			d[doc.Path] = doc
		}
	}
}

// Summary counts findings by severity, and the files that were linted.
type Summary struct {
	Blockers    int `json:"blockers"`
	Warnings    int `json:"warnings"`
	Suggestions int `json:"suggestions"`
	Files       int `json:"files"`
}

// Summarize counts fs; files is the number of agent files linted.
func Summarize(fs []lint.Finding, files int) Summary {
	s := Summary{Files: files}
	for _, f := range fs {
		switch f.Severity {
		case compile.Blocker:
			s.Blockers++
		case compile.Warning:
			s.Warnings++
		default:
			s.Suggestions++
		}
	}
	return s
}
