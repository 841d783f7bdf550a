package slots

import (
	"errors"
	"reflect"
	"strings"
	"testing"
)

func cands(n int) []Ref {
	out := make([]Ref, n)
	for i := range out {
		id := string(rune('a' + i))
		out[i] = Ref{ArtifactID: id, RepresentationRevisionID: "r" + id, SemanticAssertionID: "s" + id, Extension: "@v/x", SourceScope: ScopeUser, OwnerID: "u1"}
	}
	return out
}

func TestSelectionAccumulateCap(t *testing.T) {
	slot := Slot{SlotID: "ctx", SelectionMode: Interactive, ResolutionMode: Accumulate, MinItems: 1, MaxItems: 2}
	s := NewSelection(slot, cands(4))
	if err := s.CanConfirm(); err == nil || err.(*ConfirmError).Code != "below_min_items" || !strings.Contains(err.Error(), "need at least 1") {
		t.Fatalf("confirm with none: %v", err)
	}
	var err error
	if s, err = s.Toggle(0); err != nil {
		t.Fatal(err)
	}
	if err := s.CanConfirm(); err != nil {
		t.Fatalf("confirm with one: %v", err)
	}
	if s, err = s.Toggle(2); err != nil {
		t.Fatal(err)
	}
	if !s.AtCap() || !s.Disabled(1) || !s.Disabled(3) || s.Disabled(0) || s.Disabled(2) {
		t.Fatalf("at cap: disabled flags wrong")
	}
	before := s
	s2, err := s.Toggle(1)
	var ce *CapError
	if !errors.As(err, &ce) || ce.Max != 2 || err.Error() != "limit 2 reached — uncheck one first" {
		t.Fatalf("toggle at cap: %v", err)
	}
	if !reflect.DeepEqual(s2.Selected(), before.Selected()) {
		t.Fatal("refused toggle changed the selection")
	}
	if s, err = s.Toggle(0); err != nil || s.Count() != 1 || s.AtCap() {
		t.Fatalf("uncheck at cap: %v count=%d", err, s.Count())
	}
	env := s.Envelope()
	if env.SlotID != "ctx" || env.ResolutionMode != Accumulate || len(env.SelectedRefs) != 1 || env.SelectedRefs[0].ArtifactID != "c" {
		t.Fatalf("envelope %+v", env)
	}
	if got := s.Clear().Count(); got != 0 {
		t.Fatalf("clear: %d", got)
	}
}

func TestSelectionValueSemantics(t *testing.T) {
	s := NewSelection(Slot{ResolutionMode: Accumulate}, cands(2))
	t1, _ := s.Toggle(0)
	if s.Count() != 0 || t1.Count() != 1 {
		t.Fatal("Toggle mutated its receiver")
	}
}

func TestSelectionOverride(t *testing.T) {
	s := NewSelection(Slot{SlotID: "x", SelectionMode: Interactive, ResolutionMode: Override}, cands(3))
	s, _ = s.Toggle(1)
	s, _ = s.Toggle(2)
	if got := s.Selected(); len(got) != 1 || got[0].ArtifactID != "c" {
		t.Fatalf("override keeps one: %+v", got)
	}
	s, _ = s.Toggle(2) // selecting the selected one keeps it
	if s.Count() != 1 {
		t.Fatal("reselecting cleared the override selection")
	}
	if s.Disabled(0) {
		t.Fatal("override never disables rows")
	}
}

func TestSelectionAutonomousDefaults(t *testing.T) {
	ov := NewSelection(Slot{SelectionMode: Autonomous, ResolutionMode: Override}, cands(3))
	if got := ov.Selected(); len(got) != 1 || got[0].ArtifactID != "a" {
		t.Errorf("autonomous override: %+v", got)
	}
	acc := NewSelection(Slot{SelectionMode: Autonomous, ResolutionMode: Accumulate, MaxItems: 2}, cands(3))
	if acc.Count() != 2 {
		t.Errorf("autonomous accumulate: %d", acc.Count())
	}
	in := NewSelection(Slot{SelectionMode: Interactive, ResolutionMode: Accumulate}, cands(3))
	if in.Count() != 0 {
		t.Errorf("interactive starts empty: %d", in.Count())
	}
}

func TestEnvelopeJSON(t *testing.T) {
	s := NewSelection(Slot{SlotID: "ctx", ResolutionMode: ""}, cands(1))
	got := string(s.Envelope().JSON())
	if want := `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[]}`; got != want {
		t.Errorf("got %s", got)
	}
	s, _ = s.Toggle(0)
	got = string(s.Envelope().JSON())
	want := `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[{"artifactId":"a","representationRevisionId":"ra","semanticAssertionId":"sa","extension":"@v/x","sourceScope":"user","ownerId":"u1"}]}`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestFinalize(t *testing.T) {
	cs := cands(3)
	acc := Slot{SlotID: "ctx", ResolutionMode: Accumulate, MinItems: 1, MaxItems: 2}
	ov := Slot{SlotID: "ctx", ResolutionMode: Override}
	tests := []struct {
		name string
		slot Slot
		in   string
		code string
		n    int
	}{
		{"ok", acc, `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[{"artifactId":"a","representationRevisionId":"ra","semanticAssertionId":"sa"}]}`, "", 1},
		{"dedupe by triple", acc, `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[{"artifactId":"a","representationRevisionId":"ra","semanticAssertionId":"sa"},{"artifactId":"a","representationRevisionId":"ra","semanticAssertionId":"sa","extension":"forged"}]}`, "", 1},
		{"unknown mode counts as accumulate", acc, `{"slotId":"ctx","resolutionMode":"weird","selectedRefs":[{"artifactId":"a","representationRevisionId":"ra","semanticAssertionId":"sa"}]}`, "", 1},
		{"not JSON", acc, `nope`, "bad_envelope", 0},
		{"no slotId", acc, `{"resolutionMode":"accumulate","selectedRefs":[]}`, "bad_envelope", 0},
		{"other slot", acc, `{"slotId":"zz","resolutionMode":"accumulate","selectedRefs":[]}`, "slot_mismatch", 0},
		{"mode mismatch", ov, `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[]}`, "resolution_mode_mismatch", 0},
		{"forged ref", acc, `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[{"artifactId":"a","representationRevisionId":"OLD","semanticAssertionId":"sa"}]}`, "ref_not_in_candidates", 0},
		{"below min", acc, `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[]}`, "below_min_items", 0},
		{"above max", acc, `{"slotId":"ctx","resolutionMode":"accumulate","selectedRefs":[{"artifactId":"a","representationRevisionId":"ra","semanticAssertionId":"sa"},{"artifactId":"b","representationRevisionId":"rb","semanticAssertionId":"sb"},{"artifactId":"c","representationRevisionId":"rc","semanticAssertionId":"sc"}]}`, "above_max_items", 0},
		{"override multi", ov, `{"slotId":"ctx","resolutionMode":"override","selectedRefs":[{"artifactId":"a","representationRevisionId":"ra","semanticAssertionId":"sa"},{"artifactId":"b","representationRevisionId":"rb","semanticAssertionId":"sb"}]}`, "override_multi_select", 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := Finalize([]byte(tc.in), tc.slot, cs)
			var fe *FinalizeError
			switch {
			case tc.code == "" && err != nil:
				t.Fatalf("unexpected %v", err)
			case tc.code != "" && (!errors.As(err, &fe) || fe.Code != tc.code):
				t.Fatalf("got %v, want code %s", err, tc.code)
			case tc.code == "" && len(got) != tc.n:
				t.Fatalf("got %d refs", len(got))
			}
			if tc.code == "" && got[0].Extension != "@v/x" {
				t.Errorf("finalize must return the trusted candidate, got %+v", got[0])
			}
		})
	}
}
