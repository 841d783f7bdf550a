package slots

import (
	"fmt"
	"math"
	"strings"

	"github.com/oastui/oastui/compile"
)

// Selection and resolution modes (reference §13.1).
const (
	Interactive = "interactive"
	Autonomous  = "autonomous"
	Override    = "override"
	Accumulate  = "accumulate"
)

// Slot is one declared context slot (metadata.cinatra.contextSlots[i]).
type Slot struct {
	SlotID         string   `json:"slotId"`
	Accepted       []string `json:"acceptedArtifactExtensions"`
	SelectionMode  string   `json:"selectionMode"`
	ResolutionMode string   `json:"resolutionMode"`
	MinItems       int      `json:"minItems"`           // 0 when absent
	MaxItems       int      `json:"maxItems,omitempty"` // 0 when absent: unbounded
	ReadableOnly   bool     `json:"readableOnly"`       // false when absent
	Pointer        string   `json:"-"`                  // JSON Pointer of the slot object in the flow file
}

// SlotsPointer is where an agent declares its slots.
const SlotsPointer = "/metadata/cinatra/contextSlots"

// Slots reads metadata.cinatra.contextSlots from a flow root the way the
// platform's reader does: absent or malformed → no slots, and one invalid
// slot makes the whole list empty. It never fails; problem says why the
// list was dropped ("" when it is absent or valid). Duplicate slotIds are
// kept: consumers reject them (FindSlot).
func Slots(root *compile.Node) (slots []Slot, problem string) {
	arr := root.Path("metadata", "cinatra", "contextSlots")
	if arr == nil {
		return nil, ""
	}
	if arr.Kind != compile.Array {
		return nil, fmt.Sprintf("%s is a %s, not an array", SlotsPointer, arr.Kind)
	}
	out := make([]Slot, 0, len(arr.Items))
	for i, it := range arr.Items {
		ptr := compile.AppendIndex(SlotsPointer, i)
		s, why := readSlot(it)
		if why != "" {
			return nil, ptr + ": " + why
		}
		s.Pointer = ptr
		out = append(out, s)
	}
	return out, ""
}

// readSlot applies the strict slot schema to one array element.
func readSlot(n *compile.Node) (Slot, string) {
	var s Slot
	if n.Kind != compile.Object {
		return s, "a slot must be an object"
	}
	seen := map[string]bool{}
	for _, m := range n.Members {
		if seen[m.Key] {
			continue
		}
		seen[m.Key] = true
		v := n.Get(m.Key) // with duplicate keys the last one wins, as in JSON.parse
		switch m.Key {
		case "slotId":
			str, ok := v.Str()
			if !ok || str == "" {
				return s, "slotId must be a non-empty string"
			}
			s.SlotID = str
		case "acceptedArtifactExtensions":
			if v.Kind != compile.Array || len(v.Items) == 0 {
				return s, "acceptedArtifactExtensions must be an array of at least one extension"
			}
			for _, e := range v.Items {
				str, ok := e.Str()
				if !ok || str == "" {
					return s, "acceptedArtifactExtensions must hold non-empty strings"
				}
				s.Accepted = append(s.Accepted, str)
			}
		case "selectionMode":
			str, _ := v.Str()
			if str != Interactive && str != Autonomous {
				return s, `selectionMode must be "interactive" or "autonomous"`
			}
			s.SelectionMode = str
		case "resolutionMode":
			str, _ := v.Str()
			if str != Override && str != Accumulate {
				return s, `resolutionMode must be "override" or "accumulate"`
			}
			s.ResolutionMode = str
		case "minItems":
			k, ok := intValue(v)
			if !ok || k < 0 {
				return s, "minItems must be an integer ≥ 0"
			}
			s.MinItems = k
		case "maxItems":
			k, ok := intValue(v)
			if !ok || k <= 0 {
				return s, "maxItems must be an integer > 0"
			}
			s.MaxItems = k
		case "readableOnly":
			if v.Kind != compile.Bool {
				return s, "readableOnly must be a boolean"
			}
			s.ReadableOnly = v.Bool
		default:
			return s, fmt.Sprintf("unknown key %q (the slot schema is strict)", m.Key)
		}
	}
	var missing []string
	if !seen["slotId"] {
		missing = append(missing, "slotId")
	}
	if !seen["acceptedArtifactExtensions"] {
		missing = append(missing, "acceptedArtifactExtensions")
	}
	if !seen["selectionMode"] {
		missing = append(missing, "selectionMode")
	}
	if !seen["resolutionMode"] {
		missing = append(missing, "resolutionMode")
	}
	if len(missing) > 0 {
		return s, "missing " + strings.Join(missing, ", ")
	}
	if s.MaxItems > 0 && s.MinItems > s.MaxItems {
		return s, fmt.Sprintf("minItems %d is greater than maxItems %d", s.MinItems, s.MaxItems)
	}
	return s, ""
}

// intValue reads a JSON number that is an integer (5 and 5.0 both are, as
// in JavaScript).
func intValue(n *compile.Node) (int, bool) {
	f, ok := n.Float()
	if !ok || f != math.Trunc(f) || math.Abs(f) > 1<<31 {
		return 0, false
	}
	return int(f), true
}

// FindSlot returns the slot with id, or the context_resolve primitive's
// error for a missing or duplicated slotId (reference §13.5).
func FindSlot(slots []Slot, id string) (Slot, error) {
	var found []Slot
	for _, s := range slots {
		if s.SlotID == id {
			found = append(found, s)
		}
	}
	switch len(found) {
	case 0:
		return Slot{}, &SlotError{Code: "slot_missing", Msg: fmt.Sprintf("[context_resolve] no contextSlot with slotId='%s' found on the parent agent OAS", id)}
	case 1:
		return found[0], nil
	}
	return Slot{}, &SlotError{Code: "slot_ambiguous", Msg: fmt.Sprintf("[context_resolve] duplicate slotId='%s' on the parent agent OAS — slot ids must be unique per agent (resolver rejects ambiguity)", id)}
}

// SlotError is a missing or ambiguous slot.
type SlotError struct {
	Code string // slot_missing | slot_ambiguous
	Msg  string
}

func (e *SlotError) Error() string { return e.Msg }

// Badges are the picker's header badges for a slot (reference §13.8):
// the mode, "up to N", "at least N", "readable-only".
func (s Slot) Badges() []string {
	b := []string{"Combine (accumulate)"}
	if s.ResolutionMode == Override {
		b[0] = "Pick one (override)"
	}
	if s.MaxItems > 0 {
		b = append(b, fmt.Sprintf("up to %d", s.MaxItems))
	}
	if s.MinItems > 0 {
		b = append(b, fmt.Sprintf("at least %d", s.MinItems))
	}
	if s.ReadableOnly {
		b = append(b, "readable-only")
	}
	return b
}
