package diff

import (
	"fmt"
	"strings"
)

// The diff's budget (issue 35, points 10-12): what one diff may spend on
// hostile input, so that every input is answered in about a second.
//
//   - word diffs align words with a quadratic table: each one is bounded
//     (wordCellsEach), and so is their sum over a result (wordCellsTotal);
//     past it a reworded text is shown as one removal and one addition
//     after the common prefix and suffix, which is linear;
//   - a result lists at most Options.MaxChanges changes (the faces:
//     DefaultMaxChanges, oastui diff --max-changes N, 0 for all), the most
//     severe first; the rest are counted (Result.Truncated, the summary)
//     and cost no word diff, masking or fingerprint, so the JSON and MCP
//     agent_diff stay bounded however many placeholders a change renames;
//   - the faces meant for people (text, markdown, github) show at most
//     MaxShown changes of an agent, then "N more changes (--format json
//     lists them all)" (or "--format json --max-changes 0" when the result
//     itself was capped).

const (
	wordCellsEach  = 4_000_000
	wordCellsTotal = 6_000_000
	// MaxShown is how many changes of one agent the text, markdown and
	// github formats show.
	MaxShown = 200
	// DefaultMaxChanges is how many changes of one agent a face lists
	// unless told otherwise (--max-changes, agent_diff's maxChanges).
	DefaultMaxChanges = 1000
)

// budget is what is left of a result's word-diff cells.
type budget struct{ cells int }

func newBudget() *budget { return &budget{cells: wordCellsTotal} }

// take spends n cells when they are left (and each diff's bound allows).
func (b *budget) take(n int) bool {
	if b == nil {
		return n <= wordCellsEach
	}
	if n > wordCellsEach || n > b.cells {
		return false
	}
	b.cells -= n
	return true
}

// shownChanges is the changes of r a face for people shows, and the note
// for the rest ("" when all are shown).
func shownChanges(r *Result) ([]Change, string) {
	if len(r.Changes) <= MaxShown {
		return r.Changes, moreText(r, 0)
	}
	return r.Changes[:MaxShown], moreText(r, len(r.Changes)-MaxShown)
}

// moreText is the note for more changes not shown (of r's list) and those
// the cap left out of it ("" when none).
func moreText(r *Result, more int) string {
	more += r.Truncated
	switch {
	case more == 0:
		return ""
	case r.Truncated > 0:
		return fmt.Sprintf("%d more changes (--format json --max-changes 0 lists them all)", more)
	}
	return fmt.Sprintf("%d more changes (--format json lists them all)", more)
}

// shownRows is the rows (format.go: the package.json changes folded) a
// face for people shows, at most MaxShown, and the note for the changes
// of the rest ("" when all are shown).
func shownRows(r *Result) ([]row, string) {
	rs := rows(r)
	if len(rs) <= MaxShown {
		return rs, moreText(r, 0)
	}
	more := 0
	for _, rw := range rs[MaxShown:] {
		more += max(len(rw.fold), 1)
	}
	return rs[:MaxShown], moreText(r, more)
}

// moreNote is the note as a line of the text format.
func moreNote(note string) string {
	if note == "" {
		return ""
	}
	return "… " + strings.TrimSpace(note) + "\n"
}
