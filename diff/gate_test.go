package diff

import (
	"strings"
	"testing"
)

// TestValidateReasons (issue 35, point 3): lowering an approval-safety
// check needs a reason; other checks and raised levels do not.
func TestValidateReasons(t *testing.T) {
	for _, tc := range []struct {
		levels, reasons map[string]string
		bad             bool
	}{
		{map[string]string{"diff_risk_lowered": "off"}, nil, true},
		{map[string]string{"diff_approval_removed": "info"}, nil, true},
		{map[string]string{"diff_approval_removed": "warn"}, map[string]string{"diff_approval_removed": "x"}, false},
		{map[string]string{"diff_approval_added": "breaking"}, nil, false},
		{map[string]string{"diff_node_renamed": "off"}, nil, false},
	} {
		err := ValidateReasons(tc.levels, tc.reasons)
		if (err != nil) != tc.bad {
			t.Errorf("%v %v: %v", tc.levels, tc.reasons, err)
		}
		if err != nil && !strings.Contains(err.Error(), "reason:") {
			t.Errorf("the error shows no example: %v", err)
		}
	}
	n := SafetyNotices(map[string]string{"diff_risk_lowered": "off", "diff_node_renamed": "off"}, map[string]string{"diff_risk_lowered": "ok\x1b[31m"}, "/r/.oastui.yaml")
	if len(n) != 1 || !strings.Contains(n[0], "diff_risk_lowered") || strings.Contains(n[0], "\x1b") {
		t.Errorf("notices %q", n)
	}
}

// TestGateRelaxedNotLowered: no diff: setting lowers diff_gate_relaxed,
// and a level raised is no relaxation.
func TestGateRelaxedNotLowered(t *testing.T) {
	d := &differ{}
	d.gate(Options{BaseLevels: map[string]string{}, Levels: map[string]string{"diff_risk_lowered": "off", CheckGateRelaxed.ID: "off", "diff_node_renamed": "warn"}})
	d.levels(map[string]string{CheckGateRelaxed.ID: "off"})
	if len(d.out) != 1 || d.out[0].Check != CheckGateRelaxed.ID || d.out[0].Subject != "diff: diff_risk_lowered" || d.out[0].Level != Breaking {
		t.Errorf("changes %+v", d.out)
	}
}
