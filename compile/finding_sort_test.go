package compile

import (
	"math/rand/v2"
	"slices"
	"sort"
	"testing"
)

// sortFindingsReference is the order SortFindings keeps: a stable sort
// on file, line, column, code, severity (worst first), location and
// message, then equal neighbours dropped.
func sortFindingsReference(fs []Finding) []Finding {
	fs = slices.Clone(fs)
	sort.SliceStable(fs, func(i, j int) bool { return compareFindings(&fs[i], &fs[j]) < 0 })
	var out []Finding
	for i, f := range fs {
		if i > 0 && sameFinding(f, fs[i-1]) {
			continue
		}
		out = append(out, f)
	}
	return out
}

func TestSortFindings(t *testing.T) {
	a := Finding{File: "a.json", Line: 3, Column: 1, Code: "x", Severity: Warning, Message: "first"}
	aTie := a
	aTie.ValueHash = "h" // same sort key, not the same finding: keeps its place after a
	b := Finding{File: "a.json", Line: 3, Column: 1, Code: "x", Severity: Blocker, Message: "worse"}
	c := Finding{File: "b.json", Line: 1, Column: 1, Code: "a"}
	for _, tc := range []struct {
		name string
		in   []Finding
		want []Finding
	}{
		{"empty", nil, nil},
		{"sorted input is kept", []Finding{b, a, c}, []Finding{b, a, c}},
		{"worst first at one place", []Finding{a, b}, []Finding{b, a}},
		{"ties keep their order", []Finding{c, aTie, a}, []Finding{aTie, a, c}},
		{"ties keep their order (reversed)", []Finding{c, a, aTie}, []Finding{a, aTie, c}},
		{"duplicates are dropped", []Finding{c, a, a, b, c}, []Finding{b, a, c}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := SortFindings(slices.Clone(tc.in))
			if len(got) != len(tc.want) {
				t.Fatalf("got %d findings, want %d: %+v", len(got), len(tc.want), got)
			}
			for i := range got {
				if !sameFinding(got[i], tc.want[i]) {
					t.Errorf("[%d] = %+v, want %+v", i, got[i], tc.want[i])
				}
			}
		})
	}
}

// On many findings with many ties, SortFindings orders as the stable sort
// of the structs did.
func TestSortFindingsMatchesStableSort(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for range 50 {
		fs := make([]Finding, r.IntN(400))
		for i := range fs {
			fs[i] = Finding{File: []string{"a", "b", "c"}[r.IntN(3)], Line: r.IntN(5), Column: r.IntN(3),
				Code: []string{"x", "y"}[r.IntN(2)], Severity: []Severity{Blocker, Warning, Suggestion}[r.IntN(3)],
				Message: []string{"m", "n"}[r.IntN(2)], ValueHash: []string{"", "1", "2"}[r.IntN(3)]}
		}
		got, want := SortFindings(slices.Clone(fs)), sortFindingsReference(fs)
		if !slices.EqualFunc(got, want, sameFinding) {
			t.Fatalf("SortFindings differs from the stable sort on %d findings", len(fs))
		}
	}
}
