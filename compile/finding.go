package compile

import (
	"crypto/sha256"
	"encoding/hex"
	"slices"
	"strconv"
	"strings"

	"github.com/oastui/oastui/edit"
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
	// EndLine and EndColumn are where the offending text (Start, End)
	// ends, exclusive, in Line's and Column's units; 0 when no span is
	// known.
	EndLine   int `json:"endLine,omitempty"`
	EndColumn int `json:"endColumn,omitempty"`
	// ValueHash identifies the value that triggered the rule without
	// holding it: HashValue of the secret itself for the credential rules,
	// of the URL for untrusted_external_url, of the scalar at Location for
	// the others ("" when the pointer names an object, an array or
	// nothing). Fingerprints (SARIF, baselines) and the value-bound ignores
	// of secret rules are built on it, so reformatting and line moves keep
	// them while a changed secret does not.
	ValueHash string `json:"valueHash,omitempty"`
	// Fixes are the named repairs of the finding, best first (`oastui lint
	// --fix` applies the first): byte-span edits computed from the parsed
	// files (package edit). Empty when the rule has no safe fix.
	Fixes []edit.Fix `json:"fixes,omitempty"`
	// Start and End are the offending text as byte offsets [Start, End)
	// into the bytes of File the analysis read (Doc.Src, a sibling file's
	// data), set when the finding is made by whoever knows the node
	// (Doc.SetSpan): the value Location names, or the token that names a
	// multi-line component (Doc.Span). End 0: no span known (a finding on
	// a whole file). Not part of the JSON output (EndLine and EndColumn
	// are).
	Start int `json:"-"`
	End   int `json:"-"`
	// Group is the group of the finding's rule (lint.Rule.Group: "dryrun",
	// "slots", …), set by the review, so that a face shows the dry run's or
	// the slots' findings by asking, not by matching code prefixes. Not
	// part of the JSON output.
	Group string `json:"-"`
	// Slot is the slotId of the context slot the finding is about, when its
	// check knows (a context FlowNode's wiring); "" otherwise. Not part of
	// the JSON output.
	Slot string `json:"-"`
}

// HasSpan says whether the finding carries its span (Start, End).
func (f Finding) HasSpan() bool { return f.End > 0 }

// sameFinding compares two findings field by field, the fixes included.
func sameFinding(a, b Finding) bool {
	if len(a.Fixes) != len(b.Fixes) {
		return false
	}
	for i := range a.Fixes {
		if a.Fixes[i].Title != b.Fixes[i].Title || !slices.Equal(a.Fixes[i].Edits, b.Fixes[i].Edits) || !slices.Equal(a.Fixes[i].Moves, b.Fixes[i].Moves) {
			return false
		}
	}
	return a.Code == b.Code && a.Severity == b.Severity && a.Message == b.Message && a.Location == b.Location &&
		a.Source == b.Source && a.File == b.File && a.Line == b.Line && a.Column == b.Column && a.ValueHash == b.ValueHash &&
		a.EndLine == b.EndLine && a.EndColumn == b.EndColumn && a.Start == b.Start && a.End == b.End
}

// HashValue is the ValueHash of a value: the hex of the first 16 bytes of
// its SHA-256.
func HashValue(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:16])
}

// ScalarHash is HashValue of a scalar node (a string's decoded text, a
// number's literal, true, false, null), "" for an object, an array or nil.
func ScalarHash(n *Node) string {
	if n == nil {
		return ""
	}
	switch n.Kind {
	case String, Number:
		return HashValue(n.Text)
	case Bool:
		return HashValue(strconv.FormatBool(n.Bool))
	case Null:
		return HashValue("null")
	}
	return ""
}

// At returns a finding positioned at the value ptr names in d, with its
// span (Span: a multi-line component is named by its "name", else "id").
func (d *Doc) At(ptr string, code string, sev Severity, msg string) Finding {
	return d.AtNamed(ptr, code, sev, msg, "name", "id")
}

// AtNamed is At for a check whose message names components by the members
// keys lists, in that order (SpanNamed): a cinatra check quotes node ids.
func (d *Doc) AtNamed(ptr string, code string, sev Severity, msg string, keys ...string) Finding {
	line, col := d.PointerPosition(ptr)
	f := Finding{Code: code, Severity: sev, Message: msg, Location: ptr,
		Source: SourceDeterministic, File: d.Path, Line: line, Column: col}
	if d.Root != nil && ptr != "" {
		f.ValueHash = ScalarHash(d.Lookup(ptr))
	}
	if start, end := d.SpanNamed(ptr, keys...); end > start {
		d.SetSpan(&f, start, end)
	}
	return f
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
	f := &Finding{Code: "invalid_json", Severity: Blocker, Message: prefix + d.Err.Msg,
		Source: SourceDeterministic, File: d.Path, Line: line, Column: col}
	if start, end := d.Span(""); end > start {
		d.SetSpan(f, start, end)
	}
	return f
}

// SortFindings sorts by file, line, column, code (then severity and
// message, for a total order) and drops exact duplicates (SPEC §2).
func SortFindings(fs []Finding) []Finding {
	sorted := true
	for i := 1; i < len(fs) && sorted; i++ {
		sorted = compareFindings(&fs[i-1], &fs[i]) <= 0
	}
	if sorted {
		return dedupeSorted(fs)
	}
	// Sort the indices, not the findings: a stable sort of the structs
	// moves each of them O(log n) times, and a tree's findings number in
	// the thousands. Ties keep their order (the index decides last).
	idx := make([]int, len(fs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortFunc(idx, func(i, j int) int {
		if c := compareFindings(&fs[i], &fs[j]); c != 0 {
			return c
		}
		return i - j
	})
	// Put fs[idx[k]] at k in place, one cycle of the permutation at a
	// time (a copy of the findings would double them at the moment a
	// tree's report holds them all).
	for i := range idx {
		if idx[i] == i {
			continue
		}
		held := fs[i]
		j := i
		for {
			k := idx[j]
			idx[j] = j
			if k == i {
				fs[j] = held
				break
			}
			fs[j] = fs[k]
			j = k
		}
	}
	return dedupeSorted(fs)
}

// compareFindings orders findings by file, line, column, code, severity
// (worst first), location, then message.
func compareFindings(a, b *Finding) int {
	switch {
	case a.File != b.File:
		return strings.Compare(a.File, b.File)
	case a.Line != b.Line:
		return a.Line - b.Line
	case a.Column != b.Column:
		return a.Column - b.Column
	case a.Code != b.Code:
		return strings.Compare(a.Code, b.Code)
	case a.Severity != b.Severity:
		return b.Severity.Rank() - a.Severity.Rank()
	case a.Location != b.Location:
		return strings.Compare(a.Location, b.Location)
	}
	return strings.Compare(a.Message, b.Message)
}

// dedupeSorted drops each finding equal to the one before it, in place.
func dedupeSorted(fs []Finding) []Finding {
	out := fs[:0]
	for i, f := range fs {
		if i > 0 && sameFinding(f, fs[i-1]) {
			continue
		}
		out = append(out, f)
	}
	return out
}
