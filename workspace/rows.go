package workspace

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/oastui/oastui/compile"
)

// Row is one line of the workspace table: an agent with its review's and
// the workspace's findings counted together.
type Row struct {
	Index int // into Index.Agents
	*Agent
	Blockers, Warnings, Suggestions int
	Children                        int // distinct child packages it names
	Missing                         int // of which the tree has none
	Dependents                      int // agents naming it
}

// Rows are the table's rows, in Index order.
func (ix *Index) Rows() []Row {
	out := make([]Row, len(ix.Agents))
	for i := range ix.Agents {
		a := &ix.Agents[i]
		r := Row{Index: i, Agent: a, Blockers: a.Blockers, Warnings: a.Warnings, Suggestions: a.Suggestions, Dependents: len(ix.Dependents(i))}
		for _, f := range ix.perAgent[i] {
			switch f.Severity {
			case compile.Blocker:
				r.Blockers++
			case compile.Warning:
				r.Warnings++
			default:
				r.Suggestions++
			}
		}
		seen := map[string]bool{}
		for _, e := range ix.edges[i] {
			if !seen[e.child.Package] {
				seen[e.child.Package] = true
				r.Children++
				if e.to < 0 {
					r.Missing++
				}
			}
		}
		out[i] = r
	}
	return out
}

// Worst are the row's worst findings, the workspace's first (they are
// what only this view shows), then the review's: at most n.
func (ix *Index) Worst(i, n int) []compile.Finding {
	var out []compile.Finding
	for _, sev := range []compile.Severity{compile.Blocker, compile.Warning, compile.Suggestion} {
		for _, f := range ix.perAgent[i] {
			if f.Severity == sev && len(out) < n {
				out = append(out, f)
			}
		}
		for _, f := range ix.Agents[i].Top {
			if f.Severity == sev && len(out) < n {
				out = append(out, f)
			}
		}
	}
	return out
}

// Status is the row's status text: "does not parse" (or the load
// problem), else its counts ("2 blockers, 1 warning"), else "clean".
func (r *Row) Status() string {
	if r.Problem != Readable {
		return r.Problem.String()
	}
	var parts []string
	if r.Blockers > 0 {
		parts = append(parts, plural(r.Blockers, "blocker"))
	}
	if r.Warnings > 0 {
		parts = append(parts, plural(r.Warnings, "warning"))
	}
	if r.Suggestions > 0 {
		parts = append(parts, plural(r.Suggestions, "suggestion"))
	}
	if len(parts) == 0 {
		return "clean"
	}
	return strings.Join(parts, ", ")
}

func plural(n int, w string) string {
	if n == 1 {
		return "1 " + w
	}
	return fmt.Sprintf("%d %ss", n, w)
}

// Worse says r's status is worse than s's: an agent that does not load or
// parse, then more blockers, more warnings, more suggestions.
func (r *Row) Worse(s *Row) bool {
	if (r.Problem != Readable) != (s.Problem != Readable) {
		return r.Problem != Readable
	}
	if r.Blockers != s.Blockers {
		return r.Blockers > s.Blockers
	}
	if r.Warnings != s.Warnings {
		return r.Warnings > s.Warnings
	}
	return r.Suggestions > s.Suggestions
}

// Column is a sortable column of the table.
type Column int

const (
	ColStatus Column = iota // worst first (the default)
	ColAgent                // vendor/slug
	ColTitle
	ColKind
	ColVersion
	ColSteps
	ColSlots
	ColChildren
	ColChanged // newest first
	NumColumns
)

var columnNames = [NumColumns]string{"status", "agent", "title", "kind", "version", "steps", "slots", "children", "changed"}

func (c Column) String() string {
	if c >= 0 && c < NumColumns {
		return columnNames[c]
	}
	return "?"
}

// Sort orders rows by column c (its natural direction: worst status,
// most steps/slots/children and newest change first; names ascending),
// reversed when reverse is set; ties go by agent id, always ascending.
func Sort(rows []Row, c Column, reverse bool) {
	// The rows are sorted as indexes (a row is 9 words), and versions and
	// lower-cased titles are worked out once per row, not at each of the
	// 130,000 comparisons 10,000 rows make.
	n := len(rows)
	var vers []parsedVersion
	var titles []string
	switch c {
	case ColVersion:
		vers = make([]parsedVersion, n)
		for i := range rows {
			v, ok := ParseVersion(rows[i].Version)
			vers[i] = parsedVersion{v, ok}
		}
	case ColTitle:
		titles = make([]string, n)
		for i := range rows {
			titles[i] = strings.ToLower(rows[i].Title)
		}
	}
	idx := make([]int, n)
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(i, j int) int {
		a, b := &rows[i], &rows[j]
		var cmp int
		switch {
		case vers != nil:
			cmp = compareVersions(a.Version, b.Version, vers[i], vers[j])
		case titles != nil:
			cmp = strings.Compare(titles[i], titles[j])
		default:
			cmp = compare(a, b, c)
		}
		if cmp != 0 {
			if reverse {
				return -cmp
			}
			return cmp
		}
		return strings.Compare(a.ID(), b.ID())
	})
	sorted := make([]Row, n)
	for k, i := range idx {
		sorted[k] = rows[i]
	}
	copy(rows, sorted)
}

type parsedVersion struct {
	v  Version
	ok bool
}

func compareVersions(sa, sb string, a, b parsedVersion) int {
	switch {
	case a.ok && b.ok:
		return -a.v.Compare(b.v) // newest first
	case a.ok != b.ok:
		if a.ok {
			return -1
		}
		return 1
	}
	return strings.Compare(sa, sb)
}

// compare is -1 when a comes first in column c's natural order.
func compare(a, b *Row, c Column) int {
	switch c {
	case ColStatus:
		switch {
		case a.Worse(b):
			return -1
		case b.Worse(a):
			return 1
		}
		return 0
	case ColAgent:
		return strings.Compare(a.ID(), b.ID())
	case ColTitle:
		return strings.Compare(strings.ToLower(a.Title), strings.ToLower(b.Title))
	case ColKind:
		return strings.Compare(a.Kind(), b.Kind())
	case ColVersion:
		va, oka := ParseVersion(a.Version)
		vb, okb := ParseVersion(b.Version)
		return compareVersions(a.Version, b.Version, parsedVersion{va, oka}, parsedVersion{vb, okb})
	case ColSteps:
		return b.Steps - a.Steps
	case ColSlots:
		return b.Slots - a.Slots
	case ColChildren:
		return b.Children - a.Children
	case ColChanged:
		return timeCmp(b.MTime, a.MTime)
	}
	return 0
}

func timeCmp(a, b time.Time) int {
	switch {
	case a.Before(b):
		return -1
	case a.After(b):
		return 1
	}
	return 0
}

// Filter keeps the rows every word of query matches (case-insensitive
// substring of the agent id, path, title, kind, version or status).
// "is:broken", "is:blocker", "is:warning", "is:clean" and
// "is:orchestrator" match those rows.
func Filter(rows []Row, query string) []Row {
	words := strings.Fields(strings.ToLower(query))
	if len(words) == 0 {
		return rows
	}
	var out []Row
	for _, r := range rows {
		if r.matches(words) {
			out = append(out, r)
		}
	}
	return out
}

func (r *Row) matches(words []string) bool {
	hay := strings.ToLower(strings.Join([]string{r.ID(), r.Rel, r.Title, r.Kind(), r.Version, r.Status()}, "\x00"))
	for _, w := range words {
		switch w {
		case "is:broken":
			if r.Problem == Readable {
				return false
			}
		case "is:blocker", "is:blocked":
			if r.Blockers == 0 && r.Problem == Readable {
				return false
			}
		case "is:warning":
			if r.Warnings == 0 {
				return false
			}
		case "is:clean":
			if r.Problem != Readable || r.Blockers+r.Warnings+r.Suggestions > 0 {
				return false
			}
		case "is:orchestrator":
			if r.Kind() != "orchestrator" {
				return false
			}
		default:
			if !strings.Contains(hay, w) {
				return false
			}
		}
	}
	return true
}
