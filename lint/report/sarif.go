package report

import (
	"io"
	"os"
	"strings"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"
	"github.com/oastui/oastui/present"
)

// SARIF 2.1.0 output (SPEC §6, reference/linters.md §6.2): own small
// structs, validated against the official schema in the tests only.

// SARIFSchemaURI is the $schema written at the top of the log.
const SARIFSchemaURI = "https://json.schemastore.org/sarif-2.1.0.json"

// SARIFOptions tune writeSARIF.
type SARIFOptions struct {
	ToolVersion string                   // driver version; "" writes "dev"
	BaseDir     string                   // artifact URIs are made relative to it; "" = the working directory
	Agents      []*compile.Agent         // the agents the findings come from: their parsed files give the value hashes of fingerprints without re-reading
	Docs        Docs                     // parsed files by Finding.File (as the text renderer gets them); files in neither are read from disk
	Suppressed  []lint.SuppressedFinding // ignored findings: written as results with a suppression
	Policies    []lint.Rule              // the team's policies as rules (lint.Policy.Rule), described after the built-in rules
}

// sarifFormat: SARIF 2.1.0 for code scanning (--format sarif).
type sarifFormat struct{}

func (sarifFormat) UsesSource() bool { return true }

func (sarifFormat) Format(w io.Writer, r Report) error {
	return writeSARIF(w, r.Findings, SARIFOptions{ToolVersion: r.ToolVersion, BaseDir: r.BaseDir, Agents: r.Agents, Docs: r.Docs, Suppressed: r.Suppressed, Policies: r.Policies})
}

type sarifLog struct {
	Schema  string     `json:"$schema"`
	Version string     `json:"version"`
	Runs    []sarifRun `json:"runs"`
}

type sarifRun struct {
	Tool       sarifTool     `json:"tool"`
	Results    []sarifResult `json:"results"` // never omitted: GitHub requires the array
	ColumnKind string        `json:"columnKind"`
}

type sarifTool struct {
	Driver sarifDriver `json:"driver"`
}

type sarifDriver struct {
	Name           string      `json:"name"`
	Version        string      `json:"version"`
	InformationURI string      `json:"informationUri"`
	Rules          []sarifRule `json:"rules"`
}

type sarifText struct {
	Text string `json:"text"`
}

type sarifHelp struct {
	Text     string `json:"text"`
	Markdown string `json:"markdown,omitempty"`
}

type sarifRule struct {
	ID                   string          `json:"id"`
	Name                 string          `json:"name"`
	ShortDescription     sarifText       `json:"shortDescription"`
	FullDescription      sarifText       `json:"fullDescription"`
	HelpURI              string          `json:"helpUri,omitempty"`
	Help                 sarifHelp       `json:"help"`
	DefaultConfiguration sarifRuleConfig `json:"defaultConfiguration"`
	Properties           sarifRuleProps  `json:"properties"`
}

type sarifRuleConfig struct {
	Level string `json:"level"`
}

type sarifRuleProps struct {
	Tags             []string `json:"tags,omitempty"`
	Precision        string   `json:"precision"`
	ProblemSeverity  string   `json:"problem.severity"`
	SecuritySeverity string   `json:"security-severity,omitempty"`
	Group            string   `json:"group,omitempty"`
	Severity         string   `json:"oastui.severity"`
}

type sarifResult struct {
	RuleID              string            `json:"ruleId"`
	RuleIndex           int               `json:"ruleIndex"`
	Level               string            `json:"level"`
	Message             sarifText         `json:"message"`
	Locations           []sarifLocation   `json:"locations"`
	PartialFingerprints map[string]string `json:"partialFingerprints"`
	Suppressions        []sarifSuppress   `json:"suppressions,omitempty"`
	Fixes               []sarifFix        `json:"fixes,omitempty"`
	Properties          sarifResultProps  `json:"properties"`
}

// sarifFix is a finding's automatic fix (SARIF 2.1.0 §3.55): byte-span
// replacements (§3.57, regions by byteOffset/byteLength, §3.30.11).
type sarifFix struct {
	Description     sarifText             `json:"description"`
	ArtifactChanges []sarifArtifactChange `json:"artifactChanges"`
}

type sarifArtifactChange struct {
	ArtifactLocation sarifArtifact      `json:"artifactLocation"`
	Replacements     []sarifReplacement `json:"replacements"`
}

type sarifReplacement struct {
	DeletedRegion   sarifByteRegion `json:"deletedRegion"`
	InsertedContent *sarifText      `json:"insertedContent,omitempty"`
}

type sarifByteRegion struct {
	ByteOffset int `json:"byteOffset"`
	ByteLength int `json:"byteLength"`
}

// sarifFixes converts a finding's fixes, one artifactChange per file.
func sarifFixes(ps paths, f lint.Finding, base string) []sarifFix {
	var out []sarifFix
	for _, x := range f.Fixes {
		if len(x.Edits) == 0 {
			continue // a file move (edit.Move) has no SARIF form: artifactChanges are replacements only
		}
		sf := sarifFix{Description: sarifText{x.Title}}
		for _, p := range x.Files() {
			uri, baseID := relFileURI(ps, p, base)
			ch := sarifArtifactChange{ArtifactLocation: sarifArtifact{URI: uri, URIBaseID: baseID}}
			for _, e := range edit.EditsOf(x.Edits, p) {
				r := sarifReplacement{DeletedRegion: sarifByteRegion{ByteOffset: e.Start, ByteLength: e.End - e.Start}}
				if e.New != "" {
					r.InsertedContent = &sarifText{e.New}
				}
				ch.Replacements = append(ch.Replacements, r)
			}
			sf.ArtifactChanges = append(sf.ArtifactChanges, ch)
		}
		out = append(out, sf)
	}
	return out
}

// sarifSuppress: an ignored finding (.oastui.yaml ignores: kind external;
// an x-oastui-ignore member: kind inSource), with the reason given.
type sarifSuppress struct {
	Kind          string `json:"kind"`
	Status        string `json:"status"`
	Justification string `json:"justification,omitempty"`
}

type sarifResultProps struct {
	Pointer  string `json:"pointer,omitempty"`
	Source   string `json:"source"`
	Severity string `json:"severity"`
}

type sarifLocation struct {
	PhysicalLocation sarifPhysical     `json:"physicalLocation"`
	LogicalLocations []sarifLogicalLoc `json:"logicalLocations,omitempty"`
}

type sarifPhysical struct {
	ArtifactLocation sarifArtifact `json:"artifactLocation"`
	Region           sarifRegion   `json:"region"`
}

type sarifArtifact struct {
	URI       string `json:"uri"`
	URIBaseID string `json:"uriBaseId,omitempty"`
}

type sarifRegion struct {
	StartLine   int `json:"startLine"`
	StartColumn int `json:"startColumn"`
	EndLine     int `json:"endLine,omitempty"`   // the finding's span's end, when it has one
	EndColumn   int `json:"endColumn,omitempty"` // exclusive, as SARIF's endColumn is
}

type sarifLogicalLoc struct {
	Name               string `json:"name,omitempty"`
	FullyQualifiedName string `json:"fullyQualifiedName"`
	Kind               string `json:"kind"`
}

// sarifLevel maps a severity: blocker → error, warning → warning,
// suggestion → note.
func sarifLevel(s compile.Severity) string {
	switch s {
	case compile.Blocker:
		return "error"
	case compile.Warning:
		return "warning"
	}
	return "note"
}

func sarifProblemSeverity(s compile.Severity) string {
	switch s {
	case compile.Blocker:
		return "error"
	case compile.Warning:
		return "warning"
	}
	return "recommendation"
}

// sarifTags are the rule's own tags ("security" only on the security
// rules: Rule.Tags), plus the group.
func sarifTags(r lint.Rule) []string {
	seen := map[string]bool{}
	var out []string
	add := func(t string) {
		if t != "" && !seen[t] {
			seen[t] = true
			out = append(out, t)
		}
	}
	for _, t := range r.Tags {
		add(t)
	}
	add(r.Group)
	return out
}

// sarifSecuritySeverity rates security rules for GitHub (only honoured with
// the security tag): credentials 9.0, other blockers 7.5, warnings 5.0,
// suggestions 2.0.
func sarifSecuritySeverity(r lint.Rule, tags []string) string {
	sec := false
	for _, t := range tags {
		sec = sec || t == "security"
	}
	if !sec {
		return ""
	}
	switch {
	case strings.Contains(r.Code, "credential") || strings.Contains(r.Code, "secret"):
		return "9.0"
	case r.Severity == compile.Blocker:
		return "7.5"
	case r.Severity == compile.Warning:
		return "5.0"
	}
	return "2.0"
}

func sarifRuleName(code string) string {
	if strings.ContainsAny(code, "-.") || strings.ToLower(code) != code {
		return code
	}
	var b strings.Builder
	for _, p := range strings.Split(code, "_") {
		if p != "" {
			b.WriteString(strings.ToUpper(p[:1]) + p[1:])
		}
	}
	return b.String()
}

func sarifDescriptor(r lint.Rule) sarifRule {
	doc := strings.TrimSpace(r.Doc)
	if doc == "" {
		doc = r.Code
	}
	tags := sarifTags(r)
	sev := r.Severity
	if sev == "" {
		sev = compile.Warning
	}
	help := sarifHelp{Text: doc + " (rule " + r.Code + ", default severity " + string(sev) + ")"}
	uri := ""
	if lint.LookupRule(r.Code) != nil {
		rr := r
		rr.Severity = sev
		help.Markdown, uri = rr.MarkdownHelp(), rr.HelpURI()
	}
	return sarifRule{
		ID: r.Code, Name: sarifRuleName(r.Code),
		ShortDescription: sarifText{doc}, FullDescription: sarifText{doc},
		HelpURI:              uri,
		Help:                 help,
		DefaultConfiguration: sarifRuleConfig{Level: sarifLevel(sev)},
		Properties: sarifRuleProps{Tags: tags, Precision: "high", ProblemSeverity: sarifProblemSeverity(sev),
			SecuritySeverity: sarifSecuritySeverity(lint.Rule{Code: r.Code, Severity: sev}, tags), Group: r.Group, Severity: string(sev)},
	}
}

// writeSARIF writes findings as a SARIF 2.1.0 log with one run. The rules
// are every registered rule (sorted by code, so ruleIndex is stable) plus
// any other code that occurs; each result carries its JSON Pointer as a
// logical location and a partial fingerprint "oastui/v1" = SHA-256 of rule,
// file, pointer and a SHA-256 of the value there — never the value itself.
// Messages are written masked (SPEC §2; Write), and every character a
// terminal may act on is escaped (jsonEscapeInvisible).
func writeSARIF(w io.Writer, findings []lint.Finding, opts SARIFOptions) error {
	version := opts.ToolVersion
	if version == "" {
		version = "dev"
	}
	base := opts.BaseDir
	if base == "" {
		base = "."
	}
	ps := workPaths()
	base = ps.abs(base)

	all := lint.Rules()
	index := map[string]int{}
	var descs []sarifRule
	for _, r := range all {
		index[r.Code] = len(descs)
		descs = append(descs, sarifDescriptor(r))
	}
	for _, r := range opts.Policies { // the team's: described by their message and doc
		if _, dup := index[r.Code]; !dup {
			index[r.Code] = len(descs)
			descs = append(descs, sarifDescriptor(r))
		}
	}
	// codes outside Rules(): the loading rules (with their registered
	// description) and, defensively, any unregistered code
	describe := func(f lint.Finding) {
		if _, ok := index[f.Code]; ok {
			return
		}
		index[f.Code] = len(descs)
		r := lint.Rule{Code: f.Code, Severity: f.Severity, Group: "load"}
		if reg := lint.LookupRule(f.Code); reg != nil {
			r = *reg
		}
		descs = append(descs, sarifDescriptor(r))
	}
	for _, f := range findings {
		describe(f)
	}
	for _, sf := range opts.Suppressed {
		describe(sf.Finding)
	}

	docs := newSarifDocs(ps, opts.Agents, opts.Docs)
	results := make([]sarifResult, 0, len(findings)+len(opts.Suppressed))
	result := func(f lint.Finding) sarifResult {
		uri, baseID := relFileURI(ps, f.File, base)
		line, col := f.Line, f.Column
		if line < 1 {
			line = 1
		}
		if col < 1 {
			col = 1
		}
		loc := sarifLocation{PhysicalLocation: sarifPhysical{
			ArtifactLocation: sarifArtifact{URI: uri, URIBaseID: baseID},
			Region:           sarifRegion{StartLine: line, StartColumn: col},
		}}
		if f.EndLine > line || f.EndLine == line && f.EndColumn > col {
			loc.PhysicalLocation.Region.EndLine, loc.PhysicalLocation.Region.EndColumn = f.EndLine, f.EndColumn
		}
		if f.Location != "" {
			toks := compile.SplitPointer(f.Location)
			loc.LogicalLocations = []sarifLogicalLoc{{Name: toks[len(toks)-1], FullyQualifiedName: f.Location, Kind: sarifKind(docs.node(f.File, f.Location))}}
		}
		return sarifResult{
			RuleID: f.Code, RuleIndex: index[f.Code], Level: sarifLevel(f.Severity),
			Message:             sarifText{f.Message},
			Locations:           []sarifLocation{loc},
			PartialFingerprints: map[string]string{FingerprintKey: fingerprint(ps, f, base, StablePointer(f))},
			Fixes:               sarifFixes(ps, f, base),
			Properties:          sarifResultProps{Pointer: f.Location, Source: f.Source, Severity: string(f.Severity)},
		}
	}
	for _, f := range findings {
		results = append(results, result(f))
	}
	for _, sf := range opts.Suppressed {
		f := sf.Finding
		f.Message = present.Lines(f.Message)
		r := result(f)
		kind := "external"
		if sf.InSource {
			kind = "inSource"
		}
		r.Suppressions = []sarifSuppress{{Kind: kind, Status: "accepted", Justification: sf.Reason}}
		r.Fixes = nil // an accepted finding is not to be fixed
		results = append(results, r)
	}
	log := sarifLog{Schema: SARIFSchemaURI, Version: "2.1.0", Runs: []sarifRun{{
		Tool:       sarifTool{Driver: sarifDriver{Name: "oastui", Version: version, InformationURI: "https://github.com/oastui/oastui", Rules: descs}},
		Results:    results,
		ColumnKind: "unicodeCodePoints",
	}}}
	return encodeJSON(w, log)
}

func sarifKind(n *compile.Node) string {
	if n == nil {
		return "value"
	}
	switch n.Kind {
	case compile.Object:
		return "object"
	case compile.Array:
		return "array"
	}
	return "value"
}

// sarifDocs finds the parsed document of a finding's file: from the agents
// given, else read once from disk.
type sarifDocs struct {
	byPath map[string]*compile.Doc
	ps     paths
}

func newSarifDocs(ps paths, agents []*compile.Agent, byFile Docs) *sarifDocs {
	d := &sarifDocs{byPath: map[string]*compile.Doc{}, ps: ps}
	for file, doc := range byFile {
		if doc != nil {
			d.byPath[ps.abs(file)] = doc
		}
	}
	for _, a := range agents {
		if a == nil {
			continue
		}
		for _, doc := range []*compile.Doc{a.Flow, a.Package, a.CinatraJSON, a.Registry} {
			if doc != nil && doc.Path != "" {
				d.byPath[ps.abs(doc.Path)] = doc
			}
		}
	}
	return d
}

func (d *sarifDocs) doc(file string) *compile.Doc {
	if file == "" || strings.HasPrefix(file, "<") {
		return nil
	}
	key := d.ps.abs(file)
	if doc, ok := d.byPath[key]; ok {
		return doc
	}
	var doc *compile.Doc
	if src, err := os.ReadFile(file); err == nil && len(src) <= compile.MaxFileBytes {
		doc = compile.ParseDoc(file, src) // Root nil for a non-JSON file; Src still serves lines
	}
	d.byPath[key] = doc
	return doc
}

func (d *sarifDocs) node(file, ptr string) *compile.Node {
	doc := d.doc(file)
	if doc == nil || doc.Root == nil || ptr == "" {
		return nil
	}
	return doc.Lookup(ptr)
}
