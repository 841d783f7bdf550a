package compile

import (
	"sort"
)

// Severity of a finding. The JSON form is the lower-case word.
type Severity string

const (
	Blocker    Severity = "blocker"
	Warning    Severity = "warning"
	Suggestion Severity = "suggestion"
)

// Rank orders severities: blocker 3, warning 2, suggestion 1, unknown 0.
func (s Severity) Rank() int {
	switch s {
	case Blocker:
		return 3
	case Warning:
		return 2
	case Suggestion:
		return 1
	}
	return 0
}

// SourceDeterministic is the source of every built-in rule.
const SourceDeterministic = "deterministic"

// Finding is the seed's ReviewFinding plus a position (SPEC §2). It lives
// here, in the lowest package, because loading and parsing already produce
// findings (invalid_json, legacy_agent_filename); lint re-exports it.
type Finding struct {
	Code     string   `json:"code"`
	Severity Severity `json:"severity"`
	Message  string   `json:"message"`
	Location string   `json:"location,omitempty"` // RFC 6901 JSON Pointer into File
	Source   string   `json:"source"`
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Column   int      `json:"column"`
}

// At returns a finding positioned at the value ptr names in d.
func (d *Doc) At(ptr string, code string, sev Severity, msg string) Finding {
	line, col := d.PointerPosition(ptr)
	return Finding{Code: code, Severity: sev, Message: msg, Location: ptr,
		Source: SourceDeterministic, File: d.Path, Line: line, Column: col}
}

// SyntaxFinding is the invalid_json blocker for a file that did not parse,
// or nil when it did.
func (d *Doc) SyntaxFinding() *Finding {
	if d.Err == nil {
		return nil
	}
	line, col := d.Position(d.Err.Offset)
	prefix := "invalid JSON: "
	if d.Err.Refused {
		prefix = "not read, beyond oastui's limits: "
	}
	return &Finding{Code: "invalid_json", Severity: Blocker, Message: prefix + d.Err.Msg,
		Source: SourceDeterministic, File: d.Path, Line: line, Column: col}
}

// SortFindings sorts by file, line, column, code (then severity and
// message, for a total order) and drops exact duplicates (SPEC §2).
func SortFindings(fs []Finding) []Finding {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		switch {
		case a.File != b.File:
			return a.File < b.File
		case a.Line != b.Line:
			return a.Line < b.Line
		case a.Column != b.Column:
			return a.Column < b.Column
		case a.Code != b.Code:
			return a.Code < b.Code
		case a.Severity != b.Severity:
			return a.Severity.Rank() > b.Severity.Rank()
		case a.Location != b.Location:
			return a.Location < b.Location
		}
		return a.Message < b.Message
	})
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && f == fs[i-1] {
			continue
		}
		out = append(out, f)
	}
	return out
}
