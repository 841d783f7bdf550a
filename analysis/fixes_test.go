package analysis

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/oastui/oastui/edit"
	"github.com/oastui/oastui/lint"

	"github.com/oastui/oastui/compile"
	"github.com/oastui/oastui/slots"
)

func TestPlanFixesAndSources(t *testing.T) {
	_, dir := copyAgent(t, "example-agent")
	pkg := filepath.Join(dir, "package.json")
	b, err := os.ReadFile(pkg)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(pkg, []byte(strings.Replace(string(b), `  "license": "Apache-2.0",`+"\n", "", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	s := Run(dir, Options{})
	src := s.Sources()
	if string(src[pkg]) == "" || src[s.FlowFile()] == nil {
		t.Fatalf("sources: %d files", len(src))
	}
	batch := PlanFixes(s.Review.Findings, edit.Unsafe) // the license fix is unsafe: a license is not the linter's choice
	if held := HeldBack(s.Review.Findings, edit.Safe); !slices.Contains(held.Unsafe, FixID(licenseFinding(t, s.Review.Findings))) {
		t.Errorf("a safe batch does not hold the license fix back: %+v", held)
	}
	if len(batch.Chosen) == 0 {
		t.Fatal("no fix planned")
	}
	found := false
	for _, c := range batch.Chosen {
		found = found || strings.HasPrefix(c.ID, pkg+":") && strings.HasSuffix(c.ID, " agent_package_missing_license")
	}
	if !found {
		t.Errorf("no file:line:col code id for the license fix: %+v", batch.Chosen)
	}
	d, err := batch.Preview(src, func(p string) string { return p })
	if err != nil || !strings.Contains(d, `"license"`) {
		t.Errorf("diff %q, %v", d, err)
	}
	if (&Snapshot{}).Sources() != nil {
		t.Error("sources of a snapshot that loaded nothing")
	}
}

func TestPrepareSlot(t *testing.T) {
	agent := fixture("example-agent")
	snap, p, err := PrepareSlot(agent, Options{}, SlotQuery{Slot: "styleContext"})
	if err != nil || len(p.Candidates) == 0 {
		t.Fatalf("prepare: %v", err)
	}
	if r := ResolutionOf(p); r.SlotID != "styleContext" || len(r.Refs) != len(p.Candidates) {
		t.Errorf("resolution %+v", r)
	}
	if !strings.Contains(snap.SlotIDsHint(), "styleContext") {
		t.Errorf("hint %q", snap.SlotIDsHint())
	}
	_, _, err = PrepareSlot(agent, Options{}, SlotQuery{Slot: "nope"})
	var se *slots.SlotError
	if !errors.As(err, &se) || se.Code != "slot_missing" {
		t.Errorf("unknown slot: %v", err)
	}
	refused := errors.New("refused")
	var asked string
	_, _, err = PrepareSlot(agent, Options{}, SlotQuery{Slot: "styleContext", CheckCatalog: func(p string) error { asked = p; return refused }})
	if !errors.Is(err, refused) || filepath.Base(asked) != "catalog.json" {
		t.Errorf("catalog check: %v (asked about %q)", err, asked)
	}
	flow := filepath.Join(t.TempDir(), "oas.json")
	_, _, err = PrepareSlot(flow, Options{Load: compile.LoadOptions{Overlay: map[string][]byte{flow: []byte("{")}}}, SlotQuery{Slot: "x"})
	if !errors.Is(err, ErrFlowUnparsed) || !strings.Contains(err.Error(), "does not parse: ") {
		t.Errorf("unparsed flow: %v", err)
	}
	if _, _, err := PrepareSlot(filepath.Join(t.TempDir(), "missing"), Options{}, SlotQuery{Slot: "x"}); err == nil {
		t.Error("a missing agent prepared")
	}
}

func licenseFinding(t *testing.T, fs []lint.Finding) lint.Finding {
	t.Helper()
	for _, f := range fs {
		if f.Code == "agent_package_missing_license" {
			return f
		}
	}
	t.Fatal("no agent_package_missing_license finding")
	return lint.Finding{}
}

// TestPlanFixesTiers: of a finding's alternatives the first within the
// batch's tier is planned, one at most; a finding whose fixes are all
// above it is held back, counted by the lowest tier that would apply it;
// an undeclared tier counts as dangerous.
func TestPlanFixesTiers(t *testing.T) {
	e := func(start int) []edit.Edit { return []edit.Edit{{Path: "f", Start: start, End: start + 1, New: "x"}} }
	fs := []lint.Finding{
		{File: "f", Line: 1, Column: 1, Code: "a", Fixes: []edit.Fix{{Title: "u", Tier: edit.Unsafe, Edits: e(0)}, {Title: "s", Tier: edit.Safe, Edits: e(2)}}},
		{File: "f", Line: 2, Column: 1, Code: "b", Fixes: []edit.Fix{{Title: "u", Tier: edit.Unsafe, Edits: e(4)}}},
		{File: "f", Line: 3, Column: 1, Code: "c", Fixes: []edit.Fix{{Title: "d", Tier: edit.Dangerous, Edits: e(6)}}},
		{File: "f", Line: 4, Column: 1, Code: "d", Fixes: []edit.Fix{{Title: "none", Edits: e(8)}}},
		{File: "f", Line: 5, Column: 1, Code: "e"},
	}
	titles := func(b *edit.Batch) (out []string) {
		for _, c := range b.Chosen {
			out = append(out, c.Fix.Title)
		}
		return out
	}
	for _, tc := range []struct {
		max        edit.Tier
		want       []string
		unsafe, dg int
	}{
		{edit.Safe, []string{"s"}, 1, 2},
		{edit.Unsafe, []string{"u", "u"}, 0, 2},
		{edit.Dangerous, []string{"u", "u", "d", "none"}, 0, 0},
	} {
		if got := titles(PlanFixes(fs, tc.max)); !slices.Equal(got, tc.want) {
			t.Errorf("%s: planned %v, want %v", tc.max, got, tc.want)
		}
		h := HeldBack(fs, tc.max)
		if len(h.Unsafe) != tc.unsafe || len(h.Dangerous) != tc.dg || h.Count() != tc.unsafe+tc.dg {
			t.Errorf("%s: held back %+v, want %d unsafe and %d dangerous", tc.max, h, tc.unsafe, tc.dg)
		}
	}
}
