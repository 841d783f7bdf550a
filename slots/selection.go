package slots

import (
	"encoding/json"
	"fmt"
)

// Selection is the state of a picker over a slot's candidates: which are
// selected, with the rules of the ContextSelector renderer (reference
// §13.8). It is a value: every change returns a new Selection.
type Selection struct {
	Slot       Slot
	Candidates []Ref
	picked     []bool // parallel to Candidates
}

// NewSelection starts a selection. For an autonomous slot the platform's
// default is preselected (reference §13.6: override → the first candidate,
// accumulate → the candidates up to maxItems); interactive starts empty.
// Duplicate candidates (same triple) are dropped.
func NewSelection(slot Slot, candidates []Ref) Selection {
	seen := map[string]bool{}
	cs := make([]Ref, 0, len(candidates))
	for _, c := range candidates {
		if k := c.TripleKey(); !seen[k] {
			seen[k] = true
			cs = append(cs, c)
		}
	}
	s := Selection{Slot: slot, Candidates: cs, picked: make([]bool, len(cs))}
	if slot.SelectionMode == Autonomous {
		for i := range cs {
			if slot.ResolutionMode == Override && i > 0 {
				break
			}
			if slot.MaxItems > 0 && i >= slot.MaxItems {
				break
			}
			s.picked[i] = true
		}
	}
	return s
}

// Override reports whether the slot picks one ref.
func (s Selection) Override() bool { return s.Slot.ResolutionMode == Override }

// Count is the number of selected refs.
func (s Selection) Count() int {
	n := 0
	for _, p := range s.picked {
		if p {
			n++
		}
	}
	return n
}

// IsSelected reports whether candidate i is selected.
func (s Selection) IsSelected(i int) bool { return i >= 0 && i < len(s.picked) && s.picked[i] }

// AtCap reports whether an accumulate selection has reached maxItems.
func (s Selection) AtCap() bool {
	return !s.Override() && s.Slot.MaxItems > 0 && s.Count() >= s.Slot.MaxItems
}

// Disabled reports whether candidate i cannot be checked now: an
// unchecked box of an accumulate selection at maxItems.
func (s Selection) Disabled(i int) bool { return s.AtCap() && !s.IsSelected(i) }

// CapError is a refused toggle at maxItems.
type CapError struct{ Max int }

func (e *CapError) Error() string {
	return fmt.Sprintf("limit %d reached — uncheck one first", e.Max)
}

// Toggle acts on candidate i: in accumulate mode it checks or unchecks it
// (a check at maxItems is refused with a *CapError); in override mode it
// selects it alone (selecting the selected one keeps it).
func (s Selection) Toggle(i int) (Selection, error) {
	if i < 0 || i >= len(s.picked) {
		return s, fmt.Errorf("no candidate %d", i)
	}
	next := s
	next.picked = make([]bool, len(s.picked))
	if s.Override() {
		next.picked[i] = true
		return next, nil
	}
	copy(next.picked, s.picked)
	if !s.picked[i] && s.AtCap() {
		return s, &CapError{Max: s.Slot.MaxItems}
	}
	next.picked[i] = !s.picked[i]
	return next, nil
}

// Clear unselects everything.
func (s Selection) Clear() Selection {
	next := s
	next.picked = make([]bool, len(s.picked))
	return next
}

// Selected returns the selected refs in candidate order.
func (s Selection) Selected() []Ref {
	out := []Ref{}
	for i, p := range s.picked {
		if p {
			out = append(out, s.Candidates[i])
		}
	}
	return out
}

// ConfirmError says why a selection cannot be confirmed.
type ConfirmError struct {
	Code string // below_min_items | above_max_items | override_multi_select
	Msg  string
}

func (e *ConfirmError) Error() string { return e.Msg }

// CanConfirm returns nil when the selection may be confirmed, else why not.
func (s Selection) CanConfirm() error {
	return checkCount(s.Slot, s.Count())
}

func checkCount(slot Slot, n int) error {
	if n < slot.MinItems {
		return &ConfirmError{"below_min_items", fmt.Sprintf("need at least %d (%d selected)", slot.MinItems, n)}
	}
	if slot.MaxItems > 0 && n > slot.MaxItems {
		return &ConfirmError{"above_max_items", fmt.Sprintf("at most %d may be selected (%d selected)", slot.MaxItems, n)}
	}
	if slot.ResolutionMode == Override && n > 1 {
		return &ConfirmError{"override_multi_select", fmt.Sprintf("pick one: override takes a single ref (%d selected)", n)}
	}
	return nil
}

// Envelope is the userResponse envelope (reference §13.7).
type Envelope struct {
	SlotID         string `json:"slotId"`
	ResolutionMode string `json:"resolutionMode"`
	SelectedRefs   []Ref  `json:"selectedRefs"`
}

// Envelope builds the userResponse envelope of the selection; the
// resolution mode defaults to accumulate as the renderer does.
func (s Selection) Envelope() Envelope {
	mode := s.Slot.ResolutionMode
	if mode != Override {
		mode = Accumulate
	}
	return Envelope{SlotID: s.Slot.SlotID, ResolutionMode: mode, SelectedRefs: s.Selected()}
}

// JSON is the envelope as the userResponse string (compact, keys in the
// reference's order).
func (e Envelope) JSON() []byte {
	if e.SelectedRefs == nil {
		e.SelectedRefs = []Ref{}
	}
	b, _ := json.Marshal(e) // plain strings and slices: cannot fail
	return b
}

// FinalizeError is a userResponse the finalize step refuses (reference §13.6/§13.7).
type FinalizeError struct {
	Code string // bad_envelope | slot_mismatch | resolution_mode_mismatch | ref_not_in_candidates | below_min_items | above_max_items | override_multi_select
	Msg  string
}

func (e *FinalizeError) Error() string { return e.Code + ": " + e.Msg }

// Finalize revalidates a userResponse string against the slot and the
// re-resolved candidates the way the finalize route does: the envelope
// needs a slotId equal to the slot's and the slot's resolution mode (any
// mode but "override" counts as "accumulate"); refs are read by their
// triple only, deduplicated, and must each be a candidate; the count must
// respect minItems, maxItems and one-for-override. It returns the trusted
// candidates, in the envelope's order.
func Finalize(userResponse []byte, slot Slot, candidates []Ref) ([]Ref, error) {
	var raw struct {
		SlotID         any               `json:"slotId"`
		ResolutionMode any               `json:"resolutionMode"`
		SelectedRefs   []json.RawMessage `json:"selectedRefs"`
	}
	if err := json.Unmarshal(userResponse, &raw); err != nil {
		return nil, &FinalizeError{"bad_envelope", "userResponse is not a JSON envelope: " + err.Error()}
	}
	id, ok := raw.SlotID.(string)
	if !ok || id == "" {
		return nil, &FinalizeError{"bad_envelope", "userResponse has no slotId"}
	}
	if id != slot.SlotID {
		return nil, &FinalizeError{"slot_mismatch", fmt.Sprintf("envelope slotId %q is not %q", id, slot.SlotID)}
	}
	mode := Accumulate
	if m, _ := raw.ResolutionMode.(string); m == Override {
		mode = Override
	}
	want := slot.ResolutionMode
	if want != Override {
		want = Accumulate
	}
	if mode != want {
		return nil, &FinalizeError{"resolution_mode_mismatch", fmt.Sprintf("envelope resolutionMode %q is not the slot's %q", mode, want)}
	}
	byKey := make(map[string]Ref, len(candidates))
	for _, c := range candidates {
		byKey[c.TripleKey()] = c
	}
	seen := map[string]bool{}
	out := []Ref{}
	for _, rm := range raw.SelectedRefs {
		var r map[string]any
		_ = json.Unmarshal(rm, &r) // not an object → all fields ""
		k := stringify(r["artifactId"]) + "|" + stringify(r["representationRevisionId"]) + "|" + stringify(r["semanticAssertionId"])
		if seen[k] {
			continue
		}
		seen[k] = true
		c, ok := byKey[k]
		if !ok {
			return nil, &FinalizeError{"ref_not_in_candidates", fmt.Sprintf("ref %s is not among the slot's candidates", k)}
		}
		out = append(out, c)
	}
	if err := checkCount(slot, len(out)); err != nil {
		ce := err.(*ConfirmError)
		return nil, &FinalizeError{ce.Code, ce.Msg}
	}
	return out, nil
}

// stringify is String(x ?? "") for the values JSON can hold.
func stringify(v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		if x {
			return "true"
		}
		return "false"
	case float64:
		b, _ := json.Marshal(x)
		return string(b)
	}
	return fmt.Sprint(v)
}
