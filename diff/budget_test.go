package diff

import (
	"bytes"
	"encoding/json"
	"fmt"
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

// TestMaxChanges (issue 35, point 11): a change renaming many placeholders
// lists at most MaxChanges changes, the most severe first and in the order
// of the whole list; the rest are counted (Truncated, the summary), and the
// faces for people say how to list them all.
func TestMaxChanges(t *testing.T) {
	const n = 400
	o, nw := hostilePair(t, hostile.PlaceholderFlow(n, "a"), hostile.PlaceholderFlow(n, "b"))
	all := Diff(o, nw, Options{})
	if len(all.Changes) < 2*n || all.Truncated != 0 {
		t.Fatalf("uncapped: %d changes, truncated %d", len(all.Changes), all.Truncated)
	}
	const limit = 50
	r := Diff(o, nw, Options{MaxChanges: limit})
	if len(r.Changes) != limit || r.Truncated != len(all.Changes)-limit {
		t.Fatalf("capped at %d: %d changes, truncated %d (of %d)", limit, len(r.Changes), r.Truncated, len(all.Changes))
	}
	if r.Summary != all.Summary {
		t.Errorf("summary %+v, want every change counted %+v", r.Summary, all.Summary)
	}
	for i, c := range r.Changes {
		a := all.Changes[i]
		if c.Fingerprint != a.Fingerprint || c.Message != a.Message || len(c.Words) != len(a.Words) {
			t.Fatalf("change %d: %s %q, uncapped %s %q", i, c.Fingerprint, c.Message, a.Fingerprint, a.Message)
		}
	}
	js, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf(`"truncated":%d`, r.Truncated); !strings.Contains(string(js), want) {
		t.Errorf("JSON lacks %s", want)
	}
	if js, _ := json.Marshal(all); strings.Contains(string(js), `"truncated"`) {
		t.Error("an uncapped result says truncated")
	}
	want := fmt.Sprintf("%d more changes (--format json --max-changes 0 lists them all)", len(all.Changes)-limit)
	for name, f := range map[string]func(*bytes.Buffer) error{
		"text":     func(b *bytes.Buffer) error { return Text(b, r, "", false) },
		"markdown": func(b *bytes.Buffer) error { return Markdown(b, r, "") },
		"github":   func(b *bytes.Buffer) error { return GitHub(b, r, "") },
	} {
		var b bytes.Buffer
		if err := f(&b); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(b.String(), want) {
			t.Errorf("%s: no %q note:\n%.600s", name, want, b.String())
		}
	}
}
