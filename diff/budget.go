package diff

import (
	"fmt"
	"slices"
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

// spillKey is a group of changes that sort together to the end: one check
// raised at one level.
type spillKey struct {
	check string
	level Level
}

// spill says whether a change of check c at level lvl, about to be
// raised, can only be counted: the cap lists the most severe MaxChanges
// changes, ordered by level, area and check, then as raised; a change of a
// check whose level nothing but the config's uniform override moves (not a
// contract or approval-safety check, which callers re-levels, nor one whose
// changes a slot's form move may drop) follows at least MaxChanges raised
// before it at the same level, so it is never listed. It is then counted
// (d.spilled: the summary, Truncated, versionBump's count) and what its
// positions explain kept for the fallback (cov), and nothing else is made
// of it: no message, subject or position. false: the caller raises it (at
// level lvl), and it is counted towards its group's listed ones.
func (d *differ) spill(c *Check, lvl Level, cov ...covered) bool {
	m := d.opts.MaxChanges
	if m <= 0 || c.Contract || c.Safety || d.formMove {
		return false
	}
	k := spillKey{c.ID, lvl}
	if d.pendN > 0 && k == d.pendKey {
		d.pendN++ // the last key spilled: its m are raised already
	} else {
		if d.raised[k] < m {
			if d.raised == nil {
				d.raised = map[spillKey]int{}
			}
			d.raised[k]++
			return false
		}
		d.flushSpill()
		d.pendKey, d.pendN = k, 1
	}
	if n := len(d.spillCov); n >= len(cov) && slices.Equal(d.spillCov[n-len(cov):], cov) {
		return true // the same places as the last (a prompt's placeholders)
	}
	d.spillCov = appendDoubling(d.spillCov, cov...)
	return true
}

// flushSpill adds the run of spills spill counted last to spilled: every
// reader of spilled calls it first.
func (d *differ) flushSpill() {
	if d.pendN == 0 {
		return
	}
	if d.spilled == nil {
		d.spilled = map[spillKey]int{}
	}
	d.spilled[d.pendKey] += d.pendN
	d.pendN = 0
}

// spilledLevels applies the config's overrides to the spilled counts as
// levels does to the changes raised ("off" drops them).
func (d *differ) spilledLevels(over map[string]string) {
	d.flushSpill()
	if len(over) == 0 || len(d.spilled) == 0 {
		return
	}
	out := map[spillKey]int{}
	for k, n := range d.spilled {
		switch s := over[k.check]; s {
		case "":
		case "off":
			continue
		default:
			if l, ok := ParseLevel(s); ok {
				k.level = l
			}
		}
		out[k] += n
	}
	d.spilled = out
}

// spilledAt is how many spilled changes are at level l (all levels: "").
func (d *differ) spilledAt(l Level) int {
	d.flushSpill()
	n := 0
	for k, c := range d.spilled {
		if l == "" || k.level == l {
			n += c
		}
	}
	return n
}
