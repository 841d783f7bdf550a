package analysis

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

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
	batch := PlanFixes(s.Review.Findings)
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
