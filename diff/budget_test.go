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

// agentPair writes two agent packages (package.json at version ver, the
// flow) and returns their snapshots as diff reads them.
func agentPair(t testing.TB, old, new []byte, ver string) (*analysis.Snapshot, *analysis.Snapshot) {
	t.Helper()
	root := t.TempDir()
	var snaps []*analysis.Snapshot
	for i, flow := range [][]byte{old, new} {
		dir := filepath.Join(root, fmt.Sprint(i), "big")
		if err := os.MkdirAll(filepath.Join(dir, "cinatra"), 0o755); err != nil {
			t.Fatal(err)
		}
		pkg := `{"name":"@acme/big","version":"` + ver + `","cinatra":{"kind":"agent"}}`
		if err := os.WriteFile(filepath.Join(dir, "package.json"), []byte(pkg), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "cinatra", "oas.json"), flow, 0o644); err != nil {
			t.Fatal(err)
		}
		snaps = append(snaps, Analyze(dir, nil, &analysis.ConfigResult{}))
	}
	return snaps[0], snaps[1]
}

// TestSpilledAsCapped (issue 35, points 11 and 12): the changes the cap
// can never list are only counted (spill), and the result is the one the
// whole list capped gives: the same listed changes in the same order, the
// same summary and truncated count, the same version message, whatever the
// config's levels make of the spilled checks; and nothing the spilled
// changes explain is named by the fallback.
func TestSpilledAsCapped(t *testing.T) {
	const limit = 50
	// Each pair is analysed once, on first use, for all its cases (a
	// snapshot is immutable; Diff only reads it).
	once := func(mk func() (*analysis.Snapshot, *analysis.Snapshot)) func() (*analysis.Snapshot, *analysis.Snapshot) {
		var o, n *analysis.Snapshot
		return func() (*analysis.Snapshot, *analysis.Snapshot) {
			if o == nil {
				o, n = mk()
			}
			return o, n
		}
	}
	ph := once(func() (*analysis.Snapshot, *analysis.Snapshot) {
		return agentPair(t, hostile.PlaceholderFlow(400, "a"), hostile.PlaceholderFlow(400, "b"), "1.0.0")
	})
	ren := once(func() (*analysis.Snapshot, *analysis.Snapshot) {
		return agentPair(t, hostile.Flow(300, true), RenamedFlow(300), "1.0.0")
	})
	for _, tc := range []struct {
		name   string
		pair   func() (*analysis.Snapshot, *analysis.Snapshot)
		levels map[string]string
	}{
		{"placeholders", ph, nil},
		{"placeholders added breaking", ph, map[string]string{"diff_prompt_placeholder_added": "breaking"}},
		{"placeholders removed off", ph, map[string]string{"diff_prompt_placeholder_removed": "off"}},
		{"placeholders swapped", ph, map[string]string{"diff_prompt_placeholder_added": "info", "diff_prompt_placeholder_removed": "breaking"}},
		{"renamed", ren, nil},
		{"renamed warn", ren, map[string]string{"diff_node_renamed": "warn"}},
		{"renamed breaking", ren, map[string]string{"diff_node_renamed": "breaking"}},
		{"renamed off", ren, map[string]string{"diff_node_renamed": "off"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, n := tc.pair()
			all := Diff(o, n, Options{Levels: tc.levels})
			r := Diff(o, n, Options{Levels: tc.levels, MaxChanges: limit})
			if len(r.Changes) != min(limit, len(all.Changes)) || r.Truncated != max(len(all.Changes)-limit, 0) || r.Summary != all.Summary {
				t.Fatalf("capped: %d changes, truncated %d, %+v; uncapped %d changes, %+v", len(r.Changes), r.Truncated, r.Summary, len(all.Changes), all.Summary)
			}
			for i, c := range r.Changes {
				if a := all.Changes[i]; c.Fingerprint != a.Fingerprint || c.Level != a.Level || c.Message != a.Message {
					t.Fatalf("change %d: %s %s %q, uncapped %s %s %q", i, c.Fingerprint, c.Level, c.Message, a.Fingerprint, a.Level, a.Message)
				}
			}
			for _, c := range all.Changes {
				if c.Check == CheckChanged.ID {
					t.Errorf("the fallback names %s", c.Message)
				}
			}
		})
	}
}

// TestSpillBounds: past the cap's share of a group, a check raises no
// change (the whole list of a prompt renaming n placeholders is 2n changes:
// its memory was most of the diff's).
func TestSpillBounds(t *testing.T) {
	const limit, n = 20, 300
	for _, tc := range []struct {
		name     string
		old, new []byte
		run      func(*differ)
		check    *Check
	}{
		{"placeholders", hostile.PlaceholderFlow(n, "a"), hostile.PlaceholderFlow(n, "b"), (*differ).prompts, CheckPromptPlaceholderAdded},
		{"renamed", hostile.Flow(n, true), RenamedFlow(n), (*differ).graph, CheckNodeRenamed},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o, nw := hostilePair(t, tc.old, tc.new)
			d := &differ{old: view(o), new: view(nw), opts: Options{MaxChanges: limit}, budget: newBudget()}
			d.cur = checkerOf(tc.check)
			tc.run(d)
			if len(d.out) > 2*limit+1 || d.spilledAt("")+len(d.out) < n {
				t.Errorf("%d changes raised, %d spilled: want at most %d raised (a prompt reworded too), every change counted", len(d.out), d.spilledAt(""), 2*limit+1)
			}
		})
	}
}
