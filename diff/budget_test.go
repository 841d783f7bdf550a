package diff

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/oastui/oastui/analysis"
	"github.com/oastui/oastui/internal/hostile"
)

// hostilePair writes two flow files (bare flows, no package) and returns
// their snapshots as diff reads them.
func hostilePair(t testing.TB, old, new []byte) (*analysis.Snapshot, *analysis.Snapshot) {
	t.Helper()
	dir := t.TempDir()
	op, np := filepath.Join(dir, "old.json"), filepath.Join(dir, "new.json")
	if err := os.WriteFile(op, old, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(np, new, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := &analysis.ConfigResult{}
	return Analyze(op, nil, cfg), Analyze(np, nil, cfg)
}

// TestWordDiffBudget (issue 35, point 10): the word diffs of one result
// share a budget: past it, a reworded text is one removal and one addition
// (linear), so many long reworded descriptions cost a bounded alignment.
func TestWordDiffBudget(t *testing.T) {
	const nodes, words = 80, 700 // 80 alignments of ~470×470 words: past the budget
	o, n := hostilePair(t, DescribedFlow(nodes, words, 0), DescribedFlow(nodes, words, 1))
	r := Diff(o, n, Options{})
	aligned, whole := 0, 0
	for _, c := range r.Changes {
		if c.Check != "diff_description_changed" {
			continue
		}
		if len(c.Words) > 3 {
			aligned++
		} else {
			whole++
		}
	}
	if aligned+whole != nodes {
		t.Fatalf("%d description changes, want %d", aligned+whole, nodes)
	}
	if aligned == 0 || whole == 0 {
		t.Errorf("aligned %d, whole %d: want the first aligned and the rest, past the budget, whole", aligned, whole)
	}
	if max := wordCellsTotal / (words * words * 4 / 9); aligned > max+1 {
		t.Errorf("%d aligned word diffs, the budget allows about %d", aligned, max)
	}
}

// TestShownCapped (issue 35, point 10): the faces for people show at most
// MaxShown changes and say how many more the JSON lists.
func TestShownCapped(t *testing.T) {
	o, n := hostilePair(t, hostile.Flow(MaxShown+60, true), RenamedFlow(MaxShown+60))
	r := Diff(o, n, Options{})
	if len(r.Changes) <= MaxShown {
		t.Fatalf("%d changes", len(r.Changes))
	}
	want := strings.TrimSpace(strings.Split(func() string { _, m := shownChanges(r); return m }(), "(")[0])
	for name, f := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return Text(b, r, "", false) },
		"markdown": func(b *bytes.Buffer) error { return Markdown(b, r, "") },
		"github":   func(b *bytes.Buffer) error { return GitHub(b, r, "") },
	} {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) || !strings.Contains(b.String(), "json lists them all") {
			t.Errorf("%s: no %q note", name, want)
		}
		if got := strings.Count(b.String(), "diff_node_renamed"); got > MaxShown {
			t.Errorf("%s shows %d changes", name, got)
		}
	}
}
